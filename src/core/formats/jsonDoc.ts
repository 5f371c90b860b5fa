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
  /** Bytes that were not UTF-8 (decoded as U+FFFD, one character for 1–3 bytes, where `utf8Length` counts 3): the
   * offset after each such character, and the bytes to add to `utf8Length` of the text before that offset. */
  private readonly repairs: { after: number; add: number }[];
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
    this.repairs = text.includes('\uFFFD') ? replacedBytes(text, raw) : [];
  }

  /** What to add to `utf8Length` of the text before `offset` for the bytes decoded as U+FFFD before it. */
  private repairBefore(offset: number): number {
    let add = 0;
    for (const r of this.repairs) {
      if (r.after > offset) break;
      add = r.add;
    }
    return add;
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
      byte:
        this.bytes.starts[line] +
        this.bytesBefore(offset) +
        this.repairBefore(offset) -
        this.bytesBefore(lineStart) -
        this.repairBefore(lineStart),
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

/** What a document format's parse starts from: the file's JSON document, the positions in it, and its problems. */
export function documentParts(s: Sniff): { doc: JsonDocument; pos: DocPositions; diags: Diagnostics } {
  const doc = s.document();
  const pos = new DocPositions(doc, s.bytes);
  return { doc, pos, diags: documentDiagnostics(s, pos) };
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
  const printed =
    doc.printedBefore !== undefined
      ? ' (after the "Exporting session:" line its CLI prints first, kept)'
      : '';
  return doc.errors.length
    ? `${printed} (the JSON is broken: ${doc.errors.length} syntax error(s), see diagnostics)`
    : printed;
}

/** Each U+FFFD of `text` that stands for bytes of `raw` that were not UTF-8, with the running difference between the
 * bytes it stands for and the 3 `utf8Length` counts: the decoder (WHATWG) replaces each maximal part of an ill-formed
 * sequence, or a lone byte, by one U+FFFD. */
function replacedBytes(text: string, raw: Uint8Array): { after: number; add: number }[] {
  const out: { after: number; add: number }[] = [];
  let b = 0;
  let add = 0;
  for (let c = 0; c < text.length && b < raw.length; c++) {
    const code = text.charCodeAt(c);
    if (code === 0xfffd && !(raw[b] === 0xef && raw[b + 1] === 0xbf && raw[b + 2] === 0xbd)) {
      const n = illFormedLength(raw, b);
      add += n - 3;
      out.push({ after: c + 1, add });
      b += n;
    } else if (code >= 0xd800 && code <= 0xdbff && c + 1 < text.length) {
      b += 4;
      c++;
    } else b += code < 0x80 ? 1 : code < 0x800 ? 2 : 3;
  }
  return out;
}

/** How many bytes from `b` the decoder replaces by one U+FFFD: a lead byte and the continuation bytes that fit it
 * before the one that does not (at least one byte). */
function illFormedLength(raw: Uint8Array, b: number): number {
  const lead = raw[b];
  let need: number;
  let lower = 0x80;
  let upper = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) need = 1;
  else if (lead >= 0xe0 && lead <= 0xef) {
    need = 2;
    if (lead === 0xe0) lower = 0xa0;
    if (lead === 0xed) upper = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    need = 3;
    if (lead === 0xf0) lower = 0x90;
    if (lead === 0xf4) upper = 0x8f;
  } else return 1;
  for (let i = 1; i <= need; i++) {
    const next = raw[b + i];
    if (next === undefined || next < lower || next > upper) return i;
    lower = 0x80;
    upper = 0xbf;
  }
  return need + 1;
}
