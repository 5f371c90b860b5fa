// OpenAI's prompt cache retention (`replay.openaiCacheRetention`, engine/models.ts): `auto` never expires the cache
// (the log's reads say what it held); `in_memory` loses it after 10 idle minutes, `24h` after 24 idle hours; a
// model that does not take the retention asked is replayed at the one it takes. Hand-made sessions, exact figures.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { loggedBreaks, simulatedBreaks } from '../../../src/core/cacheBreaks';
import { openaiRetentionsOf } from '../../../src/core/engine/models';
import type { OpenAIRetentionSetting } from '../../../src/core/engine/policies/replay';
import { clonePolicy, DEFAULT_POLICY, type Policy } from '../../../src/core/engine/policy';
import { billedCost, tablePrices } from '../../../src/core/engine/prices';
import type { RecordedUsage, Transcript } from '../../../src/core/model';
import { MAIN_THREAD } from '../../../src/core/threads';
import { assistant, text, transcriptOf, user } from '../transcripts';

const at = (minutes: number) => new Date(Date.UTC(2026, 0, 1, 0, 0) + minutes * 60_000).toISOString();

/** One request per entry of `minutes` (when it was answered), each prompt well past OpenAI's 1,024 cached tokens. */
function session(model: string, minutes: number[], usage?: (k: number) => RecordedUsage): Transcript {
  const t = transcriptOf(
    minutes.flatMap((_, i) => [
      user(text(`question ${i}: ${'context '.repeat(1200)}`)),
      assistant(text(`a${i}`)),
    ]),
    { format: 'codex' },
  );
  t.model = model;
  t.messages.forEach((m, i) => {
    const k = Math.floor(i / 2);
    m.timestamp = at(minutes[k]);
    if (m.role === 'assistant') {
      m.model = model;
      if (usage) m.usage = usage(k);
    }
  });
  return t;
}

function policy(retention: OpenAIRetentionSetting): Policy {
  const p = clonePolicy(DEFAULT_POLICY);
  p.name = 'none';
  p.replay.trigger = 'everyRequest';
  p.replay.openaiCacheRetention = retention;
  return p;
}

const cached = (t: Transcript, retention: OpenAIRetentionSetting) =>
  analyzeSync(t, policy(retention))
    .analysis.requests.filter((r) => !r.pending)
    .map((r) => r.cachedTokens);

test('the retentions each model takes, as documented', () => {
  assert.deepEqual(openaiRetentionsOf('gpt-4o'), ['in_memory']);
  assert.deepEqual(openaiRetentionsOf('gpt-4.1'), ['in_memory', '24h']);
  assert.deepEqual(openaiRetentionsOf('gpt-5-codex'), ['in_memory', '24h']);
  assert.deepEqual(openaiRetentionsOf('gpt-5.2'), ['in_memory', '24h']);
  assert.deepEqual(openaiRetentionsOf('gpt-5.4'), ['in_memory', '24h']);
  assert.deepEqual(openaiRetentionsOf('gpt-5.5'), ['24h']);
  assert.deepEqual(openaiRetentionsOf('gpt-5.6'), ['24h']);
});

test('in_memory: gone after 10 idle minutes; 24h: after 24 idle hours; auto: never', () => {
  // Answered at 0, 4, 20 (16 idle minutes), 29 (9) minutes, and 25 hours later.
  const t = session('gpt-5.2', [0, 4, 20, 29, 29 + 25 * 60]);
  const auto = cached(t, 'auto');
  assert.ok(
    auto.slice(1).every((c) => c > 0),
    `every request after the first reads the cache: ${auto}`,
  );
  assert.deepEqual(cached(t, 'in_memory'), [auto[0], auto[1], 0, auto[3], 0]);
  assert.deepEqual(cached(t, '24h'), [auto[0], auto[1], auto[2], auto[3], 0]);
  // The figures themselves: 128-token steps of the previous prompt (no hidden prefix without recorded usage).
  assert.deepEqual(auto, [0, 1152, 2304, 3584, 4736]);
  // A cold request writes its whole prompt, at the same price under either retention (both billed alike).
  const a = analyzeSync(t, policy('in_memory')).analysis.requests[2];
  const b = analyzeSync(t, policy('24h')).analysis.requests[2];
  assert.equal(a.writtenTokens, a.promptTokens);
  const p = tablePrices('gpt-5.2')!;
  const bill = (read: number, written: number) =>
    billedCost(p, {
      input: 0,
      cacheRead: read,
      cacheWrite5m: written,
      cacheWrite1h: 0,
      output: a.outputTokens ?? 0,
    });
  assert.ok(Math.abs(a.cost - bill(0, a.promptTokens)) < 1e-12);
  assert.ok(Math.abs(b.cost - bill(b.cachedTokens, b.promptTokens - b.cachedTokens)) < 1e-12);
});

test('a model that does not take the retention asked is replayed at the one it takes', () => {
  const minutes = [0, 4, 20];
  // GPT-5.5 takes only 24h: in_memory is replayed as 24h.
  const five = session('gpt-5.5', minutes);
  assert.deepEqual(cached(five, 'in_memory'), cached(five, 'auto'));
  // GPT-4o takes only in_memory: 24h is replayed as in_memory.
  const four = session('gpt-4o', minutes);
  assert.deepEqual(cached(four, '24h'), cached(four, 'in_memory'));
  assert.equal(cached(four, '24h')[2], 0);
});

test("a cold read the log shows after more than 10 idle minutes is the log's expiry: 24h reads it", () => {
  // The log: each request read what the previous one sent, but the one after 16 idle minutes read nothing.
  const prompt = [1203, 2393, 3583];
  const t = session('gpt-5.2', [0, 4, 20], (k) => {
    const read = k === 0 || k === 2 ? 0 : 1152;
    return {
      inputTokens: prompt[k] - read,
      cacheReadInputTokens: read,
      cacheCreationInputTokens: 0,
      outputTokens: 2,
    };
  });
  const auto = cached(t, 'auto');
  assert.equal(auto[2], 0, 'as logged: the read the log shows');
  assert.equal(cached(t, 'in_memory')[2], 0);
  const day = cached(t, '24h');
  assert.ok(day[2] > 0, `24h keeps it: ${day}`);
  assert.deepEqual(day.slice(0, 2), auto.slice(0, 2));
});

test("the Cache tab names the retention a break outlived: OpenAI's, not Anthropic's", () => {
  const t = session('gpt-5.2', [0, 4, 20]);
  for (const [retention, words] of [
    ['in_memory', 'idle 16 min > 10 min (in memory)'],
    ['24h', null],
  ] as const) {
    const p = policy(retention);
    const a = analyzeSync(t, p).analysis;
    const report = simulatedBreaks(t, a, p, MAIN_THREAD, loggedBreaks(t, a, MAIN_THREAD));
    const expired = report.breaks.filter((b) => b.evidence.cause === 'ttl-expired');
    assert.deepEqual(
      expired.map((b) => [b.index, b.words]),
      words ? [[2, words]] : [],
    );
  }
});
