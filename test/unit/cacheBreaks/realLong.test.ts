// The cache breaks of the shared real sessions (read in place): the causes the issue names, and the costs of the
// breaks by cause adding up to what the session paid beyond reading every token its previous request had cached.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import type { Analysis } from '../../../src/core/analysisTypes';
import { BREAK_CAUSES, type CacheBreakReport, loggedBreaks } from '../../../src/core/cacheBreaks';
import { recordedPrices } from '../../../src/core/cacheBreaks/breakCost';
import { requestSpans } from '../../../src/core/engine/requests';
import { parseTranscript } from '../../../src/core/formats';
import type { RecordedUsage, Transcript } from '../../../src/core/model';
import { replyCost } from '../../../src/core/recordedUsage';
import { REAL_LONG_DIR } from '../../sharedFixtures';
import { policyNamed, TimedSession } from './session';

const DIR = join(REAL_LONG_DIR, 'claude-code');
const HANNIBAL = 'hannibal-719f12f0-opus-4-8-to-opus-5-v2.1.220.jsonl';
const SIX_COMPACTIONS = 'laf-us-05541cb5-six-compactions-v2.1.92.jsonl';
const MICROCOMPACTIONS = 'aistrad-560343df-two-microcompactions-v2.1.19.jsonl';

interface Run {
  t: Transcript;
  analysis: Analysis;
  report: CacheBreakReport;
}

const runs = new Map<string, Run>();
function run(name: string): Run {
  let r = runs.get(name);
  if (!r) {
    const file = join(DIR, name);
    const t = parseTranscript(new Uint8Array(readFileSync(file)), file);
    const analysis = analyzeSync(t, policyNamed('none')).analysis;
    r = { t, analysis, report: loggedBreaks(t, analysis, 'main') };
    runs.set(name, r);
  }
  return r;
}

const present = (name: string) => existsSync(join(DIR, name));

/** Had it read every token the previous request left in the cache: from the writes (the request's own lifetime
 * first), then the input. Written apart from the module, from the usage alone. */
function readingAll(u: RecordedUsage, left: number): RecordedUsage {
  const prompt = u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens;
  const more = Math.max(0, Math.min(left, prompt) - u.cacheReadInputTokens);
  const oneHour = u.cacheCreation1hInputTokens ?? 0;
  const buckets =
    oneHour * 2 > u.cacheCreationInputTokens
      ? { first: oneHour, second: u.cacheCreationInputTokens - oneHour }
      : { first: u.cacheCreationInputTokens - oneHour, second: oneHour };
  const a = Math.min(more, buckets.first);
  const b = Math.min(more - a, buckets.second);
  const c = more - a - b;
  const from1h = oneHour * 2 > u.cacheCreationInputTokens ? a : b;
  return {
    ...u,
    inputTokens: u.inputTokens - c,
    cacheReadInputTokens: u.cacheReadInputTokens + more,
    cacheCreationInputTokens: u.cacheCreationInputTokens - a - b,
    cacheCreation1hInputTokens: oneHour - from1h,
  };
}

/** The recorded cost of the requests, less their cost with every token the previous request had cached read. */
function costBeyondReadingAll(t: Transcript, analysis: Analysis): number {
  let recorded = 0;
  let ideal = 0;
  let prev: RecordedUsage | undefined;
  for (const r of analysis.requests) {
    const usage = r.pending ? undefined : t.messages[r.messageCount].usage;
    if (!usage) {
      prev = undefined;
      continue;
    }
    const prices = recordedPrices(t, t.messages[r.messageCount].model, r.timestamp);
    assert.ok(prices && prices.cache === 'anthropic');
    const reply = (u: RecordedUsage) =>
      replyCost(prices, { thread: 'main', onBranch: true, usage: u, line: 0 });
    recorded += reply(usage);
    ideal += reply(
      prev ? readingAll(usage, prev.cacheReadInputTokens + prev.cacheCreationInputTokens) : usage,
    );
    prev = usage;
  }
  return recorded - ideal;
}

function assertAddsUp(run: Run) {
  const byCause = run.report.totals.reduce((sum, x) => sum + x.cost, 0);
  const beyond = costBeyondReadingAll(run.t, run.analysis);
  assert.ok(beyond > 0);
  assert.ok(Math.abs(byCause - beyond) < 0.005, `breaks by cause $${byCause} against $${beyond}`);
}

