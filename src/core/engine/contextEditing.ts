// Anthropic context editing (beta header `context-management-2025-06-27`, request field
// `context_management.edits`), simulated from its documentation. It runs on Anthropic's server, on each request as
// the server receives it, after whatever the client did; the client keeps and sends its full history.
//
// `clear_tool_uses_20250919`, as documented:
//   - `trigger` (default 100,000 input tokens; or a number of tool uses): clearing starts once the prompt exceeds it;
//   - the oldest tool results are cleared first, in order, and replaced by placeholder text; the newest `keep` tool
//     uses (default 3) stay; `exclude_tools` are never cleared; `clear_tool_inputs` also clears the calls' inputs;
//   - `clear_at_least`: if the edit cannot clear at least that many tokens, it is not applied.
// `clear_thinking_20251015`: thinking blocks of all but the newest `keep` assistant turns with thinking are cleared.
//
// Not documented, and read here as follows (the figures are simulated from the documented behaviour):
//   - The server keeps no state between requests: each request's edit is worked out from that request alone. As
//     the conversation only grows, once the prompt exceeds the trigger every later request is edited too, and
//     every tool use that falls out of the newest `keep` is cleared before the next request: the prompt then
//     differs from the previous one from that result on, and the cache is written again from there (the cost
//     developers report). The replay sees it as a rewrite like any other (state.ts) and moves the cache boundary.
//   - `clear_at_least` weighs everything the request's edit clears (the server cannot tell what an earlier request
//     cleared): it holds back the first clearing only.
//   - `keep` counts the newest tool uses of every tool, excluded ones included; a call's results all go with it.
//   - The placeholder is `[cleared]` (the text of the open-source middleware that mirrors this strategy); a
//     cleared input becomes `{}`; a cleared thinking block is removed (counted as empty).
//   - An assistant turn runs from a user message that is not only tool results to the next one.
import type { ClearedFact } from '../analysisTypes';
import { derive, derived } from './derived';
import type { ToolMatcher } from './patterns';
import type { ContextEditingSettings } from './policy';
import { type BlockRef, blockKey, type ContentInfo, contentInfo } from './prepare';
import { countBelow } from './sorted';
import type { EngineState } from './state';

// The request's words live with the strategy's descriptor, which also writes the lines that turn it on.
export {
  CLEAR_THINKING,
  CLEAR_TOOL_USES,
  CONTEXT_EDITING_BETA,
  contextManagementBlock,
} from './policies/contextEditing';
export const CLEARED_TOOL_RESULT = '[cleared]';
export const CLEARED_TOOL_INPUT = '{}';

export interface ContextEditingRules {
  settings: ContextEditingSettings;
  isExcluded: ToolMatcher;
}

/** Per transcript: the tool uses' message indices (sorted, for the range of a request) and the assistant turns. */
interface Layout {
  useMessages: number[];
  /** Per message: the turn it belongs to (a turn starts at a user message that is not only tool results). */
  turnOf: Int32Array;
  /** Messages holding thinking blocks, in order. */
  thinkingMessages: number[];
  /** Per position in `thinkingMessages`: how many distinct turns come before its own (turns only grow along the
   * messages, so the turns of a range are counted by two lookups). */
  thinkingTurn: Int32Array;
  /** Per such count: the first position in `thinkingMessages` of that turn. */
  turnFirst: number[];
}
const layouts = derived('contextEditingLayout', (prep): Layout => {
  const messages = prep.transcript.messages;
  const turnOf = new Int32Array(messages.length);
  const thinkingMessages: number[] = [];
  let turn = 0;
  messages.forEach((m, i) => {
    if (m.role === 'user' && m.blocks.some((b) => b.type !== 'tool_result')) turn++;
    turnOf[i] = turn;
    if (m.role === 'assistant' && m.blocks.some((b) => b.type === 'thinking')) thinkingMessages.push(i);
  });
  const thinkingTurn = new Int32Array(thinkingMessages.length);
  const turnFirst: number[] = [];
  thinkingMessages.forEach((m, i) => {
    if (i === 0 || turnOf[m] !== turnOf[thinkingMessages[i - 1]]) turnFirst.push(i);
    thinkingTurn[i] = turnFirst.length - 1;
  });
  return {
    useMessages: prep.toolUseList.map((u) => u.messageIndex),
    turnOf,
    thinkingMessages,
    thinkingTurn,
    turnFirst,
  };
});

