// The view's side of the analyses the host runs ahead: shown at once on a change to their settings, only as a
// patch on the analysis the view shows and while no change of its own waits; the host's copy changes nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffAnalysis, encodeAnalysis } from '../../src/analysisWire';
import type { Tier } from '../../src/core/analysisTypes';
import { COMPARED_POLICIES } from '../../src/core/engine/policy';
import { likelyNext } from '../../src/host/keptAnalyses';
import type { HostMessage } from '../../src/protocol';
import { type Ahead, aheadFor, initialState, reducer, type State } from '../../webview/state';
import { analysisOf, messageAnalysis, policy, summaries, transcriptMessage } from './fixtures';

const host = (state: State, message: HostMessage) => reducer(state, { type: 'host', message });
const wireOf = (tiers: (Tier | null)[]) =>
  encodeAnalysis(analysisOf(tiers.map((t, i) => messageAnalysis(i, t))));
const shownTiers = (state: State) => state.analysis?.messages.map((m) => m.tier);

const keep = (keepRecent: number) => ({ ...policy, tiered: { ...policy.tiered, keepRecent } });
const before = wireOf([null, 2, 3, 3]);
const after = wireOf([null, 2, 2, 3]);

/** A view showing analysis 1 (tiers of `before`), and the host's offer of analysis 2 for keepRecent + 1. */
function viewWithOffer(): { state: State; ahead: Ahead } {
  let state = host(initialState, transcriptMessage(summaries(4)));
  state = host(state, { type: 'analysis', seq: 0, id: 1, policy, analysis: before, elapsedMs: 1 });
  const diff = diffAnalysis(before, after, 1);
  assert.ok(diff);
  const ahead: Ahead = {
    type: 'ahead',
    summarizer: 'none',
    analysis: {
      type: 'analysis',
      seq: 0,
      id: 2,
      policy: keep(policy.tiered.keepRecent + 1),
      ...diff,
      elapsedMs: 0,
    },
  };
  return { state: host(state, ahead), ahead };
}

test('a change to the settings of an analysis run ahead shows it at once, as the answer to that change', () => {
  const { state, ahead } = viewWithOffer();
  // Another object with the same settings, its keys in another order: the same settings.
  const { tiered, ...rest } = keep(policy.tiered.keepRecent + 1);
  const same = { tiered, ...rest };
  assert.equal(aheadFor(state, same, 'none'), ahead);
  assert.equal(aheadFor(state, same, 'extractive'), undefined, 'another summarizer');
  assert.equal(aheadFor(state, keep(policy.tiered.keepRecent + 2), 'none'), undefined);
  const shown = reducer(state, { type: 'localPolicy', policy: same, seq: 1, ahead });
  assert.deepEqual(shownTiers(shown), [null, 2, 2, 3]);
  assert.equal(shown.wire?.id, 2);
  assert.equal(shown.analysisSeq, 1, 'the repaint answers change 1');
  assert.deepEqual(shown.aheads, [], 'offers on the analysis shown before are dropped');
  // The host's copy of it, sent to every view, changes nothing here.
  const copy = host(shown, { ...ahead.analysis, seq: 1, elapsedMs: 0 });
  assert.equal(copy.analysis, shown.analysis);
  assert.equal(copy.resync, false);
});

test('an offer is not shown while a change of the view waits for its answer, nor on another analysis', () => {
  const { state, ahead } = viewWithOffer();
  const next = keep(policy.tiered.keepRecent + 1);
  const waiting = reducer(state, { type: 'localPolicy', policy: keep(3), seq: 1 });
  assert.equal(aheadFor(waiting, next, 'none'), undefined);
  // The stale lookup of a caller that looked before that change is checked again.
  const kept = reducer(waiting, { type: 'localPolicy', policy: next, seq: 2, ahead });
  assert.equal(kept.wire?.id, 1);
  assert.deepEqual(shownTiers(kept), [null, 2, 3, 3]);
  assert.deepEqual(kept.policy, next);
  // Answered: the view shows analysis 3, and the offer on analysis 1 is gone.
  const answered = host(kept, {
    type: 'analysis',
    seq: 2,
    id: 3,
    policy: next,
    analysis: after,
    elapsedMs: 1,
  });
  assert.equal(aheadFor(answered, next, 'none'), undefined);
  // An offer on an analysis the view does not show is not even kept.
  assert.deepEqual(host(answered, ahead).aheads, []);
});

test('a refused change is answered: offers are shown again after it', () => {
  const { state, ahead } = viewWithOffer();
  const next = keep(policy.tiered.keepRecent + 1);
  const waiting = reducer(state, { type: 'localPolicy', policy: keep(-1), seq: 1 });
  const refused = host(waiting, {
    type: 'settings',
    policy,
    summarizer: 'none',
    models: [],
    scope: 'workspace',
    problem: 'tiered.keepRecent: expected a whole number ≥ 0',
    seq: 1,
  });
  assert.equal(aheadFor(refused, next, 'none'), ahead);
});

test('every offer on the analysis shown is kept: the steps offered first are not pushed out by the policies after them', () => {
  const { state: shown } = viewWithOffer();
  // What the host runs ahead from the defaults, offered in its order: the steps first, then each other policy.
  const { steps, policies } = likelyNext(policy, COMPARED_POLICIES);
  const offered = [...steps, ...policies];
  assert.ok(offered.length > 8, `${offered.length} offers`);
  let state = shown;
  offered.forEach((p, i) => {
    const diff = diffAnalysis(before, after, 1);
    assert.ok(diff);
    state = host(state, {
      type: 'ahead',
      summarizer: 'none',
      analysis: { type: 'analysis', seq: 0, id: 10 + i, policy: p, ...diff, elapsedMs: 0 },
    });
  });
  for (const [i, p] of offered.entries())
    assert.equal(aheadFor(state, p, 'none')?.analysis.id, 10 + i, p.name);
});
