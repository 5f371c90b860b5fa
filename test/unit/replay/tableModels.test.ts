// Models from the kept price table: priced at themselves with the table's provider (never guessed from the name),
// the cache rules of that provider, and the window the log proves.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { presetForRecordedModel } from '../../../src/core/engine/models';
import { DEFAULT_POLICY, type Policy } from '../../../src/core/engine/policy';
import { tablePrices } from '../../../src/core/engine/prices';
import type { Message } from '../../../src/core/model';
import { recordedUsage } from '../../../src/core/recordedUsage';
import { sanityFlags } from '../../../src/core/sanity';
import { msg, text, toolResult, toolUse, transcriptOf, usage, user } from '../transcripts';

const none: Policy = {
  ...DEFAULT_POLICY,
  name: 'none',
  replay: { ...DEFAULT_POLICY.replay, trigger: 'everyRequest' },
};

/** A tool loop of `rounds` requests, each answered by `model` at `minutesApart` minutes from the previous one, with
 * the usage `usageOf(k)` recorded. */
function session(
  model: string,
  rounds: number,
  usageOf: (k: number) => ReturnType<typeof usage>,
  minutesApart = 1,
) {
  const messages: Omit<Message, 'index'>[] = [user(text(`Start. ${'alpha beta gamma '.repeat(400)}`))];
  for (let k = 0; k < rounds; k++) {
    const time = new Date(Date.UTC(2026, 4, 12, 10, 0) + k * minutesApart * 60_000).toISOString();
    messages.push(
      msg('assistant', [toolUse(`t${k}`, 'Read', { file_path: `/f${k}` })], {
        model,
        usage: usageOf(k),
        timestamp: time,
      }),
    );
    messages.push(user(toolResult(`t${k}`, `line ${k} `.repeat(300))));
  }
  return transcriptOf(messages, { format: 'claude-code', model });
}

test('the provider is the table’s: a DeepSeek model is DeepSeek’s, priced at its rates, not $0', () => {
  const p = tablePrices('deepseek-v4-pro', new Date('2026-05-12T10:00:00Z'))!;
  assert.ok(p, 'the table knows deepseek-v4-pro');
  assert.equal(p.provider, 'deepseek');
  assert.equal(p.cache, 'automatic');
  assert.equal(tablePrices('claude-opus-5')!.provider, 'anthropic');
  assert.equal(tablePrices('gpt-5.6-sol')!.provider, 'openai');
  const t = session('deepseek-v4-pro', 3, (k) =>
    usage(k === 0 ? 2000 : 100, k === 0 ? 0 : 2000 + 400 * k, 0, 50),
  );
  const u = recordedUsage(t)!;
  assert.deepEqual(u.unpriced, []);
  const expected = t.messages
    .filter((m) => m.usage)
    .reduce(
      (a, m) =>
        a +
        (m.usage!.inputTokens * p.input.base +
          m.usage!.cacheReadInputTokens * p.cacheRead.base +
          m.usage!.outputTokens * p.output.base) /
          1e6,
      0,
    );
  assert.ok(u.cost > 0);
  assert.ok(Math.abs(u.cost - expected) < 1e-12, `${u.cost} vs ${expected}`);
});

test('a recorded model the table knows is its own preset: claude-opus-5 at Opus 5’s prices, not Opus 4.1’s', () => {
  const opus5 = presetForRecordedModel('claude-opus-5')!;
  assert.equal(opus5.pricedAs, 'claude-opus-5');
  assert.equal(opus5.provider, 'anthropic');
  assert.equal(opus5.contextWindow, 200_000, 'the 1M window is a beta: 200k until the log proves more');
  assert.equal(presetForRecordedModel('gpt-5.6-sol')!.pricedAs, 'gpt-5.6-sol');
  assert.equal(presetForRecordedModel('deepseek-v4-pro')!.pricedAs, 'deepseek-v4-pro');
  // A model the table does not know keeps the nearest preset by name.
  assert.equal(presetForRecordedModel('claude-opus-4-99-unknown')?.pricedAs, 'claude-opus-4-5');
  // The same object each time (the replay's memos recognise a preset by identity).
  assert.equal(presetForRecordedModel('claude-opus-5'), opus5);
});

test('GPT-5.6 bills cache writes at its write price (1.25× input); models without one bill them as input', () => {
  const p = tablePrices('gpt-5.6-sol', new Date('2026-05-12T10:00:00Z'))!;
  assert.equal(p.cacheWrite5m.base, 1.25 * p.input.base);
  const t = session('gpt-5.6-sol', 3, (k) => usage(3000 + 500 * k, 0, 0, 40));
  const r = analyzeSync(t, none).analysis;
  for (const q of r.requests.filter((q) => !q.pending)) {
    const expected =
      (q.cachedTokens * p.cacheRead.base +
        q.writtenTokens * p.cacheWrite5m.base +
        (q.outputTokens ?? 0) * p.output.base) /
      1e6;
    assert.ok(Math.abs(q.cost - expected) < 1e-12, `${q.cost} vs ${expected}`);
  }
  const g = tablePrices('gpt-5.5')!;
  assert.equal(g.cacheWrite5m.base, g.input.base);
});

