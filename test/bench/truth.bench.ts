// Truth on real sessions: for every file in ../shared/fixtures/real*/ (and in the folders TRUTH_DIRS names,
// separated by ':', so sessions of one's own are checked the same way), the "none" policy's replay with the CLI's
// defaults (the policy `simulate` builds when given no option: what users run), which is the "as logged" baseline
// (the log's own requests and compactions: what was sent and billed), against what the log recorded, each
// criterion passed or failed: one simulated request per recorded one; cached and written totals within 5%; the
// per-request prompt median within 5% (10% for Claude Code 1.x, whose logs hold less of what was sent); the file's
// cost equal to ccusage's within 1%. The summarization requests of the log's compactions are in no request's figures
// here (nor in ccusage's count of the one file): a last column shows what "as logged" pays for them, read from the
// agent's files beside the session or estimated. The reference counts come from the raw lines, not from our parser: Claude Code replies are distinct
// message.id with usage on the main thread (`<synthetic>` aside, and those a rewind abandoned: shown apart); Codex
// requests are token_count events whose totals moved. The session's cost is checked against ccusage (run offline on
// a folder holding the one file).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildPolicy } from '../../src/cli/policyArgs';
import { analyzeSync } from '../../src/core/analysis';
import { parseTranscript } from '../../src/core/formats/index';
import { recordedUsage } from '../../src/core/recordedUsage';
import { withLoggedSummarizations } from '../../src/node/summarizationFiles';
import { SHARED_FIXTURES } from '../sharedFixtures';

const SHARED = SHARED_FIXTURES;
// ccusage stays out of the extension's lockfile: its package lists native binaries for every platform as optional
// dependencies, and `npm ci` refuses a lockfile without the ones this machine cannot resolve. The benchmark installs
// the pinned version beside the editor, once.
const CCUSAGE_VERSION = '20.0.24';
const CCUSAGE_HOME = resolve(import.meta.dirname, '../../.tools/ccusage');
export const CCUSAGE = join(CCUSAGE_HOME, 'node_modules/.bin/ccusage');

export function installCcusage(): boolean {
  if (existsSync(CCUSAGE)) return true;
  console.log(`installing ccusage ${CCUSAGE_VERSION} into .tools/ccusage (once)`);
  mkdirSync(CCUSAGE_HOME, { recursive: true });
  try {
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        CCUSAGE_HOME,
        '--no-save',
        '--no-audit',
        '--no-fund',
        `ccusage@${CCUSAGE_VERSION}`,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
  } catch {
    // reported below: the cost column then says so
  }
  return existsSync(CCUSAGE);
}

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]))
    .filter((f) => /\.jsonl?$/.test(f))
    .sort();
}

function records(raw: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of raw.split('\n')) {
    try {
      const r = JSON.parse(line);
      if (r && typeof r === 'object') out.push(r);
    } catch {
      // broken lines count for nothing here
    }
  }
  return out;
}

/** A prompt the user typed (not a tool result, a hook's or slash command's record, a compaction summary). */
function typedPrompt(r: Record<string, unknown>): boolean {
  if (r.type !== 'user' || r.isMeta === true || r.isCompactSummary === true) return false;
  const content = (r.message as Record<string, unknown> | undefined)?.content;
  const first = Array.isArray(content) ? (content[0] as Record<string, unknown> | undefined) : undefined;
  const text =
    typeof content === 'string' ? content : first?.type === 'text' ? String(first.text) : undefined;
  return text !== undefined && !/^\s*<(command-|local-command-)/.test(text);
}

/** Records the user abandoned by a rewind or an edit: the runtime writes the new prompt beside the old one (two
 * typed prompts under one parent); the earlier one, and everything below it, was never sent again. The replay
 * leaves them off (README, long sessions), so they are not requests to expect. */
