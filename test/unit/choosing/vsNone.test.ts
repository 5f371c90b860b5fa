// SPEC §5: replay.trigger auto, and a policy's cost beside "none" over the same requests, with the payback of one
// pass now. Real sessions from the fixtures, the real tokenizer and the price table.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { defaultPolicyFor, type Policy, resolveTrigger } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import { compareWithNone, nonePolicy, oncePolicy, paybackOf, vsNoneSync } from '../../../src/core/vsNone';
import { costWords } from '../../../src/vsNoneWords';
import { cliArgs } from '../cliProcess';

const SESSION = 'test/fixtures/real/claude-code/drmaciver-coverage-test-fix.jsonl';
const BODY = 'samples/anthropic/pydantic-ai-cassette-text-editor-toolset.request.json';
const load = (path: string) => parseTranscript(readFileSync(path), path);

test('replay.trigger auto: every request of a session, one pass for a single request body', () => {
  const session = load(SESSION);
  const policy = defaultPolicyFor(session.format);
  assert.equal(policy.replay.trigger, 'auto');
  assert.equal(analyzeSync(session, policy).analysis.trigger, 'everyRequest');
  const body = load(BODY);
  assert.equal(analyzeSync(body, defaultPolicyFor(body.format)).analysis.trigger, 'once');
  // A session without a reply has no sent request to replay; an explicit trigger is kept as it is.
  assert.equal(resolveTrigger('auto', 'claude-code', 0), 'once');
  assert.equal(resolveTrigger('auto', 'codex', 3), 'everyRequest');
  assert.equal(resolveTrigger('pressure', 'claude-code', 3), 'pressure');
  // auto gives exactly what everyRequest gives.
  const every: Policy = { ...policy, replay: { ...policy.replay, trigger: 'everyRequest' } };
  assert.deepEqual(analyzeSync(session, policy).analysis.totals, analyzeSync(session, every).analysis.totals);
});

test('vsNone: the totals beside none over the same requests, and none run once is none run every request', () => {
  const session = load(SESSION);
  const policy = defaultPolicyFor(session.format);
  const tiered = analyzeSync(session, policy).analysis;
  const noneEvery = analyzeSync(session, { ...policy, name: 'none' }).analysis;
  const none = analyzeSync(session, nonePolicy(policy)).analysis;
  assert.deepEqual(none.totals, noneEvery.totals);
  const v = vsNoneSync(session, policy, tiered)!;
  assert.equal(v.requests, 14);
  assert.equal(v.noneCost, none.totals.cost);
  assert.equal(v.deltaCost, tiered.totals.cost - none.totals.cost);
  assert.equal(v.tokensSaved, none.totals.promptTokens - tiered.totals.promptTokens);
  assert.equal(v.extraWritten, tiered.totals.writtenTokens - none.totals.writtenTokens);
  // On this session the tiers rewrite results the cache held: the writes cost more than the tokens save.
  assert.ok(v.tokensSaved > 0 && v.extraWritten > 0 && v.deltaCost > 0, JSON.stringify(v));
  assert.ok(Math.abs(v.deltaShare - v.deltaCost / v.noneCost) < 1e-12);
  assert.equal(vsNoneSync(session, { ...policy, name: 'none' }, none), undefined);
});

test('compacted now: the next request writes more, each later one reads less, and the payback is their ratio', () => {
  const session = load(SESSION);
  const policy = defaultPolicyFor(session.format);
  const now = analyzeSync(session, oncePolicy(policy)).analysis;
  const none = analyzeSync(session, nonePolicy(policy)).analysis;
  const p = paybackOf(now.requests, none.requests)!;
  const next = now.requests.at(-1)!;
  const noneNext = none.requests.at(-1)!;
  assert.ok(next.pending && noneNext.pending);
  assert.equal(p.extraWrittenTokens, next.writtenTokens - noneNext.writtenTokens);
  assert.equal(p.savedTokensPerRequest, noneNext.promptTokens - next.promptTokens);
  assert.ok(p.extraWrittenTokens > 0 && p.savedTokensPerRequest > 0 && p.extraCost > 0);
  // The session's replies are claude-opus-4-5, which reads from cache at $0.50 per million tokens.
  assert.equal(next.model, 'claude-opus-4-5');
  assert.ok(Math.abs(p.savedCostPerRequest - (p.savedTokensPerRequest * 0.5) / 1e6) < 1e-12);
  const k = p.paybackRequests!;
  assert.ok(k * p.savedCostPerRequest >= p.extraCost && (k - 1) * p.savedCostPerRequest < p.extraCost);
  // A policy whose analysis ran once carries its own payback.
  const v = compareWithNone(now, none, 'as-logged', now);
  assert.deepEqual(v.compactedNow, p);
});

test('a pass that saves nothing never pays back; one that costs nothing pays back at once', () => {
  const r = (pending: boolean, prompt: number, written: number, cost: number) => ({
    index: 0,
    messageCount: 1,
    promptTokens: prompt,
    cachedTokens: prompt - written,
    writtenTokens: written,
    boundaryMessage: null,
    boundaryEvents: [],
    cost,
    pending,
    model: 'claude-sonnet-4-5',
  });
  assert.equal(paybackOf([r(true, 100, 50, 0.2)], [r(true, 100, 10, 0.1)])?.paybackRequests, null);
  assert.equal(paybackOf([r(true, 90, 10, 0.1)], [r(true, 100, 10, 0.1)])?.paybackRequests, 0);
  assert.equal(paybackOf([r(false, 90, 10, 0.1)], [r(true, 100, 10, 0.1)]), null);
});

test('simulate and compact --report print and carry the same figures', () => {
  const run = (...args: string[]) => spawnSync(process.execPath, [...cliArgs, ...args], { encoding: 'utf8' });
  const session = load(SESSION);
  const v = vsNoneSync(
    session,
    defaultPolicyFor(session.format),
    analyzeSync(session, defaultPolicyFor(session.format)).analysis,
  )!;
  const sim = run('simulate', SESSION, '--policy', 'none', '--policy', 'tiered');
  assert.equal(sim.status, 0, sim.stderr);
  assert.match(sim.stdout, /trigger auto \(everyRequest\)/);
  const line = sim.stdout
    .split('\n')
    .find((l) => l.trimStart().startsWith('tiered') && l.includes('against'));
  assert.ok(line, sim.stdout);
  assert.ok(line.includes(costWords(v)), line);
  assert.ok(
    line.includes(`$${v.cost.toFixed(4)} against $${v.noneCost.toFixed(4)} (+$${v.deltaCost.toFixed(4)})`),
    line,
  );
  assert.match(sim.stdout, new RegExp(`it pays back after ${v.compactedNow!.paybackRequests} requests`));
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-vsnone-'));
  const report = join(dir, 'report.json');
  const compact = run('compact', SESSION, '--out', join(dir, 'out.jsonl'), '--report', report);
  assert.equal(compact.status, 0, compact.stderr);
  assert.deepEqual(JSON.parse(readFileSync(report, 'utf8')).vsNone, JSON.parse(JSON.stringify(v)));
  assert.ok(compact.stdout.includes(`+$${v.deltaCost.toFixed(4)}`), compact.stdout);
});
