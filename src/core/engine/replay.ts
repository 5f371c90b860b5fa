// SPEC §5 replay and the prompt cache: requests in order, the passes the trigger asks for, and per request the
// prompt, cached and written tokens, the cache boundary and the events behind it, and the cost.
import type { HiddenPrefixInfo, RequestAnalysis } from '../analysisTypes';
import { liveZonePass } from './liveZone';
import {
  ANTHROPIC_CACHE_READ_MULTIPLIER,
  ANTHROPIC_CACHE_TTL_MS,
  ANTHROPIC_CACHE_WRITE_MULTIPLIER,
  type ModelPreset,
  OPENAI_CACHE_MIN_TOKENS,
  OPENAI_CACHE_STEP_TOKENS,
} from './models';
import { observationPass } from './observation';
import type { ToolMatcher } from './patterns';
import type { Policy } from './policy';
import { policyPasses } from './policy';
import type { PreparedTranscript, ToolUseInfo } from './prepare';
import type { EngineState } from './state';
import type { SummaryOutcome } from './summarizer';
import { type SummaryRequest, type TieredRules, tieredPass } from './tiered';

export interface RunRules {
  policy: Policy;
  model: ModelPreset;
  tiered: TieredRules;
  observationUses: ToolUseInfo[];
  isObservationTool: ToolMatcher;
  hidden: HiddenPrefixInfo;
}

const requestTimes = new WeakMap<PreparedTranscript, Float64Array>();
/** Request k's time in ms (NaN when not recorded), parsed once per transcript. */
function requestTime(prep: PreparedTranscript, k: number): number | undefined {
  let times = requestTimes.get(prep);
  if (!times) {
    const messages = prep.transcript.messages;
    times = Float64Array.from(prep.requestEnds, (end) => {
      const ts = messages[end].timestamp;
      return ts ? Date.parse(ts) : Number.NaN;
    });
    requestTimes.set(prep, times);
  }
  return Number.isNaN(times[k]) ? undefined : times[k];
}

/** One pass of every policy the name enables, over [0, messageCount). */
export function* runPass(
  state: EngineState,
  rules: RunRules,
  messageCount: number,
): Generator<SummaryRequest, void, SummaryOutcome> {
  const passes = policyPasses(rules.policy.name);
  if (passes.observation)
    observationPass(state, rules.observationUses, rules.policy.observation.keep, messageCount);
  if (passes.tiered) yield* tieredPass(state, rules.tiered, messageCount);
  if (passes.liveZone) liveZonePass(state, rules.policy.liveZone, messageCount);
}

function cost(model: ModelPreset, cached: number, written: number, output: number): number {
  const perToken = (price: number) => price / 1_000_000;
  if (model.provider === 'anthropic') {
    const ttl = model.cacheTtl ?? '5m';
    return (
      cached * perToken(model.inputPrice) * ANTHROPIC_CACHE_READ_MULTIPLIER +
      written * perToken(model.inputPrice) * ANTHROPIC_CACHE_WRITE_MULTIPLIER[ttl] +
      output * perToken(model.outputPrice)
    );
  }
  return (
    cached * perToken(model.cachedInputPrice ?? model.inputPrice) +
    written * perToken(model.inputPrice) +
    output * perToken(model.outputPrice)
  );
}

function cachedForProvider(model: ModelPreset, tokens: number): number {
  if (model.provider === 'anthropic') return tokens;
  // OpenAI caches prefixes of 1024 tokens or more, in 128-token steps.
  return tokens >= OPENAI_CACHE_MIN_TOKENS
    ? Math.floor(tokens / OPENAI_CACHE_STEP_TOKENS) * OPENAI_CACHE_STEP_TOKENS
    : 0;
}

/** The recorded requests of a `once` replay, per transcript: no pass runs before the pending request, so they
 * depend only on the transcript, the model and the hidden prefix, never on the policy's constants. A threshold
 * change then replays only the pending request (a 10,000-message session has 2,500 recorded ones). */
const recordedOnce = new WeakMap<
  PreparedTranscript,
  { model: ModelPreset; hidden: HiddenPrefixInfo; requests: RequestAnalysis[] }
>();

/** A copy the caller owns (each Analysis has its own request objects, as without the memo). */
function copyRequest(r: RequestAnalysis): RequestAnalysis {
  return { ...r, boundaryEvents: [...r.boundaryEvents] };
}

/**
 * Replays the transcript request by request. `once` runs no pass on the recorded requests (they are what was
 * sent) and one pass for the next request, over every message: "if a pass ran now". `everyRequest` runs a pass
 * before each request; `pressure` only when the request reaches `pressureFraction` of the context window. The
 * last request is always that next, not yet sent, request (`pending`), whose pass gives the exported content.
 */
