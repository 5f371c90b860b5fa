// Reading a JSONL file record by record: every line either becomes a record or a reported, kept problem.
import type { Marker, SourceRange } from '../model';
import { isObject, parseJson, parseRecordWithout, withoutBom } from './json';
import { parsedLinesOf } from './parsedLines';
import { decodeUtf8, type LineSpan, lineRange } from './text';
import type { Diagnostics } from './types';

export interface JsonlRecord {
  span: LineSpan;
  /** The record's line as a range (shared by all blocks of the record). */
  source: SourceRange;
  value: Record<string, unknown>;
}

export interface BrokenLine {
  span: LineSpan;
  source: SourceRange;
  /** What was wrong, already reported as a diagnostic. */
  problem: string;
  /** The start of the line, to show. */
  preview: string;
}

const PREVIEW_CHARS = 200;

/** Calls `onRecord` for each line that is a JSON object, `onBroken` for each other non-blank line. Blank lines
 * are skipped (their bytes stay in `raw`). Invalid UTF-8 is reported and the line is still read. Lines parsed
 * by an earlier parse of the same bytes (see parsedLines.ts) are not parsed again. */
export function readJsonl(
  bytes: Uint8Array,
  diags: Diagnostics,
  onRecord: (record: JsonlRecord) => void,
  onBroken: (line: BrokenLine) => void,
  /** A top-level member the format never reads: left out of parsing (its bytes stay in `raw`). */
  skipKey?: string,
): void {
  const cache = parsedLinesOf(bytes);
  const n = bytes.length;
  // Line by line as `lineSpans` reads them; a line kept from an earlier parse is taken as it is, and the next
  // one starts where it said.
  for (let start = 0, index = 0, next = 0; start < n; start = next, index++) {
    const hit = cache?.at(start, index, skipKey);
    if (hit) {
      next = hit.next;
      onRecord({ span: { index, start, end: hit.end }, source: hit.source, value: hit.value });
      continue;
    }
    const nl = bytes.indexOf(10, start);
    const stop = nl === -1 ? n : nl;
    next = nl === -1 ? n : nl + 1;
    const span: LineSpan = { index, start, end: stop > start && bytes[stop - 1] === 13 ? stop - 1 : stop };
    const slice = bytes.subarray(span.start, span.end);
    const { text, invalidAt } = decodeUtf8(slice);
    const source = lineRange(span, text);
    if (invalidAt !== -1) {
      const column = decodeUtf8(slice.subarray(0, invalidAt)).text.length + 1;
      diags.add(
        'warning',
        'invalid-utf8',
        `invalid UTF-8 at byte ${span.start + invalidAt} (shown as U+FFFD; the bytes are kept)`,
        span.index + 1,
        column,
      );
    }
    if (isBlank(text)) continue;
    const json = span.start === 0 ? withoutBom(text) : text;
    const parsed = skipKey ? parseRecordWithout(json, skipKey) : parseJson(json);
    if (parsed.ok && isObject(parsed.value)) {
      // Only clean lines are kept: a line with a diagnostic is read again, so that its diagnostic is said again.
      if (invalidAt === -1 && nl !== -1)
        cache?.set(span.start, span.end, next, span.index, skipKey, source, parsed.value);
      onRecord({ span, source, value: parsed.value });
      continue;
    }
    const problem = parsed.ok
      ? `a JSON ${Array.isArray(parsed.value) ? 'array' : typeof parsed.value} where a record object was expected`
      : parsed.message;
    const column = parsed.ok ? 1 : parsed.offset + 1;
    diags.add(
      'error',
      parsed.ok ? 'unexpected-record' : 'invalid-json',
      `line ${span.index + 1}: ${problem}; the line is kept byte-for-byte`,
      span.index + 1,
      column,
    );
    onBroken({ span, source, problem, preview: text.slice(0, PREVIEW_CHARS) });
  }
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13) return false;
  }
  return true;
}

export function brokenLineMarker(line: BrokenLine, beforeMessage: number): Marker {
  return {
    kind: 'unknown-record',
    label: 'malformed line',
    beforeMessage,
    source: line.source,
    text: `${line.problem}: ${line.preview}`,
  };
}

/** A record of a type the format does not know: said once per type, and kept in the view as a marker. */
export function unknownRecordMarker(
  type: string,
  source: SourceRange,
  diags: Diagnostics,
): Omit<Marker, 'beforeMessage'> {
  diags.once(
    `record:${type}`,
    'info',
    'unknown-record',
    `record type "${type}" is not a message: kept and shown as a marker`,
    source,
  );
  return { kind: 'unknown-record', label: type || '(no type)', source };
}
