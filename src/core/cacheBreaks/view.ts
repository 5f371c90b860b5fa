// The Cache tab's figures, made on the host for the view to draw as they are: the breaks the log records and those
// the shown policy's replay makes (each with the message to select), the per-request hit rate recorded and under
// the policy, and what would have avoided them.
import type { Analysis } from '../analysisTypes';
import type { Transcript } from '../model';
import type { Avoided, Lifetimes } from './avoided';
import type { BreakCause, BreakEvidence, CacheBreak, CacheBreakReport, CauseTotal } from './types';

/** A break as the view lists it: its evidence in words only, and the messages a click selects. */
export interface ViewBreak {
  request: number;
  index: number;
  time?: string;
  cause: BreakCause;
  words: string;
  expectedTokens: number;
  readTokens: number;
  tokens: number;
  cost: number;
  /** Where the prompt first differs from the previous request's, when the evidence says. */
  differsAt?: number;
  /** The last message the request sent (selected when the evidence names no message). */
  lastMessage: number;
}

export interface ViewBreakReport {
  source: string;
  requests: number;
  breaks: ViewBreak[];
  totals: CauseTotal[];
  cost: number;
  providerMissShare: { breaks: number; cost: number };
  /** The cause whose breaks cost the most (absent: no break). */
  costliest?: BreakCause;
}

/** One request's share of its prompt read from the cache: as the log records it, and under the policy shown. */
export interface HitRate {
  request: number;
  /** Absent where the log has no usage for the request. */
  recorded?: number;
  simulated?: number;
}

export interface CacheView {
  thread: string;
  log: ViewBreakReport;
  policy: ViewBreakReport;
  hitRates: HitRate[];
  /** The provider's two cache lifetimes, when the log shows breaks a longer one speaks to (they are replayed when
   * `avoided` is asked for). */
  lifetimes?: Lifetimes;
  /** Absent until asked for (it replays the session twice). */
  avoided?: Avoided;
}

/** The message where the prompt first differs, for the causes whose evidence says. */
export function differsAt(e: BreakEvidence): number | undefined {
  return 'message' in e ? e.message : undefined;
}

function viewBreak(b: CacheBreak, lastMessage: number): ViewBreak {
  const out: ViewBreak = {
    request: b.request,
    index: b.index,
    cause: b.cause,
    words: b.words,
    expectedTokens: b.expectedTokens,
    readTokens: b.readTokens,
    tokens: b.tokens,
    cost: b.cost,
    lastMessage,
  };
  if (b.time) out.time = b.time;
  const at = differsAt(b.evidence);
  if (at !== undefined) out.differsAt = at;
  return out;
}

export function viewReport(r: CacheBreakReport, analysis: Pick<Analysis, 'requests'>): ViewBreakReport {
  const last = new Map(analysis.requests.map((q) => [q.index, Math.max(0, q.messageCount - 1)]));
  const out: ViewBreakReport = {
    source: r.source,
    requests: r.requests,
    breaks: r.breaks.map((b) => viewBreak(b, last.get(b.index) ?? 0)),
    totals: r.totals,
    cost: r.cost,
    providerMissShare: r.providerMissShare,
  };
  const top = costliestCause(r.totals);
  if (top) out.costliest = top.cause;
  return out;
}

/** Per sent request: the recorded read over the recorded prompt, and the replay's cached share of its prompt. */
export function hitRates(t: Transcript, shown: Pick<Analysis, 'requests'>): HitRate[] {
  const out: HitRate[] = [];
  for (const r of shown.requests) {
    if (r.pending) continue;
    const rate: HitRate = { request: r.index + 1 };
    const u = t.messages[r.messageCount]?.usage;
    const prompt = u ? u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens : 0;
    if (u && prompt > 0) rate.recorded = u.cacheReadInputTokens / prompt;
    if (r.promptTokens > 0) rate.simulated = r.cachedTokens / r.promptTokens;
    out.push(rate);
  }
  return out;
}

/** The header's line on the cache: what the breaks the log records cost, and their costliest cause (absent: no
 * break). The same whatever the policy shown, so it is all a view asks for while the Cache tab is hidden. */
export interface CacheHeadline {
  cost: number;
  costliest?: CauseTotal;
}

export function cacheHeadline(log: Pick<CacheBreakReport, 'cost' | 'totals'>): CacheHeadline {
  const costliest = costliestCause(log.totals);
  return costliest ? { cost: log.cost, costliest } : { cost: log.cost };
}

/** The most expensive cause of a report, if it has a break (the closed list's order decides a tie). */
export function costliestCause(totals: readonly CauseTotal[]): CauseTotal | undefined {
  let best: CauseTotal | undefined;
  for (const t of totals) if (t.breaks > 0 && (!best || t.cost > best.cost)) best = t;
  return best;
}
