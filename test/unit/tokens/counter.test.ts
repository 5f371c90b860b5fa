import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { mock, test } from 'node:test';
import { eventHash } from '../../../src/core/engine/hash';
import { countCacheKey, keyDigest, TokenCounter } from '../../../src/core/tokens/counter';

const long = (i: number) => `${i} ${'word '.repeat(400)}`;

test('a counter that remembers the texts a transcript holds hashes each once, and counts as one that does not', () => {
  const texts = Array.from({ length: 20 }, (_, i) => long(i));
  const plain = new TokenCounter('o200k_base');
  const remembering = new TokenCounter('o200k_base');
  remembering.remembersTexts = true;
  const hashes = mock.method(crypto, 'createHash');
  try {
    for (const c of [plain, remembering]) {
      hashes.mock.resetCalls();
      c.rememberHeld(texts);
      for (const t of texts) assert.ok(!c.known(t));
      const counts = texts.map((t) => c.count(t));
      c.prime(texts, counts);
      assert.deepEqual(
        texts.map((t) => c.countIfKnown(t)),
        counts,
      );
      // known, count, prime and countIfKnown: four hashes of each text, or one.
      assert.equal(hashes.mock.callCount(), c === plain ? 4 * texts.length : texts.length);
    }
    assert.deepEqual(
      texts.map((t) => plain.count(t)),
      texts.map((t) => remembering.count(t)),
    );
    // The digests are shared: the engine's event hashes of the same texts hash nothing again.
    hashes.mock.resetCalls();
    assert.deepEqual(
      texts.map((t) => eventHash(t)),
      texts.map((t) => crypto.createHash('sha256').update(t).digest('hex').slice(0, 12)),
    );
    assert.equal(hashes.mock.callCount(), texts.length, 'only the reference hashed');
    // A text it was not told the transcript holds (one made from it) is hashed at each use: the memo, which
    // holds the text it is keyed by, does not keep it alive.
    const made = long(99);
    hashes.mock.resetCalls();
    assert.equal(remembering.count(made), plain.count(made));
    remembering.countIfKnown(made);
    assert.equal(
      hashes.mock.callCount(),
      3,
      'counted, then looked up: hashed each time (and by the plain one)',
    );
    // Forgotten: each lookup hashes again, and finds the same count under the same key.
    remembering.forgetTexts();
    hashes.mock.resetCalls();
    assert.equal(remembering.count(texts[0]), plain.count(texts[0]));
    assert.equal(hashes.mock.callCount(), 2);
    assert.ok(countCacheKey(texts[0]).startsWith('#'));
    remembering.forgetTexts();
  } finally {
    hashes.mock.restore();
  }
});

test('a short text that starts with "#" is hashed like a long one: no text is read as the digest of another', () => {
  const lookalike = `#${'0'.repeat(64)}`;
  assert.notEqual(countCacheKey(lookalike), lookalike);
  assert.deepEqual(
    keyDigest(countCacheKey(lookalike)),
    crypto.createHash('sha256').update(lookalike).digest().subarray(0, 16),
  );
  const counter = new TokenCounter('o200k_base');
  assert.equal(counter.count(lookalike), new TokenCounter('o200k_base').count(lookalike));
});
