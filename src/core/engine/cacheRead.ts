// The cached part of one request's prompt (SPEC §5): the byte-identical prefix its cache still holds, capped by
// what the log shows was read when it shows a break the transcript cannot explain, in the provider's granularity.
import type { RecordedUsage } from '../model';
import { identicalBlocks, type ModelCache } from './cacheBoundary';
import { cacheRulesFor, readShowsReply, replyInCache } from './cacheRules';
import type { ModelPrices } from './prices';
import type { RequestContents } from './requestContents';
import { type RequestPricing, simulatesRetention } from './requests';
import type { EngineState } from './state';

/** One request as the cache sees it. */
export interface CacheQuery {
  k: number;
  start: number;
  end: number;
  pending: boolean;
  /** Whether it sends what the log sent (then the log's usage speaks for it). */
  asLogged: boolean;
  boundary: number | null;
  /** Its cache: the last request of its model, if any. */
  prev: ModelCache | undefined;
  expired: boolean;
  /** Whether the cache had expired under the lifetime the log's writes used (`expired` when the replay's is that
   * one): then a cold read in the log is the log's expiry, not a break every lifetime would have seen. */
  expiredInLog: boolean;
  promptTokens: number;
  prices: ModelPrices;
  key: string;
  /** The log's usage, prompt and answering model of the request (none for the pending one). */
  usage: RecordedUsage | undefined;
  recordedPrompt: number | undefined;
  recordedModel: string | undefined;
}

export interface CacheContext {
  state: EngineState;
  contents: RequestContents;
  pricing: RequestPricing;
  /** The prompts of the requests before (to size what the previous one left unwritten). */
  promptOf: (request: number) => number;
}

/** The cached tokens of the request, and whether the log shows a break there. */
export function cachedTokens(
  cx: CacheContext,
  q: CacheQuery,
): { cachedTokens: number; recordedBreak: boolean } {
  const { prev, expired, asLogged, usage, recordedPrompt, promptTokens } = q;
  const compacted = prev !== undefined && q.start !== prev.start;
  // The agent's mode changed since `prev` (Roo Code, Kilo Code): each mode sends a system prompt of its own.
  const modeChanged =
    prev !== undefined && cx.state.prep.transcript.messages[prev.end]?.agentMode !== cx.contents.mode;
  const rules = cacheRulesFor(q.prices);
  let cachedRaw = heldPrefix(cx, q, compacted, modeChanged);
  let recordedBreak = false;
  // The cached part is the log's read, scaled to our count: an automatic cache's read is whole 128-token steps
  // already, and is not floored to a step again (a read scaled by 0.9999 then lost a step).
  let readFromLog = false;
  // A switch of the answering model explains a cold cache: under one preset for every request it does not happen.
  const switched = q.recordedModel !== prev?.recordedModel;
  const explained = expired || q.expiredInLog || compacted || switched || modeChanged;
  if (usage && recordedPrompt && prev?.recordedPrompt && asLogged && !explained) {
    // A break the log shows and the transcript cannot explain (tools loaded mid-session, the agent's own clearing
    // of old results, a provider-side miss) happened whatever the policy: the cache holds no more than was read
    // then. What the previous request to this model put in the cache, by the log's own figures:
    const expected = Math.min(prev.recordedPrompt, recordedPrompt);
    if (rules.recordedBreak(expected, usage.cacheReadInputTokens)) {
      recordedBreak = true;
      const scaled = (usage.cacheReadInputTokens / recordedPrompt) * promptTokens;
      if (scaled <= cachedRaw) {
        cachedRaw = scaled;
        readFromLog = true;
      }
    }
  } else if (usage && recordedPrompt && asLogged && compacted && !expired && !switched) {
    // After a compaction only the stable start of the hidden prefix (system prompt, tools) can still be cached;
    // how much of it did, the log says (what the agent re-attaches after the summary varies).
    const scaled = (usage.cacheReadInputTokens / recordedPrompt) * promptTokens;
    if (scaled <= cachedRaw) {
      cachedRaw = scaled;
      readFromLog = true;
    }
  }
  if (prev?.uncachedTail && asLogged && !expired && !compacted && !switched)
    // Anthropic writes a prompt up to its last cache breakpoint: what the previous request sent past it (the log's
    // input_tokens) was never written, and cannot be read now. (The log counts in the model's tokenizer, the prompt in
    // ours: an endpoint that cached nothing sent more input than our count of its prompt, and leaves nothing.)
    cachedRaw = Math.min(cachedRaw, Math.max(0, cx.promptOf(prev.request) - prev.uncachedTail));
  const cached = Math.min(
    promptTokens,
    readFromLog ? Math.round(cachedRaw) : rules.cachedOf(Math.round(cachedRaw)),
  );
  return { cachedTokens: cached, recordedBreak };
}

/** What the cache holds of the prompt by the transcript alone (unrounded, before the provider's granularity). */
function heldPrefix(cx: CacheContext, q: CacheQuery, compacted: boolean, modeChanged: boolean): number {
  const { state, contents, pricing } = cx;
  const { prev, start, end, boundary } = q;
  const hidden = contents.hiddenAt(start);
  // A cold cache (expired, or the model's first request) may still hold the system prompt and tools, written by
  // the user's other sessions or sub-agents: as much of them as the log read then, the same under every policy
  // (not when the replay asks what another cache lifetime would have done).
  const loggedRead =
    q.pending || !q.asLogged || !pricing.ttlAsLogged || simulatesRetention(pricing, q.prices)
      ? 0
      : (state.prep.transcript.messages[end].usage?.cacheReadInputTokens ?? 0);
  const warmHidden = Math.min(hidden, loggedRead);
  if (q.expired || modeChanged) return warmHidden;
  const info = contents.fit.info;
  if (q.k === 0) return info.warmAtStart ? Math.min(info.warmTokens, hidden) : 0;
  if (prev === undefined) return warmHidden;
  if (compacted) return Math.min(hidden, contents.hiddenAt(prev.start));
  // Byte-identical prefix: the messages before the boundary, the identical blocks of the boundary message, and
  // what of the previous reply the cache kept after that prompt (cacheRules.ts `replyInCache`).
  const partial = identicalBlocks(state, prev, q.k, boundary);
  const messages = state.prep.transcript.messages;
  const kept =
    boundary === prev.end && prev.end < end
      ? replyInCache(
          q.prices.provider,
          pricing.keyedByModel,
          q.key,
          () =>
            q.asLogged &&
            readShowsReply(
              messages[end]?.usage?.cacheReadInputTokens,
              prev.recordedPrompt,
              messages[prev.end].usage?.outputTokens,
            ),
        )
      : 'none';
  const reply =
    kept === 'none'
      ? 0
      : kept === 'reply'
        ? contents.sent(prev.end, prev.end + 1, end)
        : (state.prep.reasoning?.of(prev.end) ?? 0);
  return hidden + contents.c * (contents.sent(start, boundary ?? end, end) + partial + reply);
}
