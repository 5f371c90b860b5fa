import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_POLICY, type Policy } from '../../../src/core/engine/policy';
import type { EngineResult } from '../../../src/host/engineResult';
import { ResultCache } from '../../../src/host/keptAnalyses';

const result = (label: string) => ({ label }) as unknown as EngineResult;
const at = (name: Policy['name'], keepRecent: number): Policy => ({
  ...DEFAULT_POLICY,
  name,
  tiered: { ...DEFAULT_POLICY.tiered, keepRecent },
});

test('kept analyses: the least recently used go first, but a run of steps on one policy keeps the newest of every other', () => {
  const cache = new ResultCache();
  const key = (p: Policy) => ResultCache.key(p, 'none');
  cache.set(key(at('live-zone', 8)), result('live-zone'));
  cache.set(key(at('none', 8)), result('none'));
  for (let k = 1; k <= 30; k++) cache.set(key(at('tiered', k)), result(`tiered ${k}`));
  assert.ok(cache.peek(key(at('live-zone', 8))));
  assert.ok(cache.peek(key(at('none', 8))));
  // Eighteen in all: the two other policies' and the sixteen newest steps.
  assert.ok(cache.peek(key(at('tiered', 30))));
  assert.ok(cache.peek(key(at('tiered', 15))));
  assert.equal(cache.peek(key(at('tiered', 14))), undefined);
  // A newer analysis of none makes the older one an ordinary one.
  cache.set(key({ ...at('none', 8), model: 'gpt-5' }), result('none, another model'));
  assert.equal(cache.peek(key(at('none', 8))), undefined);
  assert.ok(cache.peek(key(at('tiered', 15))));
});

test('a policy without the tiered pass has one key whatever its tier settings; one with it, a key per setting', () => {
  const key = (p: Policy) => ResultCache.key(p, 'none');
  assert.equal(key(at('live-zone', 8)), key(at('live-zone', 9)));
  assert.equal(key(at('compaction', 8)), key(at('compaction', 3)));
  assert.notEqual(key(at('tiered+live-zone', 8)), key(at('tiered+live-zone', 9)));
  assert.notEqual(key(at('live-zone', 8)), key({ ...at('live-zone', 8), model: 'gpt-5' }));
});
