// An honest ladder: bands only where the tiered pass acts, no wide Tier 1 band that nothing reaches, and results a
// compaction removed drawn as not sent (never as a tier's "kept"). Real engine and wire; the policy's descriptor
// decides, not its name.
import './dom';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { decodeAnalysis, encodeAnalysis } from '../../src/analysisWire';
import { analyzeSync } from '../../src/core/analysis';
import { clonePolicy, DEFAULT_POLICY, type Policy, type PolicyName } from '../../src/core/engine/policy';
import { parseTranscript } from '../../src/core/formats';
import type { Transcript } from '../../src/core/model';
import { REGISTRY_DESCRIPTORS } from '../../src/protocol';
import { DescriptorsContext, policyOf } from '../../webview/descriptors';
import { Ladder } from '../../webview/views/Ladder';
import { axisEnd, strokesOf } from '../../webview/views/ladderStrokes';
import { REAL_LONG_DIR } from '../sharedFixtures';
import { toolLoop } from '../unit/transcripts';
import { resetRoot } from './dom';

function view(t: Transcript, name: PolicyName, trigger: Policy['replay']['trigger'] = 'auto') {
  const policy = clonePolicy(DEFAULT_POLICY);
  policy.name = name;
  policy.replay.trigger = trigger;
  const { analysis } = analyzeSync(t, policy);
  return {
    policy,
    analysis: decodeAnalysis(JSON.parse(JSON.stringify(encodeAnalysis(analysis))), t.messages),
  };
}

async function render(t: Transcript, name: PolicyName) {
  const { policy, analysis } = view(t, name);
  const root = createRoot(resetRoot());
  await act(async () =>
    root.render(
      <DescriptorsContext.Provider value={REGISTRY_DESCRIPTORS}>
        <Ladder
          analysis={analysis}
          tiered={policy.tiered}
          active={policyOf(REGISTRY_DESCRIPTORS, name).tiered}
          onChange={() => {}}
        />
      </DescriptorsContext.Provider>,
    ),
  );
  return root;
}

test('tier bands and their edges under a policy that runs the tiered pass only', async () => {
  const t = toolLoop(30);
  for (const [name, bands] of [
    ['tiered', true],
    ['tiered+anthropic-context-editing', true],
    ['anthropic-context-editing', false],
    ['compaction', false],
    ['live-zone', false],
  ] as const) {
    const root = await render(t, name);
    const has = (id: string) => document.querySelector(`[data-testid="${id}"]`) !== null;
    assert.equal(has('ladder-band-1') && has('ladder-band-3'), bands, `${name}: bands`);
    assert.equal(has('ladder-edge-keepRecent') && has('ladder-edge-tier1Distance'), bands, `${name}: edges`);
    assert.equal(
      (document.querySelector('.ladder-legend')?.textContent ?? '').includes('Tier 1 stub'),
      bands,
      `${name}: legend`,
    );
    await act(async () => root.unmount());
  }
});

test('no result reaches Tier 1 under a pass at every request: the axis leaves it no room beyond tier1Distance', () => {
  const t = toolLoop(60);
  const every = view(t, 'tiered', 'everyRequest');
  const strokes = strokesOf(every.analysis, 20);
  assert.ok(!strokes.some((s) => s.m.tier === 1));
  assert.equal(axisEnd(strokes, { keepRecent: 8, tier1Distance: 20 }), 60);
  // With few results, tier1Distance + 1: the Tier 1 band is a sliver, not half the axis.
  const few = strokesOf(view(toolLoop(12), 'tiered', 'everyRequest').analysis, 20);
  assert.equal(axisEnd(few, { keepRecent: 8, tier1Distance: 20 }), 21);
  // Run once, results do reach Tier 1: the band keeps its room.
  const once = strokesOf(view(toolLoop(25), 'tiered', 'once').analysis, 20);
  assert.ok(once.some((s) => s.m.tier === 1));
  assert.equal(axisEnd(once, { keepRecent: 8, tier1Distance: 20 }), 32);
});

const SIX = join(REAL_LONG_DIR, 'claude-code');
const six = existsSync(SIX) ? readdirSync(SIX).find((f) => f.includes('six-compactions')) : undefined;

test('a real session with compactions: what the last compaction removed is drawn as not sent', {
  skip: !six,
}, () => {
  const path = join(SIX, six!);
  const t = parseTranscript(new Uint8Array(readFileSync(path)), path);
  const from = Math.max(...t.markers.filter((m) => m.kind === 'compaction').map((m) => m.beforeMessage));
  const { analysis } = view(t, 'tiered');
  assert.equal(analysis.liveFrom, from);
  const strokes = strokesOf(analysis, 20);
  const gone = strokes.filter((s) => s.notSent);
  assert.ok(gone.length > 0);
  assert.deepEqual(
    gone.map((s) => s.m.index),
    strokes.filter((s) => s.m.index < from).map((s) => s.m.index),
  );
  assert.ok(strokes.some((s) => !s.notSent));
});
