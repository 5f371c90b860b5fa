// The store file's bytes alone: records merged, written, read back and searched in place.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keyDigest } from '../../../src/core/tokens/counter';
import {
  type Added,
  fileBytes,
  mergeRecords,
  readRecords,
  SortedRecords,
} from '../../../src/node/tokenStoreFile';

const id = (text: string) => keyDigest(text).toString('latin1');

test('records written to a file read back, and each is found by its digest with its count and stamp', () => {
  const added: Added = new Map([
    [id('a'), [3, 100]],
    [id('b'), [7, 200]],
    [id('c'), [11, 300]],
  ]);
  const records = readRecords(fileBytes(mergeRecords(Buffer.alloc(0), added, 10)));
  assert.ok(records);
  const sorted = new SortedRecords(records);
  assert.equal(sorted.n, 3);
  for (const [text, tokens, stamp] of [
    ['a', 3, 100],
    ['b', 7, 200],
    ['c', 11, 300],
  ] as const) {
    const i = sorted.find(keyDigest(text));
    assert.ok(i >= 0, text);
    assert.equal(sorted.tokensAt(i), tokens);
    assert.equal(sorted.stampAt(i), stamp);
  }
  assert.equal(sorted.find(keyDigest('not stored')), -1);
});

test('a file whose records were changed after it was written is not read', () => {
  const bytes = fileBytes(mergeRecords(Buffer.alloc(0), new Map([[id('a'), [3, 100]]]), 10));
  bytes[bytes.length - 1] ^= 1;
  assert.equal(readRecords(bytes), null);
});
