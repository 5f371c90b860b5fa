import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectGarbage, collectIfGrown } from '../../../src/node/collectGarbage';

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

test('collecting once the heap grew: not before it grew by the slack, then once', () => {
  collectGarbage();
  const slack = 32 * 1024 * 1024;
  assert.equal(collectIfGrown(slack), false, 'nothing grew');
  // 48 MB of strings in the heap (short enough not to be kept outside it), still held when asked.
  const held = Array.from({ length: 192 }, (_, i) => Buffer.alloc(1 << 18, 97 + (i % 26)).toString('latin1'));
  assert.equal(collectIfGrown(slack), true, 'grew by more than the slack');
  assert.equal(collectIfGrown(slack), false, 'not again until it grows again');
  assert.equal(held.length, 192);
});
