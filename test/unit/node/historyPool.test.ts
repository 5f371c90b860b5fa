// How many threads a history's sessions get: a thread costs more to start than a small session takes to replay.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type PoolFile, poolThreads } from '../../../src/node/historyPool';

const MB = 1 << 20;
const files = (...sizes: number[]): PoolFile[] =>
  sizes.map((size, i) => ({ path: `/s/${i}.jsonl`, size, modified: 0 }));

test('one thread per started 8 MB of sessions, at most one per file and the number asked for', () => {
  assert.equal(poolThreads([], 4), 0);
  assert.equal(poolThreads(files(50_000, 6_000, 1 * MB), 2), 1);
  assert.equal(poolThreads(files(4 * MB, 4 * MB), 2), 1);
  assert.equal(poolThreads(files(4 * MB, 4 * MB, 1), 2), 2);
  assert.equal(poolThreads(files(100 * MB), 8), 1);
  assert.equal(poolThreads(files(...Array(40).fill(MB)), 8), 5);
  assert.equal(poolThreads(files(...Array(400).fill(MB)), 8), 8);
  // Empty files still need a thread to be read.
  assert.equal(poolThreads(files(0, 0), 2), 1);
});