function memoInfo(state: EngineState, table: Map<string, ContentInfo>, text: string): ContentInfo {
  let info = table.get(text);
  if (!info) {
    info = contentInfo(text, state.counter);
    table.set(text, info);
  }
  return info;
}
/** The placeholders' sizes, counted once per preparation (its tokenizer counts them). */
const placeholders = derived('contextEditingPlaceholders', (): Map<string, ContentInfo> => new Map());

/** A block the edit clears: a call's result or input, or a thinking block. The edit walks them in `order` (the
 * call's position in `toolUseList`, or the message's in `thinkingMessages`), then `sub` (a result's place among the
 * call's results, the input after them; a thinking block's index). */
interface Target {
  order: number;
  sub: number;
  ref: BlockRef;
  key: number;
  kind: ClearedFact['kind'];
  toolUseId?: string;
}
const byWalk = (a: Target, b: Target) => a.order - b.order || a.sub - b.sub;

/** A block counted in the tokens the edit frees: what it frees as the client holds it now, for how many calls. */
interface Counted {
  ref: BlockRef;
  placeholder: number;
  tokens: number;
  times: number;
}

/**
 * What the pass carries from one request of a segment to the next, so that each request costs what is new in it
 * rather than a walk of every older call. Within a segment the start stays and the end only grows, so the calls
 * older than the newest `keep` only grow too (a prefix), and a block cleared stays cleared:
 *   - the tokens the edit would free are a running sum over the calls of that prefix (`freed`), each block weighed
 *     once when its call enters the prefix or, for a result sent after later messages, when it arrives; a block the
 *     client rewrites later (tiered, the live zone) is weighed again from `state.clientChanges`;
 *   - the edit, when applied, walks only the calls that entered the prefix since the last applied edit (`walked`),
 *     and of the older ones only what became clearable since: results that arrived, and blocks a rewrite could not
 *     change (content already the placeholder, an input already `{}`) whose client content then changed.
 * A new segment (a compaction) starts from scratch.
 */
interface Carry {
  rules: ContextEditingRules;
  start: number;
  end: number;
  /** Position in `state.clientChanges` read up to. */
  changesRead: number;
  /** Calls [firstUse, counted) are in the sum; calls [firstUse, walked) were walked by an applied edit. */
  countedUpTo: number;
  walked: number;
  freed: number;
  counted: Map<number, Counted>;
  /** Results of counted calls not sent yet, by the message that sends them. */
  arriving: Map<number, Target[]>;
  /** Older targets to try at the next applied edit (results that arrived, blocks whose client content changed). */
  ready: Target[];
  /** Targets whose rewrite changed nothing, by block: tried again once the client's content of the block changes. */
  stuck: Map<number, Target[]>;
  /** Thinking: positions in `thinkingMessages` [from, thinkingWalked) were walked; older targets to try again. */
  thinkingWalked: number;
  thinkingReady: Target[];
}
// Keyed by the replay's state, not by the transcript: a carry is one run's progress through a segment (two runs over
// one preparation under different settings each have their own), and it goes with the run's state.
const carries = new WeakMap<EngineState, Carry>();

function carryFor(
  state: EngineState,
  rules: ContextEditingRules,
  start: number,
  end: number,
  firstUse: number,
  firstThinking: number,
): Carry {
  const c = carries.get(state);
  if (c && c.rules === rules && c.start === start && c.end <= end) return c;
  const fresh: Carry = {
    rules,
    start,
    end,
    changesRead: state.clientChanges.length,
    countedUpTo: firstUse,
    walked: firstUse,
    freed: 0,
    counted: new Map(),
    arriving: new Map(),
    ready: [],
    stuck: new Map(),
    thinkingWalked: firstThinking,
    thinkingReady: [],
  };
  carries.set(state, fresh);
  return fresh;
}

