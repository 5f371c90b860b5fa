import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectGarbage, HeapGrowth } from '../../../src/node/collectGarbage';

/** A turn of the event loop: a WeakRef keeps its target until the job that made it ends. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

test('a collection frees what nothing reaches any more, and shows no `gc` to other code', async () => {
  const before = typeof (globalThis as { gc?: unknown }).gc;
  let kept: Uint8Array | null = new Uint8Array(1 << 20);
  const ref = new WeakRef(kept);
  kept = null;
  await turn();
  collectGarbage();
  assert.equal(ref.deref(), undefined);
  assert.equal(typeof (globalThis as { gc?: unknown }).gc, before);
});

test('the heap is collected once it grew by the share given of what the last collection left, at least the bytes given', () => {
  const MB = 1024 * 1024;
  const growth = new HeapGrowth(32 * MB, 0.25);
  assert.equal(growth.due(100 * MB), false);
  // A quarter of 100 MB is 25 MB, under the 32 MB at least.
  assert.equal(growth.due(130 * MB), false);
  assert.equal(growth.due(132 * MB), true);
  growth.collected(200 * MB);
  assert.equal(growth.due(240 * MB), false);
  assert.equal(growth.due(250 * MB), true);
  // A collection V8 made on its own lowers the mark: growth counts from there.
  growth.collected(200 * MB);
  assert.equal(growth.due(150 * MB), false);
  assert.equal(growth.due(185 * MB), false);
  assert.equal(growth.due(188 * MB), true);
});
