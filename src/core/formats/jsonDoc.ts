// Shared by the three request-body formats: positions inside one JSON document, and its problems as diagnostics.
import { findNodeAtLocation, type JSONPath, type Node } from 'jsonc-parser';
import type { SourceRange, ValueLocation } from '../model';
import { LineIndex, utf8Length } from './text';
import { Diagnostics, type JsonDocument, type Sniff } from './types';

/** UTF-16 units between two byte-count checkpoints: a position costs at most this much counting. */
const CHECKPOINT_STEP = 1024;

/** Turns jsonc-parser's UTF-16 offsets into the model's byte ranges with line and column, each in time
 * independent of the line's length: a request body is often one line of megabytes, and measuring every node
 * from the start of its line was quadratic in the line's length. */
export class DocPositions {
  private readonly charStarts: number[];
  private readonly bytes: LineIndex;
  /** UTF-8 length of the text before `checkpoints[k]`, which is k × CHECKPOINT_STEP (one more when that
   * would split a surrogate pair, so that differences of prefixes equal `utf8Length` of the range). */
  private readonly checkpoints: number[] = [0];
  private readonly checkpointBytes: number[] = [0];
  constructor(
    private readonly doc: JsonDocument,
    raw: Uint8Array,
  ) {
    const text = doc.text;
    const starts = [0];
    let nl = text.indexOf('\n');
    while (nl !== -1) {
      starts.push(nl + 1);
      nl = text.indexOf('\n', nl + 1);
    }
    this.charStarts = starts;
    this.bytes = new LineIndex(raw);
    let at = 0;
    let bytes = 0;
    for (let k = 1; k * CHECKPOINT_STEP <= text.length; k++) {
      let next = k * CHECKPOINT_STEP;
      if (isLowSurrogate(text.charCodeAt(next)) && isHighSurrogate(text.charCodeAt(next - 1))) next++;
      bytes += utf8Length(text, at, next);
      at = next;
      this.checkpoints.push(at);
      this.checkpointBytes.push(bytes);
    }
  }

  /** `utf8Length(text, 0, offset)` from the nearest checkpoint at or before `offset`. */
  private bytesBefore(offset: number): number {
    let k = Math.min(Math.floor(offset / CHECKPOINT_STEP), this.checkpoints.length - 1);
    if (this.checkpoints[k] > offset) k--;
    return this.checkpointBytes[k] + utf8Length(this.doc.text, this.checkpoints[k], offset);
  }

  private lineOf(offset: number): number {
    const s = this.charStarts;
    let lo = 0;
    let hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  position(offset: number): { line: number; column: number; byte: number } {
    const line = this.lineOf(offset);
    const lineStart = this.charStarts[line];
    return {
      line: line + 1,
      column: offset - lineStart + 1,
      // A line starts after a newline, never inside a surrogate pair: the prefix difference is exact.
      byte: this.bytes.starts[line] + this.bytesBefore(offset) - this.bytesBefore(lineStart),
    };
  }

  range(node: Node): SourceRange {
    const a = this.position(node.offset);
    const b = this.position(node.offset + node.length);
    return {
      line: a.line,
      column: a.column,
      endLine: b.line,
      endColumn: b.column,
      start: a.byte,
      end: b.byte,
    };
  }

  /** The range of the value at `path`, or of its nearest existing ancestor. */
  rangeAt(path: JSONPath): SourceRange {
    const root = this.doc.root;
    for (let n = path.length; n >= 0 && root; n--) {
      const node = findNodeAtLocation(root, path.slice(0, n));
      if (node) return this.range(node);
    }
    return { line: 1, column: 1, endLine: 1, endColumn: 1, start: 0, end: 0 };
  }
}

const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** The whole file is the one record of a JSON document. */
export function docLocation(raw: Uint8Array, path: JSONPath, valuePath?: JSONPath): ValueLocation {
  const loc: ValueLocation = { recordStart: 0, recordEnd: raw.length, recordLine: 1, path: [...path] };
  if (valuePath) loc.valuePath = [...valuePath];
  return loc;
}

/** Reports the document's syntax errors and invalid UTF-8 (the readable part is still shown). */
export function documentDiagnostics(s: Sniff, pos: DocPositions): Diagnostics {
  const diags = new Diagnostics();
  const doc = s.document();
  if (doc.invalidUtf8At !== -1) {
    const p = new LineIndex(s.bytes).position(doc.invalidUtf8At);
    diags.add(
      'warning',
      'invalid-utf8',
      `invalid UTF-8 at byte ${doc.invalidUtf8At} (shown as U+FFFD; the bytes are kept)`,
      p.line,
      p.column,
    );
  }
  for (const e of doc.errors.slice(0, 20)) {
    const p = pos.position(Math.min(e.offset, doc.text.length));
    const words = e.message;
    const ends = e.offset >= doc.text.length ? ' (the text ends early: truncated?)' : '';
    diags.add(
      'error',
      'invalid-json',
      `${words}${ends}; what could be read before and after is shown`,
      p.line,
      p.column,
    );
  }
  if (doc.errors.length > 20)
    diags.add('error', 'invalid-json', `${doc.errors.length - 20} more syntax errors`, 1, 1);
  return diags;
}

/** Why a broken document still fits a format, appended to the detection reason. */
export function brokenNote(doc: JsonDocument): string {
  return doc.errors.length
    ? ` (the JSON is broken: ${doc.errors.length} syntax error(s), see diagnostics)`
    : '';
}
