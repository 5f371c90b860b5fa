// What a sweep's figures do not say by themselves, in exact words: an axis that changes nothing (and why, from the
// setting's descriptor), a best cell on the grid's edge, a best setting that drops what the agent recently read.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SweepCell, SweepGrid } from '../../../src/core/sweep';
import { settingRisk, sweepAdvice } from '../../../src/core/sweepAdvice';

const cell = (deltaCost: number, tokensSaved = 100): SweepCell => ({
  cost: 10 + deltaCost,
  noneCost: 10,
  deltaCost,
  deltaShare: deltaCost / 10,
  tokensSaved,
  extraWritten: 0,
});

function grid(rows: number[], cols: number[], cost: (k: number, d: number) => number): SweepGrid {
  return {
    policy: 'tiered',
    rows: { key: 'tiered.keepRecent', values: rows },
    cols: { key: 'tiered.tier1Distance', values: cols },
    cells: rows.flatMap((k) => cols.map((d) => cell(cost(k, d), k))),
    refused: rows.flatMap(() => cols.map(() => null)),
    current: null,
    sessions: 1,
    replays: rows.length,
  };
}

const INERT =
  'every tier1Distance value gives the same figures here: a pass at every request meets each result first at distance keepRecent and keeps its tier from then on (first touch), so no result is first met at tier1Distance: it acts under the once and pressure triggers';

test('the default trigger: tier1Distance changes nothing, the best keepRecent is the smallest swept', () => {
  assert.deepEqual(sweepAdvice(grid([4, 6, 8], [10, 20, 30], (k) => k - 10)), [
    INERT,
    "the best cell is on the grid's edge (keepRecent 4, the smallest value swept): a better setting may lie beyond it; widen the range",
  ]);
});

test('a best keepRecent near 0 carries the risk; 0 is no edge (nothing lies below it)', () => {
  assert.deepEqual(sweepAdvice(grid([0, 4, 8], [10, 20, 30], (k, d) => k - 10 + Math.abs(d - 20) / 100)), [
    "the best cell's keepRecent 0 < 3: rewrites what the agent read in its last tool calls, which it may still need (the file it edits, the error it fixes); its cost does not count that",
  ]);
});

test('a best cell inside the grid on axes that both act: nothing to say', () => {
  assert.deepEqual(
    sweepAdvice(grid([4, 8, 12], [10, 20, 30], (k, d) => Math.abs(k - 8) + Math.abs(d - 20))),
    [],
  );
});

test('the largest value swept is an edge too', () => {
  assert.deepEqual(sweepAdvice(grid([4, 8, 12], [10, 20, 30], (k, d) => -k + Math.abs(d - 20))), [
    "the best cell is on the grid's edge (keepRecent 12, the largest value swept): a better setting may lie beyond it; widen the range",
  ]);
});

test('a setting warns below its descriptor bound only', () => {
  assert.equal(settingRisk('tiered.keepRecent', 3), null);
  assert.match(settingRisk('tiered.keepRecent', 2) ?? '', /^keepRecent 2 < 3: rewrites what the agent read/);
  assert.equal(settingRisk('tiered.tier1Distance', 0), null);
});
