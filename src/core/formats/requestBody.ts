// What the request-body formats (Anthropic Messages, OpenAI Chat, OpenAI Responses) read the same way: where the
// messages are, what a message that is not an object means, and the top-level fields of the Transcript.
import type { JSONPath } from 'jsonc-parser';
import type { FormatId, Message, SourceRange, Transcript } from '../model';
import { isObject } from './json';
import type { Diagnostics, Sniff, Verdict } from './types';

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

/** The Transcript of a request body: no sidechains, and `tools` and `model` from the top level when present. */
export function requestTranscript(
  format: FormatId,
  reason: string,
  s: Sniff,
  parts: { messages: Message[]; markers?: Transcript['markers']; diags: Diagnostics; system?: string },
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
  return t;
}
