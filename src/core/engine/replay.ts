// SPEC §5 replay and the prompt cache: requests in order, the passes the trigger asks for, and per request the
// prompt, cached and written tokens, the cache boundary and the events behind it, and the cost. Each of those is a
// module of its own (requestContents, compactionRequest, requestAnalysis, and for the cache cacheBoundary,
// cacheTimes, cacheRead, cacheRules); this is the loop that asks them in order.
import type { RequestAnalysis } from '../analysisTypes';
import { cacheAfter, type ModelCache } from './cacheBoundary';
import { requestTime } from './cacheTimes';
import { CompactionRun } from './compaction';
import {
  addedSummarizations,
  compactBefore,
  loggedCompactionBefore,
  summarizationRequest,
  summarizedSegments,
} from './compactionRequest';
import { type ContextEditingRules, contextEditingPass } from './contextEditing';
import { liveZonePass } from './liveZone';
import { microcompactPass } from './microcompact';
import type { ModelPreset } from './models';
import { observationPass } from './observation';
import type { ToolMatcher } from './patterns';
import { clearingRuleOf, compactionRuleOf } from './policies/registry';
import type { Policy, ResolvedTrigger } from './policy';
import { policyPasses } from './policy';
import type { ToolUseInfo } from './prepare';
import { copyRequest, keepRecordedOnce, recordedOnce } from './recordedOnce';
import { analyseRequest, recordedAt } from './requestAnalysis';
import { type ContentRules, RequestContents } from './requestContents';
import type { RequestPricing } from './requests';
import type { EngineState } from './state';
import type { SummaryOutcome } from './summarizer';
import { type SummaryRequest, type TieredRules, tieredPass } from './tiered';

export type { ModelFit } from './requestContents';

/** The policy's settings as the passes read them, with the hidden prefix of the requests' contents. */
export interface RunRules extends ContentRules {
  policy: Policy;
  /** `policy.replay.trigger` with `auto` resolved for this transcript (policy.ts `resolveTrigger`). */
  trigger: ResolvedTrigger;
  model: ModelPreset;
  tiered: TieredRules;
  contextEditing: ContextEditingRules;
  observationUses: ToolUseInfo[];
  isObservationTool: ToolMatcher;
  pricing: RequestPricing;
}

/** One pass of every client-side policy the name enables, over the request's messages [firstMessage, messageCount).
 * The server's context editing runs after it, in the replay (it needs the prompt the client sends). */
export function* runPass(
  state: EngineState,
  rules: RunRules,
  messageCount: number,
  firstMessage = 0,
): Generator<SummaryRequest, void, SummaryOutcome> {
  const passes = policyPasses(rules.policy.name);
  if (passes.observation)
    observationPass(state, rules.observationUses, rules.policy.observation.keep, messageCount);
  if (passes.tiered) yield* tieredPass(state, rules.tiered, messageCount, firstMessage);
  if (passes.liveZone) liveZonePass(state, rules.policy.liveZone, messageCount);
}

/** Yielded every `PAUSE_EVERY` requests: a driver that gives way (AnalyzeOptions.giveWayEveryMs) lets other work
 * run there once its slice is used, and stops when asked; the others carry on at once. Often, so that a slice
 * ends close to its time; not a summary request (compared by identity). */
export const PAUSE: SummaryRequest = Object.freeze({ toolName: '', content: '' });
const PAUSE_EVERY = 8;

/**
 * Replays the transcript request by request. `once` runs no pass on the recorded requests (they are what was
 * sent) and one pass for the next request, over every message: "if a pass ran now". `everyRequest` runs a pass
 * before each request; `pressure` only when the request reaches `pressureFraction` of the context window. The
 * last request is always that next, not yet sent, request (`pending`), whose pass gives the exported content.
 * `serverPass` is the server's context editing (tests hand in the documented rule walked in full, to hold the
 * incremental pass to it request by request).
 */
