// SPEC §4 live-zone-only compression: only the newest user message is compressed; the stable prefix before it is
// forwarded byte-for-byte, and a message is compressed once, when it is the live zone.
import type { Block, Transcript } from '../model';
import { type ContentType, detectType, parseJsonArray } from './compressors/detect';
import { compressDiff } from './compressors/diff';
import { compressJsonArray } from './compressors/jsonArray';
import { compressLog } from './compressors/log';
import { compressSearch } from './compressors/search';
import { derive, derived } from './derived';
import { ccrHash } from './hash';
import type { LiveZoneSettings } from './policy';
import { blockKey, originalInfo } from './prepare';
import type { EngineState } from './state';

export interface CompressedText {
  type: ContentType;
  text: string;
  /** The CCR store key its marker names; null when `liveZone.ccr` is off and the marker is the plain form. */
  hash: string | null;
}

/** Compresses one text by its type (`detectType`'s); null when the type is left as it is or nothing would be
 * dropped. `ccr` off: no store is written, so the marker names no hash (SPEC §8: a marker whose hash is not in the
 * store is a defect). */
export function compressByType(text: string, type: ContentType, ccr: boolean): CompressedText | null {
  if (type !== 'json-array' && type !== 'search' && type !== 'log' && type !== 'diff') return null;
  const hash = ccr ? ccrHash(text) : null;
  let out: string | null = null;
  if (type === 'json-array') out = compressJsonArray(parseJsonArray(text) ?? [], hash);
  else if (type === 'search') out = compressSearch(text, hash);
  else if (type === 'log') out = compressLog(text, hash);
  else out = compressDiff(text, hash);
  return out === null ? null : { type, text: out, hash };
}

/** The newest user message among [0, messageCount), or -1. */
export function liveZoneIndex(state: EngineState, messageCount: number): number {
  const messages = state.prep.transcript.messages;
  for (let i = Math.min(messageCount, messages.length) - 1; i >= 0; i--)
    if (messages[i].role === 'user') return i;
  return -1;
}

/** The message a compaction left in place of the older ones: the one a compaction marker stands before, when the
 * marker holds no summary of its own (Claude Code's `isCompactSummary` record after `compact_boundary`). */
export function isCompactionSummary(transcript: Transcript, messageIndex: number): boolean {
  return transcript.markers.some(
    (m) => m.kind === 'compaction' && m.beforeMessage === messageIndex && m.summary === undefined,
  );
}

/** Compressions already made per transcript: a live zone's outcome depends only on its original text and on
 * `liveZone.ccr` (which marker it carries): one map per setting. */
interface LiveMemo {
  type: ContentType;
  /** The compressed form when it passed the token gate. */
  outcome: CompressedText | null;
  /** A compressed form existed but was not shorter in tokens. */
  gate: boolean;
}
const liveMemo = derived('liveZoneCompressions', (): Map<boolean, Map<number, LiveMemo>> => new Map());

/** One live-zone pass over [0, messageCount). */
export function liveZonePass(state: EngineState, settings: LiveZoneSettings, messageCount: number): void {
  const live = liveZoneIndex(state, messageCount);
  if (live < 0 || state.liveDone.has(live)) return;
  state.liveDone.add(live);
  // A compaction summary is the agent's memory of what came before (SPEC §4): never a candidate.
  const summary = isCompactionSummary(state.prep.transcript, live);
  const counter = state.counter;
  state.prep.transcript.messages[live].blocks.forEach((block: Block, blockIndex) => {
    const ref = { messageIndex: live, blockIndex };
    // Candidates: text blocks and tool_result blocks with string content; never tool_use or thinking.
    if (block.type !== 'text' && block.type !== 'tool_result') return;
    if (state.isRewritten(ref)) return;
    const text = state.current(ref);
    if (typeof text !== 'string') return;
    // Blocks here are original (never rewritten before), so their length is already known.
    const chars = originalInfo(state.prep, ref).len;
    const fact = { message: live, block: blockIndex, request: state.requestIndex, chars };
    if (summary) {
      state.liveOutcomes.push({ ...fact, type: null, outcome: 'summary' });
      return;
    }
    if (chars < settings.minChars) {
      state.liveOutcomes.push({ ...fact, type: null, outcome: 'short' });
      return;
    }
    const memoKey = blockKey(live, blockIndex);
    const byCcr = derive(state.prep, liveMemo);
    let byPrep = byCcr.get(settings.ccr);
    if (!byPrep) {
      byPrep = new Map();
      byCcr.set(settings.ccr, byPrep);
    }
    let memo = byPrep.get(memoKey);
    if (memo === undefined) {
      const type = detectType(text);
      const compressed = compressByType(text, type, settings.ccr);
      // The token gate: keep the rewrite only when it has fewer tokens than the original, marker included.
      const shorter =
        compressed !== null && counter.count(compressed.text) < originalInfo(state.prep, ref).tokens;
      memo = {
        type,
        outcome: shorter ? compressed : null,
        gate: compressed !== null && !shorter,
      };
      byPrep.set(memoKey, memo);
    }
    state.liveOutcomes.push({
      ...fact,
      type: memo.type,
      outcome: memo.outcome ? 'compressed' : memo.gate ? 'not-shorter' : 'left-as-is',
    });
    const outcome = memo.outcome;
    if (!outcome) return;
    // The store holds exactly the originals that markers name; with `ccr` off there are none.
    if (outcome.hash !== null) state.ccr[outcome.hash] = text;
    state.rewrite(
      ref,
      outcome.text,
      'live_zone',
      undefined,
      block.type === 'tool_result' ? block.toolUseId : undefined,
    );
  });
}