test('an endpoint that reports no writes: misses billed as input, no write premium, no 5-minute expiry', () => {
  // Anthropic's rules on the same log would expire the cache at every 10-minute gap and write it again.
  const t = session(
    'deepseek-v4-pro',
    5,
    (k) => usage(k === 0 ? 2400 : 300, k === 0 ? 0 : 2400 + 300 * k, 0, 30),
    10,
  );
  const p = tablePrices('deepseek-v4-pro', new Date('2026-05-12T10:00:00Z'))!;
  const r = analyzeSync(t, none).analysis;
  const sent = r.requests.filter((q) => !q.pending);
  for (const q of sent.slice(1)) {
    assert.equal(q.cacheExpired, false);
    assert.ok(q.cachedTokens > q.promptTokens / 2, JSON.stringify(q));
  }
  for (const q of sent) {
    const expected =
      (q.cachedTokens * p.cacheRead.base +
        q.writtenTokens * p.input.base +
        (q.outputTokens ?? 0) * p.output.base) /
      1e6;
    assert.ok(Math.abs(q.cost - expected) < 1e-12, `${q.cost} vs ${expected}`);
  }
});

test('a model the table cannot price whose endpoint reports no writes: priced at the preset, under the automatic cache', () => {
  // Without its endpoint's rules the replay wrote Anthropic's cache at every request and read nothing back.
  const t = session('gateway-model-x', 5, (k) =>
    usage(k === 0 ? 2400 : 300, k === 0 ? 0 : 2400 + 300 * k, 0, 30),
  );
  assert.equal(tablePrices('gateway-model-x'), undefined);
  const sent = analyzeSync(t, none).analysis.requests.filter((q) => !q.pending);
  for (const q of sent.slice(1)) assert.ok(q.cachedTokens > q.promptTokens / 2, JSON.stringify(q));
});

test("a gateway's <provider>/<model> is priced as the model", () => {
  assert.equal(tablePrices('anthropic/claude-opus-4.8')?.id, 'claude-opus-4-8');
  assert.equal(tablePrices('mistralai/voxtral-small-24b-2507')?.id, 'voxtral-small-24b-2507');
  assert.equal(tablePrices('someone/not-a-model'), undefined);
});

test('a recorded prompt beyond 200k proves the larger window: the table’s, and no "exceeds the window" flag', () => {
  const t = session('claude-opus-4-8', 3, (k) =>
    usage(10, k === 0 ? 0 : 300_000, k === 0 ? 300_000 : 1000, 40),
  );
  const a = analyzeSync(t, none).analysis;
  assert.equal(a.contextWindow, 1_000_000);
  assert.ok(!sanityFlags(a).some((f) => /context window/.test(f.message)), JSON.stringify(sanityFlags(a)));
  // Under a preset (the "what if"), the preset's window stands.
  const preset = analyzeSync(t, { ...none, model: 'claude-opus-4.5' }).analysis;
  assert.equal(preset.contextWindow, 200_000);
});

test('an automatic cache that keeps the reply (DeepSeek: reads pass the previous prompt by its output) reads it back', () => {
  const messages: Omit<Message, 'index'>[] = [user(text(`Start. ${'alpha beta gamma '.repeat(600)}`))];
  let prompt = 2500;
  for (let k = 0; k < 4; k++) {
    const read = k === 0 ? 0 : prompt + 700;
    messages.push(
      msg(
        'assistant',
        [
          text(`Thinking aloud ${k}: ${'the plan is to read the file next '.repeat(80)}`),
          toolUse(`t${k}`, 'Read', { file_path: `/f${k}` }),
        ],
        {
          model: 'deepseek-v4-pro',
          usage: usage(k === 0 ? prompt : 200, read, 0, 700),
          timestamp: new Date(Date.UTC(2026, 4, 12, 10, k)).toISOString(),
        },
      ),
    );
    messages.push(user(toolResult(`t${k}`, `line ${k} `.repeat(60))));
    prompt = k === 0 ? prompt : read + 200;
  }
  const t = transcriptOf(messages, { format: 'claude-code', model: 'deepseek-v4-pro' });
  const q = analyzeSync(t, none).analysis.requests.filter((r) => !r.pending);
  for (let k = 1; k < q.length; k++)
    // The previous prompt and the reply after it are read; only the tool result is new.
    assert.ok(q[k].writtenTokens < 400, `request ${k + 1} wrote ${q[k].writtenTokens}`);
});
