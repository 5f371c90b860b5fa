// The policy, its defaults and its passes are derived from the descriptors (core/engine/policies/): these pin
// what the derivation gives to the values the engine has always used, and the questions code asks of a policy
// instead of testing its name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  isStrategyAlone,
  simulatedFromDocs,
  strategyWords,
} from '../../../src/core/engine/policies/registry';
import {
  clonePolicy,
  DEFAULT_POLICY,
  POLICY_NAMES,
  POLICY_PASSES,
  setPolicyValue,
} from '../../../src/core/engine/policy';

test('the defaults are the SPEC constants and the API defaults, keys in their order', () => {
  assert.deepEqual(DEFAULT_POLICY, {
    name: 'tiered',
    tiered: {
      keepRecent: 8,
      tier1Distance: 20,
      maxResultChars: 300,
      summaryMinChars: 2000,
      summariesPerPass: 2,
      floorTools: ['file_read', 'grep', 'glob', 'directory_list', 'browser_*'],
      noSummaryTools: ['think', 'cloud_delegate', 'file_read', 'grep', 'glob', 'directory_list', 'browser_*'],
      argsChars: 100,
    },
    observation: {
      keep: 3,
      tools: [
        'screenshot',
        'computer',
        'computer_use',
        'applescript',
        'browser',
        'accessibility',
        'browser_*',
      ],
    },
    liveZone: { keepTurns: 2, minChars: 512, outputBufferTokens: 4000, ccr: true },
    replay: {
      trigger: 'auto',
      pressureFraction: 0.95,
      cacheTtl: 'auto',
      openaiCacheRetention: 'auto',
      baseline: 'as-logged',
    },
    contextEditing: {
      triggerType: 'input_tokens',
      trigger: 100_000,
      keep: 3,
      clearAtLeast: 0,
      excludeTools: [],
      clearToolInputs: false,
      clearThinkingKeep: 'all',
    },
    compaction: { threshold: 0.835, summaryTokens: 3000, keepRecentMessages: 0 },
    codexAutoCompact: { tokenLimit: 0, contextWindow: 272_000, summaryTokens: 9000 },
    claudeCode: {
      autocompactPctOverride: 0,
      microcompactIdleMinutes: 60,
      microcompactKeepRecent: 5,
      summaryTokens: 3000,
    },
    anthropicCompaction: { trigger: 150_000, pauseAfterCompaction: false, summaryTokens: 3000 },
    model: 'auto',
  });
  assert.deepEqual(Object.keys(DEFAULT_POLICY), [
    'name',
    'tiered',
    'observation',
    'liveZone',
    'replay',
    'contextEditing',
    'compaction',
    'codexAutoCompact',
    'claudeCode',
    'anthropicCompaction',
    'model',
  ]);
  assert.deepEqual(Object.keys(DEFAULT_POLICY.contextEditing), [
    'triggerType',
    'trigger',
    'keep',
    'clearAtLeast',
    'excludeTools',
    'clearToolInputs',
    'clearThinkingKeep',
  ]);
});

test('a clone shares no list with its original', () => {
  const copy = clonePolicy(DEFAULT_POLICY);
  assert.deepEqual(copy, DEFAULT_POLICY);
  copy.tiered.floorTools.push('x');
  copy.observation.tools.push('x');
  copy.contextEditing.excludeTools.push('x');
  copy.liveZone.keepTurns = 9;
  assert.equal(DEFAULT_POLICY.tiered.floorTools.includes('x'), false);
  assert.equal(DEFAULT_POLICY.observation.tools.includes('x'), false);
  assert.deepEqual(DEFAULT_POLICY.contextEditing.excludeTools, []);
  assert.equal(DEFAULT_POLICY.liveZone.keepTurns, 2);
});