function rewound(recs: Record<string, unknown>[]): Set<Record<string, unknown>> {
  const children = new Map<string, Record<string, unknown>[]>();
  for (const r of recs) {
    if (typeof r.parentUuid !== 'string') continue;
    const list = children.get(r.parentUuid) ?? [];
    list.push(r);
    children.set(r.parentUuid, list);
  }
  const out = new Set<Record<string, unknown>>();
  for (const siblings of children.values()) {
    const prompts = siblings.filter(typedPrompt);
    for (const root of prompts.slice(0, -1)) {
      const stack = [root];
      for (let r = stack.pop(); r; r = stack.pop()) {
        if (out.has(r)) continue;
        out.add(r);
        stack.push(...(children.get(String(r.uuid)) ?? []));
      }
    }
  }
  return out;
}

/** Requests the log says were sent, counted from the raw records, and of them those a rewind abandoned. */
function referenceRequests(format: string, raw: string): { sent: number; rewound: number } | undefined {
  const recs = records(raw);
  if (format === 'claude-code') {
    const ids = new Set<string>();
    const abandoned = rewound(recs);
    const onBranch = new Set<string>();
    const sidechainOnly = recs.every((r) => r.type !== 'assistant' || r.isSidechain === true);
    for (const r of recs) {
      const m = r.message as Record<string, unknown> | undefined;
      if (r.type !== 'assistant' || !m?.usage || (r.isSidechain === true && !sidechainOnly)) continue;
      if (String(m.model).startsWith('<')) continue;
      ids.add(String(m.id));
      if (!abandoned.has(r)) onBranch.add(String(m.id));
    }
    return { sent: onBranch.size, rewound: ids.size - onBranch.size };
  }
  if (format === 'codex') {
    let n = 0;
    let last = '';
    for (const r of recs) {
      const p = r.payload as Record<string, unknown> | undefined;
      if (r.type !== 'event_msg' || p?.type !== 'token_count' || !p.info) continue;
      const total = JSON.stringify((p.info as Record<string, unknown>).total_token_usage);
      if (total !== last) n++;
      last = total;
    }
    return { sent: n, rewound: 0 };
  }
  return undefined;
}

