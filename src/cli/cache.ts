// `context-lens cache <file>`: every cache break the log records, with its cause, evidence, tokens and cost, and
// the totals by cause; with --policy, also the breaks that policy's replay makes (core/cacheBreaks).

import { analyzeSync } from '../core/analysis';
import type { Analysis } from '../core/analysisTypes';
import { maxOf, pushAll } from '../core/arrays';
import {
  type Avoided,
  type CacheBreakReport,
  comparedLifetimes,
  loggedBreaks,
  simulatedBreaks,
  switchCosts,
  ttlAvoided,
  withLifetime,
} from '../core/cacheBreaks';
import { type Policy, type PolicyName, sessionKindOf } from '../core/engine/policy';
import type { Transcript } from '../core/model';
import { MAIN_THREAD } from '../core/threads';
import { count, money } from '../vsNoneWords';
import { type CommandSpec, parseCommand } from './options';
import {
  buildPolicy,
  JSON_OUTPUT,
  oneFile,
  POLICY,
  POLICY_HELP,
  readNamedThread,
  THREAD,
  withUsageErrors,
} from './policyArgs';
import { print, terminalText } from './terminal';
import { TOKEN_CACHE_OPTIONS, TokenCacheOption } from './tokenCache';

const ONE_POLICY = {
  ...POLICY,
  multiple: false,
  description: "also list the breaks this policy's replay makes, with the rule behind each",
};
const CACHE_JSON = { ...JSON_OUTPUT, description: 'print the breaks and totals as JSON' };

const SPEC: CommandSpec = {
  usage: 'context-lens cache <file> [options]',
  about:
    'Lists every request that read less from the prompt cache than the previous request of the conversation ' +
    'left there (beyond the provider’s granularity), with its cause and evidence, the tokens written or sent ' +
    'again, and what that cost against reading them, then the totals by cause.',
  options: [ONE_POLICY, THREAD, CACHE_JSON, ...TOKEN_CACHE_OPTIONS],
  notes: [
    'causes: first, ttl-expired, model-switch, compaction, rewind, prefix-changed, rewrite, server-edit, ' +
      'provider-miss (nothing in the transcript explains it)',
    POLICY_HELP,
  ],
};

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** "2026-07-29 02:05:39" from an ISO time; the time as it is when it has another shape. */
function timeWords(iso: string | undefined): string {
  if (!iso) return '—';
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)/.exec(iso);
  return m ? `${m[1]} ${m[2]}` : terminalText(iso);
}

/** One report as lines: the breaks, the totals by cause, the share nothing explains. */
export function breakLines(title: string, r: CacheBreakReport): string[] {
  const out = [`${title}: ${r.breaks.length} cache breaks over ${r.requests} requests, ${money(r.cost)}`];
  if (r.breaks.length === 0) return out;
  const rows = r.breaks.map((b) => [
    String(b.request),
    timeWords(b.time),
    b.cause,
    count(b.tokens),
    money(b.cost),
    terminalText(b.words),
  ]);
  const head = ['req', 'time', 'cause', 'tokens', 'cost', 'evidence'];
  const widths = head.map((h, i) =>
    maxOf(
      rows.map((row) => row[i].length),
      h.length,
    ),
  );
  const right = new Set([0, 3, 4]);
  const line = (cells: string[]) =>
    `  ${cells
      .map((c, i) =>
        i === cells.length - 1 ? c : right.has(i) ? c.padStart(widths[i]) : c.padEnd(widths[i]),
      )
      .join('  ')}`;
  out.push(line(head));
  for (const row of rows) out.push(line(row));
  out.push('', 'totals by cause:');
  for (const t of r.totals)
    if (t.breaks > 0)
      out.push(
        `  ${t.cause.padEnd(15)}${String(t.breaks).padStart(5)} break${t.breaks === 1 ? ' ' : 's'}` +
          `${count(t.tokens).padStart(14)} tokens  ${money(t.cost)}`,
      );
  const miss = r.totals.find((t) => t.cause === 'provider-miss');
  out.push(
    '',
    `provider-miss: ${miss?.breaks ?? 0} of ${r.breaks.length} breaks, ` +
      `${pct(r.providerMissShare.breaks)} of them, ${pct(r.providerMissShare.cost)} of their cost`,
  );
  return out;
}

/** What would have avoided the log's breaks: for those a pause caused, the session replayed under its provider's
 * shorter and longer cache lifetime (`none`: no rewrite; `noneRun`: its replay as logged), for model switches the
 * cold start each cost. */
export function avoidedOf(
  transcript: Transcript,
  none: Policy,
  noneRun: Pick<Analysis, 'requests'>,
  log: CacheBreakReport,
): Avoided {
  const avoided: Avoided = { switches: switchCosts(log) };
  const lifetimes = comparedLifetimes(
    transcript,
    sessionKindOf(transcript, none.model).provider,
    noneRun,
    log,
  );
  if (lifetimes) {
    const [shorter, longer] = [lifetimes.shorter, lifetimes.longer].map(
      (lifetime) => analyzeSync(transcript, withLifetime(none, lifetime)).analysis,
    );
    avoided.ttl = ttlAvoided(lifetimes, shorter, longer);
  }
  return avoided;
}

function avoidedLines(a: Avoided): string[] {
  if (!a.ttl && a.switches.length === 0) return [];
  const out = ['', 'what would have avoided them:'];
  if (a.ttl) out.push(`  ${a.ttl.breaks}: ${a.ttl.words}`);
  for (const s of a.switches) out.push(`  model switch at ${terminalText(s.words)}`);
  return out;
}

export async function runCache(args: string[]): Promise<number> {
  return withUsageErrors('cache', async () => {
    const parsed = parseCommand(SPEC, args);
    if (!parsed) return 0;
    const file = oneFile(parsed);
    const thread = parsed.get(THREAD) ?? MAIN_THREAD;
    const name = parsed.get(ONE_POLICY) as PolicyName | undefined;
    const tokenCache = TokenCacheOption.from(parsed);
    const cache = tokenCache.open();
    try {
      const { transcript, name: threadName } = readNamedThread(file, thread);
      const none = buildPolicy(transcript, 'none', undefined, []);
      const noneRun = analyzeSync(transcript, none).analysis;
      const log = loggedBreaks(transcript, noneRun, thread);
      const avoided = avoidedOf(transcript, none, noneRun, log);
      let replayed: CacheBreakReport | undefined;
      if (name) {
        const policy = buildPolicy(transcript, name, undefined, []);
        replayed = simulatedBreaks(transcript, analyzeSync(transcript, policy).analysis, policy, thread, log);
      }
      if (parsed.has(CACHE_JSON)) {
        print(
          `${JSON.stringify({ file, thread, log, avoided, ...(replayed ? { policy: replayed } : {}) }, null, 2)}\n`,
        );
        return 0;
      }
      const out = breakLines(`${terminalText(file)} (${threadName}), as the log records them`, log);
      pushAll(out, avoidedLines(avoided));
      if (replayed) pushAll(out, ['', ...breakLines(`under ${name}, as its replay makes them`, replayed)]);
      print(`${out.join('\n')}\n`);
      return 0;
    } finally {
      await cache?.save();
    }
  });
}