describe('cache breaks of the shared real sessions', {
  skip: !present(HANNIBAL) && 'no shared fixtures',
}, () => {
  it(`${HANNIBAL}: an expiry after about 15 hours, then the switch from Opus 4.8 to Opus 5`, () => {
    const { report } = run(HANNIBAL);
    // The issue's 71 and 124 are the requests' indices; the view and the CLI number them from 1.
    const expiry = report.breaks.find((b) => b.index === 71);
    assert.equal(expiry?.request, 72);
    assert.equal(expiry?.cause, 'ttl-expired');
    assert.ok(expiry.evidence.cause === 'ttl-expired');
    assert.equal(expiry.evidence.ttl, '1h');
    const hours = expiry.evidence.idleMs / 3_600_000;
    assert.ok(hours > 14.5 && hours < 15.5, `${hours} h`);
    assert.match(expiry.words, /^idle 15 h \d+ min > 1 h$/);
    const swap = report.breaks.find((b) => b.index === 124);
    assert.equal(swap?.request, 125);
    assert.deepEqual(swap.evidence, { cause: 'model-switch', from: 'claude-opus-4-8', to: 'claude-opus-5' });
  });

  it(`${SIX_COMPACTIONS}: every compaction is a compaction break`, () => {
    const { t, analysis, report } = run(SIX_COMPACTIONS);
    const { starts, segmentStarts } = requestSpans(t.messages, t.markers);
    assert.equal(segmentStarts.length, 6);
    for (const start of segmentStarts) {
      const after = analysis.requests.find((r) => starts[r.index] === start);
      const found = report.breaks.find((b) => b.index === after?.index);
      assert.equal(found?.cause, 'compaction', `the request after the compaction at message ${start}`);
      assert.ok(found.evidence.cause === 'compaction' && found.evidence.kind === 'auto');
    }
  });

  it(`${MICROCOMPACTIONS}: the microcompactions are compaction (micro) breaks`, () => {
    const { t, analysis, report } = run(MICROCOMPACTIONS);
    const boundaries = t.markers.filter((m) => m.label === 'system:microcompact_boundary');
    assert.equal(boundaries.length, 2);
    for (const m of boundaries) {
      const after = analysis.requests.find((r) => !r.pending && r.messageCount >= m.beforeMessage);
      const found = report.breaks.find((b) => b.index === after?.index);
      assert.equal(found?.cause, 'compaction');
      assert.ok(found.evidence.cause === 'compaction' && found.evidence.kind === 'micro');
      assert.ok((found.evidence.cleared?.length ?? 0) > 0);
    }
  });

  it('lists every break the replay sees in the log, each with a cause of the closed list and words', () => {
    for (const name of [HANNIBAL, SIX_COMPACTIONS, MICROCOMPACTIONS]) {
      const { analysis, report } = run(name);
      const listed = new Set(report.breaks.map((b) => b.index));
      for (const r of analysis.requests)
        if (r.recordedCacheBreak) assert.ok(listed.has(r.index), `${name}: request ${r.index + 1}`);
      for (const b of report.breaks) {
        assert.ok(BREAK_CAUSES.includes(b.cause));
        assert.equal(b.evidence.cause, b.cause);
        assert.ok(b.words.length > 0 && b.tokens > 0 && b.cost > 0);
      }
    }
  });

  it('the costs of the breaks by cause add up to the recorded cost beyond reading every cached token', () => {
    for (const name of [HANNIBAL, SIX_COMPACTIONS, MICROCOMPACTIONS]) assertAddsUp(run(name));
  });
});

describe('the costs of the breaks add up', () => {
  it('on a hand-made log of several causes, to the cent', () => {
    const s = new TimedSession();
    s.user('q1');
    s.reply({ read: 0, written: 50_000, oneHour: 50_000 });
    s.user('q2');
    s.reply({ read: 50_000, written: 3000, oneHour: 3000 });
    s.user('q3');
    s.wait(3 * 3_600_000);
    s.reply({ read: 0, written: 53_500, oneHour: 53_500 });
    s.user('q4');
    s.reply({ read: 20_000, written: 34_000, oneHour: 4000 }, 'claude-opus-4-5');
    s.user('q5');
    s.reply({ read: 30_000, written: 25_000, input: 900 }, 'claude-opus-4-5');
    const t = s.transcript();
    const analysis = analyzeSync(t, policyNamed('none')).analysis;
    const report = loggedBreaks(t, analysis, 'main');
    assert.deepEqual(
      report.breaks.map((b) => b.cause),
      ['ttl-expired', 'model-switch', 'provider-miss'],
    );
    assertAddsUp({ t, analysis, report });
  });
});
