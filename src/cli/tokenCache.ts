// `--token-cache DIR` / `--no-token-cache` for the commands that count tokens: counts are kept on disk by content
// digest (node/tokenStore.ts), so a second run over the same files tokenizes nothing it has seen.
import { TOKENIZERS, tokenCounter } from '../core/tokens/counter';
import { type BackedCounters, backCounters, defaultStoreDir } from '../node/tokenStore';
import type { Option, Parsed } from './options';
import { printError, terminalText } from './terminal';

const TOKEN_CACHE: Option<string | null> = {
  name: 'token-cache',
  value: 'DIR',
  description: 'keep token counts in DIR',
  default: "$CONTEXT_LENS_TOKEN_CACHE, else the user's cache folder, e.g. ~/.cache/context-lens/tokens",
};
const NO_TOKEN_CACHE: Option<string | null> = {
  name: 'no-token-cache',
  key: TOKEN_CACHE.name,
  is: null,
  description: 'count every text anew, read and write no cache',
};
export const TOKEN_CACHE_OPTIONS: readonly Option[] = [TOKEN_CACHE, NO_TOKEN_CACHE];

export class TokenCacheOption {
  /** undefined: the default folder; null: off. */
  private constructor(private readonly dir: string | null | undefined) {}

  /** `--token-cache DIR` or `--no-token-cache`, whichever came last. */
  static from(parsed: Parsed): TokenCacheOption {
    return new TokenCacheOption(parsed.get(TOKEN_CACHE));
  }

  /** The folder in use, or null when off. */
  folder(): string | null {
    return this.dir === undefined ? defaultStoreDir() : this.dir;
  }

  /** Backs the process's counters with the store (when on). Warnings (a damaged or unwritable cache) go to
   * stderr; the run goes on without the cache. */
  open(): BackedCounters | null {
    const dir = this.folder();
    if (!dir) return null;
    return backCounters(dir, { warn: (m) => printError(`context-lens: ${terminalText(m)}\n`) });
  }
}

/** What the counters did in this process: texts tokenized, and counts found in the cache on disk. */
export function countingFigures(): { tokenized: number; fromCache: number } {
  let tokenized = 0;
  let fromCache = 0;
  for (const t of TOKENIZERS) {
    const c = tokenCounter(t);
    tokenized += c.misses;
    fromCache += c.backingHits;
  }
  return { tokenized, fromCache };
}

export function countingLine(cache: string | null): string {
  const { tokenized, fromCache } = countingFigures();
  return cache
    ? `token counts: ${tokenized.toLocaleString('en-US')} texts tokenized, ${fromCache.toLocaleString('en-US')} from the token cache (${cache})`
    : `token counts: ${tokenized.toLocaleString('en-US')} texts tokenized (no token cache)`;
}
