// What the request-body formats (Anthropic Messages, OpenAI Chat, OpenAI Responses) read the same way: where the
// messages are, what a message that is not an object means, and the top-level fields of the Transcript.
import type { JSONPath } from 'jsonc-parser';
import type { FormatId, Message, RequestSettings, Role, SourceRange, Transcript } from '../model';
import { isObject } from './json';
import type { DocPositions } from './jsonDoc';
import type { Diagnostics, Sniff, Verdict } from './types';
import { shownFigure } from './usage';

/** Far above any model's longest reply (128k tokens today): a larger `max_tokens` is not a setting but damage. */
export const MAX_REPLY_TOKENS = 1_000_000;

/** The messages array of a request-body document and its path, if the document has that shape. */
export function messagesOf(
  value: unknown,
  key = 'messages',
): { list: unknown[]; path: JSONPath } | undefined {
  if (Array.isArray(value)) return { list: value, path: [] };
  if (isObject(value) && Array.isArray(value[key])) return { list: value[key] as unknown[], path: [key] };
  return undefined;
}

export const NO_MESSAGES: Verdict = {
  ok: false,
  reason: 'not a JSON document with a "messages" array (nor a bare array of messages)',
};

export const MESSAGE_WITHOUT_ROLE: Verdict = {
  ok: false,
  reason: 'some entries of "messages" have no "role"',
};

/** Whether every entry of "messages" has a string "role" (an empty list passes). */
export function everyMessageHasRole(list: unknown[]): boolean {
  return list.every((m) => isObject(m) && typeof m.role === 'string');
}

/** An entry of "messages" that is not an object is skipped with a warning; its bytes stay in the file. */
export function warnNotAnObject(diags: Diagnostics, source: SourceRange): void {
  diags.add(
    'warning',
    'unexpected-message',
    'an entry of "messages" that is not an object: skipped (its bytes are kept)',
    source.line,
    source.column,
  );
}

/** A message's role, user or assistant; any other is warned of where the message is, and shown as user. */
export function userOrAssistant(value: unknown, diags: Diagnostics, source: SourceRange): Role {
  if (value === 'user' || value === 'assistant') return value;
  diags.add(
    'warning',
    'unknown-role',
    `role "${typeof value === 'string' ? value : String(value)}" is not user/assistant: shown as user`,
    source.line,
    source.column,
  );
  return 'user';
}

/** The Transcript of a request body: no sidechains, and `tools` and `model` from the top level when present. */
export function requestTranscript(
  format: FormatId,
  reason: string,
  s: Sniff,
  parts: {
    messages: Message[];
    markers?: Transcript['markers'];
    diags: Diagnostics;
    positions: DocPositions;
    system?: string;
  },
): Transcript {
  const t: Transcript = {
    format,
    formatReason: reason,
    messages: parts.messages,
    markers: parts.markers ?? [],
    sidechains: [],
    diagnostics: parts.diags.list,
    raw: s.bytes,
  };
  if (parts.system !== undefined) t.system = parts.system;
  const top = s.document().value;
  if (isObject(top) && Array.isArray(top.tools)) t.tools = top.tools;
  if (isObject(top) && typeof top.model === 'string') t.model = top.model;
  if (isObject(top)) {
    const settings = requestSettings(top, parts.diags, parts.positions);
    if (Object.keys(settings).length > 0) t.requestSettings = settings;
  }
  return t;
}

/** The body's reply limit, tool choice and thinking, each as its format names it; a figure out of range is reported
 * where it stands and left out. */
function requestSettings(
  top: Record<string, unknown>,
  diags: Diagnostics,
  positions: DocPositions,
): RequestSettings {
  const out: RequestSettings = {};
  for (const key of ['max_tokens', 'max_completion_tokens', 'max_output_tokens']) {
    const v = top[key];
    if (v === undefined || v === null) continue;
    if (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= MAX_REPLY_TOKENS) {
      out.maxTokens ??= v;
      continue;
    }
    const at = positions.rangeAt([key]);
    diags.add(
      'warning',
      'figure-out-of-range',
      `${key} is ${shownFigure(v)}, not a reply limit (a whole number from 1 to ${MAX_REPLY_TOKENS}): left out`,
      at.line,
      at.column,
    );
  }
  if (top.tool_choice !== undefined && top.tool_choice !== null) out.toolChoice = top.tool_choice;
  if (isObject(top.thinking)) out.thinking = top.thinking;
  if (typeof top.parallel_tool_calls === 'boolean') out.parallelToolCalls = top.parallel_tool_calls;
  return out;
}
