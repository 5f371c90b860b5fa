// Summaries under a budget, with a scripted summarizer: the per-pass cap counts attempts (failures included),
// a failure falls back to head-and-tail, and the caches (the engine's per session, the store on disk) make sure
// that a slider move or a new session never asks the model twice.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../../src/core/analysis';
import { DEFAULT_POLICY, type Policy } from '../../../src/core/engine/policy';
import { type Summarizer, SummaryCache } from '../../../src/core/engine/summarizer';
import type { Block } from '../../../src/core/model';
import { type AskModel, SummaryStore, storedSummarizer, summaryKey } from '../../../src/host/summaryStore';
import { toolLoop } from '../transcripts';

/** 12 tool results of 3000 chars: distances 8..11 are Tier 2 under the defaults, all offered to the summarizer. */
const transcript = toolLoop(12, {
  result: (i) => `line ${i}: error at /src/file${i}.ts:${i}\n`.repeat(100).slice(0, 3000),
});

/** A scripted model: answers from a script by call number; records every call. */
function scripted(script: ('ok' | 'fail')[]): { ask: AskModel; calls: string[] } {
  const calls: string[] = [];
  const ask: AskModel = async (tool, content) => {
    const n = calls.push(content);
    if (script[n - 1] === 'fail') throw new Error(`scripted failure ${n}`);
    return `summary ${n} of ${tool}: ${content.slice(0, 20)}`;
  };
  return { ask, calls };
}

const asSummarizer = (id: string, ask: AskModel): Summarizer => ({ id, summarize: ask });

function tier2Contents(rewrites: { messageIndex: number; content: string | Block[] }[]): string[] {
  return rewrites.map((r) => (typeof r.content === 'string' ? r.content : JSON.stringify(r.content)));
}

test('the per-pass cap counts attempts: 4 Tier-2 candidates, summariesPerPass 2 → 2 calls, 2 truncations', async () => {
  const { ask, calls } = scripted(['ok', 'ok', 'ok', 'ok']);
  const r = await analyze(transcript, DEFAULT_POLICY, {
    summarizer: asSummarizer('scripted:cap', ask),
    summaryCache: new SummaryCache(),
  });
  assert.equal(calls.length, 2);
  assert.equal(r.analysis.totals.summarizerAttempts, 2);
  assert.equal(r.analysis.totals.summarizerFailures, 0);
  const contents = tier2Contents(r.rewrites);
  assert.equal(contents.filter((c) => c.startsWith('[micro-compact] summary')).length, 2);
  assert.equal(contents.filter((c) => c.includes('[... truncated 2700 chars ...]')).length, 2);
});

test('a failure spends an attempt and falls back to head-and-tail: "2 attempts, 1 failed"', async () => {
  const { ask, calls } = scripted(['fail', 'ok']);
  const r = await analyze(transcript, DEFAULT_POLICY, {
    summarizer: asSummarizer('scripted:fail', ask),
    summaryCache: new SummaryCache(),
  });
  assert.equal(calls.length, 2, 'the failed attempt counts against the cap: no third call');
  assert.equal(r.analysis.totals.summarizerAttempts, 2);
  assert.equal(r.analysis.totals.summarizerFailures, 1);
  const contents = tier2Contents(r.rewrites);
  assert.equal(contents.filter((c) => c.startsWith('[micro-compact] summary 2')).length, 1);
  assert.equal(contents.filter((c) => c.includes('[... truncated')).length, 3);
  assert.equal(
    contents.filter((c) => c.includes('scripted failure')).length,
    0,
    'an error never reaches the transcript',
  );
});

