import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_POLICY, type Policy } from '../../../src/core/engine/policy';
import type { Transcript } from '../../../src/core/model';
import type { EngineResult } from '../../../src/host/engineResult';
import { ResultCache } from '../../../src/host/keptAnalyses';
import { RunAhead } from '../../../src/host/runAhead';
import { FakeClock } from '../fakeClock';

const transcript = { messages: [] } as unknown as Transcript;
const label = (p: Policy) => `${p.name} ${p.tiered.keepRecent}/${p.tiered.tier1Distance}`;
const at = (keepRecent: number, name: Policy['name'] = 'tiered'): Policy => ({
  ...DEFAULT_POLICY,
  name,
  tiered: { ...DEFAULT_POLICY.tiered, keepRecent },
});

/** A run-ahead over an engine that answers at once, showing `shown`, on a clock the test moves: what the engine ran
 * (`runs`), what was offered (`offers`) and how often the kept analyses were let go of (`released`). */
function runAhead(shown: Policy = at(8)) {
  const runs: string[] = [];
  const offers: string[] = [];
  let released = 0;
  let current = shown;
  let busy = false;
  const results = new ResultCache();
  const clock = new FakeClock(() => ahead.settled());
  const ahead: RunAhead = new RunAhead(
    {
      engine: {
        analyze: async (_t, p) => {
          runs.push(label(p));
          return { analysis: { policyName: p.name }, rewrites: [] } as unknown as EngineResult;
        },
      },
      results,
      transcript: () => transcript,
      shown: () => ({ policy: current, summarizer: 'none' }),
      busy: () => busy,
      offer: (p) => void offers.push(label(p)),
      releaseKept: () => {
        released++;
      },
    },
    { clock, runAheadAfterMs: 700, keptWhileIdleMs: 30_000 },
  );
  return {
    ahead,
    clock,
    runs,
    offers,
    results,
    released: () => released,
    setBusy: (b: boolean) => {
      busy = b;
    },
    /** The views moved to `policy`: what was run and offered is forgotten. */
    show: (policy: Policy) => {
      current = policy;
      runs.length = 0;
      offers.length = 0;
    },
  };
}

test("after a step, the next step runs at once with the step back, the step after it, the other constant's steps and the policies no step changes; the other policies wait for the pause", async () => {
  const r = runAhead(at(7));
  r.ahead.scheduleAfter(at(8), at(6));
  await r.clock.advance(0);
  assert.deepEqual(r.runs.slice(0, 5), [
    'tiered 6/20',
    'tiered 8/20',
    'tiered 5/20',
    'tiered 7/21',
    'tiered 7/19',
  ]);
  assert.ok(
    r.runs.slice(5).every((run) => !run.startsWith('tiered')),
    `only policies without the tiered pass after the steps: ${r.runs.join('; ')}`,
  );
  assert.ok(r.runs.includes('none 7/20'));
  const atOnce = r.runs.length;
  assert.deepEqual(
    r.offers,
    r.runs.filter((run) => run !== 'tiered 5/20'),
    'every run is offered but the step after the next, which the view cannot move to yet',
  );
  await r.clock.advance(699);
  assert.equal(r.runs.length, atOnce, 'nothing more before the pause');
  await r.clock.advance(1);
  assert.ok(r.runs.length > atOnce, 'the other policies ran after the pause');
  assert.ok(r.runs.includes('tiered+live-zone 7/20'), r.runs.join('; '));
});

test('after a pause the second step each way runs after the steps, kept and not offered', async () => {
  const r = runAhead(at(7));
  r.ahead.scheduleAfter(undefined, null);
  await r.clock.advance(700);
  const tier = (keepRecent: number, tier1Distance: number): Policy => ({
    ...at(keepRecent),
    tiered: { ...DEFAULT_POLICY.tiered, keepRecent, tier1Distance },
  });
  const second = [tier(9, 20), tier(5, 20), tier(7, 22), tier(7, 18)];
  assert.deepEqual(r.runs.slice(4, 8), second.map(label));
  assert.ok(r.runs.includes('tiered+live-zone 7/20'));
  for (const p of second) {
    assert.ok(!r.offers.includes(label(p)), label(p));
    assert.ok(r.results.peek(ResultCache.key(p, 'none')), `${label(p)} kept`);
  }
});

