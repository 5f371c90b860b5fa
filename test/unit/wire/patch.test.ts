import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import {
  type AnalysisWire,
  applyPatch,
  decodeAnalysis,
  decodePatched,
  diffAnalysis,
  encodeAnalysis,
} from '../../../src/analysisWire';
import { analyzeSync } from '../../../src/core/analysis';
import type { Policy } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import { defaultsFor } from '../../../src/host/policySettings';
import { parseHostMessage } from '../../../src/protocol';
import { generateClaudeCodeSession } from '../../bench/generate';
import { REAL_FIXTURES } from '../../sharedFixtures';

const path = join(REAL_FIXTURES, 'claude-code', 'drmaciver-coverage-test-fix.jsonl');
const transcript = parseTranscript(readFileSync(path), path);
const base = defaultsFor(transcript);
const wireFor = (policy: Policy): AnalysisWire => encodeAnalysis(analyzeSync(transcript, policy).analysis);
const keep = (k: number): Policy => ({ ...base, tiered: { ...base.tiered, keepRecent: k } });
const roles = transcript.messages.map((m) => ({ role: m.role }));

test('a keepRecent step crosses as the rows it changed; the patch applied gives the whole analysis back', () => {
  for (const trigger of ['once', 'everyRequest'] as const) {
    const at = (k: number) => ({ ...keep(k), replay: { ...base.replay, trigger } });
    const prev = wireFor(at(3));
    const next = wireFor(at(4));
    const d = diffAnalysis(prev, next, 7);
    assert.ok(d, trigger);
    const n = transcript.messages.length;
    assert.ok(d.patch.rows.length > 0 && d.patch.rows.length < n / 4, `${d.patch.rows.length} of ${n} rows`);
    assert.equal(d.patch.base, 7);
    assert.deepEqual(applyPatch(prev, d.analysis, d.patch), next, trigger);
    // Large fields that did not change stay behind.
    for (const k of ['why', 'vsNone'] as const)
      if (next[k] !== undefined && JSON.stringify(next[k]) === JSON.stringify(prev[k]))
        assert.equal(d.analysis[k], undefined, `${trigger}: ${k}`);
    // Decoded from the patch, the view is the one decoded whole, and unchanged rows are the same objects.
    const before = decodeAnalysis(prev, roles);
    const after = decodePatched(next, d.patch, before, roles);
    assert.deepEqual(after, decodeAnalysis(next, roles));
    const untouched = transcript.messages.findIndex((_, i) => !d.patch.rows.includes(i));
    assert.equal(after.messages[untouched], before.messages[untouched]);
    // And it passes the webview's check on arrival.
    const message = { type: 'analysis', seq: 2, id: 8, policy: at(4), elapsedMs: 1, ...d };
    assert.ok(parseHostMessage(JSON.parse(JSON.stringify(message))).ok);
  }
});

test('a step re-sends the requests from the first one it changed, not the ones before', () => {
  const prev = wireFor(keep(3));
  const next = wireFor(keep(4));
  const d = diffAnalysis(prev, next, 1);
  assert.ok(d);
  assert.ok(d.patch.requestsFrom > 0, 'the earlier requests are not re-sent');
  const row = (w: typeof prev, i: number) => JSON.stringify(Object.values(w.requests).map((c) => c[i]));
  assert.notEqual(row(prev, d.patch.requestsFrom), row(next, d.patch.requestsFrom));
  assert.equal(row(prev, d.patch.requestsFrom - 1), row(next, d.patch.requestsFrom - 1));
});

test('a patch that does not fit the analysis held is refused, not applied', () => {
  const prev = wireFor(keep(3));
  const next = wireFor(keep(5));
  const d = diffAnalysis(prev, next, 1);
  assert.ok(d);
  assert.equal(applyPatch(prev, d.analysis, { ...d.patch, messageCount: d.patch.messageCount + 1 }), null);
  assert.equal(
    applyPatch(prev, d.analysis, { ...d.patch, rows: [...d.patch.rows].reverse() }),
    d.patch.rows.length > 1 ? null : applyPatch(prev, d.analysis, d.patch),
  );
  assert.equal(applyPatch(prev, d.analysis, { ...d.patch, requestsFrom: d.patch.requestsFrom + 1 }), null);
});

