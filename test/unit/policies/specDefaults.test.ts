import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_POLICY } from '../../../src/core/engine/policy';

test('tiered defaults are the SPEC constants', () => {
  assert.deepEqual(
    [
      DEFAULT_POLICY.tiered.keepRecent,
      DEFAULT_POLICY.tiered.tier1Distance,
      DEFAULT_POLICY.tiered.maxResultChars,
    ],
    [8, 20, 300],
  );
});
