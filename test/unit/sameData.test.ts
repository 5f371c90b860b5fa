import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { sameData } from '../../src/core/sameData';

test('sameData agrees with isDeepStrictEqual on JSON values, copies and near-copies', () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
      assert.equal(sameData(a, b), isDeepStrictEqual(a, b));
      assert.equal(sameData(a, structuredClone(a)), true);
    }),
    { seed: 13, numRuns: 500 },
  );
});

test('sameData tells apart what a message diff must tell apart', () => {
  assert.equal(sameData({ a: undefined }, {}), false, 'a missing key is not an undefined one');
  assert.equal(sameData({}, { a: undefined }), false);
  assert.equal(sameData([1, 2], { 0: 1, 1: 2 }), false);
  assert.equal(sameData({ 0: 1 }, [1]), false);
  assert.equal(sameData(Number.NaN, Number.NaN), true);
  assert.equal(sameData(0, -0), true);
  assert.equal(sameData(null, {}), false);
  assert.equal(sameData({ blocks: [{ text: 'x' }] }, { blocks: [{ text: 'y' }] }), false);
  assert.equal(sameData(new Uint8Array([1]), new Uint8Array([2])), false);
  assert.equal(sameData(new Uint8Array([1]), new Uint8Array([1])), true);
  assert.equal(sameData(new Uint8Array([1, 0]), new Uint16Array([1])), false, 'the kind of array counts');
  assert.equal(sameData(new Uint8Array([1]), [1]), false);
  assert.equal(sameData({ a: 1, b: { c: [2] } }, { b: { c: [2] }, a: 1 }), true, 'key order does not count');
});
