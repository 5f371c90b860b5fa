// Hidden thinking (the log keeps the signature, not the text) sized from the recorded output, or, where the log's
// output count cannot be the reply's (4–5 tokens, the stream's first event), from the next prompt's growth: never
// folded into a hidden prefix fitted over the session.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { baselineRequestTokens } from '../../../src/core/engine/calibration';
import { DEFAULT_POLICY, type Policy } from '../../../src/core/engine/policy';
import { prepareTranscript } from '../../../src/core/engine/prepare';
import type { Message } from '../../../src/core/model';
import { msg, text, toolResult, toolUse, transcriptOf, usage, user } from '../transcripts';

const none: Policy = {
  ...DEFAULT_POLICY,
  name: 'none',
  replay: { ...DEFAULT_POLICY.replay, trigger: 'everyRequest' },
};

const HIDDEN = 9000;
const THINKING = 3000;

/** A sub-agent's 5 requests: each reply thinks THINKING tokens the log keeps as a bare signature, and records an
 * output of `output` tokens; the log's prompts grow by what was sent, thinking included. */
function session(output: number) {
  const build = (prompts?: number[]) => {
    const messages: Omit<Message, 'index'>[] = [user(text(`Find the bug. ${'kappa lambda '.repeat(500)}`))];
    for (let k = 0; k < 5; k++) {
      messages.push(
        msg(
          'assistant',
          [
            { type: 'thinking', text: '', redacted: false },
            text(`Next I search the sources for the pattern that broke step ${k} of the build.`),
            toolUse(`t${k}`, 'Grep', { pattern: `p${k}` }),
          ],
          {
            model: 'claude-opus-4-7',
            timestamp: new Date(Date.UTC(2026, 5, 1, 8, 0, k * 10)).toISOString(),
            ...(prompts ? { usage: usage(5, 0, prompts[k] - 5, output) } : {}),
          },
        ),
      );
      messages.push(user(toolResult(`t${k}`, `match ${k} `.repeat(150 + 40 * k))));
    }
    return transcriptOf(messages, { format: 'claude-code', model: 'claude-opus-4-7' });
  };
  // What each request sent: the hidden part, the messages as counted, the thinking of every reply before it.
  const counted = baselineRequestTokens(prepareTranscript(build(), 'o200k_base'));
  const prompts = counted.map((x, k) => HIDDEN + x + k * THINKING);
  return { transcript: build(prompts), prompts };
}

test('a log whose output count cannot be the reply’s: the thinking sized from the next prompt’s growth', () => {
  const { transcript, prompts } = session(5);
  const a = analyzeSync(transcript, none).analysis;
  assert.ok(
    Math.abs(a.hiddenPrefix!.hiddenTokens - HIDDEN) < 0.05 * HIDDEN,
    `hidden prefix ${a.hiddenPrefix!.hiddenTokens}, not the thinking of every reply folded into it`,
  );
  a.requests
    .filter((r) => !r.pending)
    .forEach((r, k) => {
      const error = Math.abs(r.promptTokens - prompts[k]) / prompts[k];
      assert.ok(error < 0.03, `request ${k + 1}: ${r.promptTokens} vs ${prompts[k]}`);
    });
});

test('a log whose output count is the reply’s: the thinking is that count less the visible blocks', () => {
  const { transcript } = session(THINKING + 40);
  const p = prepareTranscript(transcript, 'o200k_base');
  const reply = transcript.messages.findIndex((m) => m.role === 'assistant');
  const thinking = p.blockTokens[reply][0];
  assert.ok(Math.abs(thinking - THINKING) < 60, `${thinking}`);
});

test('a request to another model does not send the thinking the first model signed; back to it, it does', () => {
  const THOUGHT = 2500;
  const models = [
    'claude-opus-4-8',
    'claude-opus-4-8',
    'claude-opus-4-8',
    'claude-opus-5',
    'claude-opus-5',
    'claude-opus-5',
    'claude-opus-4-8',
    'claude-opus-4-8',
  ];
  const build = (prompts?: number[]) => {
    const messages: Omit<Message, 'index'>[] = [user(text(`Port the module. ${'mu nu '.repeat(800)}`))];
    models.forEach((model, k) => {
      messages.push(
        msg(
          'assistant',
          [
            { type: 'thinking', text: '', redacted: false },
            text(`Step ${k}: reading the next file.`),
            toolUse(`t${k}`, 'Read', { file_path: `/m${k}` }),
          ],
          {
            model,
            timestamp: new Date(Date.UTC(2026, 7, 1, 8, 0, k * 10)).toISOString(),
            ...(prompts ? { usage: usage(5, 0, prompts[k] - 5, THOUGHT + 30) } : {}),
          },
        ),
      );
      messages.push(user(toolResult(`t${k}`, `source ${k} `.repeat(400))));
    });
    return transcriptOf(messages, { format: 'claude-code', model: models[0] });
  };
  // The visible messages as counted; each request sends the thinking of the earlier replies of its own model only.
  const counted = baselineRequestTokens(prepareTranscript(build(), 'o200k_base'));
  const prompts = counted.map(
    (x, k) => HIDDEN + x + models.slice(0, k).filter((m) => m === models[k]).length * THOUGHT,
  );
  const a = analyzeSync(build(prompts), none).analysis;
  a.requests
    .filter((r) => !r.pending)
    .forEach((r, k) => {
      const error = Math.abs(r.promptTokens - prompts[k]) / prompts[k];
      assert.ok(error < 0.03, `request ${k + 1} (${models[k]}): ${r.promptTokens} vs ${prompts[k]}`);
    });
});
