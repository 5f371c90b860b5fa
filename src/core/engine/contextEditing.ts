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
import type { ToolMatcher } from './patterns';
import type { ContextEditingSettings } from './policy';
import { type BlockRef, type ContentInfo, contentInfo, type PreparedTranscript } from './prepare';
import { countBelow } from './sorted';
import type { EngineState } from './state';

export const CONTEXT_EDITING_BETA = 'context-management-2025-06-27';
export const CLEAR_TOOL_USES = 'clear_tool_uses_20250919';
export const CLEAR_THINKING = 'clear_thinking_20251015';
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
}
const layouts = new WeakMap<PreparedTranscript, Layout>();

function layoutOf(prep: PreparedTranscript): Layout {
  let l = layouts.get(prep);
  if (l) return l;
  const messages = prep.transcript.messages;
  const turnOf = new Int32Array(messages.length);
  const thinkingMessages: number[] = [];
  let turn = 0;
  messages.forEach((m, i) => {
    if (m.role === 'user' && m.blocks.some((b) => b.type !== 'tool_result')) turn++;
    turnOf[i] = turn;
    if (m.role === 'assistant' && m.blocks.some((b) => b.type === 'thinking')) thinkingMessages.push(i);
  });
  l = { useMessages: prep.toolUseList.map((u) => u.messageIndex), turnOf, thinkingMessages };
  layouts.set(prep, l);
  return l;
}

function memoInfo(prep: PreparedTranscript, table: Map<string, ContentInfo>, text: string): ContentInfo {
  let info = table.get(text);
  if (!info) {
    info = contentInfo(text, prep.counter);
    table.set(text, info);
  }
  return info;
}
const placeholders = new WeakMap<PreparedTranscript, Map<string, ContentInfo>>();

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
  const layout = layoutOf(prep);
  let table = placeholders.get(prep);
  if (!table) {
    table = new Map();
    placeholders.set(prep, table);
  }
  const cleared = memoInfo(prep, table, CLEARED_TOOL_RESULT);
  const emptyInput = memoInfo(prep, table, CLEARED_TOOL_INPUT);
  const empty = memoInfo(prep, table, '');
  const firstUse = countBelow(layout.useMessages, start);
  const lastUse = countBelow(layout.useMessages, end);
  const toolUses = lastUse - firstUse;
  const fact = {
    request: state.requestIndex,
    promptTokens: Math.round(clientPrompt),
    toolUses,
    freedTokens: 0,
    thinkingTurns: 0,
  };
  let clearedAny = false;

  const triggered = s.triggerType === 'input_tokens' ? clientPrompt > s.trigger : toolUses > s.trigger;
  if (triggered) {
    // Every use older than the newest `keep`, not excluded, with its results in this request.
    const targets: { use: (typeof prep.toolUseList)[number]; results: BlockRef[] }[] = [];
    let freed = 0;
    for (let u = firstUse; u < lastUse - s.keep; u++) {
      const use = prep.toolUseList[u];
      if (rules.isExcluded(use.name)) continue;
      const results = (prep.resultsByToolUse.get(use.id) ?? []).filter(
        (r) => r.messageIndex >= start && r.messageIndex < end,
      );
      targets.push({ use, results });
      for (const r of results) freed += Math.max(0, state.clientInfo(r).tokens - cleared.tokens);
      if (s.clearToolInputs) {
        const ref = { messageIndex: use.messageIndex, blockIndex: use.blockIndex };
        freed += Math.max(0, state.clientInfo(ref).tokens - emptyInput.tokens);
      }
    }
    fact.freedTokens = freed;
    if (freed > 0 && freed >= s.clearAtLeast) {
      for (const { use, results } of targets) {
        for (const r of results) {
          if (state.isCleared(r)) continue;
          if (state.rewrite(r, cleared, 'context_edit', undefined, use.id)) {
            clearedAny = true;
            state.cleared.push({
              message: r.messageIndex,
              block: r.blockIndex,
              request: state.requestIndex,
              kind: 'tool_result',
            });
          }
        }
        if (s.clearToolInputs) {
          const ref = { messageIndex: use.messageIndex, blockIndex: use.blockIndex };
          if (state.isCleared(ref)) continue;
          if (state.rewrite(ref, emptyInput, 'context_edit', undefined, use.id)) {
            clearedAny = true;
            state.cleared.push({
              message: ref.messageIndex,
              block: ref.blockIndex,
              request: state.requestIndex,
              kind: 'tool_input',
            });
          }
        }
      }
    }
  }

  // clear_thinking_20251015: the thinking of all but the newest `keep` turns with thinking. A session whose format
  // counts reasoning at its recorded size (OpenAI) has no Anthropic thinking to clear.
  if (s.clearThinkingKeep !== 'all' && !prep.reasoning) {
    const from = countBelow(layout.thinkingMessages, start);
    const to = countBelow(layout.thinkingMessages, end);
    const turns: number[] = [];
    for (let i = from; i < to; i++) {
      const t = layout.turnOf[layout.thinkingMessages[i]];
      if (turns[turns.length - 1] !== t) turns.push(t);
    }
    fact.thinkingTurns = turns.length;
    if (turns.length > s.clearThinkingKeep) {
      const keptFrom = turns[turns.length - s.clearThinkingKeep];
      for (let i = from; i < to; i++) {
        const m = layout.thinkingMessages[i];
        if (layout.turnOf[m] >= keptFrom) break;
        prep.transcript.messages[m].blocks.forEach((b, blockIndex) => {
          if (b.type !== 'thinking') return;
          const ref = { messageIndex: m, blockIndex };
          if (state.isCleared(ref)) return;
          if (state.rewrite(ref, empty, 'context_edit')) {
            clearedAny = true;
            state.cleared.push({
              message: m,
              block: blockIndex,
              request: state.requestIndex,
              kind: 'thinking',
            });
          }
        });
      }
    }
  }
  if (clearedAny) state.clearings.push(fact);
}

/** The `context_management` block of an Anthropic Messages request that asks for these settings (the API's
 * defaults are left out). `clear_thinking_20251015` must come first, and only when the request uses thinking. */
export function contextManagementBlock(
  s: ContextEditingSettings,
  withThinking: boolean,
): { edits: Record<string, unknown>[] } {
  const edits: Record<string, unknown>[] = [];
  if (withThinking)
    edits.push({
      type: CLEAR_THINKING,
      keep: s.clearThinkingKeep === 'all' ? 'all' : { type: 'thinking_turns', value: s.clearThinkingKeep },
    });
  const tools: Record<string, unknown> = { type: CLEAR_TOOL_USES };
  tools.trigger = { type: s.triggerType, value: s.trigger };
  tools.keep = { type: 'tool_uses', value: s.keep };
  if (s.clearAtLeast > 0) tools.clear_at_least = { type: 'input_tokens', value: s.clearAtLeast };
  if (s.excludeTools.length > 0) tools.exclude_tools = [...s.excludeTools];
  if (s.clearToolInputs) tools.clear_tool_inputs = true;
  edits.push(tools);
  return { edits };
}
