// Parsed JSONL lines kept between two parses of a file that only grew (an agent's session, read again as it is
// appended to). Most of a JSONL parse is decoding and JSON.parse of each line; a line whose bytes did not change
// gives the same record, so a parse of the grown file parses only the new lines. The adapters do not know: the
// cache is attached to the bytes being parsed and `readJsonl` consults it. The records are shared between the
// parses, so the adapters must treat them as read-only (the tests compare with a fresh parse).
import type { SourceRange } from '../model';

interface ParsedLine {
  end: number;
  index: number;
  skipKey: string | undefined;
  source: SourceRange;
  value: Record<string, unknown>;
}

export class ParsedLines {
  /** By the line's first byte. */
  private readonly lines = new Map<number, ParsedLine>();

  get size(): number {
    return this.lines.size;
  }

  /** The record of the line [start, end) parsed before, when it is the same line read the same way. */
  get(
    start: number,
    end: number,
    index: number,
    skipKey: string | undefined,
  ): { source: SourceRange; value: Record<string, unknown> } | undefined {
    const hit = this.lines.get(start);
    return hit && hit.end === end && hit.index === index && hit.skipKey === skipKey ? hit : undefined;
  }

  set(
    start: number,
    end: number,
    index: number,
    skipKey: string | undefined,
    source: SourceRange,
    value: Record<string, unknown>,
  ): void {
    this.lines.set(start, { end, index, skipKey, source, value });
  }
}

const attached = new WeakMap<Uint8Array, ParsedLines>();

/**
 * Lets the parses of `bytes` reuse (and fill) `lines`. The caller promises that every line in `lines` is still
 * in `bytes` at the same offsets, byte for byte: the bytes are those of an earlier parse with lines appended.
 */
export function reuseParsedLines(bytes: Uint8Array, lines: ParsedLines): void {
  attached.set(bytes, lines);
}

export function parsedLinesOf(bytes: Uint8Array): ParsedLines | undefined {
  return attached.get(bytes);
}
