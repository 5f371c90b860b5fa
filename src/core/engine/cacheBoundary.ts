// The cache boundary of one request (SPEC §5): the first message whose bytes differ from what the previous request
// to the same cache sent, so that everything after it is written again.
import type { PreparedTranscript } from './prepare';
import type { EngineState } from './state';

/** What one model's cache holds: the prompt of the last request it answered. */
export interface ModelCache {
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

/** Where a request sending [start, end) stops matching the cache `prev` (its model's last request); null when it
 * sends nothing new. A compaction since `prev` (another `start`) changes everything after the hidden prefix. */
export function cacheBoundary(
  prep: PreparedTranscript,
  prev: ModelCache | undefined,
  start: number,
  end: number,
): number | null {
  if (prev === undefined || start !== prev.start) return start;
  let boundary: number | null = Math.max(start, Math.min(prev.rewrittenFrom, prev.end));
  if (boundary === prev.end && end === prev.end) boundary = null;
  if (prep.reasoning) {
    // A new user turn drops the reasoning the previous request still sent: the prompt differs from there on.
    const before = prep.reasoning.turnOf(prev.end);
    const now = prep.reasoning.turnOf(end);
    const dropped = now > before ? prep.reasoning.firstIn(Math.max(start, before), now) : -1;
    if (dropped >= 0) boundary = boundary === null ? dropped : Math.min(boundary, dropped);
  }
  if (prep.reloads?.between(prev.end, end)) {
    // The agent reloaded the conversation from its log: the prompt differs from the first message left out on.
    const left = prep.reloads.firstIn(start, prev.end + 1, end);
    if (left >= 0) boundary = boundary === null ? left : Math.min(boundary, left);
  }
  return boundary;
}

/** Tokens of the boundary message still byte-identical: when this request's own rewrite put the boundary there
 * (and `prev` is the request just before), the blocks before the first rewritten one. */
export function identicalBlocks(
  state: EngineState,
  prev: ModelCache,
  k: number,
  boundary: number | null,
): number {
  return boundary !== null &&
    prev.request === k - 1 &&
    boundary === state.passMinMessage &&
    boundary < prev.end
    ? state.tokensBeforeBlock(boundary, state.passMinBlock)
    : 0;
}

/** The events of this request (from `firstEvent` on) at its boundary message: what broke the cache. */
export function boundaryEvents(state: EngineState, firstEvent: number, boundary: number | null): number[] {
  const out: number[] = [];
  for (let e = firstEvent; e < state.events.length; e++)
    if (state.events[e].messageIndex === boundary) out.push(e);
  return out;
}

/** The cache a request leaves its model: its prompt, with nothing rewritten since. */
export function cacheAfter(
  request: number,
  start: number,
  end: number,
  time: number | undefined,
  recorded: { prompt: number | undefined; model: string | undefined; uncachedTail: number },
): ModelCache {
  return {
    request,
    start,
    end,
    time,
    rewrittenFrom: Number.POSITIVE_INFINITY,
    recordedPrompt: recorded.prompt,
    recordedModel: recorded.model,
    uncachedTail: recorded.uncachedTail,
  };
}
