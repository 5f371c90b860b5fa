// Truth on real sessions: for every file in ../shared/fixtures/real*/ (and in the folders TRUTH_DIRS names,
// separated by ':', so sessions of one's own are checked the same way; TRUTH_ONLY keeps the paths containing it), the "none" policy's replay with the CLI's
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
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { buildPolicy } from '../../src/cli/policyArgs';
import { analyzeSync } from '../../src/core/analysis';
import { loggedBreaks } from '../../src/core/cacheBreaks';
import { readUiMessages } from '../../src/core/formats/clineTask/uiMessages';
import { recordedRequests, type ShutdownMetric } from '../../src/core/formats/copilot/usage';
import { documentJson } from '../../src/core/formats/json';
import { recordedUsage } from '../../src/core/recordedUsage';
import { parseTranscriptFile } from '../../src/node/parseFile';
import { withLoggedSummarizations } from '../../src/node/summarizationFiles';
import { AGENT_SESSIONS, REAL_FIXTURES, SHARED_FIXTURES } from '../sharedFixtures';

const SHARED = SHARED_FIXTURES;
// ccusage stays out of the extension's lockfile: its package lists native binaries for every platform as optional
// dependencies, and `npm ci` refuses a lockfile without the ones this machine cannot resolve. The benchmark installs
// the pinned version beside the editor, once.
const CCUSAGE_VERSION = '20.0.24';
const CCUSAGE_HOME = resolve(import.meta.dirname, '../../.tools/ccusage');
export const CCUSAGE = process.env.CCUSAGE || join(CCUSAGE_HOME, 'node_modules/.bin/ccusage');

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
    .filter(
      (f) => /\.jsonl$/.test(f) || (/\.json$/.test(f) && !/(^|\/)(ui_messages|task_metadata)\.json$/.test(f)),
    )
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
function referenceRequests(
  format: string,
  raw: string,
  file: string,
): { sent: number; rewound: number; aside?: string; note?: string } | undefined {
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
  if (format === 'cline-task') {
    // The agent's own count: its request rows in ui_messages.json beside the history (those that recorded
    // usage), else the replies its history records metrics for.
    // Where a condensation deleted the older messages (Roo Code before December 2025: a summary without a
    // `condenseId`), the rows before the first message it kept sent messages the file no longer holds.
    const ui = join(file, '..', 'ui_messages.json');
    const list = JSON.parse(raw) as Record<string, unknown>[];
    let summary = list.length - 1;
    while (summary >= 0 && !(list[summary].isSummary === true && !list[summary].condenseId)) summary--;
    const keptFrom = summary >= 0 ? Number(list[summary + 1]?.ts ?? Number.POSITIVE_INFINITY) : 0;
    if (existsSync(ui)) {
      const uiBytes = readFileSync(ui);
      // A row without figures is a request when the history holds its reply (written before the next row).
      const all = readUiMessages(uiBytes).requests.filter((r) => !r.aside);
      const replied = (i: number) =>
        list.some(
          (m) =>
            m.role === 'assistant' &&
            Number(m.ts) > (all[i].ts ?? 0) &&
            Number(m.ts) < (all[i + 1]?.ts ?? Number.POSITIVE_INFINITY),
        );
      const rows = all.filter((r, i) => r.usage || replied(i));
      // The first row kept: the one the first reply after the summary answered (the last started before it).
      const firstReply = Number(list.find((m, i) => i > summary && m.role === 'assistant')?.ts);
      const answered = rows.filter((r) => (r.ts ?? 0) <= firstReply).at(-1)?.ts;
      const from = summary >= 0 && answered !== undefined ? Math.min(answered, keptFrom) : keptFrom;
      const after = rows.filter((r) => (r.ts ?? 0) >= from).length;
      // Replies the history holds where ui_messages.json has no row at all since the message before them (the agent
      // lost those rows, e.g. when a task was resumed): requests it made all the same, counted with the evidence.
      const uiTimes = (JSON.parse(uiBytes.toString('utf8')) as { ts?: unknown }[])
        .map((r) => Number(r.ts))
        .filter(Number.isFinite);
      const rowless = list.filter((m, i) => {
        const at = Number(m.ts);
        const before = Number(list[i - 1]?.ts);
        return (
          m.role === 'assistant' &&
          i > summary &&
          at >= keptFrom &&
          Number.isFinite(before) &&
          !uiTimes.some((t) => t > before && t <= at)
        );
      }).length;
      return {
        sent: after + rowless,
        rewound: rows.length - after,
        aside: 'condensed away',
        ...(rowless
          ? { note: `${rowless} of them replies the history holds where ui_messages.json has no row at all` }
          : {}),
      };
    }
    return { sent: list.filter((m) => m.role === 'assistant' && m.metrics).length, rewound: 0 };
  }
  // Cline's SDK sessions: the replies its messages record metrics for.
  if (format === 'cline-session') {
    const doc = JSON.parse(raw) as { messages?: Record<string, unknown>[] };
    return {
      sent: (doc.messages ?? []).filter((m) => m.role === 'assistant' && m.metrics).length,
      rewound: 0,
    };
  }
  if (format === 'gemini-cli' || format === 'gemini-cli-json') return geminiRequests(recs, raw);
  if (format === 'opencode') return openCodeRequests(raw);
  // Qwen Code: one reply record with usageMetadata per API response (the telemetry repeats it).
  if (format === 'qwen-code')
    return { sent: recs.filter((r) => r.type === 'assistant' && r.usageMetadata).length, rewound: 0 };
  if (format === 'copilot-cli') {
    // The requests its shutdowns counted are every call of the model: less the sub-agents' replies (their own
    // conversations) and the compactions' summarizing calls, the main conversation's requests.
    const totals = Object.values(copilotShutdowns(recs));
    if (totals.length === 0) return undefined;
    const aside = recs.filter((r) => {
      const d = (r.data ?? {}) as Record<string, unknown>;
      if (r.type === 'session.compaction_complete') return d.success !== false && d.compactionTokensUsed;
      return (
        r.type === 'assistant.message' && typeof r.agentId === 'string' && !((d.chunkIndex as number) > 0)
      );
    }).length;
    return { sent: totals.reduce((a, m) => a + m.requests, 0) - aside, rewound: 0 };
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

/** Gemini CLI: replies are `gemini` records with `tokens`, once per id (the log re-appends a record each time it
 * updates it; the document holds each once); those a `$rewindTo` dropped were sent all the same. */
function geminiRequests(recs: Record<string, unknown>[], raw: string): { sent: number; rewound: number } {
  let list = recs;
  if (recs.length === 0 || !recs.some((r) => typeof r.type === 'string' || '$set' in r)) {
    const doc = JSON.parse(raw) as { messages?: Record<string, unknown>[] };
    list = doc.messages ?? [];
  }
  const order: string[] = [];
  const last = new Map<string, Record<string, unknown>>();
  let rewound = 0;
  for (const r of list) {
    if (typeof r.$rewindTo === 'string') {
      const at = order.indexOf(r.$rewindTo);
      const gone = at === -1 ? order.splice(0) : order.splice(at);
      for (const id of gone) if (last.get(id)?.tokens) rewound++;
      continue;
    }
    if (typeof r.id !== 'string') continue;
    if (!last.has(r.id) || !order.includes(r.id)) order.push(r.id);
    last.set(r.id, r);
  }
  const sent = order.filter((id) => last.get(id)?.type === 'gemini' && last.get(id)?.tokens).length;
  return { sent, rewound };
}

/** OpenCode: one request per step that finished with tokens (a message without steps: one, with its own tokens);
 * a compaction's summarizing call is no request of the replay. */
function openCodeRequests(raw: string): { sent: number; rewound: number } {
  const doc = JSON.parse(documentJson(raw).json) as {
    messages?: { info?: Record<string, unknown>; parts?: Record<string, unknown>[] }[];
  };
  let sent = 0;
  for (const m of doc.messages ?? []) {
    if (m.info?.role !== 'assistant' || m.info.summary === true) continue;
    const steps = (m.parts ?? []).filter((p) => p.type === 'step-finish');
    sent += steps.length > 0 ? steps.filter((p) => p.tokens).length : m.info.tokens ? 1 : 0;
  }
  return { sent, rewound: 0 };
}

/** An exported OpenCode session laid out as the agent's `storage/` files, where ccusage reads them. */
function openCodeStorage(file: string, home: string): void {
  const doc = JSON.parse(documentJson(readFileSync(file, 'utf8')).json);
  const sid = String(doc.info?.id);
  const write = (dir: string[], name: string, value: unknown) => {
    mkdirSync(join(home, 'storage', ...dir), { recursive: true });
    writeFileSync(join(home, 'storage', ...dir, `${name}.json`), JSON.stringify(value));
  };
  write(['session', String(doc.info?.projectID ?? 'p')], sid, doc.info);
  for (const m of doc.messages ?? []) {
    write(['message', sid], String(m.info?.id), m.info);
    for (const part of m.parts ?? []) write(['part', String(m.info?.id)], String(part.id), part);
  }
}

/** Where ccusage looks for each agent's sessions, under a home given by its environment variable. */
const CCUSAGE_LAYOUT: Record<
  string,
  {
    dir: string[];
    name: (f: string) => string;
    args: string[];
    env: string;
    /** Lays the file out as the agent would, when a copy is not enough. */
    lay?: (file: string, home: string) => void;
  }
> = {
  'claude-code': { dir: ['projects', 'p'], name: (f) => f, args: ['session'], env: 'CLAUDE_CONFIG_DIR' },
  codex: {
    dir: ['sessions', '2026', '01', '01'],
    name: (f) => `rollout-${f}`,
    args: ['codex', 'session'],
    env: 'CODEX_HOME',
  },
  'gemini-cli': {
    dir: ['tmp', 'p', 'chats'],
    name: (f) => `session-${f}`,
    args: ['gemini', 'session'],
    env: 'GEMINI_DATA_DIR',
  },
};
CCUSAGE_LAYOUT['gemini-cli-json'] = CCUSAGE_LAYOUT['gemini-cli'];
CCUSAGE_LAYOUT['qwen-code'] = {
  dir: ['projects', 'p', 'chats'],
  name: (f) => f,
  args: ['qwen', 'session'],
  env: 'QWEN_DATA_DIR',
};

/** What ccusage counted of a session: its cost and token totals. */
interface CcusageTotals {
  cost: number | undefined;
  inputTokens: number;
  cacheReadTokens: number;
}
CCUSAGE_LAYOUT['copilot-cli'] = {
  dir: ['session-state', 's'],
  name: () => 'events.jsonl',
  args: ['copilot', 'session'],
  env: 'COPILOT_HOME',
};

/** Copilot CLI: per model, what its runs' shutdowns recorded (`session.shutdown.data.modelMetrics`). */
function copilotShutdowns(recs: Record<string, unknown>[]): Record<string, ShutdownMetric> {
  const runs: Record<string, ShutdownMetric>[] = [];
  for (const r of recs) {
    const data = r.data as Record<string, unknown> | undefined;
    if (r.type !== 'session.shutdown' || !data || typeof data.modelMetrics !== 'object') continue;
    const run: Record<string, ShutdownMetric> = {};
    for (const [model, m] of Object.entries(
      data.modelMetrics as Record<string, Record<string, Record<string, number>>>,
    ))
      run[model] = {
        requests: m.requests?.count ?? 0,
        inputTokens: m.usage?.inputTokens ?? 0,
        outputTokens: m.usage?.outputTokens ?? 0,
        cacheReadTokens: m.usage?.cacheReadTokens ?? 0,
        cacheWriteTokens: m.usage?.cacheWriteTokens ?? 0,
      };
    runs.push(run);
  }
  return recordedRequests(runs);
}

/** A Copilot CLI session's recorded cost: its shutdowns' totals per model at our prices (the log records no usage
 * per request; `inputTokens` holds the cache reads and writes). */
function copilotRecordedCost(recs: Record<string, unknown>[]): number | undefined {
  const totals = Object.entries(copilotShutdowns(recs));
  if (totals.length === 0) return undefined;
  // Each model's totals as that many equal requests: a price tier for long prompts applies per request, and a
  // total taken as one request would cross it.
  const replies = totals.flatMap(([model, m]) => {
    const n = Math.max(1, m.requests);
    const reply = {
      thread: 'main',
      onBranch: true,
      line: 1,
      model,
      usage: {
        inputTokens: Math.max(0, m.inputTokens - m.cacheReadTokens - m.cacheWriteTokens) / n,
        outputTokens: m.outputTokens / n,
        cacheReadInputTokens: m.cacheReadTokens / n,
        cacheCreationInputTokens: m.cacheWriteTokens / n,
      },
    };
    return Array.from({ length: n }, () => reply);
  });
  const t = { format: 'copilot-cli', replies, messages: [], markers: [], sidechains: [], diagnostics: [] };
  return recordedUsage(t as unknown as Parameters<typeof recordedUsage>[0])?.cost;
}
CCUSAGE_LAYOUT.opencode = {
  dir: [],
  name: () => '',
  args: ['opencode', 'session'],
  env: 'OPENCODE_DATA_DIR',
  lay: openCodeStorage,
};

/** ccusage's reading of a session file (or of `content` in its place, laid out under the file's name). */
function ccusageTotals(format: string, file: string, content?: string): CcusageTotals | undefined {
  const layout = CCUSAGE_LAYOUT[format];
  if (!existsSync(CCUSAGE) || !layout) return undefined;
  const home = mkdtempSync(join(tmpdir(), 'truth-'));
  try {
    if (layout.lay) layout.lay(file, home);
    else {
      const dir = join(home, ...layout.dir);
      mkdirSync(dir, { recursive: true });
      const to = join(dir, layout.name(file.split('/').pop() as string));
      if (content === undefined) copyFileSync(file, to);
      else writeFileSync(to, content);
    }
    const env = { ...process.env, [layout.env]: home };
    const out = JSON.parse(
      execFileSync(CCUSAGE, [...layout.args, '--json', '--offline'], { env, encoding: 'utf8' }),
    );
    return {
      cost: out.totals?.totalCost ?? out.totals?.costUSD,
      inputTokens: out.totals?.inputTokens ?? 0,
      cacheReadTokens: out.totals?.cacheReadTokens ?? 0,
    };
  } catch {
    return undefined;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** A Qwen Code log as ccusage would need it to count each token once: each reply's `promptTokenCount` less its
 * cached part (ccusage takes the prompt as uncached input and adds the cached part again as cache reads), and the
 * `thoughtsTokenCount` left off where the completion already holds the reasoning (the record's total is prompt +
 * candidates: ccusage adds the thoughts to the output again). Everything else as written. */
function qwenCountedOnce(raw: string): { text: string; cached: number; thoughts: number } {
  let cached = 0;
  let thoughts = 0;
  const lines = raw.split('\n').map((line) => {
    let r: Record<string, unknown>;
    try {
      r = JSON.parse(line);
    } catch {
      return line;
    }
    const u = r?.type === 'assistant' ? (r.usageMetadata as Record<string, number> | undefined) : undefined;
    if (!u || typeof u !== 'object') return line;
    const meta = { ...u };
    const prompt = meta.promptTokenCount ?? 0;
    const c = Math.min(meta.cachedContentTokenCount ?? 0, prompt);
    meta.promptTokenCount = prompt - c;
    cached += c;
    if (
      (meta.thoughtsTokenCount ?? 0) > 0 &&
      meta.totalTokenCount === prompt + (meta.candidatesTokenCount ?? 0)
    ) {
      thoughts += meta.thoughtsTokenCount;
      delete meta.thoughtsTokenCount;
    }
    return JSON.stringify({ ...r, usageMetadata: meta });
  });
  return { text: lines.join('\n'), cached, thoughts };
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
  const roots = [
    join(SHARED, 'real'),
    join(SHARED, 'real-long'),
    AGENT_SESSIONS,
    ...extra.map((d) => resolve(d)),
  ];
  // The repository's own real fixtures of the agents ../shared holds none of (those whose licence lets them ship).
  const shipped = files(REAL_FIXTURES).filter(
    (f) => !existsSync(join(SHARED, 'real', f.slice(REAL_FIXTURES.length + 1).split('/')[0])),
  );
  // TRUTH_ONLY: only the files whose path contains it (one agent's rows, one session).
  const only = process.env.TRUTH_ONLY;
  const all = [...roots.flatMap(files), ...shipped].filter((f) => !only || f.includes(only));
  if (!installCcusage()) console.log('ccusage could not be installed: the cost column has no reference');
  console.log(
    `file | requests (replay/reference) | prompt error median (≤${MEDIAN_WITHIN * 100}%; 1.x ≤${MEDIAN_WITHIN_1X * 100}%) | cached total (≤5%) | written total (≤5%) | cost vs ccusage (≤${COST_WITHIN * 100}%) | provider-miss share of the cache breaks (count, cost) | summarization requests ("as logged")`,
  );
  let passed = 0;
  let failed = 0;
  const failures: string[] = [];
  for (const file of all) {
    const raw = readFileSync(file);
    const text = raw.toString('utf8');
    let t: ReturnType<typeof parseTranscriptFile>;
    try {
      t = parseTranscriptFile(new Uint8Array(raw), file);
    } catch {
      continue;
    }
    const policy = buildPolicy(t, 'none', undefined, []);
    const analysis = analyzeSync(withLoggedSummarizations(t, file), policy).analysis;
    const requests = analysis.requests.filter((r) => !r.pending);
    // The breaks nothing in the transcript explains: what the cause finders still miss (context-lens cache).
    const breaks = loggedBreaks(t, analysis, 'main');
    const misses = breaks.totals.find((x) => x.cause === 'provider-miss')?.breaks ?? 0;
    const missShare = breaks.breaks.length
      ? `${misses}/${breaks.breaks.length} (${(100 * breaks.providerMissShare.breaks).toFixed(0)}%), ${(100 * breaks.providerMissShare.cost).toFixed(0)}% of $${breaks.cost.toFixed(2)}`
      : 'no break';
    const reference = referenceRequests(t.format, text, file);
    const summarizations = requests.flatMap((r) => (r.compaction ? [r.compaction] : []));
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
    const ccusage = ccusageTotals(t.format, file);
    const reference$ = ccusage?.cost;
    // ccusage reads Qwen Code's promptTokenCount, which includes the cached part, as its input and adds the cached
    // part again as cache reads: where its input is the whole recorded prompt and some of it was cached, its cost
    // counts the cached input twice. Said with the figures, not compared.
    const recordedPrompt = usage ? usage.inputTokens + usage.cacheReadInputTokens : 0;
    const cachedTwice =
      t.format === 'qwen-code' &&
      ccusage !== undefined &&
      ccusage.cacheReadTokens > 0 &&
      ccusage.inputTokens === recordedPrompt;
    // Compared instead: ccusage's prices on the same log with each token counted once.
    const once = t.format === 'qwen-code' ? qwenCountedOnce(text) : undefined;
    const onceTotals =
      once && (once.cached > 0 || once.thoughts > 0) ? ccusageTotals(t.format, file, once.text) : undefined;
    if (cachedTwice)
      console.log(
        `  ${file}: ccusage counts the cached input twice: input ${ccusage.inputTokens} (the whole recorded prompt, cached part included) + cache reads ${ccusage.cacheReadTokens} = ${ccusage.inputTokens + ccusage.cacheReadTokens} tokens against the ${recordedPrompt} recorded; its $${ccusage.cost?.toFixed(4)} (ours $${usage?.cost.toFixed(4)}) is not compared`,
      );
    if (once && onceTotals)
      console.log(
        `  ${file}: compared with ccusage on the same log with each reply's prompt less its cached part (${once.cached} tokens)${once.thoughts ? ` and without the ${once.thoughts} reasoning tokens its completions already hold (ccusage adds them again)` : ''}: $${onceTotals.cost?.toFixed(4) ?? '—'}`,
      );
    if (t.format === 'copilot-cli') {
      // No usage per request: the shutdowns' totals priced here against ccusage, and the replay's estimate beside.
      const recs = text.split('\n').flatMap((l) => {
        try {
          return [JSON.parse(l) as Record<string, unknown>];
        } catch {
          return [];
        }
      });
      const recorded$ = copilotRecordedCost(recs);
      const estimate = requests.reduce((a, r) => a + r.cost, 0);
      const err = recorded$ !== undefined && reference$ ? (recorded$ - reference$) / reference$ : undefined;
      const ok = err !== undefined ? Math.abs(err) <= COST_WITHIN : undefined;
      if (ok === true) passed++;
      if (ok === false) {
        failed++;
        failures.push(`${file}: shutdown cost`);
      }
      console.log(
        `  ${file}: the shutdowns' totals at our prices $${recorded$?.toFixed(4) ?? '—'} vs ccusage $${reference$?.toFixed(4) ?? '—'}${err !== undefined ? ` (${pct(err)})${mark(ok)}` : ''}; the replay's estimate $${estimate.toFixed(4)} over ${requests.length} requests`,
      );
      // The replay's cache against the shutdowns' for each model whose recorded requests are the main thread's (the
      // hidden prefix is fitted to the prompt totals, so the prompt is not a check; how it splits into reads and
      // writes is).
      const byModel = new Map<string | undefined, typeof requests>();
      for (const r of requests) {
        const model = t.messages[r.messageCount]?.model;
        byModel.set(model, [...(byModel.get(model) ?? []), r]);
      }
      const whole = Object.entries(copilotShutdowns(recs)).filter(
        ([model, m]) => m.requests > 0 && byModel.get(model)?.length === m.requests,
      );
      if (whole.length > 0) {
        const sim = whole.flatMap(([model]) => byModel.get(model) ?? []);
        const rec = { cached: 0, written: 0 };
        for (const [, m] of whole) {
          rec.cached += m.cacheReadTokens;
          rec.written += m.inputTokens - m.cacheReadTokens;
        }
        const cached = sim.reduce((a, r) => a + r.cachedTokens, 0);
        const written = sim.reduce((a, r) => a + r.writtenTokens, 0);
        const line: string[] = [];
        for (const [what, simulated, recordedTotal] of [
          ['cached', cached, rec.cached],
          ['written', written, rec.written],
        ] as const) {
          if (recordedTotal <= 0) continue;
          const e = (simulated - recordedTotal) / recordedTotal;
          const within = Math.abs(e) <= TOTALS_WITHIN;
          if (within) passed++;
          else {
            failed++;
            failures.push(`${file}: shutdown ${what}`);
          }
          line.push(`${what} ${simulated}/${recordedTotal} (${pct(e)})${mark(within)}`);
        }
        console.log(
          `  ${file}: the replay against the shutdowns' totals of ${whole.map(([model]) => model).join(', ')}: ${line.join(', ')}`,
        );
      }
    }
    // Where the agent records its own cost (OpenCode), ccusage takes it: compared with the agent's figure. A session
    // the agent recorded as free ccusage prices at list prices all the same: said, not compared.
    const ours = usage?.agentCost !== undefined && usage.agentCost > 0 ? usage.agentCost : usage?.cost;
    const recordedFree = usage?.agentCost === 0 && (reference$ ?? 0) > 0;
    if (recordedFree)
      console.log(
        `  ${file}: the agent recorded $0 for every reply; ccusage prices it $${reference$?.toFixed(4)} at list prices (not compared)`,
      );
    const compared$ = onceTotals ? onceTotals.cost : cachedTwice ? undefined : reference$;
    const costError =
      usage && ours !== undefined && compared$ !== undefined && compared$ > 0 && !recordedFree
        ? (ours - compared$) / compared$
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
    // Where the agent records its own cost (Cline, Roo Code), it is shown beside ours.
    const agent$ = usage?.agentCost !== undefined ? `; the agent's own $${usage.agentCost.toFixed(4)}` : '';
    const cost =
      usage && costError !== undefined
        ? `$${(ours ?? 0).toFixed(4)}${ours !== usage.cost ? ` (the agent's; list $${usage.cost.toFixed(4)})` : ''} vs $${compared$!.toFixed(4)}${onceTotals ? ' (ccusage, each token once)' : ''} (${pct(costError)})`
        : usage
          ? `$${usage.cost.toFixed(4)}${agent$}`
          : '—';
    console.log(
      [
        name,
        `${requests.length}/${reference?.sent ?? '—'}${reference?.rewound ? ` (+${reference.rewound} ${reference.aside ?? 'rewound'})` : ''}${reference?.note ? ` (${reference.note})` : ''}${mark(checks.requests)}`,
        `${median !== undefined ? pct(median) : '—'}${mark(checks.median)}`,
        `${recCached ? `${simCached}/${recCached} (${pct((simCached - recCached) / recCached)})` : '—'}${mark(checks.cached)}`,
        `${recWritten ? `${simWritten}/${recWritten} (${pct((simWritten - recWritten) / recWritten)})` : '—'}${mark(checks.written)}`,
        `${cost}${mark(checks.cost)}`,
        missShare,
        summarizations.length
          ? `${summarizations.length}, $${summarizations.reduce((a, s) => a + s.cost, 0).toFixed(4)} (${summarizations.filter((s) => !s.estimated).length} read, ${summarizations.filter((s) => s.estimated).length} estimated)`
          : '—',
      ].join(' | '),
    );
  }
  if (!only) usageOnly(roots);
  console.log(
    `\ncriteria: ${passed} passed, ${failed} failed${failures.length ? `\n  ${failures.join('\n  ')}` : ''}`,
  );
}

/** Task folders that hold the agent's request rows without the history (a ui_messages.json alone): its requests
 * and what we price their recorded tokens at, beside what the agent said they cost. */
function usageOnly(roots: string[]): void {
  const alone = roots
    .flatMap((r) => (existsSync(r) ? allFiles(r) : []))
    .filter(
      (f) => f.endsWith('/ui_messages.json') && !existsSync(join(f, '..', 'api_conversation_history.json')),
    );
  if (alone.length === 0) return;
  console.log('\nrequest rows without their history (usage read, nothing to replay):');
  for (const f of alone) {
    const ui = readUiMessages(readFileSync(f));
    const replies = ui.requests.flatMap((r) =>
      r.usage
        ? [{ thread: 'main', onBranch: true, usage: r.usage, line: 1, model: r.model, agentCost: r.cost }]
        : [],
    );
    const t = { format: 'cline-task', replies, messages: [], markers: [], sidechains: [], diagnostics: [] };
    const u = recordedUsage(t as unknown as Parameters<typeof recordedUsage>[0]);
    const agent = u?.agentCost ?? 0;
    const err = agent > 0 && u ? (u.cost - agent) / agent : undefined;
    console.log(
      `${f} | ${ui.requests.filter((r) => r.usage && !r.aside).length} requests of ${ui.rows} rows | ours $${u?.cost.toFixed(4) ?? '—'} vs the agent's $${agent.toFixed(4)}${err !== undefined ? ` (${pct(err)})` : ''}`,
    );
  }
}

function allFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? allFiles(join(dir, e.name)) : [join(dir, e.name)],
  );
}