test('a kept analysis is offered without running the engine', async () => {
  const r = runAhead(at(7));
  r.results.set(ResultCache.key(at(6), 'none'), { analysis: {}, rewrites: [] } as unknown as EngineResult);
  r.ahead.scheduleAfter(at(8), at(6));
  await r.clock.advance(0);
  assert.ok(!r.runs.includes('tiered 6/20'));
  assert.equal(r.offers[0], 'tiered 6/20');
});

test('the step back, kept, is offered before the next step runs: a user who reverses does not wait for that replay', async () => {
  const r = runAhead(at(7));
  r.results.set(ResultCache.key(at(8), 'none'), { analysis: {}, rewrites: [] } as unknown as EngineResult);
  r.ahead.scheduleAfter(at(8), at(6));
  await r.clock.advance(0);
  assert.deepEqual(r.offers.slice(0, 2), ['tiered 8/20', 'tiered 6/20']);
  assert.equal(r.runs[0], 'tiered 6/20');
  assert.ok(!r.runs.includes('tiered 8/20'));
});

test('the step after the next, run at a step, is offered at once at the next one, and the replay starts a step further', async () => {
  const r = runAhead(at(7));
  r.ahead.scheduleAfter(at(8), at(6));
  await r.clock.advance(0);
  r.ahead.postpone();
  r.results.set(ResultCache.key(at(7), 'none'), { analysis: {}, rewrites: [] } as unknown as EngineResult);
  r.show(at(6));
  r.ahead.scheduleAfter(at(7), at(5));
  await r.clock.advance(0);
  assert.deepEqual(r.offers.slice(0, 2), ['tiered 5/20', 'tiered 7/20']);
  assert.equal(r.runs[0], 'tiered 4/20');
});

test('a change postpones what was scheduled: nothing runs; a busy session runs nothing ahead', async () => {
  const r = runAhead();
  r.ahead.scheduleAfter(at(9), at(7));
  r.ahead.postpone();
  await r.clock.advance(1_000);
  assert.deepEqual(r.runs, []);
  assert.deepEqual(r.clock.pending, [], 'no wait is left');

  r.setBusy(true);
  r.ahead.scheduleAfter(at(9), at(7));
  await r.clock.advance(1_000);
  assert.deepEqual(r.runs, []);
});

test('after a switch of policy, only the policy left is offered at once, whatever the size of its patch', async () => {
  const r = runAhead(at(8, 'live-zone'));
  r.ahead.scheduleAfter(at(8, 'tiered'), null);
  await r.clock.advance(0);
  assert.deepEqual(r.runs, ['tiered 8/20']);
});

test('the kept analyses are let go of once the user paused for keptWhileIdleMs, and a new answer starts the wait again', async () => {
  const r = runAhead();
  r.ahead.keepUntilIdle();
  await r.clock.advance(29_999);
  assert.equal(r.released(), 0);
  r.ahead.keepUntilIdle();
  await r.clock.advance(29_999);
  assert.equal(r.released(), 0);
  await r.clock.advance(1);
  assert.equal(r.released(), 1);
});

test('a run in flight is stopped by a change to other settings and let finish for its own', async () => {
  const r = runAhead(at(7));
  const shown = at(7);
  const signals: AbortSignal[] = [];
  let finish = () => {};
  const slow = new RunAhead(
    {
      engine: {
        analyze: (_t, _p, _s, signal) => {
          if (signal) signals.push(signal);
          return new Promise<EngineResult>((resolve, reject) => {
            finish = () => resolve({ analysis: {}, rewrites: [] } as unknown as EngineResult);
            signal?.addEventListener('abort', () => reject(new Error('stopped')));
          });
        },
      },
      results: r.results,
      transcript: () => transcript,
      shown: () => ({ policy: shown, summarizer: 'none' }),
      busy: () => false,
      offer: () => {},
      releaseKept: () => {},
    },
    { clock: r.clock, runAheadAfterMs: 700, keptWhileIdleMs: 30_000 },
  );
  slow.scheduleAfter(at(8), at(6));
  await r.clock.advance(0);
  assert.equal(slow.inFlight, true);
  const own = slow.finish(ResultCache.key(at(6), 'none'));
  assert.equal(signals[0].aborted, false, 'the run of the settings asked for goes on');
  finish();
  await own;
  // The run gives way to the host's other work between two candidates.
  for (let i = 0; i < 1000 && !slow.inFlight; i++) await new Promise((resolve) => setImmediate(resolve));
  const next = slow.finish(ResultCache.key(at(3), 'none'));
  assert.ok(next, 'the next candidate runs');
  assert.equal(signals.at(-1)?.aborted, true, 'a change to other settings stops it');
  await next;
  slow.dispose();
});
