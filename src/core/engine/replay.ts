// SPEC §5 replay and the prompt cache: requests in order, the passes the trigger asks for, and per request the
// prompt, cached and written tokens, the cache boundary and the events behind it, and the cost.
import type { HiddenPrefixInfo, RequestAnalysis, SummarizationRequest } from '../analysisTypes';
import type { Message, RecordedUsage } from '../model';
import { CompactionRun } from './compaction';
import { type ContextEditingRules, contextEditingPass } from './contextEditing';
import { liveZonePass } from './liveZone';
import {
  ANTHROPIC_CACHE_TTL_MS,
  cachesWholeReply,
  type ModelPreset,
  OPENAI_CACHE_MIN_TOKENS,
  OPENAI_CACHE_STEP_TOKENS,
} from './models';
import { observationPass } from './observation';
import type { ToolMatcher } from './patterns';
import type { Policy, ResolvedTrigger } from './policy';
import { policyPasses } from './policy';
import type { PreparedTranscript, ToolUseInfo } from './prepare';
import { billedCost, type ModelPrices } from './prices';
import type { RequestPricing } from './requests';
import { countBelow } from './sorted';
import type { EngineState } from './state';
import type { SummaryOutcome } from './summarizer';
import { type SummaryRequest, type TieredRules, tieredPass } from './tiered';

export interface RunRules {
  policy: Policy;
  /** `policy.replay.trigger` with `auto` resolved for this transcript (policy.ts `resolveTrigger`). */
  trigger: ResolvedTrigger;
  model: ModelPreset;
  tiered: TieredRules;
  contextEditing: ContextEditingRules;
  observationUses: ToolUseInfo[];
  isObservationTool: ToolMatcher;
  hidden: HiddenPrefixInfo;
  /** Hidden tokens per segment between compactions (by its first message), where the log allowed an estimate. */
  hiddenBySegment: ReadonlyMap<number, number>;
  /** The same per model that answered, when several did (calibration.ts): a request counts and hides at its own. */
  hiddenByModel?: ReadonlyMap<string, ModelFit>;
  pricing: RequestPricing;
}

const offBranchUses = new WeakMap<PreparedTranscript, { model: string | undefined; time: number }[]>();
/** The replies of this conversation on an abandoned branch (a rewound or edited turn), by time. Each sent the
 * conversation up to where the branch left it, so it used (and, past its lifetime, wrote again) the cache of every
 * request before the rewind: the cache of the request after it has not expired then, whatever the gap. */
function offBranchTimes(prep: PreparedTranscript): { model: string | undefined; time: number }[] {
  let uses = offBranchUses.get(prep);
  if (!uses) {
    const replies = prep.transcript.replies ?? [];
    // The thread replayed: the main one (`main`, model.ts) when it has replies, else the sub-agent this one is.
    const thread = replies.some((r) => r.onBranch && r.thread === 'main')
      ? 'main'
      : replies.find((r) => r.onBranch)?.thread;
    uses = [];
    for (const r of replies) {
      const time = r.timestamp ? Date.parse(r.timestamp) : Number.NaN;
      if (!r.onBranch && r.thread === thread && !Number.isNaN(time)) uses.push({ model: r.model, time });
    }
    uses.sort((a, b) => a.time - b.time);
    offBranchUses.set(prep, uses);
  }
  return uses;
}

