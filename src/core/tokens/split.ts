// Counting long texts in linear time. tiktoken's BPE is quadratic in the length of one pre-token (a long run of
// newlines takes seconds) and its WASM aborts ("unreachable") near a million characters, so a long text is
// counted in chunks cut where the pre-tokeniser itself always cuts, and long runs of one character are counted
// by a formula instead of being handed to the BPE. Both are exact; see `countTokens` for the one approximation.
// The same cuts make counting fast: a text is the sum of its segments between cuts, and a short segment seen
// before (a word, a key, an indent) is looked up instead of tokenized.
//
// Why the cuts are exact (o200k_base and cl100k_base share these properties of their pre-tokenisation regex,
// which has no look-behind and whose only look-ahead, `(?!\S)`, follows whitespace): a position B is a cut when
// no alternative of the regex can consume both text[B-1] and text[B]. Then B ends a pre-token in the whole
// text, the text after B is split as it would be alone, and the text before B is split as it would be alone
// (every path that read text[B] failed there, as it fails at the end of the text). The three cut rules:
//   1. text[B-1] is a letter or number and text[B] is none of letter, number, mark, apostrophe (contractions);
//   2. text[B-1] is not whitespace and text[B] is a space or a tab (punctuation runs take only CR, LF and `/`);
//   3. text[B-1] is CR or LF and text[B] a letter or number (a letter's optional prefix excludes CR and LF).
// Runs of one UTF-16 unit: count(x + c*(m + j*P) + y) = count(x + c*m + y) + j * count(c*P) for m >= 2P, with
// P = 384 (a multiple of 3, as digits group by three), measured for 31 characters (whitespace, ASCII letters,
// digits and punctuation, accented, CJK) between 14 × 14 contexts in both tokenizers: no exception
// (test/unit/tokens/split.test.ts keeps a sample of that measurement). On every string of the real fixtures
// (2,802 strings, 2.2 M characters) cut at every allowed place, the count equals tiktoken's on the whole string
// (test/bench/tokens.bench.ts).
import type { Tiktoken } from 'tiktoken';

export interface SplitOptions {
  /** Texts up to this length go to the BPE whole. */
  directMax: number;
  /** A chunk is closed at the first cut after it reaches this many characters. */
  chunkTarget: number;
  /** Longest stretch without a cut before one is forced (the approximation; see `countTokens`), in UTF-8
   * bytes: the BPE is quadratic in the bytes of a pre-token, so CJK characters cost far more than letters. */
  maxPiece: number;
}

export const SPLIT_DEFAULTS: SplitOptions = { directMax: 4096, chunkTarget: 262_144, maxPiece: 256 };

/** Period of the run formula. */
export const RUN_PERIOD = 384;

const LETTER_OR_NUMBER = 1;
const MARK = 2;
const SPACE = 4;
/** Character classes of the BMP, filled on first use (a regex per character would dominate the scan). */
let bmpClasses: Uint8Array | undefined;

function classesOfBmp(): Uint8Array {
  if (bmpClasses) return bmpClasses;
  const t = new Uint8Array(0x10000);
  const ln = /[\p{L}\p{N}]/u;
  const mark = /\p{M}/u;
  // JS `\s` covers Unicode White_Space except U+0085 (plus U+FEFF): with U+0085 added it is a superset of the
  // tokenizer's `\s`, so "not whitespace" here is never wrong.
  const ws = /\s/u;
  for (let c = 0; c < 0x10000; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const s = String.fromCharCode(c);
    if (ln.test(s)) t[c] = LETTER_OR_NUMBER;
    else if (mark.test(s)) t[c] = MARK;
    else if (ws.test(s) || c === 0x85) t[c] = SPACE;
  }
  bmpClasses = t;
  return t;
}

function astralClass(cp: number): number {
  const s = String.fromCodePoint(cp);
  if (/[\p{L}\p{N}]/u.test(s)) return LETTER_OR_NUMBER;
  if (/\p{M}/u.test(s)) return MARK;
  return 0;
}

/** Class of the character ending just before `b` (a surrogate pair read whole). */
function classBefore(text: string, b: number, t: Uint8Array): number {
  const c = text.charCodeAt(b - 1);
  if (c >= 0xdc00 && c <= 0xdfff && b >= 2) {
    const h = text.charCodeAt(b - 2);
    if (h >= 0xd800 && h <= 0xdbff) return astralClass(((h - 0xd800) << 10) + (c - 0xdc00) + 0x10000);
  }
  return t[c];
}

/** Class of the character starting at `b`. */
function classAt(text: string, b: number, t: Uint8Array): number {
  const c = text.charCodeAt(b);
  if (c >= 0xd800 && c <= 0xdbff && b + 1 < text.length) {
    const l = text.charCodeAt(b + 1);
    if (l >= 0xdc00 && l <= 0xdfff) return astralClass(((c - 0xd800) << 10) + (l - 0xdc00) + 0x10000);
  }
  return t[c];
}

