import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../../src/core/analysis';
import type { Analysis } from '../../../src/core/analysisTypes';
import { parseTranscript } from '../../../src/core/formats';
import { defaultsFor } from '../../../src/host/policySettings';
import { TranscriptSession } from '../../../src/host/session';
import { REAL_FIXTURES } from '../../sharedFixtures';
import { FakeClock } from '../fakeClock';

const fixture = readFileSync(join(REAL_FIXTURES, 'claude-code', 'drmaciver-coverage-test-fix.jsonl'));

/** A session of the fixture whose errors are collected, on a clock nobody moves (no run ahead starts). */
function session() {
  const errors: unknown[] = [];
  const s = new TranscriptSession(
    'coverage-test-fix.jsonl',
    { parse: parseTranscript, analyze: (t, p) => analyze(t, p) },
    () => {},
    (e) => errors.push(e),
    undefined,
    undefined,
    { clock: new FakeClock() },
  );
  return { s, errors };
}

test('the session announces each analysis it shows, and none once another transcript is adopted', async () => {
  const { s, errors } = session();
  const heard: (Analysis | null)[] = [];
  const listening = s.onDidChangeAnalysis((a) => heard.push(a));
  s.load(fixture);
  assert.deepEqual(heard, [], 'no analysis yet: nothing changed');
  const base = defaultsFor(s.model);
  await s.request(base, 'none', 1);
  assert.equal(heard.length, 1);
  assert.equal(heard[0], s.analysis);
  await s.request({ ...base, tiered: { ...base.tiered, keepRecent: base.tiered.keepRecent + 1 } }, 'none', 2);
  assert.equal(heard.length, 2);
  assert.notEqual(heard[1], heard[0]);
  assert.equal(heard[1], s.analysis);
  // The file read again: its analysis is to come, and what was shown is no longer the file's.
  s.load(fixture);
  assert.deepEqual(heard.slice(2), [null]);
  listening.dispose();
  await s.request(base, 'none', 3);
  assert.equal(heard.length, 3, 'a listener let go of hears nothing more');
  assert.deepEqual(errors, []);
  s.dispose();
});

test('a listener that throws is reported as the session error; the others still hear, and the session goes on', async () => {
  const { s, errors } = session();
  let heard = 0;
  s.onDidChangeAnalysis(() => {
    throw new Error('listener failed');
  });
  s.onDidChangeAnalysis(() => heard++);
  s.load(fixture);
  await s.request(defaultsFor(s.model), 'none', 1);
  assert.equal(heard, 1);
  assert.ok(s.analysis);
  assert.deepEqual(
    errors.map((e) => (e as Error).message),
    ['listener failed'],
  );
  s.dispose();
});

test('the session says whether it shows the whole file (what the status bar and the Problems panel may take for its text)', async () => {
  const { s } = session();
  assert.equal(s.showsWholeFile, false, 'nothing parsed yet');
  const cut = fixture.lastIndexOf(0x0a, Math.floor(fixture.length / 2)) + 1;
  await s.loadAsync(fixture.subarray(0, cut), 0, fixture.length);
  assert.equal(s.showsWholeFile, false, 'its beginning only');
  await s.loadAsync(fixture, cut);
  assert.equal(s.showsWholeFile, true);
});
