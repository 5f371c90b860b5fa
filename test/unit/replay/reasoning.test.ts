// Reasoning sent back within a turn (Codex, the OpenAI Responses way): counted at its recorded size while the turn
// lasts, dropped at the next user message, where the cache breaks; the provider keeps the reasoning it generated in
// its cache. Hand-made rollouts with the record shapes of real ones.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { clonePolicy, defaultPolicyFor } from '../../../src/core/engine/policy';
import { prepareTranscript } from '../../../src/core/engine/prepare';
import { parseTranscript } from '../../../src/core/formats/index';
import { jsonl } from '../formats/helpers';

let second = 0;
const at = () => `2026-01-01T00:00:${String(second++ % 60).padStart(2, '0')}Z`;
const item = (payload: Record<string, unknown>) => ({ timestamp: at(), type: 'response_item', payload });
let total = 0;
const tokens = (input: number, cached: number, output: number, reasoning: number) => {
  total += input + output;
  return {
    timestamp: at(),
    type: 'event_msg',
    payload: {
      type: 'token_count',
      info: {
        total_token_usage: { input_tokens: total, output_tokens: 0, total_tokens: total },
        last_token_usage: {
          input_tokens: input,
          cached_input_tokens: cached,
          output_tokens: output,
          reasoning_output_tokens: reasoning,
          total_tokens: input + output,
        },
      },
    },
  };
};
const user = (text: string) =>
  item({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const reasoning = () =>
  item({
    type: 'reasoning',
    summary: [{ type: 'summary_text', text: 'thinking' }],
    encrypted_content: 'gAAA',
  });
const call = (id: string) =>
  item({ type: 'function_call', name: 'shell_command', arguments: '{"command":"ls"}', call_id: id });
const output = (id: string) => item({ type: 'function_call_output', call_id: id, output: 'a.txt' });

const says = (text: string) =>
  item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });

/** A first turn of two calls, each after its reasoning, with their token counts (the second reads the first's
 * prompt from the cache). */
const firstTurn = (model: string, visible = '') => [
  { timestamp: at(), type: 'turn_context', payload: { model } },
  user('first task'),
  reasoning(),
  ...(visible ? [says(visible)] : []),
  call('c1'),
  tokens(3000, 0, 2100, 2000),
  output('c1'),
  reasoning(),
  call('c2'),
  tokens(5200, 5100, 1100, 1000),
  output('c2'),
];

function session(model = 'gpt-5.2-codex', visible = '') {
  return parseTranscript(
    jsonl([
      ...firstTurn(model, visible),
      user('second task'),
      reasoning(),
      call('c3'),
      tokens(3300, 1024, 600, 500),
    ]),
    'rollout.jsonl',
  );
}

