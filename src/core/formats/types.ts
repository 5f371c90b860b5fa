// What every format adapter provides, and what detection hands them.
import type { Node } from 'jsonc-parser';
import type { Block, Diagnostic, FormatId, SourceRange, Transcript, ValueLocation } from '../model';

export type Verdict = { ok: true; reason: string; score: number } | { ok: false; reason: string };

/** The whole file as one JSON document (the request-body formats), parsed once and shared. */
export interface JsonDocument {
  text: string;
  /** jsonc-parser's tolerant tree: offsets for every value; present even when the text is broken. */
  root: Node | undefined;
  /** The value (partial when the text is broken). */
  value: unknown;
  /** Problems with UTF-16 offsets into `text`. */
  errors: { offset: number; message: string }[];
  /** Byte offset of the first invalid UTF-8 sequence, or -1. */
  invalidUtf8At: number;
}

/** What detection looks at: a sample of JSONL records from the start, and (lazily) the whole JSON document. */
export interface Sniff {
  bytes: Uint8Array;
  fileName?: string;
  /** Up to `SAMPLE_LINES` non-blank lines from the start that parse as JSON objects. */
  records: Record<string, unknown>[];
  /** Non-blank lines looked at, and how many of them were JSON objects. */
  sampledLines: number;
  /** Whether the sample has more than one line (a one-line file is both a JSON document and a JSONL file). */
  multiLine: boolean;
  document(): JsonDocument;
}

/** Finds the original JSON value of a block (for nested blocks copied into a rewrite unchanged). */
export type OriginalValue = (location: ValueLocation) => unknown;

export interface FormatAdapter {
  id: FormatId;
  shape: 'jsonl' | 'json';
  /** What a file of this format looks like, in words (shown when nothing fits). */
  expected: string;
  detect(sniff: Sniff): Verdict;
  parse(sniff: Sniff, reason: string): Transcript;
  /** A nested block of a rewritten tool_result, as this format stores it. */
  nestedBlock(block: Block, original: OriginalValue): unknown;
}

/** Longest diagnostic message: messages quote the transcript (an id, a key, a value), and one quoted 200 MB
 * value made `inspect --json` fail ("Invalid string length") and would fill the Problems view. */
export const DIAGNOSTIC_MAX_CHARS = 1000;

/** Collects diagnostics with positions; one per problem, never thrown. */
export class Diagnostics {
  readonly list: Diagnostic[] = [];
  private readonly seen = new Set<string>();

  add(severity: Diagnostic['severity'], code: string, message: string, line: number, column: number): void {
    const shown =
      message.length > DIAGNOSTIC_MAX_CHARS
        ? `${message.slice(0, DIAGNOSTIC_MAX_CHARS)}… (${message.length - DIAGNOSTIC_MAX_CHARS} more characters)`
        : message;
    this.list.push({ severity, code, message: shown, line, column });
  }

  /** Reports a kind of thing once per file (e.g. each unknown block type), not once per occurrence. */
  once(key: string, severity: Diagnostic['severity'], code: string, message: string, at: SourceRange): void {
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.add(severity, code, message, at.line, at.column);
  }
}
