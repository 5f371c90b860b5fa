import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { DEFAULT_POLICY, type Policy } from '../../../src/core/engine/policy';
import { toolLoop } from '../transcripts';

const observation = (keep = 3, trigger: Policy['replay']['trigger'] = 'once'): Policy => ({
  ...DEFAULT_POLICY,
  name: 'observation',
  observation: { ...DEFAULT_POLICY.observation, keep },
  replay: { ...DEFAULT_POLICY.replay, trigger },
});

const names = (i: number) => (i % 2 === 0 ? 'screenshot' : 'browser_snapshot');

test('all but the newest keep observations become the exact elision stub', () => {
  const t = toolLoop(6, { name: names, result: (i) => `page ${i} `.repeat(10) });
  const r = analyzeSync(t, observation());
  assert.deepEqual(
    r.rewrites.map((w) => [w.messageIndex, w.content]),
    [
      [2, `[elided browser observation: screenshot, was ${'page 0 '.repeat(10).length} chars]`],
      [4, `[elided browser observation: browser_snapshot, was ${'page 1 '.repeat(10).length} chars]`],
      [6, `[elided browser observation: screenshot, was ${'page 2 '.repeat(10).length} chars]`],
    ],
  );
  assert.ok(r.analysis.events.every((e) => e.action === 'obs_window' && e.tier === undefined));
});

test('keep 0 turns the window off; non-observation tools are never elided', () => {
  assert.equal(analyzeSync(toolLoop(6, { name: names }), observation(0)).rewrites.length, 0);
  assert.equal(analyzeSync(toolLoop(6), observation(3)).rewrites.length, 0);
});

test('the window moves every turn in a replay, and an elided result is never elided again', () => {
  const t = toolLoop(8, { name: names, result: (i) => `page ${i} `.repeat(10) });
  const r = analyzeSync(t, observation(3, 'everyRequest'));
  assert.equal(r.rewrites.length, 5);
  const perRequest = r.analysis.events.map((e) => [e.requestIndex, e.messageIndex]);
  // Request k sends k tool results; the 4th observation (request 4) pushes the 1st out, and so on.
  assert.deepEqual(perRequest, [
    [4, 2],
    [5, 4],
    [6, 6],
    [7, 8],
    [8, 10],
  ]);
  assert.equal(new Set(r.analysis.events.map((e) => `${e.messageIndex}`)).size, 5, 'one event per block');
});

test('nested (non-string) observation results are left alone', () => {
  const t = toolLoop(5, { name: () => 'screenshot', result: () => [{ type: 'image', dataLength: 10 }] });
  assert.equal(analyzeSync(t, observation(1)).rewrites.length, 0);
});
