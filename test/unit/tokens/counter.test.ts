import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { mock, test } from 'node:test';
import { countCacheKey, TokenCounter } from '../../../src/core/tokens/counter';

const long = (i: number) => `${i} ${'word '.repeat(400)}`;

test('a counter that remembers texts hashes a long text once, and counts as one that does not', () => {
  const texts = Array.from({ length: 20 }, (_, i) => long(i));
  const plain = new TokenCounter('o200k_base');
  const remembering = new TokenCounter('o200k_base');
  remembering.remembersTexts = true;
  const hashes = mock.method(crypto, 'createHash');
  try {
    for (const c of [plain, remembering]) {
      hashes.mock.resetCalls();
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
    // Forgotten: the next lookup hashes again, and finds the same count under the same key.
    remembering.forgetTexts();
    hashes.mock.resetCalls();
    assert.equal(remembering.count(texts[0]), plain.count(texts[0]));
    assert.equal(hashes.mock.callCount(), 2);
    assert.ok(countCacheKey(texts[0]).startsWith('#'));
  } finally {
    hashes.mock.restore();
  }
});