/** Whether every tokenizer we use ends a pre-token at `b` whatever surrounds the text (rules in the header). */
export function isCut(text: string, b: number): boolean {
  return isCutIn(text, b, classesOfBmp());
}

function isCutIn(text: string, b: number, t: Uint8Array): boolean {
  const next = text.charCodeAt(b);
  if (next >= 0xdc00 && next <= 0xdfff) return false; // never inside a surrogate pair
  const prev = text.charCodeAt(b - 1);
  if (next === 32 || next === 9) return (classBefore(text, b, t) & SPACE) === 0;
  if (prev === 10 || prev === 13) return classAt(text, b, t) === LETTER_OR_NUMBER;
  if (next === 39) return false;
  return (
    classBefore(text, b, t) === LETTER_OR_NUMBER && (classAt(text, b, t) & (LETTER_OR_NUMBER | MARK)) === 0
  );
}

const isDigit = (c: number) => c >= 48 && c <= 57;

/** UTF-8 bytes of one UTF-16 unit (a surrogate pair is 4). */
const unitBytes = (c: number) => (c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 2 : 3);

/** The pieces `countTokens` hands to the BPE, and the tokens it adds for the runs it shortened. Exported for
 * the tests and the benchmark; `forcedCuts` counts the cuts that may change the count. */
export function splitForCount(
  text: string,
  opts: SplitOptions = SPLIT_DEFAULTS,
): { chunks: string[]; runs: { unit: number; periods: number }[]; forcedCuts: number } {
  const chunks: string[] = [];
  const runs: { unit: number; periods: number }[] = [];
  let forcedCuts = 0;
  const n = text.length;
  let parts: string[] = []; // the current chunk, as slices (shortened runs leave gaps)
  let from = 0; // start of the text not yet in `parts`
  let chunkLen = 0; // effective length of the current chunk before `lastCut`
  let lastCut = 0; // last cut (a position in `text`)
  let sinceCut = 0; // UTF-8 bytes from `lastCut` to the current position (shortened runs count what is kept)
  let digitsFrom = -1; // start of the current run of ASCII digits
  // A forced cut always ends the chunk: joined again, the two sides would make the same long pre-token.
  const cutAt = (b: number, forced: boolean) => {
    chunkLen += sinceCut;
    lastCut = b;
    if (forced || chunkLen >= opts.chunkTarget) {
      parts.push(text.slice(from, b));
      chunks.push(parts.join(''));
      parts = [];
      from = b;
      chunkLen = 0;
    }
  };
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    const isSurrogate = c >= 0xd800 && c <= 0xdfff;
    // A run of lone surrogates is not shortened (tiktoken sees U+FFFD, not this unit): it is taken a piece
    // at a time, so that the forced cut below bounds it.
    const runEnd = isSurrogate ? Math.min(n, i + Math.max(1, opts.maxPiece >> 1)) : n;
    let j = i + 1;
    while (j < runEnd && text.charCodeAt(j) === c) j++;
    if (i > 0 && isCut(text, i)) {
      cutAt(i, false);
      sinceCut = 0;
    }
    if (isDigit(c)) {
      if (digitsFrom === -1) digitsFrom = i;
    } else digitsFrom = -1;
    let len = j - i;
    const weight = unitBytes(c);
    if (len >= 3 * RUN_PERIOD && !isSurrogate) {
      // Keep 2P..3P units of the run in place and count the rest by the formula.
      const periods = Math.floor((len - 2 * RUN_PERIOD) / RUN_PERIOD);
      const kept = len - periods * RUN_PERIOD;
      parts.push(text.slice(from, i + kept));
      from = j;
      runs.push({ unit: c, periods });
      len = kept;
      digitsFrom = -1; // a forced cut never lands inside or before a shortened run
    }
    if (sinceCut + len * weight > opts.maxPiece && sinceCut > 0) {
      // No cut for too long: force one before this run, aligned on a digit group when inside digits.
      let f = i;
      if (digitsFrom !== -1 && digitsFrom < i) {
        const prev = digitsFrom > 0 ? text.charCodeAt(digitsFrom - 1) : 0;
        const aligned = digitsFrom + 3 * Math.floor((i - digitsFrom) / 3);
        if (prev < 0x80 && aligned > lastCut) f = aligned;
      }
      const low = text.charCodeAt(f);
      const high = text.charCodeAt(f - 1);
      if (low >= 0xdc00 && low <= 0xdfff && high >= 0xd800 && high <= 0xdbff) f--; // never inside a pair
      if (f > lastCut && f >= from && f <= i) {
        // The part between `f` and `i` is short (at most two units) and was already added to `sinceCut`.
        let carried = 0;
        for (let k = f; k < i; k++) carried += unitBytes(text.charCodeAt(k));
        sinceCut -= carried;
        cutAt(f, true);
        sinceCut = carried;
        forcedCuts++;
      }
    }
    sinceCut += len * weight;
    i = j;
  }
  parts.push(text.slice(from, n));
  const last = parts.join('');
  if (last.length > 0) chunks.push(last);
  return { chunks, runs, forcedCuts };
}

