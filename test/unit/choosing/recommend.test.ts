// Recommend (core/recommend.ts): every candidate replayed beside none, ranked by cost; the winner's settings are
// the ones to paste, and replaying them gives the figure printed.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { clonePolicy, DEFAULT_POLICY, type Policy } from '../../../src/core/engine/policy';
import { changedSettings, recommend, snippets } from '../../../src/core/recommend';
import { nonePolicy } from '../../../src/core/vsNone';
import { toolLoop } from '../transcripts';

/** A built transcript is a request log: replayed as a session, every request sent (else only the next one moves). */
const base = (): Policy => {
  const p = clonePolicy(DEFAULT_POLICY);
  p.model = 'claude-sonnet-4';
  p.replay.trigger = 'everyRequest';
  return p;
};

test('every candidate is priced beside none; the cheapest comes first and is the recommendation', () => {
  const t = toolLoop(60, { result: (i) => `line ${i} of a long listing\n`.repeat(400) });
  const r = recommend(t, base());
  const none = analyzeSync(t, nonePolicy(base())).analysis.totals.cost;
  assert.equal(r.noneCost, none);
  for (let i = 1; i < r.ranked.length; i++) assert.ok(r.ranked[i - 1].totals.cost <= r.ranked[i].totals.cost);
  assert.ok(r.best);
  assert.equal(r.best, r.ranked[0]);
  assert.ok(r.best.deltaCost < 0);
  // Its settings, applied to the defaults, replay to the same figure.
  const replayed = clonePolicy(base());
  for (const [key, value] of Object.entries(r.best.settings)) {
    if (key === 'contextLens.policy') replayed.name = value as Policy['name'];
    else {
      const [, section, field] = key.split('.');
      (replayed as unknown as Record<string, Record<string, unknown>>)[section][field] = value;
    }
  }
  assert.equal(analyzeSync(t, replayed).analysis.totals.cost, r.best.totals.cost);
  // Every policy but none that an Anthropic request body can use: not an agent's own (Codex's, Claude Code's).
  assert.equal(r.bestPerPolicy.length, 9, 'one line per policy but none');
  assert.deepEqual(
    new Set(r.bestPerPolicy.map((c) => c.policy.name)).size,
    9,
    'each policy once, at its cheapest settings',
  );
});

test('a session nothing makes cheaper gets no recommendation', () => {
  const r = recommend(toolLoop(2, { result: () => 'ok' }), base());
  assert.equal(r.best, null);
});

test('the settings to paste are those that differ from the defaults; context editing and compaction add a request block', () => {
  const p = clonePolicy(DEFAULT_POLICY);
  p.name = 'tiered+anthropic-context-editing';
  p.contextEditing.trigger = 50_000;
  p.liveZone.minChars = 1; // not a pass of this policy: not listed
  assert.deepEqual(changedSettings(p), {
    'contextLens.policy': 'tiered+anthropic-context-editing',
    'contextLens.contextEditing.trigger': 50_000,
  });
  const t = toolLoop(3);
  const totals = analyzeSync(t, p).analysis.totals;
  const candidate = { policy: p, settings: changedSettings(p), totals, deltaCost: 0, deltaShare: 0 };
  const s = snippets(candidate, t, 200_000);
  assert.deepEqual(JSON.parse(s.settings), candidate.settings);
  assert.deepEqual(JSON.parse(s.request!), {
    context_management: {
      edits: [
        {
          type: 'clear_tool_uses_20250919',
          trigger: { type: 'input_tokens', value: 50_000 },
          keep: { type: 'tool_uses', value: 3 },
        },
      ],
    },
  });
  const c = clonePolicy(DEFAULT_POLICY);
  c.name = 'compaction';
  c.compaction.threshold = 0.5;
  const compaction = snippets({ ...candidate, policy: c, settings: changedSettings(c) }, t, 200_000);
  assert.deepEqual(JSON.parse(compaction.openai!), {
    context_management: [{ type: 'compaction', compact_threshold: 100_000 }],
  });
});
