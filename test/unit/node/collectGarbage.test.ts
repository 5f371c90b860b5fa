import assert from 'node:assert/strict';
import { test } from 'node:test';
import { collectGarbage } from '../../../src/node/collectGarbage';

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