/** Counts a block in the tokens the edit frees (once more when another call names the same result). */
function count(state: EngineState, c: Carry, ref: BlockRef, key: number, placeholder: number): void {
  const counted = c.counted.get(key);
  if (counted) {
    counted.times++;
    c.freed += counted.tokens;
    return;
  }
  const tokens = Math.max(0, state.clientInfo(ref).tokens - placeholder);
  c.counted.set(key, { ref, placeholder, tokens, times: 1 });
  c.freed += tokens;
}

/** Clears a target not cleared yet; one whose rewrite changes nothing waits for the client to change the block.
 * Returns whether it cleared it. */
function clear(state: EngineState, c: Carry, t: Target, info: ContentInfo): boolean {
  if (state.isCleared(t.ref)) return false;
  if (state.rewrite(t.ref, info, 'context_edit', undefined, t.toolUseId)) {
    state.cleared.push({
      message: t.ref.messageIndex,
      block: t.ref.blockIndex,
      request: state.requestIndex,
      kind: t.kind,
    });
    return true;
  }
  const stuck = c.stuck.get(t.key);
  if (stuck) stuck.push(t);
  else c.stuck.set(t.key, [t]);
  return false;
}

/**
 * The server's edit of the request that sends messages [start, end), whose prompt as the client sends it is
 * `clientPrompt` input tokens. Blocks it clears stay cleared for the later requests (the edit of a longer
 * conversation clears at least as much); only the newly cleared ones are rewritten, and they move the cache boundary.
 */
