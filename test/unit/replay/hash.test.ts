// SPEC §7 event hashes (the first 12 hex digits of SHA-256) and §4 CCR keys (24), against digests computed by
// sha256sum: the same whether a long text's digest was remembered for the token counts or not.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ccrHash, eventHash, forgetSha256s, rememberedSha256Hex } from '../../../src/core/engine/hash';

const LONG = 'a'.repeat(1000);

test('event hashes are 12 hex digits of SHA-256 and CCR keys 24, remembered digests included', () => {
  assert.equal(eventHash('hello'), '2cf24dba5fb0');
  assert.equal(ccrHash('hello'), '2cf24dba5fb0a30e26e83b2a');
  assert.equal(eventHash(LONG), '41edece42d63');
  assert.equal(rememberedSha256Hex(LONG), '41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3');
  assert.equal(eventHash(LONG), '41edece42d63');
  assert.equal(ccrHash(LONG), '41edece42d63e8d9bf515a9b');
  forgetSha256s();
  assert.equal(eventHash(LONG), '41edece42d63');
});
