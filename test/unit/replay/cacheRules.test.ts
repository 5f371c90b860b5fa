import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cacheAfter, cacheBoundary } from '../../../src/core/engine/cacheBoundary';
import {
  BREAKPOINT_TAIL_TOKENS,
  CACHE_RULES,
  cacheRulesFor,
  RECORDED_BREAK_MIN_TOKENS,
  readShowsReply,
  replyInCache,
} from '../../../src/core/engine/cacheRules';
import { cacheExpired, lastUse, requestTime } from '../../../src/core/engine/cacheTimes';
import { derive, derived } from '../../../src/core/engine/derived';
import { ANTHROPIC_CACHE_TTL_MS } from '../../../src/core/engine/models';
import { prepareTranscript, probePreparation } from '../../../src/core/engine/prepare';
import { tablePrices } from '../../../src/core/engine/prices';
import type { RecordedUsage, Transcript } from '../../../src/core/model';
import { tokenCounter } from '../../../src/core/tokens/counter';
import { assistant, text, toolLoop, transcriptOf, user } from '../transcripts';

const { anthropic, automatic } = CACHE_RULES;
const usage = (inputTokens: number): RecordedUsage => ({
  inputTokens,
  cacheReadInputTokens: 0,
  cacheCreationInputTokens: 0,
  outputTokens: 0,
});

test('the rules are chosen by how the endpoint caches, not by its name', () => {
  const sonnet = tablePrices('claude-sonnet-4')!;
  const gpt = tablePrices('gpt-4o')!;
  assert.equal(cacheRulesFor(sonnet), anthropic);
  assert.equal(cacheRulesFor(gpt), automatic);
  assert.equal(cacheRulesFor({ ...sonnet, cache: 'automatic' }), automatic);
});

test('granularity: Anthropic caches every token of the prefix; automatic caches 1024+ in 128-token steps', () => {
  assert.equal(anthropic.cachedOf(0), 0);
  assert.equal(anthropic.cachedOf(1023), 1023);
  assert.equal(automatic.cachedOf(1023), 0);
  assert.equal(automatic.cachedOf(1024), 1024);
  assert.equal(automatic.cachedOf(1151), 1024);
  assert.equal(automatic.cachedOf(1152), 1152);
});

test('lifetime: only an Anthropic entry expires', () => {
  assert.equal(anthropic.expires, true);
  assert.equal(automatic.expires, false);
});

test('recorded breaks: Anthropic below 80% and short by more than 1024; automatic short by more than a step', () => {
  assert.equal(anthropic.recordedBreak(10_000, 7_999), true);
  assert.equal(anthropic.recordedBreak(10_000, 8_000), false, 'at the share, not a break');
  assert.equal(anthropic.recordedBreak(2_000, 1_000), false, 'below the share but short by under 1024');
  assert.equal(anthropic.recordedBreak(2_000 + RECORDED_BREAK_MIN_TOKENS, 1_000), true);
  assert.equal(automatic.recordedBreak(10_000, 9_872), false, 'one step short');
  assert.equal(automatic.recordedBreak(10_000, 9_871), true);
});

test('uncached tail: Anthropic counts input past the breakpoint beyond the few every request sends', () => {
  assert.equal(anthropic.uncachedTail(undefined), 0);
  assert.equal(anthropic.uncachedTail(usage(BREAKPOINT_TAIL_TOKENS)), 0);
  assert.equal(anthropic.uncachedTail(usage(BREAKPOINT_TAIL_TOKENS + 1)), BREAKPOINT_TAIL_TOKENS + 1);
  assert.equal(automatic.uncachedTail(usage(50_000)), 0);
});

