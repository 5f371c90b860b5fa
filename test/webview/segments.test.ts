// The log's own compactions are drawn as segments under every policy: the list's rows take them from the
// transcript's markers, whatever the analysis shown (a simulated compaction elsewhere included).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeSync } from '../../src/core/analysis';
import { COMPARED_POLICIES, clonePolicy, DEFAULT_POLICY, POLICY_NAMES } from '../../src/core/engine/policy';
import { buildRows } from '../../webview/views/rows';
import { compactedSession } from '../unit/compactedSession';
import { view } from './fixtures';

const t = compactedSession(2);
const marker = t.markers[0];

test('under every policy, the segment before the log’s compaction is drawn, and the compaction marker after it', () => {
  const shapes = new Set<string>();
  for (const name of new Set([...COMPARED_POLICIES, ...POLICY_NAMES])) {
    for (const threshold of [0.835, 0.001]) {
      const p = clonePolicy(DEFAULT_POLICY);
      p.name = name;
      p.model = 'claude-sonnet-4';
      p.replay.trigger = 'everyRequest';
      p.compaction.threshold = threshold;
      const a = view(analyzeSync(t, p).analysis);
      const rows = buildRows(t.messages.length, [{ ...marker, text: 'Conversation compacted' }], a);
      const shape = rows
        .map((r) => (r.kind === 'segment' ? `segment ${r.start}-${r.end}` : r.kind))
        .join(', ');
      assert.match(shape, /^segment 0-5, marker, message/, `${name} at ${threshold}`);
      shapes.add(shape);
    }
  }
  assert.equal(shapes.size, 1, 'the same rows under every policy');
});
