// Long work on the extension host's thread gives way to other work between slices, and its result is the same.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze, analyzeSync } from '../../../src/core/analysis';
import { DEFAULT_POLICY } from '../../../src/core/engine/policy';
import { inSlices } from '../../../src/core/giveWay';
import { countTimerTurns } from '../timerTurns';
import { toolLoop } from '../transcripts';

/** Holds the thread for `ms` (measured, so it holds at least that long however loaded the machine is). */
const hold = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until) {}
};

test('work in slices lets a timer set before it run before it ends, and does every item in order', async () => {
  let timerRan = false;
  setTimeout(() => {
    timerRan = true;
  }, 0);
  const seen: number[] = [];
  let timerRanBeforeTheEnd = false;
  await inSlices(
    [0, 1, 2, 3, 4, 5],
    (i) => {
      hold(3);
      seen.push(i);
      if (i === 5) timerRanBeforeTheEnd = timerRan;
    },
    5,
  );
  assert.deepEqual(seen, [0, 1, 2, 3, 4, 5]);
  assert.equal(timerRanBeforeTheEnd, true);
});

test('a replay that gives way lets other work run during it and makes the same analysis as one that does not', async () => {
  const transcript = toolLoop(200);
  let stop = countTimerTurns();
  const sliced = await analyze(transcript, DEFAULT_POLICY, { giveWayEveryMs: 0 });
  const turns = stop();
  // A slice of 0 ms gives way at every pause (every few requests): 200 requests give the timer many turns.
  assert.ok(turns >= 10, `the timer ran ${turns} times during the replay`);
  assert.deepEqual(sliced.analysis.totals, analyzeSync(transcript, DEFAULT_POLICY).analysis.totals);

  // Without a slice (the CLI) the replay runs through.
  stop = countTimerTurns();
  await analyze(transcript, DEFAULT_POLICY);
  assert.equal(stop(), 0);
});
