// `context-lens simulate <file>`: replays the session request by request under several policies and prints,
// per request and in total, prompt / cached / written tokens and cost, beside the usage the file recorded.
import { type AnalysisResult, analyzeSync } from '../core/analysis';
import type { Analysis, VsNone } from '../core/analysisTypes';
import { maxOf, pushAll } from '../core/arrays';
import { AUTO_MODEL } from '../core/engine/models';
import type { Baseline } from '../core/engine/policies/replay';
import {
  COMPARED_POLICIES,
  type PolicyName,
  policiesOfferedFor,
  simulatedFromDocs,
} from '../core/engine/policy';
import { sanityFlags } from '../core/sanity';
import { rankVerdict, verdictSession } from '../core/verdict';
import { compareWithNone, nonePolicy, oncePolicy, ranOnce } from '../core/vsNone';
import { verdictLines } from '../verdictWords';
import { baselineWords, costWords, paybackWords, tokenWords } from '../vsNoneWords';
import type { CommandSpec } from './options';
import {
  buildPolicy,
  POLICY_HELP,
  parseReplayArgs,
  readNamedThread,
  replayOptions,
  withUsageErrors,
} from './policyArgs';
import { print, terminalText } from './terminal';
import { countingLine } from './tokenCache';

const SPEC: CommandSpec = {
  usage: 'context-lens simulate <file> [options]',
  options: replayOptions({
    policy: { default: `those of ${COMPARED_POLICIES.join(', ')} the session's provider and agent can use` },
    set: 'change one constant for every policy',
    setDefault: 'replay.trigger auto: every request of a session, one pass for a request body',
    json: 'print the per-policy Analyses as JSON instead of tables',
  }),
  notes: [POLICY_HELP],
};

const DEFAULT_POLICIES: readonly PolicyName[] = COMPARED_POLICIES;

function pad(s: string | number, n: number): string {
  const t = String(s);
  return t.length >= n ? t : ' '.repeat(n - t.length) + t;
}
const money = (x: number) => `$${x.toFixed(4)}`;
const pct = (x: number | null) => (x === null ? '—' : `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`);

type PerRequest = { index: number; cachedError: number | null; writtenError: number | null };

/** Every request's error when there are few; otherwise the median and the worst, which a reader can act on. */
function perRequestLine(rows: PerRequest[]): string {
  const show = (p: PerRequest) => `${p.index + 1}: ${pct(p.cachedError)} / ${pct(p.writtenError)}`;
  if (rows.length <= 30) return `  per request (cached / written): ${rows.map(show).join(', ')}`;
  const size = (p: PerRequest) => Math.max(Math.abs(p.cachedError ?? 0), Math.abs(p.writtenError ?? 0));
  const sorted = [...rows].sort((a, b) => size(a) - size(b));
  const worst = sorted.slice(-5).reverse();
  return (
    `  per request (cached / written): median |error| ${pct(size(sorted[Math.floor(sorted.length / 2)]))}; ` +
    `worst ${worst.map(show).join(', ')} (--json for all)`
  );
}

/** One policy against none, in words: the totals, then one pass now and when it pays back. */
export function vsNoneLines(name: string, v: VsNone, width = 17): string[] {
  const lines = [`  ${name.padEnd(width)} ${costWords(v)}; ${tokenWords(v)}`];
  if (v.compactedNow) lines.push(`    ${paybackWords(v.compactedNow)}`);
  return lines;
}

/** The compactions each compaction policy simulated, beside those the log records (SPEC-style notes in
 * engine/compaction.ts): where, what the agent counted, the summary, and what the summarization request cost. */
export function compactionLines(results: [PolicyName, AnalysisResult][]): string[] {
  const out: string[] = [];
  for (const [name, r] of results) {
    const c = r.analysis.compactions;
    if (!c) continue;
    const at = (k: number) => r.analysis.requests[k]?.compaction;
    out.push(
      '',
      `${name}: ${c.simulated.length} compactions simulated (${simulatedFromDocs(name) ? 'from documented behaviour' : "from the agent's source"}), ${c.recorded.length} in the log`,
    );
    for (const k of c.simulated) {
      const s = at(k)!;
      out.push(
        `  simulated before request ${k + 1}: context ${s.contextTokens} tokens; summary ${s.outputTokens} tokens ` +
          `(${s.fromLog ? "the log's own" : 'placeholder'}); ${s.requests ? `${s.requests} summarization requests` : 'summarization request'} ${s.promptTokens} prompt ` +
          `(${s.cachedTokens} cached, ${s.writtenTokens} written) ${money(s.cost)}; then sends from message ${s.keptFrom}`,
      );
    }
    for (const rec of c.recorded)
      out.push(
        `  in the log before request ${rec.request + 1} (message ${rec.beforeMessage})` +
          `${rec.preTokens !== undefined ? `: ${rec.preTokens} tokens before it` : ''}` +
          `${c.simulated.includes(rec.request) ? '' : `; nearest simulated: ${nearest(c.simulated, rec.request)}`}`,
      );
    if (c.recorded.length > 0)
      out.push(
        `  "as logged" follows the log's compactions and pays their summarization requests: read from the agent's files where it keeps them, else estimated as these are`,
      );
  }
  return out;
}

