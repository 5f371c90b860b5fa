// The compaction trigger's count and the summarization request it sends (compaction.ts, SPEC §5).
import type { RequestAnalysis, SummarizationRequest } from '../analysisTypes';
import type { RecordedUsage } from '../model';
import type { ModelCache } from './cacheBoundary';
import { cacheRulesFor } from './cacheRules';
import type { CompactionRun } from './compaction';
import type { ModelPrices } from './prices';
import type { RequestContents } from './requestContents';
import type { RequestPricing } from './requests';
import type { EngineState } from './state';

export function promptOf(u: RecordedUsage | NonNullable<RequestAnalysis['recorded']>): number {
  return u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens;
}

/** What the agent counts before request k (compaction.ts): where the simulation still sends what the log sent
 * (`onTrack`), the log's own figures (its count at its compactions, else the API's count of that very request);
 * elsewhere the previous prompt and the messages since. */
export function agentCount(
  state: EngineState,
  compaction: CompactionRun,
  c: number,
  previous: RequestAnalysis,
  onTrack: boolean,
  k: number,
  previousEnd: number,
  end: number,
): number {
  const prep = state.prep;
  const logged = compaction.loggedBetween(previousEnd, end);
  if (onTrack && logged?.preTokens !== undefined) return logged.preTokens;
  const usage = k < prep.requestEnds.length ? prep.transcript.messages[end].usage : undefined;
  if (onTrack && !logged && usage && promptOf(usage) > 0) return promptOf(usage);
  const base = onTrack && previous.recorded ? promptOf(previous.recorded) : previous.promptTokens;
  return base + c * (state.sums.prefix(end) - state.sums.prefix(previousEnd));
}

/** Where a compaction before this request started from, and what the agent counted then. */
export interface CompactedFrom {
  start: number;
  summary: number;
  context: number;
  fromLog: boolean;
}

/** Compaction before request k: where the sent requests are the log's, the segment the log's request starts; then,
 * where the policy decides (a simulation, or the next request), a summary first when the context the agent counts
 * reaches the threshold. Returns where it compacted from, if it did. */
export function compactBefore(
  state: EngineState,
  compaction: CompactionRun,
  contents: RequestContents,
  requests: readonly RequestAnalysis[],
  asLoggedAt: readonly boolean[],
  k: number,
  ends: readonly number[],
): CompactedFrom | undefined {
  const prep = state.prep;
  if (!compaction.simulate) {
    compaction.start = prep.requestStarts[k];
    compaction.summary = compaction.start > 0 ? (prep.compactionSummaryTokens.get(compaction.start) ?? 0) : 0;
  }
  const pending = k === ends.length - 1;
  if (k === 0 || !(compaction.simulate || pending)) return undefined;
  const { rule } = compaction;
  const previousEnd = ends[k - 1];
  const end = ends[k];
  const c = contents.c;
  const onTrack = asLoggedAt[k - 1] === true;
  let context: number;
  if (rule.count === 'input') context = contents.prompt(compaction.start, end);
  else {
    context = agentCount(state, compaction, c, requests[k - 1], onTrack, k, previousEnd, end);
    // Codex adds back the reasoning of earlier turns, which the API no longer counts (reasoning.ts).
    if (rule.count === 'agentWithReasoning')
      context += c * (prep.reasoning?.dropped(compaction.start, end, end) ?? 0);
  }
  // The server compacts past its trigger; the agents once their count reaches it.
  if (rule.count === 'input' ? !(context > rule.triggerTokens) : !(context >= rule.triggerTokens))
    return undefined;
  const from = { start: compaction.start, summary: compaction.summary };
  const fromLog = compaction.compact(previousEnd, end, rule.summaryTokens / c);
  return { ...from, context, fromLog };
}

/** The summarization request: the conversation so far, the previous request's prompt read from its cache. */
export function summarizationRequest(
  state: EngineState,
  contents: RequestContents,
  compaction: CompactionRun,
  from: CompactedFrom,
  end: number,
  keptFrom: number,
  prices: ModelPrices,
  pricing: RequestPricing,
  read: { prev: ModelCache | undefined; expired: boolean; promptOf: (request: number) => number },
): SummarizationRequest {
  const prep = state.prep;
  const { c } = contents;
  const prompt = Math.round(
    contents.hiddenAt(from.start) +
      c *
        (state.sums.prefix(end) -
          state.sums.prefix(from.start) +
          from.summary -
          (prep.reasoning?.dropped(from.start, end, end) ?? 0) -
          (state.leftOut?.dropped(from.start, end, end) ?? 0)),
  );
  const { prev } = read;
  const rules = cacheRulesFor(prices);
  const cachedFrom = prev && !read.expired && prev.start === from.start ? read.promptOf(prev.request) : 0;
  const cached = Math.min(prompt, rules.cachedOf(cachedFrom));
  const output = Math.round(c * compaction.summary);
  return {
    contextTokens: Math.round(from.context),
    promptTokens: prompt,
    cachedTokens: cached,
    writtenTokens: prompt - cached,
    outputTokens: output,
    fromLog: from.fromLog,
    cost: rules.cost(prices, pricing.ttl, cached, prompt - cached, output),
    keptFrom,
  };
}
