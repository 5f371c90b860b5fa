// Token counts with tiktoken (WASM). `encode_ordinary` counts special-token text such as `<|endoftext|>` as
// ordinary text: transcripts contain it and must not throw. Counts are cached by content hash, so changing a
// threshold re-tokenizes only the strings that are new.
import { createHash } from 'node:crypto';
import type { Tiktoken } from 'tiktoken';
import { forgetSha256s, rememberedSha256Hex, sha256Hex } from '../engine/hash';
import { countTokens } from './split';

export type TokenizerName = 'o200k_base' | 'cl100k_base';
export const TOKENIZERS: readonly TokenizerName[] = ['o200k_base', 'cl100k_base'];

const encoders = new Map<TokenizerName, Tiktoken>();

/** The shared encoder of a tokenizer (initialising one is not free, so there is one per process). */
export function encoderFor(tokenizer: TokenizerName): Tiktoken {
  let enc = encoders.get(tokenizer);
  if (!enc) {
    // Required here, not imported: loading the package compiles its WASM (memory and time of the process),
    // which the extension host and the parse thread never use (token workers count for them).
    const { get_encoding } = require('tiktoken') as typeof import('tiktoken');
    enc = get_encoding(tokenizer);
    encoders.set(tokenizer, enc);
  }
  return enc;
}

/** Whether this thread loaded the tables of `tokenizer` (tens of MB, kept for as long as the process runs). */
export const encoderLoaded = (tokenizer: TokenizerName) => encoders.has(tokenizer);

/** Short strings are their own key (cheaper than hashing them); longer ones are keyed by SHA-256. */
const INLINE_KEY_MAX = 256;
/** Bound on the cache so that a long editing session cannot grow it without limit (oldest entries go first). */
const CACHE_MAX_ENTRIES = 500_000;

/** The key a text's count is kept under. A long text's digest comes from the memo when the transcript holds the
 * text (`TokenCounter.rememberHeld`); nothing is added to the memo here. */
export function countCacheKey(text: string): string {
  return isInlineKey(text) ? text : `#${sha256Hex(text)}`;
}

/** Whether a text is its own key: short, and not starting with the "#" of a hashed key (which `keyDigest` reads
 * as one). */
const isInlineKey = (text: string) => text.length <= INLINE_KEY_MAX && text.charCodeAt(0) !== 35; /* # */

/** Bytes of a content digest: the first 16 of the text's SHA-256 (collisions are out of reach at this size). */
export const DIGEST_BYTES = 16;
/** Length of a hashed key: "#" and 64 hex digits. */
const HASHED_KEY_LENGTH = 65;

/** The content digest of a text, from its cache key (`countCacheKey`): the hash a long text's key already holds,
 * else the SHA-256 of the short text the key is. What counts kept on disk are looked up by. */
export function keyDigest(key: string): Buffer {
  if (key.length === HASHED_KEY_LENGTH && key.charCodeAt(0) === 35 /* # */)
    return Buffer.from(key.slice(1, 1 + 2 * DIGEST_BYTES), 'hex');
  return createHash('sha256').update(key, 'utf8').digest().subarray(0, DIGEST_BYTES);
}

/** Counts kept beyond this process (node/tokenStore.ts: a file on disk): asked before a text is tokenized, and
 * told every count made or primed, by cache key. */
export interface CountBacking {
  get(key: string): number | undefined;
  put(key: string, count: number): void;
  /** A count it gave differs from the tokenizer's: it drops what it holds (and says so). */
  distrust?(why: string): void;
}

/** Counts from the backing checked against the tokenizer: the first ones of a process, then one in
 * BACKING_CHECK_EVERY at random. A file on disk is something another process, a disk or a person can change: a
 * store whose counts were all edited (halved, say, and its checksum made again) is caught at its first count,
 * before any figure uses it; one with a few edited counts, at the rate of the sample. The cost is tokenizing that
 * share of what the cache saves, within the noise of a warm run (docs/performance.md, "Figures behind the
 * code"). */
export const BACKING_CHECK_FIRST = 16;
export const BACKING_CHECK_EVERY = 64;

export class TokenCounter {
  private readonly cache = new Map<string, number>();
  /** Whether the digests of the long texts a transcript holds are remembered (`rememberHeld`): the editor, which
   * lets them go when a transcript closes. */
  remembersTexts = false;
  hits = 0;
  /** Texts tokenized by this counter (the ones neither in memory nor in the backing). */
  misses = 0;
  /** Texts found in the backing. */
  backingHits = 0;
  backing: CountBacking | null = null;
  /** Counts from the backing checked against the tokenizer (see BACKING_CHECK_FIRST). */
  backingChecks = 0;
  /** Why the backing was found wrong, once it was. */
  backingDistrusted: string | null = null;
  private backingSeen = 0;
  /** Counts from the backing due for a check the caller could not tokenize for (`known`): checked when the
   * workers' counts of those texts come back (`prime`). */
  private readonly pendingChecks = new Map<string, number>();
  /** The sample: a random share past the first ones (injected by tests). */
  random: () => number = Math.random;