test("a keepRecent step sends the results' first touch as its change in runs, and the patch gives it back", () => {
  const big = parseTranscript(
    new TextEncoder().encode(generateClaudeCodeSession(2_000_000, 5)),
    'generated.jsonl',
  );
  const policy = defaultsFor(big);
  const at = (k: number) => ({ ...policy, tiered: { ...policy.tiered, keepRecent: k } });
  const prev = encodeAnalysis(analyzeSync(big, at(8)).analysis);
  const next = encodeAnalysis(analyzeSync(big, at(9)).analysis);
  const firstTouch = next.why?.firstTouch ?? [];
  assert.ok(firstTouch.length > 300, `${firstTouch.length}`);
  assert.notDeepEqual(prev.why?.firstTouch, firstTouch, 'the step moved the first touches');
  const d = diffAnalysis(prev, next, 3);
  assert.ok(d?.patch.firstTouchRuns);
  assert.deepEqual(d.analysis.why?.firstTouch, []);
  assert.ok(
    JSON.stringify(d.patch.firstTouchRuns).length * 4 < JSON.stringify(firstTouch).length,
    `${JSON.stringify(d.patch.firstTouchRuns).length} against ${JSON.stringify(firstTouch).length} characters`,
  );
  assert.deepEqual(applyPatch(prev, d.analysis, d.patch), next);
  const message = { type: 'analysis', seq: 2, id: 4, policy: at(9), elapsedMs: 1, ...d };
  assert.ok(parseHostMessage(JSON.parse(JSON.stringify(message))).ok);
  // Runs that do not add up to the analysis held are refused.
  const runs = d.patch.firstTouchRuns;
  for (const bad of [runs.slice(0, -1), [0, 3 * d.patch.messageCount + 1], [0.5, 1], [1, 0]])
    assert.equal(applyPatch(prev, d.analysis, { ...d.patch, firstTouchRuns: bad }), null);
});

test("the live zone's facts cross as integers and come back as they were; a code out of range is refused", () => {
  const live = { ...base, name: 'live-zone' } as Policy;
  const analysis = analyzeSync(transcript, live).analysis;
  assert.ok(analysis.why && analysis.why.liveZone.length > 0, 'the fixture has live-zone facts');
  const wire = encodeAnalysis(analysis);
  assert.ok(wire.why?.liveZone.every((x) => Number.isInteger(x)));
  assert.deepEqual(decodeAnalysis(wire, roles).why, analysis.why);
  const message = (why: unknown) =>
    JSON.parse(
      JSON.stringify({
        type: 'analysis',
        seq: 1,
        id: 1,
        policy: live,
        elapsedMs: 1,
        analysis: { ...wire, why },
      }),
    );
  assert.ok(parseHostMessage(message(wire.why)).ok);
  const badOutcome = [...(wire.why?.liveZone ?? [])];
  badOutcome[5] = 9;
  assert.equal(parseHostMessage(message({ ...wire.why, liveZone: badOutcome })).ok, false);
  assert.equal(parseHostMessage(message({ ...wire.why, liveZone: badOutcome.slice(1) })).ok, false);
});

test('a policy switch leaves the columns whose patched rows did not change empty, and the patch gives the whole back', () => {
  const prev = wireFor(base);
  const next = wireFor({ ...base, name: 'live-zone' } as Policy);
  const d = diffAnalysis(prev, next, 3);
  assert.ok(d && d.patch.rows.length > 0, 'a patch with rows');
  const same = d.patch.sameColumns ?? [];
  assert.ok(same.includes('tokensBefore'), `left empty: ${same.join(', ')}`);
  for (const k of same)
    assert.equal((d.analysis.messages as unknown as Record<string, unknown[]>)[k].length, 0, k);
  assert.deepEqual(applyPatch(prev, d.analysis, d.patch), next);
  const before = decodeAnalysis(prev, roles);
  assert.deepEqual(decodePatched(next, d.patch, before, roles), decodeAnalysis(next, roles));
  const message = { type: 'analysis', seq: 2, id: 4, policy: next.policyName, elapsedMs: 1, ...d };
  assert.ok(parseHostMessage(JSON.parse(JSON.stringify({ ...message, policy: base }))).ok);
  // An empty column the patch does not name, or in a whole analysis: refused on arrival.
  const unnamed = { ...message, policy: base, patch: { ...d.patch, sameColumns: same.slice(1) } };
  assert.equal(parseHostMessage(JSON.parse(JSON.stringify(unnamed))).ok, false);
  const whole = { type: 'analysis', seq: 2, id: 5, policy: base, elapsedMs: 1, analysis: d.analysis };
  assert.equal(parseHostMessage(JSON.parse(JSON.stringify(whole))).ok, false);
  // A column said to be the base's but sent with values, or one the base does not have: refused.
  const filled = { ...d.analysis, messages: { ...d.analysis.messages, tokensBefore: [1] } };
  assert.equal(applyPatch(prev, filled as AnalysisWire, d.patch), null);
  assert.equal(applyPatch(prev, d.analysis, { ...d.patch, sameColumns: [...same, 'nothing'] }), null);
});
