// Reads just enough of a file to decide its format: JSONL records from the start, or the whole JSON document.
import { getNodeValue, type ParseError, parseTree, printParseErrorCode } from 'jsonc-parser';
import { documentJson, isObject, MAX_JSON_DEPTH, nestingTooDeepAt, parseJson, withoutBom } from './json';
import { decodeUtf8, lineSpans } from './text';
import type { JsonDocument, Sniff } from './types';

/** Enough lines to get past the bookkeeping records that open a session (queue operations, snapshots). */
export const SAMPLE_LINES = 50;

export function sniff(bytes: Uint8Array, fileName?: string, beside?: Sniff['beside']): Sniff {
  const records: Record<string, unknown>[] = [];
  let sampledLines = 0;
  for (const span of lineSpans(bytes)) {
    const { text } = decodeUtf8(bytes.subarray(span.start, span.end));
    if (text.trim() === '') continue;
    sampledLines++;
    if (sampledLines > SAMPLE_LINES) break;
    // A pretty-printed JSON document's first line is `{`: it does not parse, so it never passes for JSONL.
    const parsed = parseJson(span.start === 0 ? withoutBom(text) : text);
    if (parsed.ok && isObject(parsed.value)) records.push(parsed.value);
  }
  let doc: JsonDocument | undefined;
  return {
    bytes,
    fileName,
    records,
    sampledLines: Math.min(sampledLines, SAMPLE_LINES),
    multiLine: sampledLines > 1,
    ...(beside ? { beside } : {}),
    document() {
      doc ??= readDocument(bytes);
      return doc;
    },
  };
}

function readDocument(bytes: Uint8Array): JsonDocument {
  const { text, invalidAt } = decodeUtf8(bytes);
  const { json, printedBefore } = documentJson(text);
  const printed = printedBefore !== undefined ? { printedBefore } : {};
  const deep = nestingTooDeepAt(text);
  if (deep !== -1) {
    // JSON.parse itself is iterative in V8, so the document can still be read; the too-deep part is cut off
    // before recursive code sees it, and offsets are given up (jsonc-parser would recurse into the bomb).
    let value: unknown;
    try {
      value = capDepth(JSON.parse(json), MAX_JSON_DEPTH);
    } catch {
      value = undefined;
    }
    const message = `JSON nested deeper than ${MAX_JSON_DEPTH} levels: the deeper part is cut off`;
    return {
      text,
      root: undefined,
      value,
      errors: [{ offset: deep, message }],
      invalidUtf8At: invalidAt,
      ...printed,
    };
  }
  const parseErrors: ParseError[] = [];
  const root = parseTree(json, parseErrors, { disallowComments: true, allowTrailingComma: false });
  const errors = parseErrors.map((e) => ({
    offset: e.offset,
    message: printParseErrorCode(e.error)
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase(),
  }));
  let value: unknown;
  if (errors.length === 0) {
    try {
      value = JSON.parse(json);
    } catch {
      value = root ? getNodeValue(root) : undefined;
    }
  } else value = root ? getNodeValue(root) : undefined;
  return { text, root, value, errors, invalidUtf8At: invalidAt, ...printed };
}

/** Replaces everything nested deeper than `limit` by a short note, without recursion. */
export function capDepth(value: unknown, limit: number): unknown {
  const stack: { holder: Record<string, unknown> | unknown[]; depth: number }[] = [];
  if (typeof value === 'object' && value !== null)
    stack.push({ holder: value as Record<string, unknown>, depth: 1 });
  while (stack.length) {
    const { holder, depth } = stack.pop() as { holder: Record<string, unknown> | unknown[]; depth: number };
    const obj = holder as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      const child = obj[key];
      if (typeof child !== 'object' || child === null) continue;
      if (depth >= limit) obj[key] = `[nested deeper than ${limit} levels: cut off]`;
      else stack.push({ holder: child as Record<string, unknown>, depth: depth + 1 });
    }
  }
  return value;
}
