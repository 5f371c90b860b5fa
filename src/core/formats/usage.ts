// Token figures the logs record (Claude Code `message.usage`, Codex `token_count`): read as whole numbers from
// 0 to MAX_USAGE_TOKENS. Anything else (1e308, -5, 2.5, "12") is reported with its line and column and left out
// of the sums: summed as it is, one such figure made every total Infinity or NaN, and the view then refused the
// whole analysis.

import type { Message, RecordedReply } from '../model';
import { findValue } from './json';
import { decodeUtf8 } from './text';
import type { Diagnostics } from './types';

/** Far above any real request (a million-token window, a session of millions of requests), far below where
 * sums of figures lose precision or overflow. */
export const MAX_USAGE_TOKENS = 1e12;

/** Told about a figure that is present but not a token count: the field's name and the value as recorded. */
export type UsageProblem = (field: string, value: unknown) => void;

/** The token count in `record[field]`: 0 when absent (or null), the figure when it is a whole number in range,
 * otherwise 0 and `report` is told. */
export function tokenFigure(record: Record<string, unknown>, field: string, report?: UsageProblem): number {
  const value = record[field];
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_USAGE_TOKENS)
    return value;
  report?.(field, value);
  return 0;
}

/** Where the value at `path` of a record starts, as the file's line and column (1-based), for a diagnostic about it.
 * `bytes`/`span`: the record's line in the file, decoded only when there is something to report. */
export function valuePosition(
  bytes: Uint8Array,
  span: { start: number; end: number; index: number },
  path: readonly (string | number)[],
): { line: number; column: number } {
  const line = decodeUtf8(bytes.subarray(span.start, span.end)).text;
  const at = findValue(line.charCodeAt(0) === 0xfeff ? ` ${line.slice(1)}` : line, path);
  return { line: span.index + 1, column: (at?.start ?? 0) + 1 };
}

/** A figure as the file holds it, short enough to quote in a diagnostic. */
export function shownFigure(value: unknown): string {
  const shown = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
  return shown.length > 40 ? `${shown.slice(0, 40)}…` : shown;
}

/** A `UsageProblem` that adds a warning at the figure's line and column; `path`: where the usage object sits in
 * the record. */
export function reportUsageProblems(
  diags: Diagnostics,
  bytes: Uint8Array,
  span: { start: number; end: number; index: number },
  path: readonly (string | number)[],
): UsageProblem {
  return (field, value) => {
    // `field` may name a nested figure ("cache_creation.ephemeral_1h_input_tokens"): our names have no dots.
    const fieldPath = [...path, ...field.split('.')];
    const at = valuePosition(bytes, span, fieldPath);
    diags.add(
      'warning',
      'usage-out-of-range',
      `recorded usage ${fieldPath.join('.')} is ${shownFigure(value)}, not a token count (a whole number from 0 to ${MAX_USAGE_TOKENS}): left out of the sums`,
      at.line,
      at.column,
    );
  };
}

/** Ten times the largest context window a model offers: what an agent counted in its context before a compaction
 * (Claude Code's `compactMetadata.preTokens`) is never more. */
export const MAX_CONTEXT_TOKENS = 10_000_000;

/** Whether `value` can be the tokens an agent counted in its context: a whole number from 1 to MAX_CONTEXT_TOKENS. */
export function isContextTokens(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_CONTEXT_TOKENS;
}

/** The replies of the main conversation's messages that carry usage, one per message, in order. */
export function messageReplies(messages: readonly Message[]): RecordedReply[] {
  const out: RecordedReply[] = [];
  for (const m of messages) {
    if (!m.usage) continue;
    const reply: RecordedReply = {
      thread: 'main',
      onBranch: true,
      usage: m.usage,
      line: m.source?.line ?? 0,
    };
    if (m.model) reply.model = m.model;
    if (m.timestamp) reply.timestamp = m.timestamp;
    out.push(reply);
  }
  return out;
}