export function* replay(
  state: EngineState,
  rules: RunRules,
): Generator<SummaryRequest, RequestAnalysis[], SummaryOutcome> {
  const { prep } = state;
  const { policy, model, hidden } = rules;
  const messages = prep.transcript.messages;
  const ends = [...prep.requestEnds, messages.length];
  const requests: RequestAnalysis[] = [];
  const c = hidden.calibration;
  let prevEnd = 0;
  let prevStart = 0;
  let prevTime: number | undefined;
  // Message tokens sent by a request [start, end): after a compaction, the summary replaces what came before.
  const sent = (start: number, end: number) =>
    state.sums.prefix(end) -
    state.sums.prefix(start) +
    (start > 0 ? (prep.compactionSummaryTokens.get(start) ?? 0) : 0);
  const trigger = policy.replay.trigger;
  const found = trigger === 'once' ? recordedOnce.get(prep) : undefined;
  const memo = found && found.model === model && found.hidden === hidden ? found : undefined;
  let k = 0;
  if (memo) {
    for (; k < memo.requests.length; k++) {
      requests.push(copyRequest(memo.requests[k]));
      prevEnd = ends[k];
      prevStart = prep.requestStarts[k];
      const time = requestTime(prep, k);
      if (time !== undefined) prevTime = time;
    }
  }
  for (; k < ends.length; k++) {
    const end = ends[k];
    const start = prep.requestStarts[k];
    const pending = k === ends.length - 1;
    if (pending && end === 0) break;
    state.requestIndex = k;
    state.passMinMessage = Number.POSITIVE_INFINITY;
    state.passMinBlock = Number.POSITIVE_INFINITY;
    const firstEvent = state.events.length;
    const runs =
      trigger === 'everyRequest' ||
      pending ||
      (trigger === 'pressure' &&
        hidden.hiddenTokens + c * sent(start, end) >= policy.replay.pressureFraction * model.contextWindow);
    if (runs && (trigger !== 'once' || pending)) yield* runPass(state, rules, end);
    const promptTokens = Math.round(hidden.hiddenTokens + c * sent(start, end));
    // A compaction since the previous request changes everything after the hidden prefix.
    const compacted = k > 0 && start !== prevStart;
    let boundary: number | null =
      k === 0 || compacted ? start : Math.max(start, Math.min(state.passMinMessage, prevEnd));
    if (k > 0 && !compacted && boundary === prevEnd && end === prevEnd) boundary = null;
    const timestamp = pending ? undefined : messages[end].timestamp;
    const time = pending ? undefined : requestTime(prep, k);
    const ttl = ANTHROPIC_CACHE_TTL_MS[model.cacheTtl ?? '5m'];
    const expired =
      model.provider === 'anthropic' && time !== undefined && prevTime !== undefined && time - prevTime > ttl;
    let cachedRaw: number;
    if (expired) cachedRaw = 0;
    else if (k === 0) cachedRaw = hidden.warmAtStart ? hidden.warmTokens : 0;
    else if (compacted) cachedRaw = hidden.hiddenTokens;
    else {
      // Byte-identical prefix: the messages before the boundary, and when a rewrite put it there, the blocks of the
      // boundary message before the first rewritten one.
      const partial =
        boundary !== null && boundary === state.passMinMessage && boundary < prevEnd
          ? state.tokensBeforeBlock(boundary, state.passMinBlock)
          : 0;
      cachedRaw = hidden.hiddenTokens + c * (sent(start, boundary ?? end) + partial);
    }
    const cachedTokens = Math.min(promptTokens, cachedForProvider(model, Math.round(cachedRaw)));
    const writtenTokens = promptTokens - cachedTokens;
    const outputTokens = pending ? 0 : Math.round(c * state.messageTokens[end]);
    const boundaryEvents: number[] = [];
    for (let e = firstEvent; e < state.events.length; e++)
      if (state.events[e].messageIndex === boundary) boundaryEvents.push(e);
    const usage = pending ? undefined : messages[end].usage;
    const request: RequestAnalysis = {
      index: k,
      messageCount: end,
      promptTokens,
      cachedTokens,
      writtenTokens,
      boundaryMessage: boundary,
      boundaryEvents,
      cost: cost(model, cachedTokens, writtenTokens, outputTokens),
      outputTokens,
      pending,
      cacheExpired: expired,
      passRan: runs && (trigger !== 'once' || pending),
    };
    // Optional fields set only when present (spreading them in costs more than the rest of the loop).
    if (timestamp) request.timestamp = timestamp;
    if (usage)
      request.recorded = {
        inputTokens: usage.inputTokens,
        cacheReadInputTokens: usage.cacheReadInputTokens,
        cacheCreationInputTokens: usage.cacheCreationInputTokens,
        outputTokens: usage.outputTokens,
      };
    requests.push(request);
    prevEnd = end;
    prevStart = start;
    if (time !== undefined) prevTime = time;
  }
  if (trigger === 'once' && !memo)
    recordedOnce.set(prep, { model, hidden, requests: requests.filter((r) => !r.pending).map(copyRequest) });
  return requests;
}
