// Sanity flags: a request beyond the window, a none simulation far from the recorded usage, an implausible
// hidden prefix; and none on a real session whose figures agree.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import type { Analysis } from '../../../src/core/analysisTypes';
import { defaultPolicyFor } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import { sanityFlags } from '../../../src/core/sanity';
import { nonePolicy } from '../../../src/core/vsNone';
import { toolLoop } from '../transcripts';

const SESSION = 'test/fixtures/real/claude-code/drmaciver-coverage-test-fix.jsonl';

test('a real session whose replay agrees with its log raises no flag', () => {
  const t = parseTranscript(readFileSync(SESSION), SESSION);
  const { analysis } = analyzeSync(t, nonePolicy(defaultPolicyFor(t.format)));
  assert.deepEqual(sanityFlags(analysis), []);
});

test('a crafted file whose requests exceed the model window is flagged with the first one and the largest', () => {
  // ~300k tokens in one result: beyond every Claude window of 200k.
  const t = toolLoop(2, { result: (i) => (i === 0 ? 'alpha beta gamma delta '.repeat(75_000) : 'ok') });
  const { analysis } = analyzeSync(t, nonePolicy(defaultPolicyFor(t.format)));
  const flags = sanityFlags(analysis);
  assert.deepEqual(
    flags.map((f) => f.kind),
    ['beyond-window'],
  );
  assert.match(
    flags[0].message,
    /^2 requests \(the first: request 2\) exceed the 200,000-token context window of /,
  );
});

const figures = (over: Partial<Analysis>): Parameters<typeof sanityFlags>[0] => ({
  format: 'claude-code',
  requests: [],
  model: 'claude-sonnet-4',
  contextWindow: 200_000,
  ...over,
});
const recorded = (cachedError: number, writtenError: number) => ({
  requests: 10,
  fileReplies: 12,
  sessionCost: 1,
  recordedCacheRead: 1000,
  simulatedCached: 1000 * (1 + cachedError),
  recordedWritten: 100,
  simulatedWritten: 100 * (1 + writtenError),
  cachedError,
  writtenError,
  perRequest: [],
});
const hidden = (hiddenTokens: number, calibration = 1.2) => ({
  hiddenTokens,
  calibration,
  samples: 10,
  source: 'test',
  warmAtStart: true,
  warmTokens: 0,
});

test('the none simulation more than 20% from the recorded usage is flagged; within 20% is not', () => {
  assert.deepEqual(sanityFlags(figures({ recorded: recorded(0.19, -0.19) })), []);
  const flags = sanityFlags(figures({ recorded: recorded(4.01, 0.05) }));
  assert.equal(flags[0].kind, 'recorded-differs');
  assert.match(flags[0].message, /cache read \+401\.0%.*10 of 12 recorded replies/);
});

test('a hidden prefix of ~0 for Claude Code, a negative one, or a wild tokenizer factor is implausible', () => {
  assert.deepEqual(sanityFlags(figures({ hiddenPrefix: hidden(15_000) })), []);
  assert.equal(sanityFlags(figures({ hiddenPrefix: hidden(12) }))[0]?.kind, 'hidden-prefix');
  assert.equal(sanityFlags(figures({ hiddenPrefix: hidden(-500) }))[0]?.kind, 'hidden-prefix');
  assert.equal(sanityFlags(figures({ hiddenPrefix: hidden(15_000, 3.1) }))[0]?.kind, 'hidden-prefix');
  // A request body holds its system prompt: ~0 hidden is right there.
  assert.deepEqual(sanityFlags(figures({ format: 'anthropic-messages', hiddenPrefix: hidden(0) })), []);
});
