import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toolMatcher } from '../../../src/core/engine/patterns';
import {
  DEFAULT_POLICY,
  defaultPolicyFor,
  setPolicyValue,
  validatePolicy,
} from '../../../src/core/engine/policy';
import { FORMATS } from '../../../src/core/formats/registry';

function errorsOf(input: unknown): string[] {
  const r = validatePolicy(input);
  return 'errors' in r ? r.errors : [];
}

test('a full default policy and a partial one validate', () => {
  assert.deepEqual(validatePolicy(DEFAULT_POLICY), { policy: DEFAULT_POLICY });
  const r = validatePolicy({ tiered: { keepRecent: 4 } });
  assert.ok('policy' in r);
  assert.equal(r.policy.tiered.keepRecent, 4);
  assert.equal(r.policy.tiered.tier1Distance, 20);
});

test('refusals name the key and the allowed range', () => {
  assert.deepEqual(errorsOf({ tiered: { keepRecent: -1 } }), [
    'tiered.keepRecent: must be an integer from 0 to 1000000000, got -1',
  ]);
  assert.deepEqual(errorsOf({ tiered: { keepRecent: 10, tier1Distance: 5 } }), [
    'tiered.tier1Distance: must be at least tiered.keepRecent (10), got 5',
  ]);
  assert.deepEqual(errorsOf({ tiered: { keepRcent: 1 } }), [
    'tiered.keepRcent: unknown key (known: keepRecent, tier1Distance, maxResultChars, summaryMinChars, summariesPerPass, floorTools, noSummaryTools, argsChars)',
  ]);
  assert.deepEqual(errorsOf({ colour: 'red' }), [
    'colour: unknown key (known: name, model, tiered, observation, liveZone, replay, contextEditing, compaction, codexAutoCompact, claudeCode, anthropicCompaction)',
  ]);
  assert.deepEqual(errorsOf({ tiered: { floorTools: ['Read', 'mcp__*browser*', ''] } }), [
    'tiered.floorTools[1]: "*" is only allowed as the last character (prefix match), got "mcp__*browser*"',
    'tiered.floorTools[2]: must not be empty, got ""',
  ]);
  assert.deepEqual(errorsOf({ replay: { pressureFraction: 1.5 } }), [
    'replay.pressureFraction: must be a number greater than 0 and at most 1, got 1.5',
  ]);
  assert.deepEqual(errorsOf({ replay: { trigger: 'always' } }), [
    'replay.trigger: must be one of "auto", "once", "everyRequest", "pressure", got "always"',
  ]);
  assert.deepEqual(errorsOf({ liveZone: { ccr: 'yes' } }), [
    'liveZone.ccr: must be true or false, got "yes"',
  ]);
  assert.equal(
    errorsOf({ model: 'gpt-99' })[0].startsWith('model: must be "auto" or one of "claude-sonnet-4"'),
    true,
  );
  assert.deepEqual(errorsOf({ replay: { cacheTtl: '2h' } }), [
    'replay.cacheTtl: must be one of "auto", "5m", "1h", got "2h"',
  ]);
  assert.equal(errorsOf({ tiered: { maxResultChars: 2.5 } }).length, 1);
  assert.deepEqual(errorsOf(null), ['policy: must be an object, got null']);
});

test('setPolicyValue parses by the key and validates', () => {
  const a = setPolicyValue(DEFAULT_POLICY, 'tiered.floorTools', 'Read, Grep,mcp__playwright__*');
  assert.ok('policy' in a);
  assert.deepEqual(a.policy.tiered.floorTools, ['Read', 'Grep', 'mcp__playwright__*']);
  assert.ok('errors' in setPolicyValue(DEFAULT_POLICY, 'tiered.keepRecent', 'abc'));
  assert.ok('errors' in setPolicyValue(DEFAULT_POLICY, 'nope', '1'));
  const b = setPolicyValue(DEFAULT_POLICY, 'liveZone.ccr', 'false');
  assert.ok('policy' in b && b.policy.liveZone.ccr === false);
  assert.equal(DEFAULT_POLICY.liveZone.ccr, true, 'the defaults are never mutated');
});

test('patterns: exact names, or prefixes with a trailing *', () => {
  const m = toolMatcher(['Read', 'browser_*', 'mcp__playwright__*']);
  assert.equal(m('Read'), true);
  assert.equal(m('ReadFile'), false);
  assert.equal(m('browser_click'), true);
  assert.equal(m('browser'), false);
  assert.equal(m('mcp__playwright__browser_snapshot'), true);
});

test('format presets add the agent tool names to the SPEC defaults, and every preset validates', () => {
  const cc = defaultPolicyFor('claude-code');
  assert.ok(cc.tiered.floorTools.includes('Read') && cc.tiered.floorTools.includes('file_read'));
  assert.ok(defaultPolicyFor('codex').tiered.floorTools.includes('shell'));
  assert.ok(defaultPolicyFor('codex').tiered.noSummaryTools.includes('apply_patch'));
  for (const { id } of FORMATS) assert.ok('policy' in validatePolicy(defaultPolicyFor(id)), id);
});
