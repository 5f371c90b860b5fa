// Token counts with tiktoken (WASM). `encode_ordinary` counts special-token text such as `<|endoftext|>` as
// ordinary text: transcripts contain it and must not throw. Counts are cached by content hash, so changing a
// threshold re-tokenizes only the strings that are new.
import { createHash } from 'node:crypto';
import { get_encoding, type Tiktoken } from 'tiktoken';
import { countTokens } from './split';

export type TokenizerName = 'o200k_base' | 'cl100k_base';

const encoders = new Map<TokenizerName, Tiktoken>();

/** The shared encoder of a tokenizer (initialising one costs ~135 ms, so there is one per process). */
export function encoderFor(tokenizer: TokenizerName): Tiktoken {
  let enc = encoders.get(tokenizer);
  if (!enc) {
    enc = get_encoding(tokenizer);
    encoders.set(tokenizer, enc);
  }
  return enc;
}

/** Short strings are their own key (cheaper than hashing them); longer ones are keyed by SHA-256. */
const INLINE_KEY_MAX = 256;
/** Bound on the cache so that a long editing session cannot grow it without limit (oldest entries go first). */
const CACHE_MAX_ENTRIES = 500_000;

export function countCacheKey(text: string): string {
  return text.length <= INLINE_KEY_MAX
    ? text
    : `#${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

export class TokenCounter {
  private readonly cache = new Map<string, number>();
  hits = 0;
  misses = 0;

  constructor(readonly tokenizer: TokenizerName) {}

  /** Tokens of `text`, synchronously (the CLI and tests; the host primes the cache from worker threads first). */
  count(text: string): number {
    if (text.length === 0) return 0;
    const key = countCacheKey(text);
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      this.hits++;
      return cached;
    }
    this.misses++;
    const n = countTokens(encoderFor(this.tokenizer), text);
    this.remember(key, n);
    return n;
  }

  /** Whether `text` is already counted. */
  has(text: string): boolean {
    return text.length === 0 || this.cache.has(countCacheKey(text));
  }

  /** Stores counts made elsewhere (a worker thread) under their content keys. */
  prime(texts: readonly string[], counts: readonly number[]): void {
    texts.forEach((t, i) => {
      if (t.length > 0) this.remember(countCacheKey(t), counts[i]);
    });
  }

  get size(): number {
    return this.cache.size;
  }

  private remember(key: string, n: number): void {
    if (this.cache.size >= CACHE_MAX_ENTRIES) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(key, n);
  }
}

const counters = new Map<TokenizerName, TokenCounter>();

/** The process-wide counter of a tokenizer: the CLI, the editor and the engine share its cache. */
export function tokenCounter(tokenizer: TokenizerName = 'o200k_base'): TokenCounter {
  let c = counters.get(tokenizer);
  if (!c) {
    c = new TokenCounter(tokenizer);
    counters.set(tokenizer, c);
  }
  return c;
}