describe('reasoning kept within a turn', () => {
  it("counts a reply's reasoning at its recorded size and drops it at the next user message", () => {
    const t = session();
    assert.equal(t.reasoningKeptWithinTurn, true);
    const prep = prepareTranscript(t, 'o200k_base');
    const replies = t.messages.filter((m) => m.role === 'assistant').map((m) => m.index);
    assert.deepEqual(
      replies.map((m) => prep.reasoning?.of(m)),
      [2000, 1000, 500],
    );
    // The third request is in the second turn: the first turn's reasoning is no longer sent.
    const secondTurn = t.messages.findIndex(
      (m) => m.blocks[0]?.type === 'text' && m.blocks[0].text === 'second task',
    );
    assert.equal(prep.reasoning?.turnOf(replies[2]), secondTurn);
    assert.equal(prep.reasoning?.dropped(0, replies[2], replies[2]), 3000);
    assert.equal(prep.reasoning?.dropped(0, replies[1], replies[1]), 0);
  });

  it('the replay: prompts grow by the reasoning within a turn, shrink at a user turn where the cache breaks', () => {
    const t = session();
    const policy = clonePolicy(defaultPolicyFor(t.format));
    policy.name = 'none';
    const requests = analyzeSync(t, policy).analysis.requests.filter((r) => !r.pending);
    assert.equal(requests.length, 3);
    assert.ok(
      requests[1].promptTokens - requests[0].promptTokens >= 2000,
      "the first reply's reasoning is sent",
    );
    assert.ok(requests[2].promptTokens < requests[1].promptTokens, 'the second turn drops it');
    const firstReasoning = t.messages.findIndex((m) => m.blocks.some((b) => b.type === 'thinking'));
    assert.equal(
      requests[2].boundaryMessage,
      firstReasoning,
      'the prompt differs from the first dropped item on',
    );
    // Within the turn, the provider reads the previous prompt and the reasoning it generated from its cache.
    assert.ok(requests[1].cachedTokens >= requests[0].promptTokens + 2000 - 128);
  });

  it('GPT-5.4 keeps its whole reply in the cache after the prompt, GPT-5.2 Codex its reasoning only', () => {
    const visible = 'The plan, step by step: '.repeat(200);
    const replay = (model: string) => {
      const t = session(model, visible);
      const policy = clonePolicy(defaultPolicyFor(t.format));
      policy.name = 'none';
      const requests = analyzeSync(t, policy).analysis.requests.filter((r) => !r.pending);
      const reply = t.messages.find((m) => m.role === 'assistant')?.index ?? -1;
      return { requests, reply: prepareTranscript(t, 'o200k_base').messageTokens[reply] };
    };
    const whole = replay('gpt-5.4');
    const reasoningOnly = replay('gpt-5.2-codex');
    // The reply holds 2000 reasoning tokens and some 1400 of text and call.
    assert.ok(whole.reply > 3000, `${whole.reply}`);
    // GPT-5.4: the next prompt is read back whole but for the tool's output (and the 128-token step).
    const second = whole.requests[1];
    assert.ok(second.writtenTokens < 160, `${second.writtenTokens} of ${second.promptTokens}`);
    // GPT-5.2 Codex: the text and call of its reply are written again.
    const again = reasoningOnly.requests[1];
    assert.ok(again.writtenTokens > 600, `${again.writtenTokens} of ${again.promptTokens}`);
    assert.equal(again.promptTokens, second.promptTokens, 'the same prompt either way');
  });

  it("a read short of what the log says was cached by more than OpenAI's 128-token step is a provider-side miss", () => {
    const t = parseTranscript(
      jsonl([
        ...firstTurn('gpt-5.2-codex'),
        reasoning(),
        call('c3'),
        // Within the turn the prompt only grew, yet 600 tokens of the previous one were not read: a miss.
        tokens(6400, 4600, 500, 400),
        output('c3'),
        reasoning(),
        call('c4'),
        // 100 short: within the step OpenAI reports cached tokens in.
        tokens(6900, 6300, 500, 400),
      ]),
      'rollout.jsonl',
    );
    const policy = clonePolicy(defaultPolicyFor(t.format));
    policy.name = 'none';
    const requests = analyzeSync(t, policy).analysis.requests.filter((r) => !r.pending);
    assert.deepEqual(
      requests.map((r) => r.recordedCacheBreak ?? false),
      [false, false, true, false],
    );
    const r = requests[2];
    assert.ok(
      r.cachedTokens <= Math.ceil((4600 / 6400) * r.promptTokens),
      `${r.cachedTokens} of ${r.promptTokens}`,
    );
  });

  it("a miss's read is the log's, scaled to our count, not floored to a 128-token step again", () => {
    const t = parseTranscript(
      jsonl([
        ...firstTurn('gpt-5.2-codex'),
        reasoning(),
        call('c3'),
        // A miss: 36 steps of 128 read of a prompt of 6400.
        tokens(6400, 4608, 500, 400),
        output('c3'),
        reasoning(),
        call('c4'),
        tokens(6900, 6272, 500, 400),
      ]),
      'rollout.jsonl',
    );
    const policy = clonePolicy(defaultPolicyFor(t.format));
    policy.name = 'none';
    const r = analyzeSync(t, policy).analysis.requests[2];
    assert.equal(r.recordedCacheBreak, true);
    // Our prompt is within a step of the log's: the read is the log's 36 steps scaled, not one step under (floored
    // again after the scaling, 4608 × 6398 / 6400 read 4480).
    assert.ok(r.promptTokens < 6400 && r.promptTokens > 6400 - 64, `${r.promptTokens}`);
    assert.equal(
      r.cachedTokens,
      Math.round((4608 * r.promptTokens) / 6400),
      `${r.cachedTokens} of ${r.promptTokens}`,
    );
  });
});