/** Tokens of `text` under `enc`, in time linear in its length. Exact (see the header) except at forced cuts:
 * a stretch of `maxPiece` UTF-8 bytes without any cut (one pre-token longer than that which is not a run of one
 * character: a long random word, CJK text without punctuation, a row of emoji, `\n.` repeated) is cut anyway,
 * which may change the count by a token or two per cut (measured in test/bench/tokens.bench.ts). A text up to
 * `directMax` is never cut so: it is counted exactly. */
export function countTokens(enc: Tiktoken, text: string, opts: SplitOptions = SPLIT_DEFAULTS): number {
  return countBySegments(enc, text, text.length > opts.directMax ? opts : undefined);
}

/** Tokens of a stretch without natural cuts (a segment): `splitForCount` forces cuts in it and shortens its runs
 * when `opts` is given (a long text), else the BPE takes it whole. The same pieces as `splitForCount` on the whole
 * text, whose natural cuts reset the stretch it measures and never fall inside a run or a group of digits. */
function segmentTokens(enc: Tiktoken, segment: string, opts: SplitOptions | undefined): number {
  if (!opts) return enc.encode_ordinary(segment).length;
  const { chunks, runs } = splitForCount(segment, opts);
  let total = 0;
  for (const chunk of chunks) total += enc.encode_ordinary(chunk).length;
  for (const r of runs) total += r.periods * periodTokens(enc, r.unit);
  return total;
}

/** Segments up to this length are looked up in `segmentCounts`; longer ones (rare: a long word, a run, a
 * hash) are counted each time. */
const SEGMENT_KEY_MAX = 64;
/** Bound on the segments kept per encoder (a few MB); when reached the table starts again. */
const SEGMENT_COUNTS_MAX = 1 << 17;

/** Per encoder, the tokens of each short segment between natural cuts seen so far. Text repeats at that grain
 * (words, keys, paths, indentation): on the real long fixtures most segments were seen before, and a lookup
 * costs a small fraction of the BPE's time for a word (docs/performance.md). */
const segmentCounts = new WeakMap<Tiktoken, Map<string, number>>();

/** Tokens of `text`, as the sum over the segments between its natural cuts (`isCut`): the same count as the
 * BPE on the whole text, as the text on each side of a cut is split as it would be alone. */
function countBySegments(enc: Tiktoken, text: string, opts: SplitOptions | undefined): number {
  let counts = segmentCounts.get(enc);
  if (!counts) {
    counts = new Map();
    segmentCounts.set(enc, counts);
  }
  // A segment that `splitForCount` could cut (more than `maxPiece` bytes) is not looked up.
  const keyMax = opts ? Math.min(SEGMENT_KEY_MAX, Math.floor(opts.maxPiece / 3)) : SEGMENT_KEY_MAX;
  const t = classesOfBmp();
  const n = text.length;
  let total = 0;
  let from = 0;
  let prev = text.charCodeAt(0);
  let prevClass = t[prev];
  for (let b = 1; b <= n; b++) {
    if (b < n) {
      // `isCutIn` written out for the common case (no surrogate on either side): this loop sees every character.
      const next = text.charCodeAt(b);
      const nextClass = t[next];
      let cut: boolean;
      if ((next & 0xf800) === 0xd800 || (prev & 0xf800) === 0xd800) cut = isCutIn(text, b, t);
      else if (next === 32 || next === 9) cut = (prevClass & SPACE) === 0;
      else if (prev === 10 || prev === 13) cut = nextClass === LETTER_OR_NUMBER;
      else
        cut = next !== 39 && prevClass === LETTER_OR_NUMBER && (nextClass & (LETTER_OR_NUMBER | MARK)) === 0;
      prev = next;
      prevClass = nextClass;
      if (!cut) continue;
    }
    if (b - from > keyMax) total += segmentTokens(enc, text.slice(from, b), opts);
    else {
      const segment = text.slice(from, b);
      let k = counts.get(segment);
      if (k === undefined) {
        k = enc.encode_ordinary(segment).length;
        if (counts.size >= SEGMENT_COUNTS_MAX) counts.clear();
        // A copy as the key: a slice may keep the whole text alive.
        counts.set(segment.length < 13 ? segment : JSON.parse(JSON.stringify(segment)), k);
      }
      total += k;
    }
    from = b;
  }
  return total;
}

const periodCache = new WeakMap<Tiktoken, Map<number, number>>();

/** count(c * RUN_PERIOD), once per encoder and unit. */
function periodTokens(enc: Tiktoken, unit: number): number {
  let m = periodCache.get(enc);
  if (!m) {
    m = new Map();
    periodCache.set(enc, m);
  }
  let k = m.get(unit);
  if (k === undefined) {
    k = enc.encode_ordinary(String.fromCharCode(unit).repeat(RUN_PERIOD)).length;
    m.set(unit, k);
  }
  return k;
}
