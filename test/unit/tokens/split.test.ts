// Long texts are counted in pieces (src/core/tokens/split.ts): the count must equal tiktoken's on the whole
// text wherever the whole text can still be counted, and long runs that crash or crawl in tiktoken must not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { get_encoding, type Tiktoken } from 'tiktoken';
import { TokenCounter } from '../../../src/core/tokens/counter';
import { countTokens, RUN_PERIOD, SPLIT_DEFAULTS, splitForCount } from '../../../src/core/tokens/split';

const encoders: [string, Tiktoken][] = [
  ['o200k_base', get_encoding('o200k_base')],
  ['cl100k_base', get_encoding('cl100k_base')],
];

/** Cuts wherever allowed and never forces one: every difference from the whole count would be a wrong rule. */
const EVERY_CUT = { directMax: 0, chunkTarget: 1, maxPiece: Number.MAX_SAFE_INTEGER };

const fragment = fc.oneof(
  fc.constantFrom(
    'hello',
    'World',
    "don't",
    "I'LL",
    'ÉCOLE',
    'naïve',
    'e\u0301',
    '中文字',
    '𝐀𝐁c',
    '😀',
    '٣٤٥',
    '²',
    ' ',
    '  ',
    '\t',
    '\n',
    '\r\n',
    '\r',
    '\u0085',
    '\u00a0',
    '\u3000',
    '\ufeff',
    '\u2028',
    '.',
    ',',
    '/',
    "'",
    '"',
    '{"a":1}',
    '<|endoftext|>',
    '--',
    '\\n',
    ':',
    '\ud800',
    '\udc00',
    '0',
    '12345',
  ),
  fc
    .tuple(
      fc.constantFrom('\n', ' ', '\t', 'a', 'Z', '-', '=', '.', '_', '/', '7', 'é', '中', '\r', "'", '~'),
      fc.integer({ min: 1, max: 1400 }),
    )
    .map(([c, k]) => c.repeat(k)),
);

test('pieces cut at the pre-tokeniser boundaries and shortened runs count exactly what the whole text counts', () => {
  for (const [name, enc] of encoders)
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        assert.equal(
          countTokens(enc, text, EVERY_CUT),
          enc.encode_ordinary(text).length,
          `${name}: ${JSON.stringify(text.slice(0, 80))}`,
        );
      }),
      { seed: 13, numRuns: 150 },
    );
});

test('a run of one character is counted by its period whatever surrounds it (a sample of the measurement)', () => {
  for (const [name, enc] of encoders)
    for (const c of ['\n', ' ', 'a', '=', '7', '中'])
      for (const [left, right] of [
        ['', ''],
        ['word ', "'s"],
        ['.', '\r\n'],
        ['\n', '  x'],
      ]) {
        const text = `${left}${c.repeat(4 * RUN_PERIOD + 5)}${right}`;
        assert.equal(splitForCount(text).runs.length, 1);
        assert.equal(
          countTokens(enc, text),
          enc.encode_ordinary(text).length,
          `${name} ${JSON.stringify([left, c, right])}`,
        );
      }
});

test('a million newlines, spaces or letters are counted (tiktoken alone throws "unreachable" or takes minutes)', () => {
  const counter = new TokenCounter('o200k_base');
  // o200k counts 16 newlines, 128 spaces or 8 `a`s as one token once the run is long (measured on whole runs
  // of 1,000 to 32,000 characters).
  assert.equal(counter.count('\n'.repeat(1_000_000)), 62_500);
  assert.equal(counter.count(' '.repeat(1_000_000)), 7_813);
  assert.equal(counter.count('a'.repeat(1_000_000)), 125_000);
});

test('one pre-token longer than maxPiece that is not a run is cut anyway, and only there', () => {
  const enc = encoders[0][1];
  // "abab…" is one pre-token with no cut and no run: the forced cuts are the only approximation.
  const text = 'ab'.repeat(500_000);
  const split = splitForCount(text);
  assert.ok(split.forcedCuts > 0);
  assert.equal(split.chunks.join('').length, text.length);
  for (const chunk of split.chunks) assert.ok(chunk.length <= SPLIT_DEFAULTS.maxPiece + 2);
  const n = countTokens(enc, text);
  assert.equal(n, 250_000); // "ab" is one token, and every cut falls between two of them
  // Multi-byte text is bounded by its UTF-8 bytes (the BPE is quadratic in bytes): 256 bytes of CJK is 85
  // characters.
  const cjk = splitForCount('中文字'.repeat(10_000));
  assert.ok(Math.max(...cjk.chunks.map((c) => c.length)) <= SPLIT_DEFAULTS.maxPiece / 3 + 2);
  // Lone surrogates and digits never make a piece longer either.
  for (const t of ['\ud83d'.repeat(100_000), '0123456789'.repeat(100_000), '😀'.repeat(100_000)]) {
    const s = splitForCount(t);
    assert.ok(Math.max(...s.chunks.map((c) => c.length)) <= 3 * RUN_PERIOD, JSON.stringify(t.slice(0, 4)));
    assert.ok(countTokens(enc, t) > 0);
  }
});

test('digits are cut on the groups of three the tokenizer makes', () => {
  for (const [name, enc] of encoders) {
    const text = `x${'0123456789'.repeat(300)}y`;
    assert.equal(
      countTokens(enc, text, { ...EVERY_CUT, maxPiece: 100 }),
      enc.encode_ordinary(text).length,
      name,
    );
  }
});

test('a long text counts what the BPE counts on the pieces splitForCount makes, forced cuts and runs included', () => {
  // Counting goes by the segments between natural cuts, most of them looked up rather than tokenized: the total
  // must be the one of the pieces, wherever the forced cuts and the shortened runs fall.
  const long = fc.oneof(
    fragment,
    fc.constantFrom('ab'.repeat(400), '中文字'.repeat(200), '0123456789'.repeat(90), '😀'.repeat(150)),
  );
  for (const [name, enc] of encoders)
    fc.assert(
      fc.property(fc.array(long, { minLength: 4, maxLength: 16 }), (parts) => {
        const text = parts.join('');
        const opts = { ...SPLIT_DEFAULTS, directMax: 64 };
        const { chunks, runs } = splitForCount(text, opts);
        let pieces = 0;
        for (const chunk of chunks) pieces += enc.encode_ordinary(chunk).length;
        for (const r of runs)
          pieces += r.periods * enc.encode_ordinary(String.fromCharCode(r.unit).repeat(RUN_PERIOD)).length;
        assert.equal(countTokens(enc, text, opts), pieces, `${name}: ${JSON.stringify(text.slice(0, 80))}`);
      }),
      { seed: 29, numRuns: 120 },
    );
});
