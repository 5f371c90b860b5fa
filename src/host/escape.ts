// Untrusted text (anything from a transcript, a file name, an error message that quotes either, a third-party
// model's name) made inert before it reaches the editor's UI outside the webview: notifications and progress
// titles, quick picks, diagnostics, status bar text and tooltips, tab titles.
//
// What those surfaces interpret, as the editor (1.100) does it:
// - notifications and progress notifications turn `[label](command:…)`, `[label](https://…)` and `[label](file:…)`
//   into links (base/common/linkedText: /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^\)\s]+)…\)/gi); a
//   `command:` link runs the command with its arguments on click;
// - quick pick labels, descriptions and details and the status bar text render `$(name)` as an icon;
// - newlines and bidirectional overrides change how a line reads.
// One rule serves every surface, so one helper is used everywhere: a zero-width space after every `]` and every
// `$` (no link can form, inside the value or across its edge with the next piece of text, and no icon), control
// and bidirectional characters shown as `\uXXXX`, line breaks as spaces, and a length cap. The text reads the
// same; only its syntax is gone. (A backslash escape would not do: notifications show it, quick picks eat it.)

/** Values longer than this are cut (an id or a key of a megabyte would fill the screen). */
export const UNTRUSTED_MAX_CHARS = 300;
/** Error messages carry their own explanation around the quoted values: more room. */
export const ERROR_MAX_CHARS = 2000;

const ZERO_WIDTH_SPACE = '\u200B';
const LINE_BREAKS = /[\t\n\r\v\f\u0085\u2028\u2029]+/g;
// C0 and C1 controls, DEL, direction marks, embeddings, overrides and isolates, the byte-order mark.
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const SYNTAX = /[\]$]/g;

function cut(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  let end = Math.max(0, maxChars - 1);
  // Never split a surrogate pair.
  if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1])) end--;
  return `${text.slice(0, end)}…`;
}

function asString(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}

/** `value` as inert text for any editor surface outside the webview. */
export function untrusted(value: unknown, maxChars = UNTRUSTED_MAX_CHARS): string {
  return cut(asString(value), maxChars)
    .replace(LINE_BREAKS, ' ')
    .replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(SYNTAX, (c) => c + ZERO_WIDTH_SPACE);
}

/** An error's message (or the thrown value) as inert text: errors quote file names and transcript text. */
export function untrustedError(error: unknown): string {
  return untrusted(error instanceof Error ? error.message : error, ERROR_MAX_CHARS);
}
