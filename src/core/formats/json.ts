// Safe JSON: a depth limit before anything recursive sees a value, and the position of the first error.
import { findNodeAtLocation, type JSONPath, type Node, printParseErrorCode, visit } from 'jsonc-parser';

/** Deeper than any real transcript (Claude Code records nest ~10 levels); low enough that recursive code
 * downstream (JSON.stringify, jsonc-parser, the engine) never overflows the stack on a nesting bomb. */
export const MAX_JSON_DEPTH = 256;

const QUOTE = 34;
const BACKSLASH = 92;

/** UTF-16 offset where nesting first goes deeper than `limit`, or -1. Strings are skipped with `indexOf`, so
 * long tool outputs cost almost nothing. */
export function nestingTooDeepAt(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let j = text.indexOf('"', i + 1);
      while (j !== -1) {
        let k = j - 1;
        while (text.charCodeAt(k) === BACKSLASH) k--;
        if ((j - 1 - k) % 2 === 0) break;
        j = text.indexOf('"', j + 1);
      }
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

export type ParsedJson = { ok: true; value: unknown } | { ok: false; offset: number; message: string };

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
          // A token that runs to the end of the text (a cut string) is reported where the text stops.
          const at = offset + length >= text.length ? text.length : offset;
          found = { offset: at, message: describeError(printParseErrorCode(error), at, text) };
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

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Compact JSON of a value already known to be depth-safe; never throws (a cycle cannot come from JSON). */
export function compactJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (e) {
    return `<unserialisable: ${e instanceof Error ? e.message : String(e)}>`;
  }
}
