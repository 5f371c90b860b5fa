// Parsed JSONL lines kept between two parses of a file that only grew (an agent's session, read again as it is
// appended to). Most of a JSONL parse is decoding and JSON.parse of each line; a line whose bytes did not change
// gives the same record, so a parse of the grown file parses only the new lines. The adapters do not know: the
// cache is attached to the bytes being parsed and `readJsonl` consults it. The records are shared between the
// parses, so the adapters must treat them as read-only (the tests compare with a fresh parse).
import type { SourceRange } from '../model';

interface ParsedLine {
  end: number;
  /** Where the following line starts (the line ended with a line break): a parse of the grown file goes there
   * without looking for the break again. */
  next: number;
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

  /** The line that starts at `start`, parsed before the same way, with where it ends and the next one starts. */
  at(
    start: number,
    index: number,
    skipKey: string | undefined,
  ): { end: number; next: number; source: SourceRange; value: Record<string, unknown> } | undefined {
    const hit = this.lines.get(start);
    return hit && hit.index === index && hit.skipKey === skipKey ? hit : undefined;
  }

  /** Keeps a parsed line that ends with a line break at `next - 1` (a last line without one may still grow). */
  set(
    start: number,
    end: number,
    next: number,
    index: number,
    skipKey: string | undefined,
    source: SourceRange,
    value: Record<string, unknown>,
  ): void {
    this.lines.set(start, { end, next, index, skipKey, source, value });
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
