// Bytes, lines and positions: the shared ground every format reads from. Offsets in the model are UTF-8 byte
// offsets into the file (what a splice needs); columns are 1-based UTF-16 units of the decoded line (what an
// editor shows).
import type { SourceRange } from '../model';

const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const lenientDecoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });
const encoder = new TextEncoder();

export function encodeUtf8(text: string): Uint8Array {
  return encoder.encode(text);
}

export interface DecodedText {
  text: string;
  /** Byte offset (relative to the decoded slice) of the first byte that is not valid UTF-8, or -1. */
  invalidAt: number;
}

/** Decodes UTF-8; invalid sequences become U+FFFD and the first one's offset is reported, never thrown. */
export function decodeUtf8(bytes: Uint8Array): DecodedText {
  try {
    return { text: strictDecoder.decode(bytes), invalidAt: -1 };
  } catch {
    return { text: lenientDecoder.decode(bytes), invalidAt: firstInvalidUtf8(bytes) };
  }
}

/** Offset of the first byte that does not start or continue a well-formed UTF-8 sequence (-1 if none). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  const n = bytes.length;
  while (i < n) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    if (i + need >= n) return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/** UTF-8 length of `text.slice(from, to)` without allocating. */
export function utf8Length(text: string, from = 0, to = text.length): number {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < to) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/** One physical line of the file: bytes [start, end) exclude the line break (`\n`, and a `\r` before it). */
export interface LineSpan {
  /** 0-based. */
  index: number;
  start: number;
  end: number;
}

/** Byte offsets of every line start: the index that turns a byte offset into line and column. */
export class LineIndex {
  readonly starts: number[];
  constructor(private readonly bytes: Uint8Array) {
    const starts = [0];
    let nl = bytes.indexOf(10);
    while (nl !== -1) {
      starts.push(nl + 1);
      nl = bytes.indexOf(10, nl + 1);
    }
    this.starts = starts;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** The line holding `offset` (0-based index). */
  lineOf(offset: number): number {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  span(index: number): LineSpan {
    const start = this.starts[index];
    let end = index + 1 < this.starts.length ? this.starts[index + 1] - 1 : this.bytes.length;
    if (end > start && this.bytes[end - 1] === 13) end--;
    return { index, start, end };
  }

  /** 1-based line and UTF-16 column of a byte offset. */
  position(offset: number): { line: number; column: number } {
    const line = this.lineOf(offset);
    const start = this.starts[line];
    const column = offset > start ? decodeUtf8(this.bytes.subarray(start, offset)).text.length + 1 : 1;
    return { line: line + 1, column };
  }

  range(start: number, end: number): SourceRange {
    const a = this.position(start);
    const b = this.position(end);
    return { line: a.line, column: a.column, endLine: b.line, endColumn: b.column, start, end };
  }
}

/** Iterates the lines of a file without building an index first (the hot path of the JSONL formats). */
export function* lineSpans(bytes: Uint8Array): Generator<LineSpan> {
  let start = 0;
  let index = 0;
  const n = bytes.length;
  while (start <= n) {
    const nl = bytes.indexOf(10, start);
    const stop = nl === -1 ? n : nl;
    const end = stop > start && bytes[stop - 1] === 13 ? stop - 1 : stop;
    if (nl === -1) {
      if (start < n) yield { index, start, end };
      return;
    }
    yield { index, start, end };
    start = nl + 1;
    index++;
  }
}

/** A record's range when the record is one whole line. */
export function lineRange(span: LineSpan, text: string): SourceRange {
  return {
    line: span.index + 1,
    column: 1,
    endLine: span.index + 1,
    endColumn: text.length + 1,
    start: span.start,
    end: span.end,
  };
}

/** Range from the first line of `a` to the last of `b` (a message built from several records). */
export function joinRanges(a: SourceRange, b: SourceRange): SourceRange {
  return {
    line: a.line,
    column: a.column,
    endLine: b.endLine,
    endColumn: b.endColumn,
    start: a.start,
    end: b.end,
  };
}