test('slider moves never ask twice: the same cache answers a second analysis and a changed threshold', async () => {
  const { ask, calls } = scripted(['ok', 'ok', 'ok', 'ok', 'ok', 'ok']);
  const summarizer = asSummarizer('scripted:cache', ask);
  const summaryCache = new SummaryCache();
  const first = await analyze(transcript, DEFAULT_POLICY, { summarizer, summaryCache });
  assert.equal(calls.length, 2);
  const again = await analyze(transcript, DEFAULT_POLICY, { summarizer, summaryCache });
  assert.equal(calls.length, 2, 'nothing new asked');
  assert.deepEqual(again.rewrites, first.rewrites);
  // maxResultChars moved: the summaries of the same contents are reused; attempts are still counted per pass.
  const moved: Policy = { ...DEFAULT_POLICY, tiered: { ...DEFAULT_POLICY.tiered, maxResultChars: 500 } };
  const third = await analyze(transcript, moved, { summarizer, summaryCache });
  assert.equal(calls.length, 2);
  assert.equal(third.analysis.totals.summarizerAttempts, 2);
  // A cached failure stays a failure (the same counts as the first time), it is not retried in the session.
  const failing = scripted(['fail', 'ok']);
  const cache2 = new SummaryCache();
  const s2 = asSummarizer('scripted:fail-cache', failing.ask);
  await analyze(transcript, DEFAULT_POLICY, { summarizer: s2, summaryCache: cache2 });
  const r2 = await analyze(transcript, DEFAULT_POLICY, { summarizer: s2, summaryCache: cache2 });
  assert.equal(failing.calls.length, 2);
  assert.equal(r2.analysis.totals.summarizerFailures, 1);
});

test('the store on disk: a new session answers from the file, failures are not kept, Clear forgets all', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'context-lens-summaries-')), 'nested', 'summaries.json');
  const model = scripted(['fail', 'ok', 'ok', 'ok', 'ok']);
  const store = new SummaryStore(file);
  const s1 = storedSummarizer(store, 'copilot/gpt-test', model.ask);
  assert.equal(s1.id, 'vscode-lm:copilot/gpt-test');
  const r1 = await analyze(transcript, DEFAULT_POLICY, { summarizer: s1, summaryCache: new SummaryCache() });
  assert.equal(model.calls.length, 2);
  assert.equal(r1.analysis.totals.summarizerFailures, 1);
  assert.equal(store.size, 1, 'only the success is stored');
  const onDisk = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(Object.keys(onDisk.entries).length, 1);

  // A new editor session: a fresh store on the same file, a fresh engine cache.
  const reopened = new SummaryStore(file);
  const s2 = storedSummarizer(reopened, 'copilot/gpt-test', model.ask);
  const r2 = await analyze(transcript, DEFAULT_POLICY, { summarizer: s2, summaryCache: new SummaryCache() });
  assert.equal(
    model.calls.length,
    3,
    'the stored summary is reused; only the earlier failure is asked again',
  );
  assert.equal(r2.analysis.totals.summarizerFailures, 0);
  assert.equal(reopened.size, 2);

  // Another model is another key.
  assert.notEqual(summaryKey('a', 'bash', 'x'), summaryKey('b', 'bash', 'x'));
  assert.notEqual(summaryKey('a', 'bash', 'x'), summaryKey('a', 'grep', 'x'));
  assert.notEqual(summaryKey('a', 'bash', 'x'), summaryKey('a', 'bash', 'y'));

  assert.equal(await reopened.clear(), 2);
  const s3 = storedSummarizer(new SummaryStore(file), 'copilot/gpt-test', model.ask);
  await analyze(transcript, DEFAULT_POLICY, { summarizer: s3, summaryCache: new SummaryCache() });
  assert.equal(model.calls.length, 5, 'after Clear, both are asked again');
});

test('a corrupt store file is reported and replaced, not trusted', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'context-lens-summaries-')), 'summaries.json');
  writeFileSync(file, '{"version": 1, "entries": ');
  const store = new SummaryStore(file);
  assert.equal(await store.get('k'), undefined);
  assert.match(store.loadProblem ?? '', /not a summary cache/);
  await store.set('k', 'm', 'a summary');
  assert.equal(JSON.parse(readFileSync(file, 'utf8')).entries.k.summary, 'a summary');
});

test('the id suffix after a Clear renews the engine cache key but not the store key', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'context-lens-summaries-')), 'summaries.json');
  const model = scripted(['ok', 'ok', 'ok', 'ok']);
  const afterClear = storedSummarizer(new SummaryStore(file), 'm', model.ask, '#1');
  assert.equal(afterClear.id, 'vscode-lm:m#1');
  await analyze(transcript, DEFAULT_POLICY, { summarizer: afterClear, summaryCache: new SummaryCache() });
  assert.equal(model.calls.length, 2);
  // The next editor session starts without a suffix: the summaries stored after the Clear are still found.
  const nextSession = storedSummarizer(new SummaryStore(file), 'm', model.ask);
  await analyze(transcript, DEFAULT_POLICY, { summarizer: nextSession, summaryCache: new SummaryCache() });
  assert.equal(model.calls.length, 2);
});
