// Safe JSON: a depth limit before anything recursive sees a value, and the position of the first error.
import { findNodeAtLocation, type JSONPath, type Node, printParseErrorCode, visit } from 'jsonc-parser';

/** Deeper than any real transcript (Claude Code records nest ~10 levels); low enough that recursive code
 * downstream (JSON.stringify, jsonc-parser, the engine) never overflows the stack on a nesting bomb. */
export const MAX_JSON_DEPTH = 256;

const QUOTE = 34;
const BACKSLASH = 92;

/** The quote that closes the string opening at `open`, or -1. A quote preceded by an odd number of backslashes
 * is escaped; found with `indexOf`, so long strings cost almost nothing. */
function closingQuote(text: string, open: number): number {
  let j = text.indexOf('"', open + 1);
  while (j !== -1) {
    let k = j - 1;
    while (text.charCodeAt(k) === BACKSLASH) k--;
    if ((j - 1 - k) % 2 === 0) return j;
    j = text.indexOf('"', j + 1);
  }
  return -1;
}

/** UTF-16 offset where nesting first goes deeper than `limit`, or -1. Strings are skipped with `indexOf`, so
 * long tool outputs cost almost nothing. */
export function nestingTooDeepAt(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const j = closingQuote(text, i);
      if (j === -1) return -1; // unterminated string: JSON.parse reports it
      i = j;
    } else if (c === 91 || c === 123) {
      if (++depth > limit) return i;
    } else if (c === 93 || c === 125) {
      depth--;
    }
  }
  return -1;
}

export interface RecordScan {
  /** UTF-16 offset where nesting first goes deeper than the limit, or -1. */
  tooDeepAt: number;
  /** The range to cut to leave out the top-level member `skipKey` (with one comma), or -1/-1. */
  skipStart: number;
  skipEnd: number;
}

/** One structural pass over a record: the depth check, and where a top-level member sits. Lets Claude Code
 * records be parsed without `toolUseResult`, the runtime's second copy of every tool output (about half of
 * the bytes of a tool-result line), which the model never uses. */
export function scanRecord(text: string, skipKey: string, limit = MAX_JSON_DEPTH): RecordScan {
  const quotedKey = `"${skipKey}"`;
  let depth = 0;
  let lastSeparator = -1; // position of the ',' or '{' before the current top-level key
  let memberStart = -1;
  let skipStart = -1;
  let skipEnd = -1;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      if (depth === 1 && skipStart === -1 && memberStart === -1 && text.startsWith(quotedKey, i)) {
        let k = i + quotedKey.length;
        while (k < n && text.charCodeAt(k) <= 32) k++;
        if (text.charCodeAt(k) === 58)
          memberStart = text.charCodeAt(lastSeparator) === 44 ? lastSeparator : i;
      }
      const j = closingQuote(text, i);
      if (j === -1) break;
      i = j;
    } else if (c === 91 || c === 123) {
      if (++depth > limit) return { tooDeepAt: i, skipStart: -1, skipEnd: -1 };
      if (depth === 1) lastSeparator = i;
    } else if (c === 93 || c === 125) {
      if (depth === 1 && memberStart !== -1 && skipStart === -1) {
        skipStart = memberStart;
        skipEnd = i;
      }
      depth--;
    } else if (c === 44 && depth === 1) {
      if (memberStart !== -1 && skipStart === -1) {
        // First member: drop it with the comma after it; otherwise with the comma before it.
        skipStart = memberStart;
        skipEnd = text.charCodeAt(memberStart) === 44 ? i : i + 1;
      }
      lastSeparator = i;
    }
  }
  return { tooDeepAt: -1, skipStart, skipEnd };
}

/** End (exclusive) of the string starting at `i` (a quote), or -1 when it never ends. */
function stringEnd(text: string, i: number): number {
  let j = text.indexOf('"', i + 1);
  while (j !== -1) {
    let k = j - 1;
    while (text.charCodeAt(k) === BACKSLASH) k--;
    if ((j - 1 - k) % 2 === 0) return j + 1;
    j = text.indexOf('"', j + 1);
  }
  return -1;
}

function skipSpace(text: string, i: number): number {
  let c = text.charCodeAt(i);
  while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++i);
  return i;
}

/** End (exclusive) of the value starting at `i`, or -1 when the text ends first. */
function valueEnd(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return stringEnd(text, i);
  if (c === 91 || c === 123) {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const d = text.charCodeAt(j);
      if (d === QUOTE) {
        const e = stringEnd(text, j);
        if (e === -1) return -1;
        j = e - 1;
      } else if (d === 91 || d === 123) depth++;
      else if (d === 93 || d === 125) {
        if (--depth === 0) return j + 1;
      }
    }
    return -1;
  }
  let j = i;
  for (; j < text.length; j++) {
    const d = text.charCodeAt(j);
    if (d === 44 || d === 93 || d === 125 || d === 32 || d === 10 || d === 13 || d === 9) break;
  }
  return j > i ? j : -1;
}

/** The UTF-16 range of the value at `path` in a valid JSON text, found by skipping over everything else
 * without building it (much faster than a full tree on large records). Undefined when the path is not there
 * or the text is not valid JSON on the way (callers then fall back to jsonc-parser). */