function ccusageCost(format: string, file: string): number | undefined {
  if (!existsSync(CCUSAGE) || (format !== 'claude-code' && format !== 'codex')) return undefined;
  const home = mkdtempSync(join(tmpdir(), 'truth-'));
  try {
    const claude = format === 'claude-code';
    const dir = claude ? join(home, 'projects', 'p') : join(home, 'sessions', '2026', '01', '01');
    mkdirSync(dir, { recursive: true });
    copyFileSync(file, join(dir, `${claude ? '' : 'rollout-'}${file.split('/').pop()}`));
    const args = claude ? ['session', '--json', '--offline'] : ['codex', 'session', '--json', '--offline'];
    const env = { ...process.env, [claude ? 'CLAUDE_CONFIG_DIR' : 'CODEX_HOME']: home };
    const out = JSON.parse(execFileSync(CCUSAGE, args, { env, encoding: 'utf8' }));
    return claude ? out.totals?.totalCost : out.totals?.costUSD;
  } catch {
    return undefined;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;

const TOTALS_WITHIN = 0.05;
const MEDIAN_WITHIN = 0.05;
const MEDIAN_WITHIN_1X = 0.1;
const COST_WITHIN = 0.01;

/** Claude Code 1.x, from the `version` its records carry. */
function claudeCode1x(raw: string): boolean {
  return /"version":"1\./.test(raw);
}

const mark = (ok: boolean | undefined) => (ok === undefined ? '' : ok ? ' PASS' : ' FAIL');

export async function run(): Promise<void> {
  const extra = (process.env.TRUTH_DIRS ?? '').split(':').filter(Boolean);
  const roots = [join(SHARED, 'real'), join(SHARED, 'real-long'), ...extra.map((d) => resolve(d))];
  const all = roots.flatMap(files);
  if (!installCcusage()) console.log('ccusage could not be installed: the cost column has no reference');
  console.log(
    `file | requests (replay/reference) | prompt error median (≤${MEDIAN_WITHIN * 100}%; 1.x ≤${MEDIAN_WITHIN_1X * 100}%) | cached total (≤5%) | written total (≤5%) | cost vs ccusage (≤${COST_WITHIN * 100}%) | summarization requests ("as logged")`,
  );
  let passed = 0;
  let failed = 0;
  const failures: string[] = [];
  for (const file of all) {
    const raw = readFileSync(file);
    const text = raw.toString('utf8');
    let t: ReturnType<typeof parseTranscript>;
    try {
      t = parseTranscript(new Uint8Array(raw), file);
    } catch {
      continue;
    }
    const policy = buildPolicy(t, 'none', undefined, []);
    const requests = analyzeSync(withLoggedSummarizations(t, file), policy).analysis.requests.filter(
      (r) => !r.pending,
    );
    const summarizations = requests.flatMap((r) => (r.compaction ? [r.compaction] : []));
    const reference = referenceRequests(t.format, text);
    const errors: number[] = [];
    let recCached = 0;
    let recWritten = 0;
    let simCached = 0;
    let simWritten = 0;
    for (const r of requests) {
      if (!r.recorded) continue;
      const rec = r.recorded;
      const prompt = rec.inputTokens + rec.cacheReadInputTokens + rec.cacheCreationInputTokens;
      if (prompt > 0) errors.push(Math.abs(r.promptTokens - prompt) / prompt);
      recCached += rec.cacheReadInputTokens;
      recWritten += rec.cacheCreationInputTokens + rec.inputTokens;
      simCached += r.cachedTokens;
      simWritten += r.writtenTokens;
    }
    errors.sort((a, b) => a - b);
    const median = errors.length ? errors[Math.floor(errors.length / 2)] : undefined;
    const medianLimit = t.format === 'claude-code' && claudeCode1x(text) ? MEDIAN_WITHIN_1X : MEDIAN_WITHIN;
    const usage = recordedUsage(t);
    const reference$ = ccusageCost(t.format, file);
    const costError =
      usage && reference$ !== undefined && reference$ > 0
        ? (usage.cost - reference$) / reference$
        : undefined;
    const checks = {
      requests: reference ? requests.length === reference.sent : undefined,
      median: median !== undefined ? median <= medianLimit : undefined,
      cached: recCached ? Math.abs(simCached - recCached) / recCached <= TOTALS_WITHIN : undefined,
      written: recWritten ? Math.abs(simWritten - recWritten) / recWritten <= TOTALS_WITHIN : undefined,
      cost: costError !== undefined ? Math.abs(costError) <= COST_WITHIN : undefined,
    };
    const name = file.startsWith(SHARED) ? file.slice(SHARED.length + 1) : file;
    for (const [criterion, ok] of Object.entries(checks)) {
      if (ok === true) passed++;
      if (ok === false) {
        failed++;
        failures.push(`${name}: ${criterion}`);
      }
    }
    const cost =
      usage && costError !== undefined
        ? `$${usage.cost.toFixed(4)} vs $${reference$!.toFixed(4)} (${pct(costError)})`
        : usage
          ? `$${usage.cost.toFixed(4)}`
          : '—';
    console.log(
      [
        name,
        `${requests.length}/${reference?.sent ?? '—'}${reference?.rewound ? ` (+${reference.rewound} rewound)` : ''}${mark(checks.requests)}`,
        `${median !== undefined ? pct(median) : '—'}${mark(checks.median)}`,
        `${recCached ? `${simCached}/${recCached} (${pct((simCached - recCached) / recCached)})` : '—'}${mark(checks.cached)}`,
        `${recWritten ? `${simWritten}/${recWritten} (${pct((simWritten - recWritten) / recWritten)})` : '—'}${mark(checks.written)}`,
        `${cost}${mark(checks.cost)}`,
        summarizations.length
          ? `${summarizations.length}, $${summarizations.reduce((a, s) => a + s.cost, 0).toFixed(4)} (${summarizations.filter((s) => !s.estimated).length} read, ${summarizations.filter((s) => s.estimated).length} estimated)`
          : '—',
      ].join(' | '),
    );
  }
  console.log(
    `\ncriteria: ${passed} passed, ${failed} failed${failures.length ? `\n  ${failures.join('\n  ')}` : ''}`,
  );
}
