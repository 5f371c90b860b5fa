// The formats' public face: detect, parse, write back. Everything else in this folder is an implementation.
import type { Transcript } from '../model';
import { detectIn } from './detect';
import { UnrecognizedTranscriptError } from './errors';
import { FORMATS } from './registry';
import { sniff } from './sniff';
import { checkTimestamps } from './timestamps';

export { type Detection, detectFormat } from './detect';
export { UnrecognizedTranscriptError } from './errors';
export { locateBlock } from './locate';
export { FORMATS } from './registry';
export { type WriteOptions, writeTranscript } from './write';

/** Parses a transcript of any of the five formats. Throws `UnrecognizedTranscriptError` only when no format
 * fits; every other problem (broken lines, truncation, invalid UTF-8, nesting bombs) is a diagnostic. */
export function parseTranscript(
  bytes: Uint8Array,
  fileName?: string,
  beside?: (name: string) => Uint8Array | undefined,
): Transcript {
  const s = sniff(bytes, fileName, beside);
  const found = detectIn(s);
  if (!('adapter' in found)) {
    throw new UnrecognizedTranscriptError(
      found.rejected,
      FORMATS.map((f) => ({ format: f.id, expected: f.expected })),
      fileName,
    );
  }
  const transcript = found.adapter.parse(s, found.reason);
  // Every format's times pass the same checks (the replay expires caches by them).
  checkTimestamps(transcript);
  return transcript;
}
