import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type Clock, Throttle } from '../../../src/host/throttle';

/** A clock the test moves by hand: timers fire in order, and the promises they start settle before the next. */
class FakeClock implements Clock {
  private t = 0;
  private timers: { at: number; f: () => void; id: number }[] = [];
  private ids = 0;
  now = () => this.t;
  setTimeout = (f: () => void, ms: number) => {
    const id = ++this.ids;
    this.timers.push({ at: this.t + Math.max(0, ms), f, id });
    return id;
  };
  clearTimeout = (h: unknown) => {
    this.timers = this.timers.filter((x) => x.id !== h);
  };
  sleep = (ms: number) => new Promise<void>((r) => this.setTimeout(r, ms));
  async advanceTo(target: number): Promise<void> {
    for (;;) {
      await flush();
      this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.timers[0];
      if (!next || next.at > target) break;
      this.timers.shift();
      this.t = next.at;
      next.f();
    }
    this.t = target;
    await flush();
  }
}

const flush = () => new Promise<void>((r) => setImmediate(r));

/** A throttled task that takes `runMs` and records when each run started and what change it saw last. */
function harness(runMs: number, options = { settleMs: 100, intervalMs: 500 }) {
  const clock = new FakeClock();
  let changes = 0;
  let inFlight = 0;
  const runs: { start: number; saw: number }[] = [];
  const throttle = new Throttle(
    async () => {
      inFlight++;
      assert.equal(inFlight, 1, 'two runs at once');
      runs.push({ start: clock.now(), saw: changes });
      await clock.sleep(runMs);
      inFlight--;
    },
    options,
    clock,
  );
  const change = () => {
    changes++;
    throttle.trigger();
  };
  return { clock, throttle, runs, change, changes: () => changes };
}

test('a file changed every 200 ms for 30 s is followed: a run starts within 2 s of every change', async () => {
  for (const runMs of [50, 400, 1200]) {
    const { clock, runs, change } = harness(runMs);
    const changeTimes: number[] = [];
    for (let t = 0; t < 30_000; t += 200) {
      await clock.advanceTo(t);
      change();
      changeTimes.push(t);
    }
    await clock.advanceTo(40_000);
    // Every change is seen by a run that starts at most 2 s later (a debounce of 300 ms would never run).
    for (const [i, t] of changeTimes.entries()) {
      const seenBy = runs.find((r) => r.saw >= i + 1);
      assert.ok(seenBy, `change ${i} at ${t} ms was never seen (run ${runMs} ms)`);
      assert.ok(seenBy.start - t <= 2000, `change at ${t} ms seen at ${seenBy.start} ms (run ${runMs} ms)`);
    }
    // Bounded work: never more than one run per interval.
    for (let i = 1; i < runs.length; i++) assert.ok(runs[i].start - runs[i - 1].start >= 500);
  }
});

test('a burst of changes is one run after the settle delay; the last change is always seen', async () => {
  const { clock, runs, change, changes } = harness(50);
  for (let i = 0; i < 20; i++) change();
  await clock.advanceTo(99);
  assert.equal(runs.length, 0);
  await clock.advanceTo(100);
  assert.deepEqual(runs, [{ start: 100, saw: 20 }]);
  // A change while the run is in flight: one more run, after the interval.
  await clock.advanceTo(120);
  change();
  change();
  await clock.advanceTo(5000);
  assert.deepEqual(runs, [
    { start: 100, saw: 20 },
    { start: 600, saw: 22 },
  ]);
  assert.equal(runs.at(-1)?.saw, changes());
});

test('a run that fails does not stop the following ones', async () => {
  const clock = new FakeClock();
  let calls = 0;
  const errors: unknown[] = [];
  const original = console.error;
  console.error = (e: unknown) => errors.push(e);
  try {
    const throttle = new Throttle(
      async () => {
        calls++;
        throw new Error('read failed');
      },
      { settleMs: 10, intervalMs: 10 },
      clock,
    );
    throttle.trigger();
    await clock.advanceTo(50);
    throttle.trigger();
    await clock.advanceTo(100);
    assert.equal(calls, 2);
    assert.equal(errors.length, 2);
  } finally {
    console.error = original;
  }
});

test('after dispose nothing runs', async () => {
  const { clock, throttle, runs, change } = harness(50);
  change();
  throttle.dispose();
  change();
  await clock.advanceTo(5000);
  assert.deepEqual(runs, []);
  assert.equal(throttle.busy, false);
});
