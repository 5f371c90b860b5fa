// Arrays of any length from a file are appended item by item: spread into `push(...)`, 150,000 parts of one message
// overflowed the call stack ("Maximum call stack size exceeded").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { maxOf, pushAll } from '../../../src/core/arrays';
import { compressDiff } from '../../../src/core/engine/compressors/diff';
import { parseTranscript } from '../../../src/core/formats/index';
import { summarizeTranscript } from '../../../src/core/formats/summary';
import { toAnthropicRequest } from '../../../src/core/formats/toAnthropicRequest';
import type { Block, Message } from '../../../src/core/model';
import { transcriptOf } from '../transcripts';
import { bytes, jsonl } from './helpers';

const MANY = 150_000;
const parts = (type: string) => Array.from({ length: MANY }, (_, i) => ({ type, text: `p${i}` }));

describe('one message of 150,000 parts', () => {
  it('an OpenAI Responses body', () => {
    const body = { model: 'gpt-5', input: [{ type: 'message', role: 'user', content: parts('input_text') }] };
    const t = parseTranscript(bytes(JSON.stringify(body)), 'body.json');
    assert.equal(t.format, 'openai-responses');
    assert.equal(t.messages[0].blocks.length, MANY);
  });

  it('a Codex rollout', () => {
    const t = parseTranscript(
      jsonl([
        { timestamp: '2026-01-01T00:00:00Z', type: 'session_meta', payload: { id: 'x', cwd: '/' } },
        {
          timestamp: '2026-01-01T00:00:01Z',
          type: 'response_item',
          payload: { type: 'message', role: 'user', content: parts('input_text') },
        },
      ]),
      'rollout.jsonl',
    );
    assert.equal(t.format, 'codex');
    assert.equal(t.messages[0].blocks.length, MANY);
  });

  it('merged into the previous message of its role for an Anthropic request', () => {
    const blocks = parts('text') as Block[];
    const t = transcriptOf([
      { role: 'user', blocks: [{ type: 'text', text: 'first' }] },
      { role: 'user', blocks },
    ]);
    const { request } = toAnthropicRequest(t);
    assert.equal(request.messages.length, 1);
    assert.equal(request.messages[0].content.length, MANY + 1);
  });

  it("a sub-agent's 150,000 unanswered calls are all listed", () => {
    const calls: Block[] = Array.from({ length: MANY }, (_, i) => ({
      type: 'tool_use',
      id: `t${i}`,
      name: 'Read',
      input: {},
    }));
    const side: Message[] = [
      { index: 0, role: 'user', blocks: [{ type: 'text', text: 'go' }] },
      { index: 1, role: 'assistant', blocks: calls },
      { index: 2, role: 'user', blocks: [{ type: 'text', text: 'and?' }] },
    ];
    const t = transcriptOf([{ role: 'user', blocks: [{ type: 'text', text: 'hi' }] }], {
      sidechains: [{ id: 'agent-1', messages: side }],
    });
    assert.equal(summarizeTranscript(t).pairing.length, MANY);
  });

  it('a diff hunk of 150,000 changed lines', () => {
    const lines = Array.from({ length: MANY }, (_, i) => `+line ${i}`);
    const diff = [
      '--- a/f',
      '+++ b/f',
      `@@ -0,0 +1,${MANY} @@`,
      ...lines,
      ' tail',
      ' more',
      ' context',
      ' x',
    ].join('\n');
    const out = compressDiff(diff, null);
    assert.ok(out === null || out.split('\n').length >= MANY);
  });
});

describe('array helpers', () => {
  it('pushAll appends in order and returns the target', () => {
    const a = [1];
    assert.equal(pushAll(a, [2, 3]), a);
    assert.deepEqual(a, [1, 2, 3]);
    assert.equal(pushAll(a, new Array(MANY).fill(0)).length, MANY + 3);
  });

  it('maxOf: the largest, the empty value when there is none', () => {
    assert.equal(maxOf([3, 9, 2]), 9);
    assert.equal(maxOf([], 0), 0);
    assert.equal(maxOf([]), Number.NEGATIVE_INFINITY);
    assert.equal(maxOf([-5, -2]), -2);
    assert.equal(maxOf(new Array(MANY).fill(1)), 1);
  });
});
