// SPEC §4 search-results compressor (`path:line:text` lines): at most 5 matches per file, 30 in all, 15 files.
import { searchMarker } from '../ccr';
import { searchLinePath } from './detect';

export const SEARCH_MAX_PER_FILE = 5;
export const SEARCH_MAX_MATCHES = 30;
export const SEARCH_MAX_FILES = 15;

/** `hash` null: `liveZone.ccr` is off, so the marker is the plain form that points at no store. */
export function compressSearch(text: string, hash: string | null): string | null {
  const perFile = new Map<string, number>();
  const kept: string[] = [];
  let total = 0;
  for (const line of text.split('\n')) {
    const file = searchLinePath(line);
    if (file === null) continue;
    total++;
    const seen = perFile.get(file);
    if (seen === undefined && perFile.size >= SEARCH_MAX_FILES) continue;
    if ((seen ?? 0) >= SEARCH_MAX_PER_FILE || kept.length >= SEARCH_MAX_MATCHES) continue;
    perFile.set(file, (seen ?? 0) + 1);
    kept.push(line);
  }
  if (kept.length >= total) return null;
  return `${kept.join('\n')}\n${searchMarker(total, kept.length, hash)}`;
}
