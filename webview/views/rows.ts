// The rows of the message list: messages, with the log's markers and the cache boundary between them.
import type { ViewAnalysis } from '../../src/analysisWire';
import type { CompressionEvent } from '../../src/core/analysisTypes';
import type { MarkerSummary } from '../../src/protocol';

export type Row =
  | { kind: 'message'; index: number }
  | { kind: 'marker'; marker: MarkerSummary }
  | { kind: 'boundary'; messageIndex: number; event: CompressionEvent | null };

export function buildRows(
  messageCount: number,
  markers: MarkerSummary[],
  analysis: ViewAnalysis | null,
): Row[] {
  const byMessage = new Map<number, MarkerSummary[]>();
  for (const m of markers) {
    const at = Math.min(Math.max(m.beforeMessage, 0), messageCount);
    const list = byMessage.get(at);
    if (list) list.push(m);
    else byMessage.set(at, [m]);
  }
  const boundary = analysis?.cacheBoundary ?? null;
  const event = analysis?.boundaryEvent ?? null;
  const rows: Row[] = [];
  for (let i = 0; i <= messageCount; i++) {
    for (const marker of byMessage.get(i) ?? []) rows.push({ kind: 'marker', marker });
    if (boundary === i) rows.push({ kind: 'boundary', messageIndex: i, event });
    if (i < messageCount) rows.push({ kind: 'message', index: i });
  }
  return rows;
}

export function describeEvent(e: CompressionEvent): string {
  const what =
    e.action === 'obs_window' ? 'observation window' : e.action === 'live_zone' ? 'live zone' : e.action;
  const tool = e.toolUseId ? ` (${e.toolUseId})` : '';
  return `${what} rewrite of message ${e.messageIndex} block ${e.blockIndex}${tool}, request ${e.requestIndex + 1}: ${e.oldLen} → ${e.newLen} chars`;
}