export function findValue(
  text: string,
  path: readonly (string | number)[],
): { start: number; end: number } | undefined {
  let pos = skipSpace(text, 0);
  for (const segment of path) {
    const open = text.charCodeAt(pos);
    if (typeof segment === 'number') {
      if (open !== 91) return undefined;
      pos = skipSpace(text, pos + 1);
      for (let k = 0; k < segment; k++) {
        if (text.charCodeAt(pos) === 93) return undefined;
        const end = valueEnd(text, pos);
        if (end === -1) return undefined;
        pos = skipSpace(text, end);
        if (text.charCodeAt(pos) !== 44) return undefined;
        pos = skipSpace(text, pos + 1);
      }
      if (text.charCodeAt(pos) === 93) return undefined;
      continue;
    }
    if (open !== 123) return undefined;
    const wanted = JSON.stringify(segment);
    pos = skipSpace(text, pos + 1);
    for (;;) {
      if (text.charCodeAt(pos) !== QUOTE) return undefined;
      const keyEnd = stringEnd(text, pos);
      if (keyEnd === -1) return undefined;
      const key = text.slice(pos, keyEnd);
      // Keys are compared as written; one written with escapes is decoded first.
      const match = key === wanted || (key.includes('\\') && JSON.parse(key) === segment);
      pos = skipSpace(text, keyEnd);
      if (text.charCodeAt(pos) !== 58) return undefined;
      pos = skipSpace(text, pos + 1);
      if (match) break;
      const end = valueEnd(text, pos);
      if (end === -1) return undefined;
      pos = skipSpace(text, end);
      if (text.charCodeAt(pos) !== 44) return undefined;
      pos = skipSpace(text, pos + 1);
    }
  }
  const end = valueEnd(text, pos);
  return end === -1 ? undefined : { start: pos, end };
}

export type ParsedJson = { ok: true; value: unknown } | { ok: false; offset: number; message: string };

/** `parseJson` leaving out one top-level member (see `scanRecord`); errors are reported on the whole text. */
export function parseRecordWithout(text: string, skipKey: string): ParsedJson {
  const scan = scanRecord(text, skipKey);
  if (scan.tooDeepAt !== -1)
    return { ok: false, offset: scan.tooDeepAt, message: `JSON nested deeper than ${MAX_JSON_DEPTH} levels` };
  try {
    const cut = scan.skipStart === -1 ? text : text.slice(0, scan.skipStart) + text.slice(scan.skipEnd);
    return { ok: true, value: JSON.parse(cut) };
  } catch {
    return { ok: false, ...jsonErrorAt(text) };
  }
}

/** `JSON.parse` that never throws and never hands back a nesting bomb. Offsets are UTF-16 units of `text`. */
export function parseJson(text: string, limit = MAX_JSON_DEPTH): ParsedJson {
  const deep = nestingTooDeepAt(text, limit);
  if (deep !== -1) return { ok: false, offset: deep, message: `JSON nested deeper than ${limit} levels` };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, ...jsonErrorAt(text) };
  }
}

const STOP = Symbol('stop');

/** The first syntax error of a JSON text (call only on text that failed `JSON.parse` and passed the depth
 * check: jsonc-parser recurses). The scan stops at the error, so a broken 50 MB line costs up to the error. */
export function jsonErrorAt(text: string): { offset: number; message: string } {
  let found: { offset: number; message: string } | undefined;
  try {
    visit(
      text,
      {
        onError(error, offset, length) {
          // A string or number cut by the end of the text is reported where the text stops.
          const code = printParseErrorCode(error);
          const at = code.startsWith('UnexpectedEndOf') ? offset + length : offset;
          found = { offset: at, message: describeError(code, at, text) };
          throw STOP;
        },
      },
      { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
    );
  } catch (e) {
    if (e !== STOP) throw e;
  }
  return found ?? { offset: 0, message: 'not valid JSON' };
}

function describeError(code: string, offset: number, text: string): string {
  const words = code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  if (offset >= text.length) return `${words} (the text ends early: truncated?)`;
  const near = JSON.stringify(text.slice(offset, offset + 12));
  return `${words} near ${near}`;
}

/** Where a path points inside a parsed jsonc tree, or undefined. */
export function nodeAt(root: Node | undefined, path: JSONPath): Node | undefined {
  return root ? findNodeAtLocation(root, path) : undefined;
}

/** A leading byte-order mark becomes a space: JSON parsers reject it, and a space keeps every UTF-16 offset
 * (positions are still computed on the text with its BOM, which is 3 bytes in the file). */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? ` ${text.slice(1)}` : text;
}

/** A line a tool printed before the JSON document it wrote to the same stream: OpenCode's CLI writes
 * `Exporting session: <id>` first, so `opencode export <id> > file` holds it. */
const PRINTED_BEFORE = /^Exporting session: [^\n]{0,200}\n/;

/** The text of a JSON document as the parser reads it: a byte-order mark, or a line a tool printed before the
 * document (`PRINTED_BEFORE`), read as blanks, so that every offset is still the file's. */
export function documentJson(text: string): { json: string; printedBefore?: string } {
  const json = withoutBom(text);
  const printed = PRINTED_BEFORE.exec(json);
  if (!printed) return { json };
  const line = printed[0].slice(0, -1);
  return { json: ' '.repeat(line.length) + json.slice(line.length), printedBefore: line.trim() };
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A record's first keys, for a message that says what a record that fits no format holds instead. */
export function keyList(r: Record<string, unknown>): string {
  const keys = Object.keys(r);
  return `[${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', …' : ''}]`;
}

/** Compact JSON of a value already known to be depth-safe; never throws (a cycle cannot come from JSON). */
export function compactJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (e) {
    return `<unserialisable: ${e instanceof Error ? e.message : String(e)}>`;
  }
}
