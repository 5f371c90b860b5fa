import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AnalysisQueue } from '../../../src/host/analysisQueue';

/** A queue whose jobs finish when the test says (`finish(job)`), recording what ran and what drained. */
function queue(before: (next: number) => Promise<void> | null = () => null) {
  const ran: number[] = [];
  const drained: string[] = [];
  const finishers = new Map<number, () => void>();
  const q = new AnalysisQueue<number, string>({
    before,
    run: (job) => {
      ran.push(job);
      return new Promise((resolve) => finishers.set(job, () => resolve(`answered ${job}`)));
    },
    drained: (last) => drained.push(last),
  });
  const finish = (job: number) => {
    const f = finishers.get(job);
    assert.ok(f, `job ${job} runs`);
    f();
  };
  return { q, ran, drained, finish };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

test('a job asked for while the queue is idle starts in the same turn', () => {
  const { q, ran } = queue();
  void q.push(1);
  assert.deepEqual(ran, [1]);
  assert.equal(q.busy, true);
});

test('jobs asked for while one runs are coalesced: only the newest runs next, and the drain hears its outcome once', async () => {
  const { q, ran, drained, finish } = queue();
  const all = [1, 2, 3, 4].map((job) => q.push(job));
  assert.deepEqual(ran, [1]);
  finish(1);
  await turn();
  assert.deepEqual(ran, [1, 4]);
  assert.deepEqual(drained, [], 'a job still runs');
  finish(4);
  await Promise.all(all);
  assert.deepEqual(drained, ['answered 4']);
  assert.equal(q.busy, false);
});

test('a job waits for what must end before it, and the newest job asked for meanwhile is the one that runs', async () => {
  let end = () => {};
  const inFlight = new Promise<void>((resolve) => {
    end = resolve;
  });
  const waited: number[] = [];
  const { q, ran, drained, finish } = queue((next) => {
    waited.push(next);
    return waited.length === 1 ? inFlight : null;
  });
  const first = q.push(1);
  const second = q.push(2);
  assert.deepEqual(ran, [], 'nothing runs before the work in flight ends');
  end();
  await turn();
  assert.deepEqual(ran, [2]);
  finish(2);
  await Promise.all([first, second]);
  assert.deepEqual(drained, ['answered 2']);
});

test('idle resolves once no job runs, those asked for meanwhile included', async () => {
  const { q, finish } = queue();
  void q.push(1);
  let idle = false;
  const waiting = q.idle().then(() => {
    idle = true;
  });
  void q.push(2);
  finish(1);
  await turn();
  assert.equal(idle, false, 'job 2 runs');
  finish(2);
  await waiting;
  assert.equal(q.busy, false);
});
