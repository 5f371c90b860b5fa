// "Recommend a Strategy": the worker the editor runs it in answers with the words `context-lens recommend` prints,
// for the policy the user's settings make for the file's format; the document escapes the file's name.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { defaultPolicyFor } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import { recommend, recommendationLines } from '../../../src/core/recommend';
import { recommendationDocument } from '../../../src/host/recommendText';
import type { RecommendReply } from '../../../src/host/recommendWorker';
import { REAL_FIXTURES } from '../../sharedFixtures';
import { bundledWorker as bundleWorker } from '../bundledWorker';

const FIXTURE = join(REAL_FIXTURES, 'claude-code', 'drmaciver-coverage-test-fix.jsonl');

const bundledWorker = () => bundleWorker('recommendWorker', 'src/host/recommendWorker.ts');

function run(script: string, workerData: unknown): Promise<RecommendReply> {
  return new Promise((resolve, reject) => {
    const w = new Worker(script, { workerData });
    w.once('message', (m: RecommendReply) => {
      void w.terminate();
      resolve(m);
    });
    w.once('error', reject);
  });
}

test('the worker answers with the words recommend prints, for the settings the user set', async () => {
  const script = await bundledWorker();
  const bytes = new Uint8Array(readFileSync(FIXTURE));
  const explicit = { 'contextEditing.trigger': 20_000 };
  const reply = await run(script, { bytes, fileName: FIXTURE, policy: { explicit } });
  assert.ok(reply.ok, reply.ok ? '' : reply.error);
  const transcript = parseTranscript(bytes, FIXTURE);
  const policy = defaultPolicyFor(transcript.format);
  policy.contextEditing.trigger = 20_000;
  const expected = recommendationLines(
    recommend(transcript, policy, undefined, defaultPolicyFor(transcript.format)),
    transcript,
    { fence: true },
  );
  assert.deepEqual(reply.lines, expected);
  assert.ok(reply.lines.some((l) => l.startsWith('Cheapest settings of each policy')));
  const bad = await run(script, {
    bytes: new TextEncoder().encode('not a transcript'),
    fileName: 'x.json',
    policy: { explicit: {} },
  });
  assert.equal(bad.ok, false);
});

test('the document escapes the file name (a link in it cannot run a command)', () => {
  const text = recommendationDocument('/tmp/[x](command:workbench.action.quit).jsonl', {
    ok: true,
    lines: ['Recommended: none'],
    requests: 3,
    best: null,
  });
  assert.doesNotMatch(text, /\[x\]\(command:/);
  assert.match(text, /^# Context Lens: which strategy costs least on /);
  assert.match(text, /over the 3 requests of the main conversation/);
});