  constructor(readonly tokenizer: TokenizerName) {}

  /** Remembers the digests of `texts`, strings the open transcript holds itself. Only those: the memo holds the
   * text it is keyed by, and a string made from the transcript (a tool call's input as JSON, a rewrite) would live
   * on in it alone. */
  rememberHeld(texts: readonly string[]): void {
    if (!this.remembersTexts) return;
    for (const t of texts) if (!isInlineKey(t)) rememberedSha256Hex(t);
  }

  /** Lets go of the texts whose digests are remembered (a transcript closed). */
  forgetTexts(): void {
    forgetSha256s();
  }

  /** Tokens of `text`, synchronously (the CLI and tests; the host primes the cache from worker threads first). */
  count(text: string): number {
    if (text.length === 0) return 0;
    const key = countCacheKey(text);
    const known = this.lookUp(key, text, true);
    if (known !== undefined) return known;
    this.misses++;
    const n = countTokens(encoderFor(this.tokenizer), text);
    this.remember(key, n);
    this.backing?.put(key, n);
    return n;
  }

  /** The count of `text` when it is known (in memory or in the backing), without tokenizing it. */
  countIfKnown(text: string): number | undefined {
    return text.length === 0 ? 0 : this.lookUp(countCacheKey(text), text, false);
  }

  private lookUp(key: string, text: string, mayTokenize: boolean): number | undefined {
    const cached = this.cache.get(key);
    if (cached !== undefined) {
      this.hits++;
      return cached;
    }
    return this.fromBacking(key, text, mayTokenize);
  }

  /** Whether `text` is already counted in memory. */
  has(text: string): boolean {
    return text.length === 0 || this.cache.has(countCacheKey(text));
  }

  /** Whether `text` is counted, in memory or in the backing (a backing hit is then kept in memory too). */
  known(text: string): boolean {
    if (text.length === 0) return true;
    const key = countCacheKey(text);
    return this.cache.has(key) || this.fromBacking(key, text, false) !== undefined;
  }

  /** Stores counts made elsewhere (a worker thread) under their content keys. */
  prime(texts: readonly string[], counts: readonly number[]): void {
    texts.forEach((t, i) => {
      if (t.length === 0) return;
      const key = countCacheKey(t);
      const kept = this.pendingChecks.get(key);
      if (kept !== undefined) {
        this.pendingChecks.delete(key);
        this.backingChecks++;
        if (kept !== counts[i]) this.distrustBacking(kept, counts[i]);
      }
      this.remember(key, counts[i]);
      this.backing?.put(key, counts[i]);
    });
  }

  /** A count from the backing; some are checked against the tokenizer first (in place when `mayTokenize`, else
   * reported unknown so that the caller has it counted, and checked in `prime`). */
  private fromBacking(key: string, text: string, mayTokenize: boolean): number | undefined {
    const kept = this.backing?.get(key);
    if (kept === undefined) return undefined;
    const seen = this.backingSeen++;
    // A check deferred by `known` is made here when the caller counts the text itself after all.
    const deferred = mayTokenize && this.pendingChecks.delete(key);
    if (deferred || seen < BACKING_CHECK_FIRST || this.random() * BACKING_CHECK_EVERY < 1) {
      if (!mayTokenize) {
        this.pendingChecks.set(key, kept);
        return undefined;
      }
      this.backingChecks++;
      const n = countTokens(encoderFor(this.tokenizer), text);
      if (n !== kept) {
        this.distrustBacking(kept, n);
        return undefined; // counted anew by the caller, as a text never seen
      }
    }
    this.backingHits++;
    this.remember(key, kept);
    return kept;
  }

  private distrustBacking(kept: number, counted: number): void {
    const why = `a kept count differs from the tokenizer's (${kept} kept, ${counted} counted)`;
    this.backingDistrusted ??= why;
    this.pendingChecks.clear();
    // Counts taken from the backing before are among those in memory: all are let go, and counted again.
    this.cache.clear();
    this.backing?.distrust?.(why);
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

/** Characters per token of a provisional count: what o200k and cl100k give on English prose and code (its error on
 * the real fixtures: docs/performance.md). */
const CHARS_PER_TOKEN = 4;

/**
 * Provisional counts while the exact ones are being made (in worker threads): every text is estimated from its
 * length, nothing is hashed, tokenized or kept. An analysis with it says its figures are provisional.
 */
export class EstimatingCounter extends TokenCounter {
  override count(text: string): number {
    return Math.ceil(text.length / CHARS_PER_TOKEN);
  }
}

const counters = new Map<TokenizerName, TokenCounter>();

/** Every process-wide counter lets go of the texts whose keys it remembers (a transcript closed). */
export function forgetCountedTexts(): void {
  for (const c of counters.values()) c.forgetTexts();
}

/** The process-wide counter of a tokenizer: the CLI, the editor and the engine share its cache. */
export function tokenCounter(tokenizer: TokenizerName = 'o200k_base'): TokenCounter {
  let c = counters.get(tokenizer);
  if (!c) {
    c = new TokenCounter(tokenizer);
    counters.set(tokenizer, c);
  }
  return c;
}
