// The one escaping helper of the Markdown target: the Recommend document the editor opens (and previews) is Markdown,
// and a string from a file in it (a file's name, a setting from a workspace's settings file) was read as Markdown and
// HTML: `<img src=…>.jsonl` fetched a remote image when the preview opened, `x<!--.jsonl` hid everything after it, a
// `[label](command:…)` made a link. Every character that can start Markdown or HTML is backslash-escaped (CommonMark
// takes a backslash before any ASCII punctuation as that character), controls and direction overrides are shown as
// \uXXXX, line breaks become spaces, and the value is cut to a length.

/** Values longer than this are cut (a name of a megabyte would fill the document). */
export const MARKDOWN_MAX_CHARS = 300;

// Inline syntax (emphasis, code, links, images, HTML, entities, autolinks, strikethrough, tables, math) anywhere.
const INLINE = /[\\`*_{}[\]()<>#!|&~$]/g;
// Block syntax that only counts at the start of a line: a list item (`-`, `+`, `1.`, `1)`), a quote, a heading, a rule.
const LINE_START = /^(\s*)(\d*)([-+.=>])/;
const LINE_BREAKS = /[\t\n\r\v\f\u0085\u2028\u2029]+/g;
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** `value` as Markdown text that reads as itself, wherever in a line it is put. */
export function markdownText(value: unknown, maxChars = MARKDOWN_MAX_CHARS): string {
  let text = typeof value === 'string' ? value : String(value);
  if (text.length > maxChars) {
    let end = Math.max(0, maxChars - 1);
    if (end > 0 && /[\uD800-\uDBFF]/.test(text[end - 1])) end--;
    text = `${text.slice(0, end)}…`;
  }
  // A backslash before a letter is a backslash to CommonMark: the \\uXXXX of a control reads as it is written.
  return text
    .replace(LINE_BREAKS, ' ')
    .replace(INLINE, '\\$&')
    .replace(INVISIBLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(LINE_START, '$1$2\\$3');
}
