// One request of the replay as the analysis reports it (SPEC §5): its prompt, the cached and written parts, the
// boundary and the events behind it, the lifetime, the log's usage, and its cost with the summarization before it.
import type { RequestAnalysis, SummarizationRequest } from '../analysisTypes';
import { boundaryEvents, cacheAfter, cacheBoundary, type ModelCache } from './cacheBoundary';
import { type CacheContext, cachedTokens } from './cacheRead';
import { cacheRulesFor } from './cacheRules';
import { cacheExpired, requestTime } from './cacheTimes';
import { promptOf } from './compactionRequest';
import { cacheLifetimes } from './requests';

/** Where the replay stands at request k, after its passes. */
export interface RequestAt {
  k: number;
  start: number;
  end: number;
  pending: boolean;
  asLogged: boolean;
  passRan: boolean;
  /** The first event of this request's passes. */
  firstEvent: number;
  /** The summarization request before this one, when a compaction (the log's or a simulated one) came between. */
  summarization: SummarizationRequest | undefined;
}

/** The log's figures of request k that its cache keeps (none for the pending request). */
export function recordedAt(cx: CacheContext, k: number, end: number) {
  const usage = cx.state.prep.transcript.messages[end].usage;
  return {
    prompt: usage ? promptOf(usage) : undefined,
    model: cx.state.prep.transcript.messages[end].model,
    uncachedTail: cacheRulesFor(cx.pricing.prices[k]).uncachedTail(usage),
  };
}

/** The request, and the cache it leaves its model; `prev` is that model's cache before it. */
export function analyseRequest(
  cx: CacheContext,
  at: RequestAt,
  prev: ModelCache | undefined,
): { request: RequestAnalysis; cache: ModelCache } {
  const { state, contents, pricing } = cx;
  const prep = state.prep;
  const messages = prep.transcript.messages;
  const { k, start, end, pending, asLogged, summarization } = at;
  const c = contents.c;
  const prices = pricing.prices[k];
  const key = pricing.cacheKey[k];
  const promptTokens = Math.round(contents.prompt(start, end));
  const boundary = cacheBoundary(prep, prev, start, end);
  const time = pending ? undefined : requestTime(prep, k);
  const rules = cacheRulesFor(prices);
  // The log's lifetime differs where the replay asks what another would have done (SPEC §5's cacheTtl, and
  // OpenAI's retention).
  const life = cacheLifetimes(pricing, prices);
  const expired = cacheExpired(prep, life.now, pricing.keyedByModel, key, prev?.time, time);
  const expiredInLog =
    life.log === life.now
      ? expired
      : cacheExpired(prep, life.log, pricing.keyedByModel, key, prev?.time, time);
  const usage = pending ? undefined : messages[end].usage;
  const recorded = pending
    ? { prompt: undefined, model: undefined, uncachedTail: 0 }
    : recordedAt(cx, k, end);
  const { cachedTokens: cached, recordedBreak } = cachedTokens(cx, {
    k,
    start,
    end,
    pending,
    asLogged,
    boundary,
    prev,
    expired,
    expiredInLog,
    promptTokens,
    prices,
    key,
    usage,
    recordedPrompt: recorded.prompt,
    recordedModel: recorded.model,
  });
  const outputTokens = pending ? 0 : Math.round(c * state.messageTokens[end]);
  const request: RequestAnalysis = {
    index: k,
    messageCount: end,
    promptTokens,
    cachedTokens: cached,
    writtenTokens: promptTokens - cached,
    boundaryMessage: boundary,
    boundaryEvents: boundaryEvents(state, at.firstEvent, boundary),
    cost:
      rules.cost(prices, pricing.ttl, cached, promptTokens - cached, outputTokens) +
      (summarization?.cost ?? 0),
    outputTokens,
    pending,
    cacheExpired: expired,
    passRan: at.passRan,
    model: prices.id,
  };
  // Optional fields set only when present (spreading them in costs more than the rest of the loop).
  const timestamp = pending ? undefined : messages[end].timestamp;
  if (timestamp) request.timestamp = timestamp;
  if (start > 0) request.firstMessage = start;
  if (summarization) request.compaction = summarization;
  if (recordedBreak) request.recordedCacheBreak = true;
  if (usage)
    request.recorded = {
      inputTokens: usage.inputTokens,
      cacheReadInputTokens: usage.cacheReadInputTokens,
      cacheCreationInputTokens: usage.cacheCreationInputTokens,
      outputTokens: usage.outputTokens,
    };
  return { request, cache: cacheAfter(k, start, end, time ?? prev?.time, recorded) };
}
