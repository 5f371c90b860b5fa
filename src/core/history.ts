// Many sessions, not one: each session's figures under every policy (the same numbers `simulate` prints for it),
// folded into rows per project, per day and in total. The report (cli/report.ts) and the Sessions view
// (host/sessionsView.ts) read these rows.
//
// A policy is measured as SPEC §5 says: its simulated total beside the simulated "none" over the same requests
// (`deltaCost`). What the session really cost is the log's own recorded usage (every reply of the file, as the
// agent's bill counts it: no replay); `projected` puts the two together: what the session would have cost under
// the policy, the recorded cost plus the policy's difference.
import { type AnalysisResult, analyzeSync } from './analysis';
import { addCauseCosts, type CauseCosts, causeCosts, loggedBreaks } from './cacheBreaks';
import { isOffered } from './engine/policies/registry';
import type { Baseline } from './engine/policies/replay';
import { POLICY_NAMES, type Policy, type PolicyName, sessionKindOf } from './engine/policy';
import { flatPrompt } from './formats/sessionHead';
import type { FormatId, Transcript } from './model';
import { recordedUsage, unpricedWords } from './recordedUsage';
import { MAIN_THREAD, subAgentCalls } from './threads';
import { verdictSession } from './verdict';
import { type CostAgainstNone, compareWithNone, nonePolicy } from './vsNone';

export interface PolicyFigures {
  /** Over the sent requests of the main conversation, as `simulate` totals them. */
  promptTokens: number;
  cachedTokens: number;
  writtenTokens: number;
  cost: number;
  events: number;
  /** Against none over the same requests (absent for none itself). */
  deltaCost?: number;
  deltaShare?: number;
  tokensSaved?: number;
  extraWritten?: number;
}

export interface SessionFigures {
  path: string;
  format: FormatId;
  /** The working directory the agent ran in, else the folder the log sits in. */
  project: string;
  /** The first thing the user typed (empty when the log holds none). */
  firstPrompt: string;
  /** First and last timestamp the log records (ISO), else the file's modification time. */
  start: string;
  end: string;
  /** The local day the session started (YYYY-MM-DD). */
  day: string;
  /** Bytes read: a file that grew during the report is read up to its last whole line at the time. */
  bytes: number;
  /** A Claude Code sub-agent's own file, and the session it belongs to. */
  subAgent?: boolean;
  sessionId?: string;
  messages: number;
  /** Sent requests of the main conversation (what the policies are replayed over). */
  requests: number;
  model: string;
  /** What the log records: every reply of the file (main, sub-agents, off-branch), priced at list prices. */
  recordedCost: number | null;
  recordedReplies: number;
  /** Replies of models the price table does not know (or of none), priced as a preset: which as which, in words. */
  recordedEstimate?: string;
  policies: Partial<Record<PolicyName, PolicyFigures>>;
  /** What every policy is measured against (`replay.baseline`), and the provider whose strategies the session is
   * offered (the verdict's candidates); absent from figures kept before they were. */
  baseline?: Baseline;
  provider?: string;
  /** The policy the settings put in force, when the figures are for one (the Sessions view's). */
  inForce?: PolicyName;
  /** The calls of the main conversation that started sub-agents: their prompt (flattened, cut as a listing's first
   * prompt is) and description, which names the sub-agents' own files. */
  subAgentCalls?: { prompt: string; description: string }[];
  /** The cache breaks the log of the main conversation records, by cause (core/cacheBreaks); absent from figures
   * kept before they were counted. */
  breaks?: CauseCosts;
}

/** The policies a report compares: every one the engine knows, or the chosen ones; "none" always (the baseline). */
export function reportPolicies(chosen: readonly PolicyName[] = []): PolicyName[] {
  const names = chosen.length > 0 ? chosen : POLICY_NAMES;
  return ['none', ...names.filter((n) => n !== 'none')];
}

function figuresOf(r: AnalysisResult): PolicyFigures {
  const t = r.analysis.totals;
  return {
    promptTokens: t.promptTokens,
    cachedTokens: t.cachedTokens,
    writtenTokens: t.writtenTokens,
    cost: t.cost,
    events: r.analysis.events.length,
  };
}

export interface SessionFacts {
  path: string;
  project: string;
  firstPrompt: string;
  bytes: number;
  modified: Date;
  subAgent?: boolean;
  sessionId?: string;
  /** The policy the settings put in force (the Sessions view's figures). */
  inForce?: PolicyName;
}

/** The local day of a date, YYYY-MM-DD. */
export function localDay(d: Date): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
}

function timeSpan(t: Transcript, fallback: Date): { start: string; end: string } {
  let first = Number.POSITIVE_INFINITY;
  let last = Number.NEGATIVE_INFINITY;
  const see = (ts: string | undefined) => {
    if (!ts) return;
    const ms = Date.parse(ts);
    if (Number.isNaN(ms)) return;
    if (ms < first) first = ms;
    if (ms > last) last = ms;
  };
  for (const m of t.messages) see(m.timestamp);
  for (const r of t.replies ?? []) see(r.timestamp);
  if (first === Number.POSITIVE_INFINITY)
    return { start: fallback.toISOString(), end: fallback.toISOString() };
  return { start: new Date(first).toISOString(), end: new Date(last).toISOString() };
}

/** One session under `policies` (one per name, built alike, the first of them giving none's settings): exactly
 * the totals and the comparison with none that `simulate` prints for the file. */
