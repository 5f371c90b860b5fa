// "Recommend a Strategy": the worker the editor runs it in answers with the words `context-lens recommend` prints,
// for the policy the user's settings make for the file's format; the document escapes the file's name.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';
import { clonePolicy, DEFAULT_POLICY, defaultPolicyFor } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import { markdownText } from '../../../src/core/markdown';
import { type Recommendation, recommend, recommendationLines } from '../../../src/core/recommend';
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

/** Raw HTML or Markdown syntax a preview would act on: a `<` or a `[`/`]`, `*`, `_`, backtick, `&` or `!` no backslash
 * guards. */
const ACTIVE_MARKDOWN = /(^|[^\\])[<>[\]*_`&!]/;

test('the document keeps no raw HTML or Markdown from the file name', () => {
  for (const name of [
    '<img src=x onerror=alert(1)>.jsonl',
    'x<!--.jsonl',
    '*bold* _it_ `code` &amp; ![i](x).jsonl',
    '<style>body{display:none}.jsonl',
  ]) {
    const text = recommendationDocument(`/tmp/${name}`, { ok: true, lines: [], requests: 3, best: null });
    const title = text.split('\n')[0];
    assert.doesNotMatch(title.replace(/^# /, ''), ACTIVE_MARKDOWN, title);
    // What the escapes stand for is the name itself.
    assert.equal(
      title.replace(/^# Context Lens: which strategy costs least on /, '').replace(/\\(.)/g, '$1'),
      name,
    );
  }
  const long = recommendationDocument(`/tmp/${'a'.repeat(5000)}\n# injected.jsonl`, {
    ok: true,
    lines: [],
    requests: 1,
    best: null,
  });
  assert.doesNotMatch(long, /\n# injected/);
});

test('the Markdown helper: punctuation escaped, controls shown, one line, a list or heading mark at its start escaped', () => {
  assert.equal(markdownText('a<b>[c](d)'), 'a\\<b\\>\\[c\\]\\(d\\)');
  assert.equal(markdownText('- item'), '\\- item');
  assert.equal(markdownText('1. one'), '1\\. one');
  assert.equal(markdownText('x\u001b[2J\ny'), 'x\\u001b\\[2J y');
  assert.equal(markdownText('plain name.jsonl'), 'plain name.jsonl');
  assert.equal(markdownText('a'.repeat(400)).length, 300);
});

test("the recommendation's settings outside the code blocks are escaped in the document, not in the terminal", () => {
  const policy = clonePolicy(DEFAULT_POLICY);
  policy.name = 'tiered';
  policy.tiered.floorTools = ['<img src=x onerror=alert(1)>'];
  const best = {
    policy,
    settings: { 'contextLens.policy': 'tiered', 'contextLens.tiered.floorTools': policy.tiered.floorTools },
    totals: { cost: 1 },
    deltaCost: -1,
    deltaShare: -0.5,
  } as unknown as Recommendation['best'];
  const r = {
    requests: 3,
    noneCost: 2,
    contextWindow: 200_000,
    ranked: [best],
    bestPerPolicy: [best],
    best,
  } as Recommendation;
  const transcript = parseTranscript(new Uint8Array(readFileSync(FIXTURE)), FIXTURE);
  const markdown = recommendationLines(r, transcript, { fence: true });
  const line = markdown.find((l) => l.startsWith('Recommended:')) ?? '';
  assert.doesNotMatch(line, ACTIVE_MARKDOWN, line);
  assert.match(line, /\\<img src=x onerror=alert\\\(1\\\)\\>/);
  const plain = recommendationLines(r, transcript).find((l) => l.startsWith('Recommended:')) ?? '';
  assert.match(plain, /<img src=x onerror=alert\(1\)>/);
});
