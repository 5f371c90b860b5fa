// What one record of a Codex rollout is: an early rollout's bare item, a reply's part, a reply cut short, a turn of
// the user's, a compaction that is none, and the usage a token_count carries.
import type { Message, RecordedUsage } from '../../model';
import { isObject, str } from '../json';
import { decodeUtf8 } from '../text';
import { tokenFigure, type UsageProblem } from '../usage';

const LEGACY_ITEMS = new Set([
  'message',
  'function_call',
  'function_call_output',
  'reasoning',
  'local_shell_call',
  'custom_tool_call',
  'custom_tool_call_output',
]);

export function isLegacyItem(r: Record<string, unknown>): boolean {
  return (
    !('payload' in r) &&
    LEGACY_ITEMS.has(str(r.type) ?? '') &&
    ('role' in r || 'call_id' in r || 'summary' in r)
  );
}

/** An item the model produced (a reply's part), as opposed to the user's messages and the tools' outputs. */
export function isReplyItem(payload: Record<string, unknown>): boolean {
  const type = str(payload.type);
  if (type === 'message') return payload.role === 'assistant';
  return (
    type === 'reasoning' ||
    type === 'function_call' ||
    type === 'custom_tool_call' ||
    type === 'local_shell_call' ||
    type === 'web_search_call' ||
    type === 'tool_search_call'
  );
}

/** A reply the model never finished: reasoning only, and no token_count for it before the agent restarted (a new
 * `session_meta`) or the turn was aborted. The log counts no request for it; the agent drops the reasoning at the
 * next user message. */
export function cutShort(reply: Message | undefined): boolean {
  return (
    reply !== undefined &&
    !reply.usage &&
    reply.blocks.length > 0 &&
    reply.blocks.every((b) => b.type === 'thinking') &&
    !reply.flags?.includes('cut')
  );
}

/** Context the agent writes as a user message (instructions, the environment, an interruption's notice): no turn of
 * the user's, so a rollback does not count it (Codex's `is_user_turn_boundary`). */
const CONTEXT_MESSAGE =
  /^\s*(<(environment_context|user_instructions|turn_aborted|user_shell_command|skill|subagent_notification|INSTRUCTIONS)>|# AGENTS\.md instructions)/;

/** Whether a message starts one of the user's turns (what `thread_rolled_back` counts back over). */
export function userTurn(m: Message): boolean {
  if (m.role !== 'user' || m.flags?.includes('developer')) return false;
  if (m.blocks.some((b) => b.type === 'tool_result')) return false;
  const first = m.blocks[0];
  return !(first?.type === 'text' && CONTEXT_MESSAGE.test(first.text));
}

/** Why a `compacted` record cannot be read as a compaction, or undefined when it can: Codex's own reader wants a
 * payload object with a `message` string and, when present, a `replacement_history` list. */
export function malformedCompaction(r: Record<string, unknown>): { why: string; path: string[] } | undefined {
  const payload = r.payload;
  if (!isObject(payload))
    return {
      why: `its payload is ${payload === null ? 'null' : Array.isArray(payload) ? 'a list' : `a ${typeof payload}`}, not an object`,
      path: ['payload'],
    };
  const history = payload.replacement_history;
  if (history !== undefined && history !== null && !Array.isArray(history))
    return {
      why: `its replacement_history is ${isObject(history) ? 'an object' : `a ${typeof history}`}, not a list of items`,
      path: ['payload', 'replacement_history'],
    };
  if (payload.message !== undefined && typeof payload.message !== 'string')
    return { why: 'its message is not a string', path: ['payload', 'message'] };
  if (typeof payload.message !== 'string' && !Array.isArray(history))
    return { why: 'it holds neither a summary message nor a replacement_history', path: ['payload'] };
  return undefined;
}

export function usageOf(info: Record<string, unknown>, report: UsageProblem): RecordedUsage | undefined {
  const last = info.last_token_usage;
  if (!isObject(last)) return undefined;
  const input = tokenFigure(last, 'input_tokens', report);
  let cached = tokenFigure(last, 'cached_input_tokens', report);
  if (cached > input) {
    // More cached than sent: one of the two is wrong, and the split below would go negative.
    report('cached_input_tokens', `${cached}, more than input_tokens (${input})`);
    cached = 0;
  }
  // Codex 0.146 on: the tokens the request wrote to the cache (models that bill writes), also inside input_tokens.
  let written = tokenFigure(last, 'cache_write_input_tokens', report);
  if (cached + written > input) {
    report(
      'cache_write_input_tokens',
      `${written}, more than input_tokens (${input}) less the cached ${cached}`,
    );
    written = 0;
  }
  // OpenAI counts cached and written tokens inside input_tokens; the model keeps Anthropic's split (input = the
  // part neither read nor written), so that input + cacheRead + cacheCreation is the prompt size for every format.
  const usage: RecordedUsage = {
    inputTokens: input - cached - written,
    outputTokens: tokenFigure(last, 'output_tokens', report),
    cacheReadInputTokens: cached,
    cacheCreationInputTokens: written,
  };
  if (last.reasoning_output_tokens !== undefined)
    usage.reasoningOutputTokens = tokenFigure(last, 'reasoning_output_tokens', report);
  return usage;
}

/** A record's line as text, for the column of a value in it (a leading BOM kept as one column). */
export function decodeLine(bytes: Uint8Array, span: { start: number; end: number }): string {
  const line = decodeUtf8(bytes.subarray(span.start, span.end)).text;
  return line.charCodeAt(0) === 0xfeff ? ` ${line.slice(1)}` : line;
}

export function sum(a: RecordedUsage, b: RecordedUsage): RecordedUsage {
  const total: RecordedUsage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadInputTokens: a.cacheReadInputTokens + b.cacheReadInputTokens,
    cacheCreationInputTokens: a.cacheCreationInputTokens + b.cacheCreationInputTokens,
  };
  if (a.reasoningOutputTokens !== undefined || b.reasoningOutputTokens !== undefined)
    total.reasoningOutputTokens = (a.reasoningOutputTokens ?? 0) + (b.reasoningOutputTokens ?? 0);
  return total;
}
