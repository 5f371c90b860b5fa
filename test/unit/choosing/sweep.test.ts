// The sweep grid: each cell is exactly the replay of its own settings against none, though far fewer replays run.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { defaultPolicyFor, type Policy } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import type { Transcript } from '../../../src/core/model';
import { addGrid, bestCell, parseSweepAxis, sweepTranscript } from '../../../src/core/sweep';
import { compareWithNone, nonePolicy } from '../../../src/core/vsNone';
import { REAL_LONG_DIR } from '../../sharedFixtures';
import { toolLoop } from '../transcripts';

test('sweep axes: ranges, steps, lists; refused with the reason', () => {
  assert.deepEqual(parseSweepAxis('tiered.keepRecent=4..8'), {
    key: 'tiered.keepRecent',
    values: [4, 5, 6, 7, 8],
  });
  assert.deepEqual(parseSweepAxis('tiered.tier1Distance=10..40:5').values, [10, 15, 20, 25, 30, 35, 40]);
  assert.deepEqual(parseSweepAxis('tiered.keepRecent=2,4,8').values, [2, 4, 8]);
  assert.throws(() => parseSweepAxis('tiered.floorTools=1..2'), /whole-number key/);
  assert.throws(() => parseSweepAxis('tiered.keepRecent=8..4'), /must go up/);
  assert.throws(() => parseSweepAxis('tiered.keepRecent=1..1000'), /more than 100 values/);
  assert.throws(() => parseSweepAxis('tiered.keepRecent=a..b'), /expected from\.\.to/);
});

test('sweep axes: every number is range-checked before the values are listed, and the listing ends', () => {
  const huge = '99999999999999999999';
  // Past 2^53 a step of 1 no longer moves the value: this never ended.
  assert.throws(
    () => parseSweepAxis(`tiered.keepRecent=${huge}..${huge}`),
    /out of range for tiered\.keepRecent/,
  );
  assert.throws(() => parseSweepAxis(`tiered.keepRecent=1..${huge}`), /out of range/);
  assert.throws(() => parseSweepAxis(`tiered.keepRecent=4,${huge}`), /out of range/);
  assert.throws(
    () => parseSweepAxis('tiered.keepRecent=1000000001..1000000001'),
    /out of range for tiered\.keepRecent \(0\.\.1000000000\)/,
  );
  assert.throws(() => parseSweepAxis('tiered.maxResultChars=0..3'), /0 is out of range/);
  assert.deepEqual(parseSweepAxis(`tiered.keepRecent=4..8:${huge}`).values, [4]);
  assert.deepEqual(
    parseSweepAxis('tiered.keepRecent=999999998..1000000000').values,
    [999999998, 999999999, 1000000000],
  );
});

function bruteForce(t: Transcript, base: Policy, rows: number[], cols: number[]) {
  const none = analyzeSync(t, nonePolicy(base)).analysis;
  return rows.flatMap((k) =>
    cols.map((d) => {
      if (d < k) return null;
      const a = analyzeSync(t, {
        ...base,
        tiered: { ...base.tiered, keepRecent: k, tier1Distance: d },
      }).analysis;
      const v = compareWithNone(a, none, 'as-logged');
      return {
        cost: v.cost,
        deltaCost: v.deltaCost,
        tokensSaved: v.tokensSaved,
        extraWritten: v.extraWritten,
      };
    }),
  );
}

const sessions = (): [string, Transcript][] => {
  const files = [
    'test/fixtures/real/claude-code/kvsankar-real-session-01-redacted-v2.1.152.jsonl',
    join(REAL_LONG_DIR, 'claude-code', 'laf-us-05541cb5-six-compactions-v2.1.92.jsonl'),
    join(REAL_LONG_DIR, 'codex', 'aaronbakerdev-019bbf1d-shell-command-0.80.jsonl'),
  ].filter((f) => existsSync(f));
  return [
    ['a generated tool loop', toolLoop(60)],
    ...files.map((f): [string, Transcript] => [
      f.split('/').pop() as string,
      parseTranscript(readFileSync(f), f),
    ]),
  ];
};

test('every cell equals a replay of its own settings, with fewer replays than cells', async () => {
  for (const [name, t] of sessions()) {
    for (const policyName of ['tiered', 'tiered+live-zone'] as const) {
      const base = { ...defaultPolicyFor(t.format), name: policyName };
      const rows = parseSweepAxis('tiered.keepRecent=2..10:2');
      const cols = parseSweepAxis('tiered.tier1Distance=4..40:4');
      const grid = await sweepTranscript(base, rows, cols, (p) => analyzeSync(t, p).analysis);
      const expected = bruteForce(t, base, rows.values, cols.values);
      grid.cells.forEach((cell, i) => {
        const e = expected[i];
        if (e === null) {
          assert.equal(cell, null, `${name} cell ${i}: refused`);
          assert.match(grid.refused[i] ?? '', /tier1Distance/);
          return;
        }
        assert.ok(cell, `${name} cell ${i}`);
        assert.deepEqual(
          {
            cost: cell.cost,
            deltaCost: cell.deltaCost,
            tokensSaved: cell.tokensSaved,
            extraWritten: cell.extraWritten,
          },
          e,
          `${name} ${policyName} cell ${i}`,
        );
      });
      const valid = expected.filter((e) => e !== null).length;
      // A session replayed request by request first-touches its results at about keepRecent: most tier1Distance
      // values share a replay. (One pass over a request body meets every distance: nothing to share.)
      if (t.format === 'claude-code' || t.format === 'codex')
        assert.ok(grid.replays - 1 <= valid / 2, `${name}: ${grid.replays - 1} replays for ${valid} cells`);
      assert.equal(
        grid.current,
        3 * 10 + 4,
        'the defaults: keepRecent 8 (row 3), tier1Distance 20 (column 4)',
      );
    }
  }
});

test('the current setting is marked; grids add up; the best cell is the cheapest', async () => {
  const t = toolLoop(40);
  const base = defaultPolicyFor(t.format);
  const rows = parseSweepAxis('tiered.keepRecent=4,8');
  const cols = parseSweepAxis('tiered.tier1Distance=10..20:10');
  const grid = await sweepTranscript(base, rows, cols, (p) => analyzeSync(t, p).analysis);
  assert.equal(grid.current, 3, 'keepRecent 8, tier1Distance 20');
  const twice = structuredClone(grid);
  addGrid(twice, grid);
  assert.equal(twice.sessions, 2);
  twice.cells.forEach((c, i) => {
    assert.equal(c?.deltaCost, 2 * (grid.cells[i]?.deltaCost ?? Number.NaN));
  });
  const best = bestCell(grid) as number;
  for (const c of grid.cells)
    assert.ok((grid.cells[best]?.deltaCost ?? 0) <= (c?.deltaCost ?? Number.POSITIVE_INFINITY));
});
