// One cache break, as the log's list and a replay's list both give it: the request numbered as the view numbers it,
// its figures, and its evidence with the words for it.
import type { BreakEvidence, CacheBreak } from './types';
import { evidenceWords } from './words';

export type BreakFigures = Pick<CacheBreak, 'expectedTokens' | 'readTokens' | 'tokens' | 'cost'>;

export function cacheBreak(
  r: { index: number; timestamp?: string },
  thread: string,
  figures: BreakFigures,
  evidence: BreakEvidence,
): CacheBreak {
  const found: CacheBreak = {
    request: r.index + 1,
    index: r.index,
    thread,
    ...figures,
    cause: evidence.cause,
    evidence,
    words: evidenceWords(evidence),
  };
  if (r.timestamp) found.time = r.timestamp;
  return found;
}