export function sessionFigures(
  transcript: Transcript,
  policies: readonly Policy[],
  facts: SessionFacts,
): SessionFigures {
  const none = analyzeSync(transcript, nonePolicy(policies[0]));
  const out: Partial<Record<PolicyName, PolicyFigures>> = {};
  for (const policy of policies) {
    if (policy.name === 'none' && policy.replay.baseline === 'as-logged') {
      // No pass runs under none, so its trigger changes no figure: the baseline run is none's row.
      out.none = figuresOf(none);
      continue;
    }
    // A strategy the session's provider or agent cannot use has no figures for it (its cell stays empty).
    if (!isOffered(policy.name, sessionKindOf(transcript, policy.model))) continue;
    const r = analyzeSync(transcript, policy);
    const v = compareWithNone(r.analysis, none.analysis, policy.replay.baseline);
    out[policy.name] = {
      ...figuresOf(r),
      deltaCost: v.deltaCost,
      deltaShare: v.deltaShare,
      tokensSaved: v.tokensSaved,
      extraWritten: v.extraWritten,
    };
  }
  const recorded = recordedUsage(transcript);
  const span = timeSpan(transcript, facts.modified);
  const row: SessionFigures = {
    path: facts.path,
    format: transcript.format,
    project: facts.project,
    firstPrompt: facts.firstPrompt,
    start: span.start,
    end: span.end,
    day: localDay(new Date(span.start)),
    bytes: facts.bytes,
    messages: transcript.messages.length,
    requests: none.analysis.requests.filter((r) => !r.pending).length,
    model: none.analysis.model ?? '',
    recordedCost: recorded ? recorded.cost : null,
    recordedReplies: recorded?.replies ?? 0,
    policies: out,
    baseline: policies[0].replay.baseline,
    provider: verdictSession(transcript, policies[0], none.analysis.contextWindow).provider,
    breaks: causeCosts(loggedBreaks(transcript, none.analysis, MAIN_THREAD)),
  };
  if (recorded?.unpriced.length) row.recordedEstimate = unpricedWords(recorded);
  if (facts.inForce) row.inForce = facts.inForce;
  const calls = subAgentCalls(transcript.messages);
  if (calls.length > 0) row.subAgentCalls = calls.map((c) => ({ ...c, prompt: flatPrompt(c.prompt) }));
  if (facts.subAgent) row.subAgent = true;
  if (facts.sessionId) row.sessionId = facts.sessionId;
  return row;
}

/** Many sessions' figures summed: counts and money add up; shares are recomputed from the sums. */
export interface HistoryRow {
  /** The project, the day, the session's path, or "total". */
  key: string;
  sessions: number;
  requests: number;
  bytes: number;
  /** Sum of the recorded costs (sessions without recorded usage add nothing: see `unrecorded`). */
  recordedCost: number;
  unrecorded: number;
  policies: Partial<Record<PolicyName, RowPolicy>>;
  /** The sessions' cache breaks by cause, added up. */
  breaks: CauseCosts;
}

export interface RowPolicy extends CostAgainstNone {
  /** The recorded cost plus the policy's difference: what these sessions would have cost under it. */
  projected: number;
}

/** A row of no session (what a report of none shows in total). */
export function emptyRow(key: string): HistoryRow {
  return {
    key,
    sessions: 0,
    requests: 0,
    bytes: 0,
    recordedCost: 0,
    unrecorded: 0,
    policies: {},
    breaks: {},
  };
}

export function foldRows(
  sessions: readonly SessionFigures[],
  keyOf: (s: SessionFigures) => string,
  names: readonly PolicyName[],
): HistoryRow[] {
  const rows = new Map<string, HistoryRow>();
  for (const s of sessions) {
    const key = keyOf(s);
    let row = rows.get(key);
    if (!row) {
      row = emptyRow(key);
      rows.set(key, row);
    }
    row.sessions++;
    row.requests += s.requests;
    row.bytes += s.bytes;
    if (s.recordedCost === null) row.unrecorded++;
    else row.recordedCost += s.recordedCost;
    // Rows kept by an earlier engine have no breaks: they add none.
    addCauseCosts(row.breaks, s.breaks);
    const noneCost = s.policies.none?.cost ?? 0;
    for (const name of names) {
      const f = s.policies[name];
      if (!f) continue;
      let p = row.policies[name];
      if (!p) {
        p = {
          cost: 0,
          noneCost: 0,
          deltaCost: 0,
          deltaShare: 0,
          tokensSaved: 0,
          extraWritten: 0,
          projected: 0,
        };
        row.policies[name] = p;
      }
      p.cost += f.cost;
      p.noneCost += noneCost;
      p.deltaCost += f.deltaCost ?? 0;
      p.tokensSaved += f.tokensSaved ?? 0;
      p.extraWritten += f.extraWritten ?? 0;
      // A session without recorded usage: its simulated cost stands for what it cost.
      p.projected += (s.recordedCost ?? noneCost) + (f.deltaCost ?? 0);
    }
  }
  for (const row of rows.values())
    for (const p of Object.values(row.policies)) p.deltaShare = p.noneCost > 0 ? p.deltaCost / p.noneCost : 0;
  return [...rows.values()];
}

/** The policy that saves the most over `row` (the most negative difference), or null when none saves. */
export function bestPolicy(row: HistoryRow): PolicyName | null {
  let best: PolicyName | null = null;
  let bestDelta = 0;
  for (const [name, p] of Object.entries(row.policies) as [PolicyName, RowPolicy][]) {
    if (name === 'none') continue;
    if (p.deltaCost < bestDelta) {
      best = name;
      bestDelta = p.deltaCost;
    }
  }
  return best;
}
