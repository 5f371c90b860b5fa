// Folding sessions into rows: sums per key, shares recomputed from the sums, the best policy named.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clonePolicy, DEFAULT_POLICY, POLICY_NAMES } from '../../../src/core/engine/policy';
import {
  bestPolicy,
  foldRows,
  reportPolicies,
  type SessionFigures,
  sessionFigures,
} from '../../../src/core/history';
import { toolLoop } from '../transcripts';

function session(
  project: string,
  day: string,
  recorded: number | null,
  none: number,
  tiered: number,
): SessionFigures {
  const f = (cost: number) => ({ promptTokens: 0, cachedTokens: 0, writtenTokens: 0, cost, events: 0 });
  return {
    path: `${project}/${day}/${none}`,
    format: 'claude-code',
    project,
    firstPrompt: '',
    start: `${day}T10:00:00.000Z`,
    end: `${day}T11:00:00.000Z`,
    day,
    bytes: 100,
    messages: 4,
    requests: 2,
    model: 'claude-sonnet-4',
    recordedCost: recorded,
    recordedReplies: recorded === null ? 0 : 2,
    policies: {
      none: f(none),
      tiered: {
        ...f(tiered),
        deltaCost: tiered - none,
        deltaShare: (tiered - none) / none,
        tokensSaved: 10,
        extraWritten: 5,
      },
    },
  };
}

test('every policy the engine knows, none first', () => {
  assert.deepEqual(reportPolicies(), ['none', ...POLICY_NAMES.filter((n) => n !== 'none')]);
  assert.deepEqual(reportPolicies(['tiered']), ['none', 'tiered']);
});

test('rows sum their sessions; the share is the summed difference over the summed none', () => {
  const sessions = [
    session('a', '2026-01-01', 10, 8, 6),
    session('a', '2026-01-02', 4, 4, 5),
    session('b', '2026-01-02', null, 2, 1),
  ];
  const byProject = foldRows(sessions, (s) => s.project, ['none', 'tiered']);
  const a = byProject.find((r) => r.key === 'a')!;
  assert.equal(a.sessions, 2);
  assert.equal(a.recordedCost, 14);
  assert.equal(a.policies.tiered?.deltaCost, -1);
  assert.equal(a.policies.tiered?.deltaShare, -1 / 12);
  assert.equal(a.policies.tiered?.projected, 13, 'recorded plus the difference');
  const total = foldRows(sessions, () => 'total', ['none', 'tiered'])[0];
  assert.equal(total.unrecorded, 1);
  // The unrecorded session counts its simulated none as what it cost.
  assert.equal(total.policies.tiered?.projected, 14 - 1 + 2 - 1);
  assert.equal(bestPolicy(total), 'tiered');
  assert.equal(bestPolicy(foldRows([sessions[1]], () => 't', ['none', 'tiered'])[0]), null);
});

test("a session's figures name the baseline each difference is against", () => {
  for (const baseline of ['as-logged', 'none'] as const) {
    const policies = (['none', 'tiered'] as const).map((name) => {
      const p = clonePolicy(DEFAULT_POLICY);
      p.name = name;
      p.model = 'claude-sonnet-4';
      p.replay.baseline = baseline;
      return p;
    });
    const row = sessionFigures(toolLoop(4), policies, {
      path: '/p/s.jsonl',
      project: '/p',
      firstPrompt: '',
      bytes: 1,
      modified: new Date('2026-01-01T00:00:00Z'),
    });
    assert.equal(row.baseline, baseline);
    assert.equal(typeof row.policies.tiered?.deltaCost, 'number');
  }
});