test('write premiums: Anthropic bills a write at its lifetime; automatic at the 5-minute (table) write price', () => {
  const sonnet = tablePrices('claude-sonnet-4')!;
  const per = (n: number) => n / 1e6;
  const near = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} ≠ ${b}`);
  near(anthropic.cost(sonnet, '5m', 1000, 2000, 300), per(1000 * 0.3 + 2000 * 3.75 + 300 * 15));
  near(anthropic.cost(sonnet, '1h', 1000, 2000, 300), per(1000 * 0.3 + 2000 * 6 + 300 * 15));
  const gpt = tablePrices('gpt-4o')!;
  near(automatic.cost(gpt, '1h', 1000, 2000, 300), per(1000 * 1.25 + 2000 * 2.5 + 300 * 10));
  near(automatic.cost(gpt, '1h', 1000, 2000, 300), automatic.cost(gpt, '5m', 1000, 2000, 300));
});

test('the previous reply in the cache: OpenAI its reasoning or, for some models, all of it; others where the log shows it', () => {
  const never = () => assert.fail('the log is not asked for OpenAI');
  assert.equal(replyInCache('openai', false, 'gpt-5', never), 'reasoning');
  assert.equal(
    replyInCache('anthropic', true, 'claude-sonnet-4', () => true),
    'reply',
  );
  assert.equal(
    replyInCache('anthropic', true, 'claude-sonnet-4', () => false),
    'none',
  );
  assert.equal(
    replyInCache('deepseek', true, 'deepseek-chat', () => true),
    'reply',
  );
});

test('a read shows the reply when it passes the previous prompt by half its output and more than 128', () => {
  assert.equal(readShowsReply(10_500, 10_000, 1_000), true);
  assert.equal(readShowsReply(10_499, 10_000, 1_000), false);
  assert.equal(readShowsReply(10_128, 10_000, 100), false, 'within the noise of a read');
  assert.equal(readShowsReply(10_129, 10_000, 100), true);
  assert.equal(readShowsReply(undefined, 10_000, 100), false);
  assert.equal(readShowsReply(10_500, undefined, 100), false);
});

const { '5m': M5, '1h': H1 } = ANTHROPIC_CACHE_TTL_MS;
const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, minutes)).toISOString();
function timed(minutes: number[]): Transcript {
  const t = transcriptOf(minutes.flatMap((_, i) => [user(text(`q${i}`)), assistant(text(`a${i}`))]));
  t.messages.forEach((m, i) => {
    m.timestamp = at(minutes[Math.floor(i / 2)]);
  });
  return t;
}

test('lifetime: a cache unused for longer than its TTL is gone; an off-branch reply in between keeps it', () => {
  const prep = prepareTranscript(timed([0, 4, 20]), 'o200k_base', tokenCounter('o200k_base'));
  assert.equal(requestTime(prep, 1), Date.parse(at(4)));
  const t0 = requestTime(prep, 0);
  assert.equal(cacheExpired(prep, M5, false, 'm', t0, requestTime(prep, 1)), false);
  assert.equal(cacheExpired(prep, M5, false, 'm', requestTime(prep, 1), requestTime(prep, 2)), true);
  assert.equal(cacheExpired(prep, H1, false, 'm', requestTime(prep, 1), requestTime(prep, 2)), false);
  assert.equal(cacheExpired(prep, M5, false, 'm', undefined, requestTime(prep, 2)), false);

  const branched = timed([0, 4, 20]);
  const reply = { thread: 'main', model: 'm', usage: usage(1), line: 1 };
  branched.replies = [
    { ...reply, onBranch: false, timestamp: at(12) },
    { ...reply, onBranch: true, timestamp: at(20) },
  ];
  const bp = prepareTranscript(branched, 'o200k_base', tokenCounter('o200k_base'));
  assert.equal(lastUse(bp, false, 'm', Date.parse(at(4)), Date.parse(at(20))), Date.parse(at(12)));
  assert.equal(lastUse(bp, true, 'other', Date.parse(at(4)), Date.parse(at(20))), Date.parse(at(4)));
  assert.equal(cacheExpired(bp, M5, false, 'm', Date.parse(at(4)), Date.parse(at(20))), true);
  assert.equal(cacheExpired(bp, M5, false, 'm', Date.parse(at(10)), Date.parse(at(16))), false);
});

test('boundary: the model’s first request or a compaction starts at the segment; nothing new sends none', () => {
  const prep = prepareTranscript(toolLoop(3), 'o200k_base', tokenCounter('o200k_base'));
  const tail = { prompt: undefined, model: undefined, uncachedTail: 0 };
  assert.equal(cacheBoundary(prep, undefined, 0, 3), 0);
  const prev = cacheAfter(0, 0, 3, undefined, tail);
  assert.equal(cacheBoundary(prep, prev, 0, 5), 3, 'the previous prompt is the identical prefix');
  assert.equal(cacheBoundary(prep, prev, 0, 3), null);
  assert.equal(cacheBoundary(prep, prev, 2, 5), 2, 'another segment start: a compaction');
  assert.equal(cacheBoundary(prep, { ...prev, rewrittenFrom: 1 }, 0, 5), 1, 'a rewrite since');
});

test('derived values live on their preparation; a probe’s preparation starts without them', () => {
  const t = toolLoop(2);
  const counter = tokenCounter('o200k_base');
  const prep = prepareTranscript(t, 'o200k_base', counter);
  let made = 0;
  const slot = derived('test', () => ({ n: ++made }));
  const first = derive(prep, slot);
  assert.equal(derive(prep, slot), first);
  assert.equal(made, 1);
  const probe = probePreparation(t, 'o200k_base', tokenCounter('o200k_base'), counter);
  assert.notEqual(derive(probe, slot), first);
  assert.equal(made, 2);
});

test('what a request leaves in the cache: Anthropic up to its last breakpoint, automatic the whole prompt in steps', () => {
  const u: RecordedUsage = {
    inputTokens: 900,
    cacheReadInputTokens: 5000,
    cacheCreationInputTokens: 300,
    outputTokens: 40,
  };
  assert.equal(anthropic.leftInCache(u), 5300, 'the input past the breakpoint is never written');
  assert.equal(automatic.leftInCache(u), 6144, '6,200 tokens sent, in 128-token steps');
  assert.equal(
    automatic.leftInCache({ ...u, inputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 1000 }),
    0,
  );
  assert.equal(anthropic.missTolerance, BREAKPOINT_TAIL_TOKENS);
  assert.equal(automatic.missTolerance, 128);
});
