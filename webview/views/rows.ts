// The rows of the message list: messages, with the log's markers and the cache boundary between them.
import type { ViewAnalysis } from '../../src/analysisWire/types';
import type { CompressionEvent } from '../../src/core/analysisTypes';
import type { MarkerSummary } from '../../src/protocol/shared';

export type Row =
  | { kind: 'message'; index: number }
  | { kind: 'marker'; marker: MarkerSummary }
  /** Bookkeeping records (queue operations, snapshots…) between two messages, grouped; their markers follow when
   * the group is open. `at`: the message they stand before. */
  | { kind: 'records'; at: number; markers: MarkerSummary[]; open: boolean }
  /** The messages of a segment before a compaction, [start, end): the requests after it no longer carry them. */
  | { kind: 'segment'; start: number; end: number; open: boolean }
  | { kind: 'boundary'; messageIndex: number; event: CompressionEvent | null };

/** What the user opened: record groups by the message they stand before, earlier segments by their start. */
export interface Opened {
  records: ReadonlySet<number>;
  segments: ReadonlySet<number>;
}

export const NOTHING_OPENED: Opened = { records: new Set(), segments: new Set() };

/** Where the segments start: message 0, and each compaction marker's message (the summary the next requests
 * start with). The last segment is live; the earlier ones are collapsed unless opened. */
export function segmentStarts(messageCount: number, markers: readonly MarkerSummary[]): number[] {
  const starts = new Set([0]);
  for (const m of markers)
    if (m.kind === 'compaction' && m.beforeMessage > 0 && m.beforeMessage < messageCount)
      starts.add(m.beforeMessage);
  return [...starts].sort((a, b) => a - b);
}

/** The earlier segment holding `message`, if it is one (its start), else null. */
export function earlierSegmentOf(message: number, starts: readonly number[]): number | null {
  for (let k = starts.length - 2; k >= 0; k--)
    if (message >= starts[k] && message < starts[k + 1]) return starts[k];
  return null;
}

/** The list's rows. `bookkeeping`: the groups of bookkeeping records are shown (else left out: they carry no
 * conversation). */
export function buildRows(
  messageCount: number,
  markers: MarkerSummary[],
  analysis: ViewAnalysis | null,
  opened: Opened = NOTHING_OPENED,
  bookkeeping = true,
): Row[] {
  const byMessage = new Map<number, MarkerSummary[]>();
  for (const m of markers) {
    const at = Math.min(Math.max(m.beforeMessage, 0), messageCount);
    const list = byMessage.get(at);
    if (list) list.push(m);
    else byMessage.set(at, [m]);
  }
  const starts = segmentStarts(messageCount, markers);
  const ends = new Map(starts.map((s, k) => [s, starts[k + 1] ?? messageCount]));
  const boundary = analysis?.cacheBoundary ?? null;
  const event = analysis?.boundaryEvent ?? null;
  const rows: Row[] = [];
  for (let i = 0; i <= messageCount; i++) {
    const end = ends.get(i);
    // An earlier segment (not the last) is one row until opened.
    if (end !== undefined && end < messageCount && i < messageCount) {
      const open = opened.segments.has(i);
      rows.push({ kind: 'segment', start: i, end, open });
      if (!open) {
        // Its own markers stay hidden with it, except the compaction markers that close it (below, at `end`).
        i = end - 1;
        continue;
      }
    }
    const here = byMessage.get(i) ?? [];
    const records = bookkeeping ? here.filter((m) => m.kind !== 'compaction') : [];
    if (records.length > 0) {
      const open = opened.records.has(i);
      rows.push({ kind: 'records', at: i, markers: records, open });
      if (open) for (const marker of records) rows.push({ kind: 'marker', marker });
    }
    for (const marker of here) if (marker.kind === 'compaction') rows.push({ kind: 'marker', marker });
    if (boundary === i) rows.push({ kind: 'boundary', messageIndex: i, event });
    if (i < messageCount) rows.push({ kind: 'message', index: i });
  }
  return rows;
}

/** How many bookkeeping records the list can show (every marker but the compactions). */
export function bookkeepingCount(markers: readonly MarkerSummary[]): number {
  return markers.reduce((n, m) => n + (m.kind === 'compaction' ? 0 : 1), 0);
}

/** "queue-operation ×2, file-history-snapshot": what a group of records holds, in plain words. */
export function recordsSummary(markers: readonly MarkerSummary[]): string {
  const counts = new Map<string, number>();
  for (const m of markers) {
    const name = m.label.split(' ')[0] || m.kind;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(', ');
}

export function describeEvent(e: CompressionEvent): string {
  const what =
    e.action === 'obs_window'
      ? 'observation window'
      : e.action === 'live_zone'
        ? 'live zone'
        : e.action === 'context_edit'
          ? 'context editing (server)'
          : e.action === 'microcompact'
            ? 'microcompaction (agent)'
            : e.action;
  const tool = e.toolUseId ? ` (${e.toolUseId})` : '';
  return `${what} rewrite of message ${e.messageIndex} block ${e.blockIndex}${tool}, request ${e.requestIndex + 1}: ${e.oldLen} → ${e.newLen} chars`;
}
