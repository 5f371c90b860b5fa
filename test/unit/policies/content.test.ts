import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  codePointLength,
  headAndTail,
  headCodePoints,
  tailCodePoints,
} from '../../../src/core/engine/content';

// Strings rich in what code points make hard: pairs, lone high and low surrogates, both orders.
const tricky = fc
  .array(
    fc.constantFrom('a', 'é', '\n', '😀', '\uD83D', '\uDE00', '\uDE00\uD83D', '中', '\uD83D\uD83D\uDE00'),
    { maxLength: 60 },
  )
  .map((parts) => parts.join(''));

test('heads and tails of code points are those of Array.from, lone surrogates included', () => {
  fc.assert(
    fc.property(tricky, fc.nat(80), (text, n) => {
      const points = Array.from(text);
      assert.equal(headCodePoints(text, n), points.slice(0, n).join(''));
      assert.equal(tailCodePoints(text, n), n === 0 ? '' : points.slice(-n).join(''));
      assert.equal(codePointLength(text), points.length);
    }),
    { numRuns: 2000 },
  );
});

test('lengths are in code points (SPEC §2): a surrogate pair is one character, a lone surrogate one too', () => {
  assert.equal(codePointLength('hello'), 5);
  assert.equal(codePointLength('héllo'), 5);
  assert.equal(codePointLength('a😀b'), 3);
  assert.equal(codePointLength('😀😀😀'), 3);
  assert.equal(codePointLength('a\uD83Db'), 3);
  assert.equal(codePointLength('\uDE00\uD83D'), 2);
  assert.equal(codePointLength('\uD83D\uD83D\uDE00'), 2);
  assert.equal(codePointLength(''), 0);
});

test('head and tail truncation (SPEC §2) keeps 3/4 of max from the head and 1/4 from the tail, in code points', () => {
  fc.assert(
    fc.property(tricky, fc.integer({ min: 0, max: 40 }), (text, max) => {
      const points = Array.from(text);
      const expected =
        points.length <= max
          ? text
          : `${points.slice(0, Math.floor((max * 3) / 4)).join('')}\n\n[... truncated ${points.length - max} chars ...]\n\n${points.slice(points.length - Math.floor(max / 4)).join('')}`;
      assert.equal(headAndTail(text, max), expected);
    }),
    { numRuns: 2000 },
  );
});

test('a 50 MB result with an emoji is truncated without spreading it (walks only what it keeps)', () => {
  const text = `😀${'x'.repeat(50_000_000)}😀`;
  const out = headAndTail(text, 300);
  assert.ok(out.startsWith('😀x'));
  assert.ok(out.endsWith('x😀'));
  assert.match(out, /\[\.\.\. truncated 49999702 chars \.\.\.\]/);
});
