// SPEC §4 CCR (compress–cache–retrieve): the markers the live-zone compressors write, the grammar that reads them
// back, and the tool that redeems them, in one place. With `liveZone.ccr` off no store is written, so a compressor
// writes its plain form instead: the same counts, no hash (SPEC §8: a marker whose hash is not in the store is a
// defect). Pure: the export's request conversion reads the grammar too.

/** SPEC §4: the retrieval tool that serves the store, as an Anthropic tool definition. */
export const CCR_RETRIEVE_TOOL = {
  name: 'headroom_retrieve',
  description:
    'Retrieve the original content of a block that was compressed to save context, by the hash its marker shows.',
  input_schema: {
    type: 'object',
    properties: { hash: { type: 'string', description: 'The hash shown in the compression marker.' } },
    required: ['hash'],
  },
} as const;

/** Search results: `[N matches compressed to M. Retrieve more: hash=HASH]`, or `[N matches compressed to M]`. */
export function searchMarker(total: number, kept: number, hash: string | null): string {
  return `[${total} matches compressed to ${kept}${hash === null ? '' : `. Retrieve more: hash=${hash}`}]`;
}

/** Build/log output: `[N lines compressed to M. Retrieve more: hash=HASH]`, or `[N lines compressed to M]`. */
export function logMarker(total: number, kept: number, hash: string | null): string {
  return `[${total} lines compressed to ${kept}${hash === null ? '' : `. Retrieve more: hash=${hash}`}]`;
}

/** Unified diff: `Retrieve full diff: hash=HASH`, or, with no store, the log's plain form (lines in, lines out). */
export function diffMarker(totalLines: number, keptLines: number, hash: string | null): string {
  return hash === null ? logMarker(totalLines, keptLines, null) : `Retrieve full diff: hash=${hash}`;
}

/** JSON array: the row appended after the kept items, `{"_ccr_dropped": "<<ccr:HASH N_rows_offloaded>>"}`, or
 * `{"_dropped": "[N items compressed to M]"}` (a row still, so the text stays a JSON array). */
export function jsonDroppedRow(total: number, kept: number, hash: string | null): Record<string, string> {
  return hash === null
    ? { _dropped: `[${total} items compressed to ${kept}]` }
    : { _ccr_dropped: `<<ccr:${hash} ${total - kept}_rows_offloaded>>` };
}

/** Every marker form that names a stored original: ours above, and the proxy's own
 * (`[… Retrieve full diff: hash=H]`, `<<ccr:H>>`) in transcripts that went through it. */
const MARKER = /(?:Retrieve more: hash=|Retrieve full diff: hash=|<<ccr:)([0-9a-f]{24})(?![0-9a-f])/g;

/** The hashes of the CCR markers in a text, in order. */
export function ccrMarkerHashes(text: string): string[] {
  return [...text.matchAll(MARKER)].map((m) => m[1]);
}

export function hasCcrMarker(text: string): boolean {
  return ccrMarkerHashes(text).length > 0;
}
