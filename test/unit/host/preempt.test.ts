// A change the user makes preempts the analysis the host started (an open's first): that analysis is stopped at
// once, never sent, and the change is answered without waiting for it. Counted with gates, on a clock nobody moves.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../../src/core/analysis';
import { parseTranscript } from '../../../src/core/formats';
import { defaultsFor } from '../../../src/host/policySettings';
import { TranscriptSession } from '../../../src/host/session';
import type { HostMessage } from '../../../src/protocol';
import { REAL_FIXTURES } from '../../sharedFixtures';
import { FakeClock } from '../fakeClock';

const fixture = readFileSync(join(REAL_FIXTURES, 'claude-code', 'drmaciver-coverage-test-fix.jsonl'));

/** A session whose engine holds every analysis under keepRecent `held` until `release` (as a first analysis waits
 * for its token counts), noting each run's keepRecent and whether its signal was aborted. */
function heldSession(held: number) {
  const sent: Extract<HostMessage, { type: 'analysis' }>[] = [];
  const runs: { keepRecent: number; signal?: AbortSignal }[] = [];
  let release = () => {};
  const released = new Promise<void>((r) => {
    release = r;
  });
  const s = new TranscriptSession(
    'coverage-test-fix.jsonl',
    {
      parse: parseTranscript,
      analyze: async (t, p, _summarizer, signal) => {
        runs.push({ keepRecent: p.tiered.keepRecent, signal });
        if (p.name !== 'none' && p.tiered.keepRecent === held) await released;
        return analyze(t, p);
      },
    },
    (m) => sent.push(m),
    (e) => assert.fail(String(e)),
    undefined,
    undefined,
    { clock: new FakeClock() },
  );
  s.load(fixture);
  return { s, sent, runs, release };
}

test("a step the user makes during the open's first analysis stops it at once and is answered without it", async () => {
  const base = defaultsFor(parseTranscript(fixture, 'coverage-test-fix.jsonl'));
  const k = base.tiered.keepRecent;
  const { s, sent, runs, release } = heldSession(k);
  const first = s.request(base, 'none', 0);
  const step = s.request({ ...base, tiered: { ...base.tiered, keepRecent: k + 1 } }, 'none', 1);
  assert.equal(runs[0].signal?.aborted, true, 'the step stops the first analysis as it arrives');
  await Promise.all([first, step]);
  // The first analysis is still held: the step's answer did not wait for it.
  assert.deepEqual(
    sent.map((m) => [m.seq, m.policy.tiered.keepRecent]),
    [[1, k + 1]],
  );
  assert.equal(runs[0].keepRecent, k);
  release();
  await s.settled();
  assert.equal(sent.length, 1, 'the preempted analysis is never sent');
  s.dispose();
});

test('a change to the settings the host is analysing already does not stop it: its result answers the change', async () => {
  const base = defaultsFor(parseTranscript(fixture, 'coverage-test-fix.jsonl'));
  const { s, sent, runs, release } = heldSession(base.tiered.keepRecent);
  const first = s.request(base, 'none', 0);
  const same = s.request(base, 'none', 1);
  release();
  await Promise.all([first, same]);
  assert.equal(runs[0].signal?.aborted, false);
  assert.deepEqual(
    sent.map((m) => m.seq),
    [0, 1],
  );
  assert.equal(
    runs.filter((r) => r.keepRecent === base.tiered.keepRecent).length,
    2,
    'its run and its baseline, once',
  );
  s.dispose();
});

test("a change never stops another change's analysis: changes are coalesced, not preempted", async () => {
  const base = defaultsFor(parseTranscript(fixture, 'coverage-test-fix.jsonl'));
  const k = base.tiered.keepRecent;
  const { s, sent, runs, release } = heldSession(k);
  const first = s.request(base, 'none', 1);
  const next = s.request({ ...base, tiered: { ...base.tiered, keepRecent: k + 1 } }, 'none', 2);
  release();
  await Promise.all([first, next]);
  assert.equal(runs[0].signal?.aborted, false);
  assert.deepEqual(
    sent.map((m) => m.seq),
    [1, 2],
  );
  s.dispose();
});