/** The last time the cache `key` was used before `time`: its previous request's, or a later off-branch reply's. */
function lastUse(
  prep: PreparedTranscript,
  pricing: RequestPricing,
  key: string,
  since: number,
  time: number,
): number {
  let last = since;
  for (const use of offBranchTimes(prep)) {
    if (use.time > time) break;
    if (use.time > last && (!pricing.keyedByModel || use.model === key)) last = use.time;
  }
  return last;
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

/** Anthropic bills what it writes to the cache at the lifetime's rate; an automatic cache bills a write at the
 * table's write price where the model has one (GPT-5.6: 1.25× the input), else as input. */
function cost(
  prices: ModelPrices,
  ttl: '5m' | '1h',
  cached: number,
  written: number,
  output: number,
): number {
  if (prices.cache === 'anthropic')
    return billedCost(prices, {
      input: 0,
      cacheRead: cached,
      cacheWrite5m: ttl === '5m' ? written : 0,
      cacheWrite1h: ttl === '1h' ? written : 0,
      output,
    });
  return billedCost(prices, { input: 0, cacheRead: cached, cacheWrite5m: written, cacheWrite1h: 0, output });
}

function cachedForProvider(prices: ModelPrices, tokens: number): number {
  if (prices.cache === 'anthropic') return tokens;
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
  { model: ModelPreset; hidden: HiddenPrefixInfo; pricing: RequestPricing; requests: RequestAnalysis[] }
>();

/** A copy the caller owns (each Analysis has its own request objects, as without the memo). */
function copyRequest(r: RequestAnalysis): RequestAnalysis {
  return { ...r, boundaryEvents: [...r.boundaryEvents] };
}

/** Yielded every `PAUSE_EVERY` requests: a driver that may be stopped (AnalyzeOptions.signal) lets other work
 * run there and stops when asked; the others carry on at once. Not a summary request (compared by identity). */
export const PAUSE: SummaryRequest = Object.freeze({ toolName: '', content: '' });
const PAUSE_EVERY = 256;

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
  const { policy, model, hidden, pricing } = rules;
  const messages = prep.transcript.messages;
  const ends = [...prep.requestEnds, messages.length];
  const requests: RequestAnalysis[] = [];
  // The fit of the model that answers request k (set at the top of each request): its count factor, its hidden part.
  const sessionFit: ModelFit = { info: hidden, bySegment: rules.hiddenBySegment };
  let fit = sessionFit;
  let c = hidden.calibration;
  const fitOf = (model: string | undefined) =>
    (model !== undefined ? rules.hiddenByModel?.get(model) : undefined) ?? sessionFit;
  let answering: string | undefined;
  const hiddenOf = (start: number) => fit.bySegment.get(start) ?? fit.info.hiddenTokens;
  const ttlMs = ANTHROPIC_CACHE_TTL_MS[pricing.ttl];
  // Each model has its own cache: the last request it answered, and the first message rewritten since.
  const caches = new Map<string, ModelCache>();
  const trigger = rules.trigger;
  const passes = policyPasses(policy.name);
  // Compaction decides the segments itself (compaction.ts); under `once` only the next request may compact.
  const compaction = passes.compaction
    ? new CompactionRun(state, policy.compaction, trigger !== 'once')
    : undefined;
  const simulated = compaction?.simulate === true;
  // Message tokens of [start, upTo) as a request ending before `end` sends them: after a compaction the summary
  // replaces what came before; reasoning of earlier user turns is no longer sent (reasoning.ts).
  const summaryAt = (start: number) =>
    compaction
      ? start === compaction.start
        ? compaction.summary
        : 0
      : start > 0
        ? (prep.compactionSummaryTokens.get(start) ?? 0)
        : 0;
  // Per request: whether it sends what the log sent (then the log's usage speaks for it).
  const asLoggedAt: boolean[] = [];
  // A request to one model does not send the thinking other models signed (thinking.ts).
  const sent = (start: number, upTo: number, end = upTo) =>
    state.sums.prefix(upTo) -
    state.sums.prefix(start) +
    summaryAt(start) -
    (prep.reasoning?.dropped(start, upTo, end) ?? 0) -
    (state.leftOut?.dropped(start, upTo, end) ?? 0) -
    (prep.foreignThinking?.dropped(answering, start, upTo) ?? 0);
  // A simulated segment's hidden prefix is that of the log's segment it starts in.
  const segmentKeys = new Map<ModelFit, number[]>();
  const hiddenAt = simulated
    ? (start: number) => {
        let keys = segmentKeys.get(fit);
        if (!keys) {
          keys = [...fit.bySegment.keys()].sort((a, b) => a - b);
          segmentKeys.set(fit, keys);
        }
        const i = countBelow(keys, start + 1) - 1;
        return i >= 0 ? (fit.bySegment.get(keys[i]) ?? fit.info.hiddenTokens) : fit.info.hiddenTokens;
      }
    : hiddenOf;
  const compactAt = policy.compaction.threshold * model.contextWindow;
  // What the agent counts before request k (compaction.ts): where the simulation still sends what the log sent, the
  // log's own figures (its count at its compactions, else the API's count of that very request); elsewhere the
  // previous prompt and the messages since.
  const agentCount = (k: number, previousEnd: number, end: number): number => {
    const onTrack = asLoggedAt[k - 1] === true;
    const logged = compaction?.loggedBetween(previousEnd, end);
    if (onTrack && logged?.preTokens !== undefined) return logged.preTokens;
    const usage = k < prep.requestEnds.length ? messages[end].usage : undefined;
    if (onTrack && !logged && usage && promptOf(usage) > 0) return promptOf(usage);
    const previous = requests[k - 1];
    const base = onTrack && previous.recorded ? promptOf(previous.recorded) : previous.promptTokens;
    return base + c * (state.sums.prefix(end) - state.sums.prefix(previousEnd));
  };
  const found = trigger === 'once' ? recordedOnce.get(prep) : undefined;
  const memo =
    found && found.model === model && found.hidden === hidden && found.pricing === pricing
      ? found
      : undefined;
  let k = 0;
  if (memo) {
    for (; k < memo.requests.length; k++) {
      requests.push(copyRequest(memo.requests[k]));
      asLoggedAt[k] = true;
      answering = messages[ends[k]].model ?? answering;
      const time = requestTime(prep, k);
      const key = pricing.cacheKey[k];
      caches.set(key, {
        request: k,
        start: prep.requestStarts[k],
        end: ends[k],
        time: time ?? caches.get(key)?.time,
        rewrittenFrom: Number.POSITIVE_INFINITY,
        recordedPrompt: recordedPromptOf(memo.requests[k]),
        recordedModel: messages[ends[k]].model,
        uncachedTail: uncachedTailOf(pricing.prices[k], messages[ends[k]].usage),
      });
    }
  }
  for (; k < ends.length; k++) {
    if (k % PAUSE_EVERY === PAUSE_EVERY - 1) yield PAUSE;
    const end = ends[k];
    const pending = k === ends.length - 1;
    if (pending && end === 0) break;
    // The pending request goes to the model that answered last.
    if (!pending) answering = messages[end].model ?? answering;
    fit = fitOf(answering);
    c = fit.info.calibration;
    state.requestIndex = k;
    state.passMinMessage = Number.POSITIVE_INFINITY;
    state.passMinBlock = Number.POSITIVE_INFINITY;
    const firstEvent = state.events.length;
    // Compaction: summarize first when the context the agent counts reaches the threshold.
    let compactedFrom: { start: number; summary: number; context: number; fromLog: boolean } | undefined;
    if (compaction && !simulated) {
      compaction.start = prep.requestStarts[k];
      compaction.summary =
        compaction.start > 0 ? (prep.compactionSummaryTokens.get(compaction.start) ?? 0) : 0;
    }
    if (compaction && k > 0 && (simulated || pending)) {
      const previousEnd = ends[k - 1];
      const context = agentCount(k, previousEnd, end);
      if (context >= compactAt) {
        const from = { start: compaction.start, summary: compaction.summary };
        const fromLog = compaction.compact(previousEnd, end, policy.compaction.summaryTokens / c);
        compactedFrom = { ...from, context, fromLog };
      }
    }
    const start = compaction ? compaction.start : prep.requestStarts[k];
    // What this request sends is what the log sent (its recorded usage speaks for it).
    const asLogged =
      start === prep.requestStarts[k] && !(simulated && compactedFrom && !compactedFrom.fromLog);
    asLoggedAt[k] = asLogged;
    const runs =
      trigger === 'everyRequest' ||
      pending ||
      (trigger === 'pressure' &&
        hiddenAt(start) + c * sent(start, end) >= policy.replay.pressureFraction * model.contextWindow);
    if (runs && (trigger !== 'once' || pending)) yield* runPass(state, rules, end, start);
    // The server's context editing, on every request it receives (under `once`: the next one only), sees the
    // prompt the client sends: what it cleared before is back in it.
    if (passes.contextEditing && (trigger !== 'once' || pending))
      serverPass(
        state,
        rules.contextEditing,
        start,
        end,
        hiddenAt(start) +
          c * (sent(start, end) + state.serverSaved.prefix(end) - state.serverSaved.prefix(start)),
      );
    for (const cache of caches.values())
      cache.rewrittenFrom = Math.min(cache.rewrittenFrom, state.passMinMessage);
    const prices = pricing.prices[k];
    const key = pricing.cacheKey[k];
    const prev = caches.get(key);
    const promptTokens = Math.round(hiddenAt(start) + c * sent(start, end));
    // A compaction since the model's previous request changes everything after the hidden prefix.
    const compacted = prev !== undefined && start !== prev.start;
    let boundary: number | null =
      prev === undefined || compacted ? start : Math.max(start, Math.min(prev.rewrittenFrom, prev.end));
    if (prev && !compacted && boundary === prev.end && end === prev.end) boundary = null;
    if (prev && !compacted && prep.reasoning) {
      // A new user turn drops the reasoning the previous request still sent: the prompt differs from there on.
      const before = prep.reasoning.turnOf(prev.end);
      const now = prep.reasoning.turnOf(end);
      const dropped = now > before ? prep.reasoning.firstIn(Math.max(start, before), now) : -1;
      if (dropped >= 0) boundary = boundary === null ? dropped : Math.min(boundary, dropped);
    }
    if (prev && !compacted && prep.reloads?.between(prev.end, end)) {
      // The agent reloaded the conversation from its log: the prompt differs from the first message left out on.
      const left = prep.reloads.firstIn(start, prev.end + 1, end);
      if (left >= 0) boundary = boundary === null ? left : Math.min(boundary, left);
    }
    const timestamp = pending ? undefined : messages[end].timestamp;
    const time = pending ? undefined : requestTime(prep, k);
    const expired =
      prices.cache === 'anthropic' &&
      time !== undefined &&
      prev?.time !== undefined &&
      time - prev.time > ttlMs &&
      time - lastUse(prep, pricing, key, prev.time, time) > ttlMs;
    let cachedRaw: number;
    // A cold cache (expired, or the model's first request) may still hold the system prompt and tools, written by
    // the user's other sessions or sub-agents: as much of them as the log read then, the same under every policy
    // (not when the replay asks what another cache lifetime would have done).
    const loggedRead =
      pending || !asLogged || !pricing.ttlAsLogged ? 0 : (messages[end].usage?.cacheReadInputTokens ?? 0);
    const warmHidden = Math.min(hiddenAt(start), loggedRead);
    if (expired) cachedRaw = warmHidden;
    else if (k === 0) cachedRaw = fit.info.warmAtStart ? Math.min(fit.info.warmTokens, hiddenAt(start)) : 0;
    else if (prev === undefined) cachedRaw = warmHidden;
    else if (compacted) cachedRaw = Math.min(hiddenAt(start), hiddenAt(prev.start));
    else {
      // Byte-identical prefix: the messages before the boundary, and when this request's rewrite put it there, the
      // blocks of the boundary message before the first rewritten one.
      const partial =
        boundary !== null &&
        prev.request === k - 1 &&
        boundary === state.passMinMessage &&
        boundary < prev.end
          ? state.tokensBeforeBlock(boundary, state.passMinBlock)
          : 0;
      // OpenAI keeps what it generated for the previous reply in its cache after that prompt: the reasoning (the
      // log's reads pass the previous prompt by about the reply's reasoning tokens), or for some models the whole
      // reply (models.ts). Anthropic caches prompts only, but a request the log does not hold (the agent's own,
      // after a reply: Claude Code 2.1.14x) may have sent the conversation with that reply: the log's read then
      // passes the previous prompt by about the reply's output, and the reply is read back whatever the policy.
      // Other automatic caches (DeepSeek) keep the whole reply where the log's read shows it.
      const replyNext = boundary === prev.end && prev.end < end;
      const replyKept =
        replyNext && (prices.provider === 'openai' || (asLogged && sideRequestRead(messages, prev, end)));
      const reasoningCached = !replyKept
        ? 0
        : prices.provider !== 'openai' || (pricing.keyedByModel && cachesWholeReply(key))
          ? sent(prev.end, prev.end + 1, end)
          : (prep.reasoning?.of(prev.end) ?? 0);
      cachedRaw = hiddenAt(start) + c * (sent(start, boundary ?? end, end) + partial + reasoningCached);
    }
    // A break the log shows and the transcript cannot explain (tools loaded mid-session, the agent's own clearing of
    // old results, a provider-side miss) happened whatever the policy: the cache holds no more than was read then.
    const usage = pending ? undefined : messages[end].usage;
    let recordedBreak = false;
    // The cached part is the log's read, scaled to our count: an automatic cache's read is whole 128-token steps
    // already, and is not floored to a step again (a read scaled by 0.9999 then lost a step: 22 of the 38 misses of
    // a GPT-5.2 Codex rollout read 128 tokens under the log, its written total +5.6%).
    let readFromLog = false;
    const recordedPrompt = usage ? promptOf(usage) : undefined;
    // A switch of the answering model explains a cold cache: under one preset for every request it does not happen.
    const recordedModel = pending ? undefined : messages[end].model;
    const switched = recordedModel !== prev?.recordedModel;
    if (usage && recordedPrompt && prev?.recordedPrompt && asLogged && !expired && !compacted && !switched) {
      // What the previous request to this model put in the cache, by the log's own figures.
      const expected = Math.min(prev.recordedPrompt, recordedPrompt);
      const read = usage.cacheReadInputTokens;
      const short = expected - read;
      const broke =
        prices.cache === 'automatic'
          ? short > OPENAI_CACHE_STEP_TOKENS
          : read < RECORDED_BREAK_SHARE * expected && short > RECORDED_BREAK_MIN_TOKENS;
      if (broke) {
        recordedBreak = true;
        const scaled = (read / recordedPrompt) * promptTokens;
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
      // input_tokens: 19,990 of 113,336 at a Claude Code 2.1.19 request whose next one read 93,346, its read and
      // write exactly) was never written, and cannot be read now.
      cachedRaw = Math.min(cachedRaw, requests[prev.request].promptTokens - prev.uncachedTail);
    const cachedTokens = Math.min(
      promptTokens,
      readFromLog ? Math.round(cachedRaw) : cachedForProvider(prices, Math.round(cachedRaw)),
    );
    const writtenTokens = promptTokens - cachedTokens;
    const outputTokens = pending ? 0 : Math.round(c * state.messageTokens[end]);
    const boundaryEvents: number[] = [];
    for (let e = firstEvent; e < state.events.length; e++)
      if (state.events[e].messageIndex === boundary) boundaryEvents.push(e);
    let summarization: SummarizationRequest | undefined;
    if (compactedFrom) {
      // The summarization request: the conversation so far, the previous request's prompt read from its cache.
      const prompt = Math.round(
        hiddenAt(compactedFrom.start) +
          c *
            (state.sums.prefix(end) -
              state.sums.prefix(compactedFrom.start) +
              compactedFrom.summary -
              (prep.reasoning?.dropped(compactedFrom.start, end, end) ?? 0) -
              (state.leftOut?.dropped(compactedFrom.start, end, end) ?? 0)),
      );
      const read =
        prev && !expired && prev.start === compactedFrom.start ? requests[prev.request].promptTokens : 0;
      const cachedS = Math.min(prompt, cachedForProvider(prices, read));
      const output = Math.round(c * compaction!.summary);
      summarization = {
        contextTokens: Math.round(compactedFrom.context),
        promptTokens: prompt,
        cachedTokens: cachedS,
        writtenTokens: prompt - cachedS,
        outputTokens: output,
        fromLog: compactedFrom.fromLog,
        cost: cost(prices, pricing.ttl, cachedS, prompt - cachedS, output),
        keptFrom: start,
      };
    }
    const request: RequestAnalysis = {
      index: k,
      messageCount: end,
      promptTokens,
      cachedTokens,
      writtenTokens,
      boundaryMessage: boundary,
      boundaryEvents,
      cost: cost(prices, pricing.ttl, cachedTokens, writtenTokens, outputTokens) + (summarization?.cost ?? 0),
      outputTokens,
      pending,
      cacheExpired: expired,
      passRan: runs && (trigger !== 'once' || pending),
      model: prices.id,
    };
    // Optional fields set only when present (spreading them in costs more than the rest of the loop).
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
    requests.push(request);
    caches.set(key, {
      request: k,
      start,
      end,
      time: time ?? prev?.time,
      rewrittenFrom: Number.POSITIVE_INFINITY,
      recordedPrompt,
      recordedModel,
      uncachedTail: uncachedTailOf(prices, usage),
    });
  }
  if (trigger === 'once' && !memo)
    recordedOnce.set(prep, {
      model,
      hidden,
      pricing,
      requests: requests.filter((r) => !r.pending).map(copyRequest),
    });
  return requests;
}

/** An Anthropic cache read below this share of what the log says the previous request cached, and short of it by
 * more than this many tokens, is a break the log shows. OpenAI reports cached tokens in 128-token steps: a read
 * short by more than one step is one (within a Codex turn the prompt only grows, yet about a quarter of GPT-5.x
 * requests read less than the previous prompt; at the thresholds above they were taken as cached, and the
 * written tokens ran 9–20% under the log). */
const RECORDED_BREAK_SHARE = 0.8;
/** What an Anthropic request sends past its last cache breakpoint when the breakpoint is on its last block: 1-16
 * input tokens in the Claude Code logs we have. More says the breakpoint stood before part of the conversation. */
const BREAKPOINT_TAIL_TOKENS = 64;
const RECORDED_BREAK_MIN_TOKENS = 1024;

/** Whether the log's read at the request ending before `end` passes the previous prompt by at least half the
 * previous reply's output (and more than the 128-token noise of a read): the reply was in the cache. */
function sideRequestRead(messages: readonly Message[], prev: ModelCache, end: number): boolean {
  const read = messages[end]?.usage?.cacheReadInputTokens;
  const output = messages[prev.end].usage?.outputTokens;
  if (read === undefined || output === undefined || prev.recordedPrompt === undefined) return false;
  const beyond = read - prev.recordedPrompt;
  return beyond > 128 && beyond >= output / 2;
}

/** Anthropic: the tokens the log says a request sent past its last cache breakpoint, when more than the few every
 * request sends there. */
function uncachedTailOf(prices: ModelPrices, usage: RecordedUsage | undefined): number {
  return prices.cache === 'anthropic' && usage && usage.inputTokens > BREAKPOINT_TAIL_TOKENS
    ? usage.inputTokens
    : 0;
}

function promptOf(u: RecordedUsage | NonNullable<RequestAnalysis['recorded']>): number {
  return u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens;
}

function recordedPromptOf(r: RequestAnalysis): number | undefined {
  return r.recorded ? promptOf(r.recorded) : undefined;
}

/** One model's hidden part and count factor (calibration.ts). */
export interface ModelFit {
  info: HiddenPrefixInfo;
  bySegment: ReadonlyMap<number, number>;
}

/** What one model's cache holds: the prompt of the last request it answered. */
interface ModelCache {
  request: number;
  start: number;
  end: number;
  time: number | undefined;
  /** The first message rewritten since that request (every later byte differs). */
  rewrittenFrom: number;
  /** That request's prompt and answering model as the log recorded them. */
  recordedPrompt: number | undefined;
  recordedModel: string | undefined;
  /** Anthropic: the tokens the log says that request sent past its last cache breakpoint, never written (0 when
   * no more than the few every request sends there). */
  uncachedTail: number;
}