export function contextEditingPass(
  state: EngineState,
  rules: ContextEditingRules,
  start: number,
  end: number,
  clientPrompt: number,
): void {
  const { prep } = state;
  const s = rules.settings;
  const layout = derive(prep, layouts);
  const table = derive(prep, placeholders);
  const cleared = memoInfo(state, table, CLEARED_TOOL_RESULT);
  const emptyInput = memoInfo(state, table, CLEARED_TOOL_INPUT);
  const empty = memoInfo(state, table, '');
  const firstUse = countBelow(layout.useMessages, start);
  const lastUse = countBelow(layout.useMessages, end);
  const from = countBelow(layout.thinkingMessages, start);
  const to = countBelow(layout.thinkingMessages, end);
  const c = carryFor(state, rules, start, end, firstUse, from);
  const toolUses = lastUse - firstUse;
  const fact = {
    request: state.requestIndex,
    promptTokens: Math.round(clientPrompt),
    toolUses,
    freedTokens: 0,
    thinkingTurns: 0,
  };
  let clearedAny = false;

  // What the client changed since the previous request: weigh those blocks again, and retry the stuck ones.
  const changes = state.clientChanges;
  for (; c.changesRead < changes.length; c.changesRead++) {
    const key = changes[c.changesRead];
    const counted = c.counted.get(key);
    if (counted) {
      const tokens = Math.max(0, state.clientInfo(counted.ref).tokens - counted.placeholder);
      c.freed += (tokens - counted.tokens) * counted.times;
      counted.tokens = tokens;
    }
    const stuck = c.stuck.get(key);
    if (stuck) {
      c.stuck.delete(key);
      for (const t of stuck) (t.kind === 'thinking' ? c.thinkingReady : c.ready).push(t);
    }
  }
  // Results sent since the previous request, of calls already counted.
  for (let m = c.end; m < end; m++) {
    const arrived = c.arriving.get(m);
    if (!arrived) continue;
    c.arriving.delete(m);
    for (const t of arrived) {
      count(state, c, t.ref, t.key, cleared.tokens);
      // A call the edit walked before it arrived: the next applied edit clears it in its turn.
      if (t.order < c.walked) c.ready.push(t);
    }
  }
  c.end = end;
  // Every use older than the newest `keep`, not excluded, with its results in this request.
  const older = lastUse - s.keep;
  for (; c.countedUpTo < older; c.countedUpTo++) {
    const use = prep.toolUseList[c.countedUpTo];
    if (rules.isExcluded(use.name)) continue;
    const results = prep.resultsByToolUse.get(use.id) ?? [];
    for (let i = 0; i < results.length; i++) {
      const r = results[i];
      if (r.messageIndex < start) continue;
      const key = blockKey(r.messageIndex, r.blockIndex);
      if (r.messageIndex < end) count(state, c, r, key, cleared.tokens);
      else {
        const t: Target = {
          order: c.countedUpTo,
          sub: i,
          ref: r,
          key,
          kind: 'tool_result',
          toolUseId: use.id,
        };
        const list = c.arriving.get(r.messageIndex);
        if (list) list.push(t);
        else c.arriving.set(r.messageIndex, [t]);
      }
    }
    if (s.clearToolInputs) {
      const ref = { messageIndex: use.messageIndex, blockIndex: use.blockIndex };
      count(state, c, ref, blockKey(ref.messageIndex, ref.blockIndex), emptyInput.tokens);
    }
  }

  const triggered = s.triggerType === 'input_tokens' ? clientPrompt > s.trigger : toolUses > s.trigger;
  if (triggered) {
    fact.freedTokens = c.freed;
    if (c.freed > 0 && c.freed >= s.clearAtLeast) {
      // The older targets first (they come first in the walk), then the calls that entered the prefix since.
      const ready = c.ready.sort(byWalk);
      c.ready = [];
      for (const t of ready)
        if (clear(state, c, t, t.kind === 'tool_input' ? emptyInput : cleared)) clearedAny = true;
      for (; c.walked < older; c.walked++) {
        const use = prep.toolUseList[c.walked];
        if (rules.isExcluded(use.name)) continue;
        const results = prep.resultsByToolUse.get(use.id) ?? [];
        for (let i = 0; i < results.length; i++) {
          const r = results[i];
          if (r.messageIndex < start || r.messageIndex >= end) continue;
          const key = blockKey(r.messageIndex, r.blockIndex);
          const t: Target = { order: c.walked, sub: i, ref: r, key, kind: 'tool_result', toolUseId: use.id };
          if (clear(state, c, t, cleared)) clearedAny = true;
        }
        if (s.clearToolInputs) {
          const ref = { messageIndex: use.messageIndex, blockIndex: use.blockIndex };
          const key = blockKey(ref.messageIndex, ref.blockIndex);
          const t: Target = {
            order: c.walked,
            sub: results.length,
            ref,
            key,
            kind: 'tool_input',
            toolUseId: use.id,
          };
          if (clear(state, c, t, emptyInput)) clearedAny = true;
        }
      }
    }
  }

  // clear_thinking_20251015: the thinking of all but the newest `keep` turns with thinking. A session whose format
  // counts reasoning at its recorded size (OpenAI) has no Anthropic thinking to clear.
  if (s.clearThinkingKeep !== 'all' && !prep.reasoning && to > from) {
    const turns = layout.thinkingTurn[to - 1] - layout.thinkingTurn[from] + 1;
    fact.thinkingTurns = turns;
    if (turns > s.clearThinkingKeep) {
      // Thinking messages before the first of the kept turns.
      const stop = layout.turnFirst[layout.thinkingTurn[to - 1] + 1 - s.clearThinkingKeep];
      const ready = c.thinkingReady.sort(byWalk);
      c.thinkingReady = [];
      for (const t of ready) if (clear(state, c, t, empty)) clearedAny = true;
      for (; c.thinkingWalked < stop; c.thinkingWalked++) {
        const m = layout.thinkingMessages[c.thinkingWalked];
        const blocks = prep.transcript.messages[m].blocks;
        for (let b = 0; b < blocks.length; b++) {
          if (blocks[b].type !== 'thinking') continue;
          const ref = { messageIndex: m, blockIndex: b };
          const t: Target = { order: c.thinkingWalked, sub: b, ref, key: blockKey(m, b), kind: 'thinking' };
          if (clear(state, c, t, empty)) clearedAny = true;
        }
      }
    }
  }
  if (clearedAny) state.clearings.push(fact);
}