export function* replay(
  state: EngineState,
  rules: RunRules,
  serverPass: typeof contextEditingPass = contextEditingPass,
): Generator<SummaryRequest, RequestAnalysis[], SummaryOutcome> {
  const { prep } = state;
  const { policy, model, hidden, pricing, trigger } = rules;
  const messages = prep.transcript.messages;
  const ends = [...prep.requestEnds, messages.length];
  const requests: RequestAnalysis[] = [];
  // Each model has its own cache: the last request it answered, and the first message rewritten since.
  const caches = new Map<string, ModelCache>();
  const passes = policyPasses(policy.name);
  // Compaction decides the segments itself (compaction.ts), by the rule of the policy's strategy; under `once` only
  // the next request may compact.
  const compactionRule = compactionRuleOf(policy, model.contextWindow);
  const compaction = compactionRule
    ? new CompactionRun(state, compactionRule, trigger !== 'once')
    : undefined;
  const clearing = clearingRuleOf(policy);
  const contents = new RequestContents(state, rules, compaction);
  const promptAt = (request: number) => requests[request].promptTokens;
  const context = { state, contents, pricing, promptOf: promptAt };
  // Per request: whether it sends what the log sent (then the log's usage speaks for it).
  const asLoggedAt: boolean[] = [];
  const memo = trigger === 'once' ? recordedOnce(prep, model, hidden, pricing) : undefined;
  let k = 0;
  for (; memo && k < memo.requests.length; k++) {
    requests.push(copyRequest(memo.requests[k]));
    asLoggedAt[k] = true;
    contents.answering = messages[ends[k]].model ?? contents.answering;
    contents.mode = messages[ends[k]].agentMode ?? contents.mode;
    const key = pricing.cacheKey[k];
    const time = requestTime(prep, k) ?? caches.get(key)?.time;
    caches.set(key, cacheAfter(k, prep.requestStarts[k], ends[k], time, recordedAt(context, k, ends[k])));
  }
  for (; k < ends.length; k++) {
    if (k % PAUSE_EVERY === PAUSE_EVERY - 1) yield PAUSE;
    const end = ends[k];
    const pending = k === ends.length - 1;
    if (pending && end === 0) break;
    // The pending request goes to the model that answered last; a summarization before it, to the model before.
    const summarizingModel = contents.answering;
    if (!pending) {
      contents.answering = messages[end].model ?? contents.answering;
      contents.mode = messages[end].agentMode ?? contents.mode;
    }
    contents.answer();
    const c = contents.c;
    state.requestIndex = k;
    state.passMinMessage = Number.POSITIVE_INFINITY;
    state.passMinBlock = Number.POSITIVE_INFINITY;
    const firstEvent = state.events.length;
    const compactedFrom = compaction
      ? compactBefore(state, compaction, contents, requests, asLoggedAt, k, ends)
      : undefined;
    const start = compaction ? compaction.start : prep.requestStarts[k];
    // What this request sends is what the log sent (its recorded usage speaks for it).
    const asLogged =
      start === prep.requestStarts[k] &&
      !(compaction?.simulate === true && compactedFrom && !compactedFrom.fromLog);
    asLoggedAt[k] = asLogged;
    // The log's own compaction, where the replay follows it (its summarization request was paid too).
    const summarized =
      compactedFrom ??
      (compaction?.simulate === true || start !== prep.requestStarts[k]
        ? undefined
        : loggedCompactionBefore(state, contents, requests, k));
    const summarizing = {
      k,
      model: summarizingModel,
      caches,
      pricing,
      time: pending ? undefined : requestTime(prep, k),
      onTrack: asLoggedAt[k - 1] === true,
      promptOf: promptAt,
    };
    // One summarization request per compaction: the log may have compacted more than once before this request.
    const summarization = summarized
      ? addedSummarizations(
          summarizedSegments(state, contents, summarized, ends[k - 1], compaction?.simulate === true).map(
            (from) => summarizationRequest(state, contents, from, end, start, summarizing),
          ),
        )
      : undefined;
    const acts = trigger !== 'once' || pending;
    const runs =
      trigger === 'everyRequest' ||
      pending ||
      (trigger === 'pressure' &&
        contents.prompt(start, end) >= policy.replay.pressureFraction * model.contextWindow);
    if (runs && acts) yield* runPass(state, rules, end, start);
    // The agent's clearing after an idle gap (a sent request's: the next one's gap is not known yet).
    if (clearing && acts && !pending) microcompactPass(state, clearing, k, start, end);
    // The server's context editing, on every request it receives (under `once`: the next one only), sees the
    // prompt the client sends: what it cleared before is back in it.
    if (passes.contextEditing && acts)
      serverPass(
        state,
        rules.contextEditing,
        start,
        end,
        contents.hiddenAt(start) +
          c * (contents.sent(start, end) + state.serverSaved.prefix(end) - state.serverSaved.prefix(start)),
      );
    for (const cache of caches.values())
      cache.rewrittenFrom = Math.min(cache.rewrittenFrom, state.passMinMessage);
    const key = pricing.cacheKey[k];
    const at = {
      k,
      start,
      end,
      pending,
      asLogged,
      passRan: runs && acts,
      firstEvent,
      summarization,
    };
    const { request, cache } = analyseRequest(context, at, caches.get(key));
    requests.push(request);
    caches.set(key, cache);
  }
  if (trigger === 'once' && !memo) keepRecordedOnce(prep, model, hidden, pricing, requests);
  return requests;
}
