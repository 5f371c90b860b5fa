// The times the logs record (Claude Code and Codex `timestamp`), checked as they are read: the replay expires the
// prompt cache when two requests lie more than its lifetime apart, so one record stamped 1900 or 9999 made the next
// request write the whole prompt again, and requests stamped in reverse never expired anything, in silence. A time
// is used only when it is a date between EARLIEST_TIMESTAMP and LATEST_TIMESTAMP and, for a request (an assistant
// message), not before the requests that came before it in its conversation; any other is reported and left out
// (the request's time is then unknown: its cache is taken as kept).

import type { Diagnostic, Message, Transcript } from '../model';
import { valuePosition } from './usage';

/** No agent log is older (the first agent CLIs wrote theirs in 2024), none is written this far ahead. */
export const EARLIEST_TIMESTAMP = '2020-01-01T00:00:00.000Z';
export const LATEST_TIMESTAMP = '2100-01-01T00:00:00.000Z';
const EARLIEST_MS = Date.parse(EARLIEST_TIMESTAMP);
const LATEST_MS = Date.parse(LATEST_TIMESTAMP);

export const TIMESTAMP_PROBLEM = 'implausible-timestamp';
/** Lines a diagnostic names besides the first one. */
const LINES_NAMED = 5;

/** The time of an ISO timestamp in ms, or NaN when it is not a date within the plausible window. */
export function plausibleTime(timestamp: string): number {
  const ms = Date.parse(timestamp);
  return ms >= EARLIEST_MS && ms < LATEST_MS ? ms : Number.NaN;
}

interface Found {
  line: number;
  start: number;
  value: string;
}

/** Removes the implausible timestamps of every conversation's messages and of the recorded replies, and reports
 * them (one diagnostic per kind and conversation, at the first, naming the next few lines). */
export function checkTimestamps(t: Transcript): void {
  const out: Diagnostic[] = [];
  const conversations: [string | null, Message[]][] = [[null, t.messages]];
  for (const c of t.sidechains) if (c.messages !== t.messages) conversations.push([c.id, c.messages]);
  const outside: Found[] = [];
  const seenLines = new Set<number>();
  for (const [id, messages] of conversations) {
    const backwards: Found[] = [];
    // The requests' times, in order: the longest run that never goes back is kept, the rest are out of order.
    const requests: { message: Message; ms: number }[] = [];
    for (const m of messages) {
      if (m.timestamp === undefined) continue;
      const ms = plausibleTime(m.timestamp);
      if (Number.isNaN(ms)) {
        const line = m.source?.line ?? 1;
        if (!seenLines.has(line)) outside.push({ line, start: m.source?.start ?? -1, value: m.timestamp });
        seenLines.add(line);
        delete m.timestamp;
      } else if (m.role === 'assistant') requests.push({ message: m, ms });
    }
    const kept = longestForward(requests.map((r) => r.ms));
    requests.forEach((r, i) => {
      if (kept[i]) return;
      const line = r.message.source?.line ?? 1;
      backwards.push({ line, start: r.message.source?.start ?? -1, value: r.message.timestamp as string });
      seenLines.add(line);
      delete r.message.timestamp;
    });
    if (backwards.length > 0)
      out.push(
        diagnostic(
          t.raw,
          backwards,
          id,
          (first) =>
            `the request's timestamp ${JSON.stringify(first)} goes back before the requests ahead of it in the conversation`,
          'out of order',
        ),
      );
  }
  for (const r of t.replies ?? []) {
    if (r.timestamp === undefined || !Number.isNaN(plausibleTime(r.timestamp))) continue;
    if (!seenLines.has(r.line)) outside.push({ line: r.line, start: -1, value: r.timestamp });
    seenLines.add(r.line);
    delete r.timestamp;
  }
  if (outside.length > 0) {
    outside.sort((a, b) => a.line - b.line);
    out.unshift(
      diagnostic(
        t.raw,
        outside,
        null,
        (first) =>
          `timestamp ${JSON.stringify(first)} is not a date from ${EARLIEST_TIMESTAMP.slice(0, 10)} to ${LATEST_TIMESTAMP.slice(0, 10)}`,
        'outside that window',
      ),
    );
  }
  for (const d of out) t.diagnostics.push(d);
}

function diagnostic(
  raw: Uint8Array,
  found: Found[],
  conversation: string | null,
  what: (first: string) => string,
  others: string,
): Diagnostic {
  const [first, ...rest] = found;
  const shown = first.value.length > 60 ? `${first.value.slice(0, 60)}…` : first.value;
  const more =
    rest.length === 0
      ? ''
      : `; ${rest.length} more ${others} (line${rest.length === 1 ? '' : 's'} ${rest
          .slice(0, LINES_NAMED)
          .map((f) => f.line)
          .join(', ')}${rest.length > LINES_NAMED ? ', …' : ''})`;
  const where = conversation === null ? '' : `In the sub-agent conversation ${conversation}: `;
  return {
    severity: 'warning',
    code: TIMESTAMP_PROBLEM,
    message: `${where}${what(shown)}${more}: not used for the prompt cache's lifetime (the request's time is taken as unknown)`,
    line: first.line,
    column: columnOf(raw, first),
  };
}

/** The column of the record's `timestamp` value, or 1. */
function columnOf(raw: Uint8Array, f: Found): number {
  if (f.start < 0 || f.start >= raw.length) return 1;
  let end = raw.indexOf(10, f.start);
  if (end < 0) end = raw.length;
  return valuePosition(raw, { start: f.start, end, index: f.line - 1 }, ['timestamp']).column;
}

/** Which of `times` form the longest run (in order, not necessarily adjacent) that never goes back: patience
 * sorting, O(n log n). Among runs of that length, the one ending earliest in time. */
function longestForward(times: readonly number[]): boolean[] {
  const tails: number[] = []; // tails[k]: index of the smallest last time of a run of length k + 1
  const previous = new Int32Array(times.length).fill(-1);
  for (let i = 0; i < times.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (times[tails[mid]] <= times[i]) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) previous[i] = tails[lo - 1];
    tails[lo] = i;
  }
  const kept = new Array<boolean>(times.length).fill(false);
  for (let i = tails.length ? tails[tails.length - 1] : -1; i >= 0; i = previous[i]) kept[i] = true;
  return kept;
}