test('the policies and their passes are the rows of the table', () => {
  const on = (name: (typeof POLICY_NAMES)[number]) =>
    Object.entries(POLICY_PASSES[name])
      .filter(([, v]) => v)
      .map(([k]) => k);
  assert.deepEqual(POLICY_NAMES, [
    'none',
    'tiered',
    'live-zone',
    'tiered+live-zone',
    'observation',
    'anthropic-context-editing',
    'tiered+anthropic-context-editing',
    'live-zone+anthropic-context-editing',
    'compaction',
    'codex-auto-compact',
    'claude-code-microcompact',
    'anthropic-compaction',
  ]);
  assert.deepEqual(Object.fromEntries(POLICY_NAMES.map((n) => [n, on(n)])), {
    none: [],
    tiered: ['tiered', 'observation'],
    'live-zone': ['liveZone'],
    'tiered+live-zone': ['tiered', 'observation', 'liveZone'],
    observation: ['observation'],
    'anthropic-context-editing': ['contextEditing'],
    'tiered+anthropic-context-editing': ['tiered', 'observation', 'contextEditing'],
    'live-zone+anthropic-context-editing': ['liveZone', 'contextEditing'],
    compaction: ['compaction'],
    'codex-auto-compact': ['codexAutoCompact'],
    'claude-code-microcompact': ['claudeCode'],
    'anthropic-compaction': ['anthropicCompaction'],
  });
  for (const name of POLICY_NAMES)
    assert.deepEqual(Object.keys(POLICY_PASSES[name]), [
      'tiered',
      'observation',
      'liveZone',
      'contextEditing',
      'compaction',
      'codexAutoCompact',
      'claudeCode',
      'anthropicCompaction',
    ]);
});

test('the providers’ strategies are the ones simulated from documentation, and say so', () => {
  assert.deepEqual(POLICY_NAMES.filter(simulatedFromDocs), [
    'anthropic-context-editing',
    'tiered+anthropic-context-editing',
    'live-zone+anthropic-context-editing',
    'compaction',
    'claude-code-microcompact',
    'anthropic-compaction',
  ]);
  assert.equal(simulatedFromDocs('codex-auto-compact'), false);
  assert.equal(simulatedFromDocs('recorded'), false);
  assert.equal(simulatedFromDocs('__proto__'), false);
  assert.equal(
    strategyWords('anthropic-context-editing'),
    "on Anthropic's server before every request, simulated from its documented behaviour",
  );
  assert.equal(
    strategyWords('anthropic-context-editing', true),
    "on Anthropic's server before the next request, simulated from its documented behaviour",
  );
  for (const name of ['tiered+anthropic-context-editing', 'live-zone+anthropic-context-editing'])
    assert.equal(
      strategyWords(name),
      "and context editing on Anthropic's server, simulated from its documented behaviour",
    );
  assert.equal(
    strategyWords('compaction'),
    'a summary near the context limit, simulated from documented behaviour',
  );
  for (const name of ['none', 'tiered', 'live-zone', 'tiered+live-zone', 'observation', 'other'])
    assert.equal(strategyWords(name), '');
  assert.deepEqual(POLICY_NAMES.filter(isStrategyAlone), [
    'anthropic-context-editing',
    'compaction',
    'codex-auto-compact',
    'claude-code-microcompact',
    'anthropic-compaction',
  ]);
});

test('an unknown key names every known one, in registry order', () => {
  const r = setPolicyValue(DEFAULT_POLICY, 'tiered.nope', '1');
  assert.deepEqual(r, {
    errors: [
      'tiered.nope: unknown key (known: name, model, tiered.keepRecent, tiered.tier1Distance, tiered.maxResultChars, tiered.summaryMinChars, tiered.summariesPerPass, tiered.floorTools, tiered.noSummaryTools, tiered.argsChars, observation.keep, observation.tools, liveZone.keepTurns, liveZone.minChars, liveZone.outputBufferTokens, liveZone.ccr, replay.trigger, replay.pressureFraction, replay.cacheTtl, replay.openaiCacheRetention, replay.baseline, contextEditing.triggerType, contextEditing.trigger, contextEditing.keep, contextEditing.clearAtLeast, contextEditing.excludeTools, contextEditing.clearToolInputs, contextEditing.clearThinkingKeep, compaction.threshold, compaction.summaryTokens, compaction.keepRecentMessages, codexAutoCompact.tokenLimit, codexAutoCompact.contextWindow, codexAutoCompact.summaryTokens, claudeCode.autocompactPctOverride, claudeCode.microcompactIdleMinutes, claudeCode.microcompactKeepRecent, claudeCode.summaryTokens, anthropicCompaction.trigger, anthropicCompaction.pauseAfterCompaction, anthropicCompaction.summaryTokens)',
    ],
  });
  const bad = setPolicyValue(DEFAULT_POLICY, 'contextEditing.clearThinkingKeep', '0');
  assert.deepEqual(bad, {
    errors: ['contextEditing.clearThinkingKeep: must be "all" or an integer from 1 to 1000000000, got 0'],
  });
});