/** The baseline's own figures: its cost, and its summarization requests (read from the agent's files, or estimated). */
function baselineLine(baseline: Baseline, none: Analysis): string {
  const s = none.requests.filter((r) => !r.pending && r.compaction).map((r) => r.compaction!);
  // A request after several of the log's compactions carries their summarization requests added up.
  const count = s.reduce((a, c) => a + (c.requests ?? 1), 0);
  const read = s.reduce((a, c) => a + (c.estimated ? 0 : (c.requests ?? 1)), 0);
  const what =
    baseline === 'none'
      ? `no compaction as far as the window allows${s.length ? `; ${plural(s.length, 'compaction')} where it did not` : ''}`
      : "the log's own compactions";
  const paid = s.length
    ? `; ${plural(count, 'summarization request')}, ${money(s.reduce((a, c) => a + c.cost, 0))}: ${read} read from the agent's files, ${count - read} estimated`
    : '';
  return `${what}, ${money(none.totals.cost)}${paid}`;
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

function nearest(list: number[], k: number): string {
  if (list.length === 0) return 'none';
  const n = list.reduce((a, b) => (Math.abs(b - k) < Math.abs(a - k) ? b : a));
  return `request ${n + 1} (${n >= k ? '+' : ''}${n - k})`;
}

/** The model setting in words: a preset by name; under `auto`, the models that answered (each request priced and
 * cached at its own) and the session's window. */
export function modelWords(setting: string, a: Analysis): string {
  if (setting !== AUTO_MODEL) return terminalText(`model ${setting}`);
  const answered = [...new Set(a.requests.filter((r) => !r.pending && r.model).map((r) => r.model))];
  const window = a.contextWindow ? `, window ${a.contextWindow.toLocaleString('en-US')}` : '';
  return terminalText(
    `model auto (${answered.length ? `answered by ${answered.join(', ')}` : `as ${a.model}`}${window})`,
  );
}

export async function runSimulate(args: string[]): Promise<number> {
  return withUsageErrors('simulate', async () => {
    const parsed = parseReplayArgs(args, SPEC);
    if (parsed === undefined) return 0;
    const { file, names, model, sets, json, thread, tokenCache } = parsed;
    const cache = tokenCache.open();
    try {
      return simulateFile(file, thread, names, model, sets, json, tokenCache.folder());
    } finally {
      await cache?.save();
    }
  });
}

/** What `simulate` replays: the session's thread under each policy (by default those its provider and agent can
 * use), each beside none (SPEC §5); `--json` prints the analyses as they are. */
export function simulatedPolicies(
  file: string,
  thread: string,
  names: readonly PolicyName[],
  model: string | undefined,
  sets: string[],
) {
  const { transcript, name: threadName } = readNamedThread(file, thread);
  const chosen =
    names.length > 0 ? names : policiesOfferedFor(transcript, model ?? AUTO_MODEL, DEFAULT_POLICIES);
  const policies = chosen.map((name) => buildPolicy(transcript, name, model, sets));
  const results: [PolicyName, AnalysisResult][] = policies.map((p) => [p.name, analyzeSync(transcript, p)]);
  // SPEC §5: every policy beside none over the same requests, and one pass now against none.
  const none = analyzeSync(transcript, nonePolicy(policies[0])).analysis;
  results.forEach(([name, r], i) => {
    if (name === 'none') return;
    const now = ranOnce(r.analysis) ? r.analysis : analyzeSync(transcript, oncePolicy(policies[i])).analysis;
    r.analysis.vsNone = compareWithNone(r.analysis, none, policies[0].replay.baseline, now);
  });
  return { transcript, threadName, policies, results, none };
}

function simulateFile(
  file: string,
  thread: string,
  names: PolicyName[],
  model: string | undefined,
  sets: string[],
  json: boolean,
  cacheDir: string | null,
): number {
  const { transcript, threadName, policies, results, none } = simulatedPolicies(
    file,
    thread,
    names,
    model,
    sets,
  );
  if (json) {
    print(`${JSON.stringify(Object.fromEntries(results.map(([n, r]) => [n, r.analysis])), null, 2)}\n`);
    return 0;
  }
  const first = results[0][1].analysis;
  const out: string[] = [];
  // The verdict first: the strategies of the session's provider among those run, ranked against the baseline.
  const defaults = buildPolicy(transcript, undefined, model, sets);
  const { provider, session } = verdictSession(transcript, defaults, none.contextWindow);
  const verdict = rankVerdict({
    provider,
    baseline: {
      name: 'none',
      words: baselineWords(defaults.replay.baseline),
      cost: none.totals.cost,
      requests: none.requests.filter((r) => !r.pending).length,
    },
    totals: results.map(([policyName, r]) => ({ policyName, cost: r.analysis.totals.cost })),
    policy: defaults,
    session,
  });
  pushAll(out, verdictLines(verdict, 'Default'));
  out.push('');
  const trigger = policies[0].replay.trigger;
  out.push(
    `${terminalText(file)}: ${transcript.format}, ${first.totals.messages} messages, ${first.requests.filter((r) => !r.pending).length} requests; ` +
      `${threadName}; ` +
      `${modelWords(policies[0].model, first)} (${first.tokenizer}${first.tokenEstimate ? ', estimate for a Claude model' : ''}); trigger ${trigger === 'auto' ? `auto (${first.trigger})` : trigger}`,
  );
  const h = first.hiddenPrefix;
  if (h)
    out.push(
      `hidden prefix (not in the file: system prompt, tools): ${h.hiddenTokens} tokens; calibration ×${h.calibration.toFixed(3)}; ${h.source}` +
        `${h.warmAtStart ? '; taken as cached at the first request' : ''}`,
    );
  const hasRecorded = first.requests.some((r) => r.recorded);
  const head = ['req', 'msgs', ...results.map(([n]) => `${n}: prompt/cached/written`)];
  if (hasRecorded) head.push('recorded: read/created+input');
  out.push('', head.join(' | '));
  first.requests.forEach((req, k) => {
    const cells = [pad(req.pending ? `${k + 1}*` : k + 1, 4), pad(req.messageCount, 5)];
    for (const [, r] of results) {
      const q = r.analysis.requests[k];
      cells.push(
        `${pad(q.promptTokens, 8)}/${pad(q.cachedTokens, 8)}/${pad(q.writtenTokens, 7)} ${money(q.cost)}`,
      );
    }
    if (hasRecorded && req.recorded)
      cells.push(
        `${req.recorded.cacheReadInputTokens}/${req.recorded.cacheCreationInputTokens + req.recorded.inputTokens}`,
      );
    out.push(cells.join(' | '));
  });
  out.push('', '* the next request (not sent yet): what a pass now would send');
  const providers = results.filter(([n]) => simulatedFromDocs(n));
  if (providers.length > 0)
    out.push(
      `  ${providers.map(([n]) => n).join(', ')}: simulated from the providers' documented behaviour (README: "The providers' strategies")`,
    );
  out.push('', 'totals over the sent requests:');
  const width = maxOf(
    results.map(([n]) => n.length),
    17,
  );
  for (const [name, r] of results) {
    const t = r.analysis.totals;
    out.push(
      `  ${name.padEnd(width)} prompt ${pad(t.promptTokens, 10)}  cached ${pad(t.cachedTokens, 10)}  written ${pad(t.writtenTokens, 9)}  cost ${money(t.cost)}  events ${r.analysis.events.length}`,
    );
  }
  pushAll(out, compactionLines(results));
  const compared = results.filter(([, r]) => r.analysis.vsNone);
  const against = policies[0].replay.baseline;
  if (compared.length > 0) {
    out.push(
      '',
      `against ${baselineWords(against)} (${baselineLine(against, none)}) over the same ${none.requests.filter((r) => !r.pending).length} requests:`,
    );
    for (const [name, r] of compared) pushAll(out, vsNoneLines(name, r.analysis.vsNone!, width));
  }
  // Flags come from the "as logged" run: the one the recorded usage is the ground truth of (what was sent and
  // billed), whichever baseline the comparison is against.
  const logged =
    against === 'as-logged'
      ? none
      : analyzeSync(
          transcript,
          nonePolicy({ ...policies[0], replay: { ...policies[0].replay, baseline: 'as-logged' } }),
        ).analysis;
  logged.flags = sanityFlags(logged);
  if (logged.flags.length > 0) {
    out.push('', 'figures to check:');
    pushAll(
      out,
      logged.flags.map((f) => `  ! ${f.message}`),
    );
  }
  const baseline = logged.recorded;
  if (baseline) {
    out.push(
      '',
      `recorded vs the "as logged" simulation over ${baseline.requests} requests, of the ${baseline.fileReplies} replies the file records (the rest: sub-agents and off-branch turns, not replayed here); the session cost $${baseline.sessionCost.toFixed(4)} at list prices${baseline.sessionCostEstimate ? ` ($${baseline.sessionCostEstimate.cost.toFixed(4)} of it an estimate: not in the price table, priced ${terminalText(baseline.sessionCostEstimate.models)})` : ''}:`,
      `  cache read:     recorded ${baseline.recordedCacheRead}, simulated ${baseline.simulatedCached} (${pct(baseline.cachedError)})`,
      `  written+input:  recorded ${baseline.recordedWritten}, simulated ${baseline.simulatedWritten} (${pct(baseline.writtenError)})`,
      perRequestLine(baseline.perRequest),
    );
  }
  out.push('', countingLine(cacheDir));
  print(`${out.join('\n')}\n`);
  return 0;
}
