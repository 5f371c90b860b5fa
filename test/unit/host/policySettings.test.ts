// Reading the contextLens.* settings: dependent limits are checked against each other, whatever order the keys
// are read in (a burst of keepRecent steps past the default tier1Distance fell back to the default keepRecent).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { policyFromSettings } from '../../../src/host/policySettings';

test('keepRecent above the default tier1Distance is kept when tier1Distance is set higher too', () => {
  const set: Record<string, unknown> = { 'tiered.keepRecent': 28, 'tiered.tier1Distance': 60 };
  const { policy, problems } = policyFromSettings(null, (key) => set[key]);
  assert.deepEqual(problems, []);
  assert.equal(policy.tiered.keepRecent, 28);
  assert.equal(policy.tiered.tier1Distance, 60);
});

test('a value refused beside the others is reported with its key, and the others stand', () => {
  const set: Record<string, unknown> = {
    'tiered.keepRecent': 30,
    'tiered.tier1Distance': 25,
    'liveZone.minChars': 100,
  };
  const { policy, problems } = policyFromSettings(null, (key) => set[key]);
  assert.equal(problems.length, 1);
  assert.match(problems[0], /^settings\.json contextLens\.tiered\.keepRecent: /);
  assert.equal(policy.tiered.keepRecent, 8);
  assert.equal(policy.tiered.tier1Distance, 25);
  assert.equal(policy.liveZone.minChars, 100);
});
