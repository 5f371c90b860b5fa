// SPEC §5: what a policy costs is its total beside "none" over the same requests (the cache writes its rewrites
// cause against the tokens they save on every later request), and for one pass now ("once"), the next request's
// extra write against the saving per later request, and after how many requests it pays back.
import { type AnalyzeOptions, analyze, analyzeSync } from './analysis';
import type { Analysis, AnalysisTotals, Payback, RequestAnalysis, VsNone } from './analysisTypes';
import type { Baseline } from './engine/policies/replay';
import type { Policy } from './engine/policy';
import { billedCost, tablePrices } from './engine/prices';
import type { Transcript } from './model';

/** A policy's figures beside none over the same requests, as the report's rows and the sweep's cells give them. */
export interface CostAgainstNone {
  cost: number;
  /** none's simulated cost over the same requests. */
  noneCost: number;
  deltaCost: number;
  deltaShare: number;
  tokensSaved: number;
  extraWritten: number;
}

/** The run a policy is measured against, by `replay.baseline`:
 * - `as-logged`: no pass, the log's own compactions and their summarization requests (replay.ts prices them: from
 *   the agent's own record where read, else estimated). The trigger changes nothing but the `passRan` flags:
 *   `once` lets the replay reuse the recorded requests it already priced (replay.ts memo).
 * - `none`: no compaction at all, as far as the window allows: the log's compactions are not followed, and the
 *   conversation is summarized only where the context the agent counts reaches the model's whole window (a
 *   compaction at `threshold` 1, engine/compaction.ts). */
export function nonePolicy(policy: Policy): Policy {
  if (policy.replay.baseline === 'none')
    return {
      ...policy,
      name: 'compaction',
      replay: { ...policy.replay, trigger: 'everyRequest' },
      compaction: { ...policy.compaction, threshold: 1, keepRecentMessages: 0 },
    };
  return { ...policy, name: 'none', replay: { ...policy.replay, trigger: 'once' } };
}

/** The same policy as one pass before the next request: "if compacted now". */
export function oncePolicy(policy: Policy): Policy {
  return { ...policy, replay: { ...policy.replay, trigger: 'once' } };
}

/** The totals of `policy` beside those of `none` over the sent requests; the payback of one pass now when `now`
 * (a `once` analysis of the same policy, or the analysis itself when it ran once) is given. */
export function compareWithNone(
  policy: { totals: AnalysisTotals; requests: readonly RequestAnalysis[] },
  none: { totals: AnalysisTotals; requests: readonly RequestAnalysis[] },
  baseline: Baseline,
  now?: { requests: readonly RequestAnalysis[] },
): VsNone {
  const t = policy.totals;
  const n = none.totals;
  const deltaCost = t.cost - n.cost;
  const out: VsNone = {
    baseline,
    requests: policy.requests.filter((r) => !r.pending).length,
    cost: t.cost,
    noneCost: n.cost,
    deltaCost,
    deltaShare: n.cost > 0 ? deltaCost / n.cost : 0,
    promptTokens: t.promptTokens,
    nonePromptTokens: n.promptTokens,
    tokensSaved: n.promptTokens - t.promptTokens,
    writtenTokens: t.writtenTokens,
    noneWrittenTokens: n.writtenTokens,
    extraWritten: t.writtenTokens - n.writtenTokens,
  };
  const payback = now ? paybackOf(now.requests, none.requests) : null;
  if (payback) out.compactedNow = payback;
  return out;
}

/** The next request under one pass now against the next request under none; null when there is no next request. */
export function paybackOf(now: readonly RequestAnalysis[], none: readonly RequestAnalysis[]): Payback | null {
  const p = now.find((r) => r.pending);
  const z = none.find((r) => r.pending);
  if (!p || !z) return null;
  const savedTokensPerRequest = z.promptTokens - p.promptTokens;
  // Each later request reads the (shorter) prefix from cache under both: the difference is paid at the read price.
  const prices = p.model ? tablePrices(p.model) : undefined;
  const savedCostPerRequest =
    prices && savedTokensPerRequest > 0
      ? billedCost(prices, {
          input: 0,
          cacheRead: savedTokensPerRequest,
          cacheWrite5m: 0,
          cacheWrite1h: 0,
          output: 0,
        })
      : 0;
  const extraCost = p.cost - z.cost;
  return {
    extraWrittenTokens: p.writtenTokens - z.writtenTokens,
    extraCost,
    savedTokensPerRequest,
    savedCostPerRequest,
    paybackRequests:
      extraCost <= 0 ? 0 : savedCostPerRequest > 0 ? Math.ceil(extraCost / savedCostPerRequest) : null,
  };
}

/** Whether a pass run once is the analysis itself (then its own next request gives the payback). */
export function ranOnce(analysis: Pick<Analysis, 'trigger'>): boolean {
  return analysis.trigger === 'once';
}

/** `analysis` (of `policy`) beside none, with the payback of one pass now, for the CLI: runs none (summarizer none)
 * and, unless the analysis ran once, the policy once. Undefined for `none` itself. */
export function vsNoneSync(
  transcript: Transcript,
  policy: Policy,
  analysis: Analysis,
  options: AnalyzeOptions = {},
): VsNone | undefined {
  if (policy.name === 'none') return undefined;
  const none = analyzeSync(transcript, nonePolicy(policy), { ...options, summarizer: null }).analysis;
  const now = ranOnce(analysis) ? analysis : analyzeSync(transcript, oncePolicy(policy), options).analysis;
  return compareWithNone(analysis, none, policy.replay.baseline, now);
}

/** The same with a summarizer that may need awaiting (export). */
export async function vsNoneAsync(
  transcript: Transcript,
  policy: Policy,
  analysis: Analysis,
  options: AnalyzeOptions = {},
): Promise<VsNone | undefined> {
  if (policy.name === 'none') return undefined;
  const none = (await analyze(transcript, nonePolicy(policy), { ...options, summarizer: null })).analysis;
  const now = ranOnce(analysis)
    ? analysis
    : (await analyze(transcript, oncePolicy(policy), options)).analysis;
  return compareWithNone(analysis, none, policy.replay.baseline, now);
}
