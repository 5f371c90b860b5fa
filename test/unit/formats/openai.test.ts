// OpenAI Chat and Responses request bodies, hand-made.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTranscript } from '../../../src/core/formats/index';
import { bytes } from './helpers';

const json = (value: unknown) => bytes(JSON.stringify(value, null, 2));

describe('openai-chat', () => {
  const body = {
    model: 'gpt-4o',
    messages: [
      { role: 'system', content: 'be brief' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'read', arguments: '{"path":"a"}' } },
          { id: 'c2', type: 'function', function: { name: 'grep', arguments: '{"pattern": "x"' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'file a' },
      { role: 'tool', tool_call_id: 'c2', content: [{ type: 'text', text: 'match' }] },
      { role: 'assistant', content: 'done' },
    ],
  };

  it('consecutive role:"tool" messages are one tool-result message, each block pointing at its own record', () => {
    const t = parseTranscript(json(body));
    assert.equal(t.format, 'openai-chat');
    assert.deepEqual(
      t.messages.map((m) => `${m.role}:${m.blocks.map((b) => b.type).join(',')}`),
      [
        'system:text',
        'user:text,image',
        'assistant:tool_use,tool_use',
        'user:tool_result,tool_result',
        'assistant:text',
      ],
    );
    const [r1, r2] = t.messages[3].blocks;
    assert.deepEqual(r1.location?.valuePath, ['messages', 3, 'content']);
    assert.deepEqual(r2.location?.valuePath, ['messages', 4, 'content']);
    assert.ok(r2.type === 'tool_result' && Array.isArray(r2.content) && r2.content[0].type === 'text');
    const image = t.messages[1].blocks[1];
    assert.ok(image.type === 'image' && image.mediaType === 'image/png' && image.dataLength === 4);
  });

  it('arguments that are not JSON are kept as text and reported with line and column', () => {
    const t = parseTranscript(json(body));
    const bad = t.messages[2].blocks[1];
    assert.ok(bad.type === 'tool_use' && bad.inputInvalid === true && bad.input === '{"pattern": "x"');
    const d = t.diagnostics.find((x) => x.code === 'invalid-arguments');
    assert.ok(d);
    const lines = JSON.stringify(body, null, 2).split('\n');
    assert.equal(d.line, lines.findIndex((l) => l.includes('"arguments": "{\\"pattern')) + 1);
    assert.equal(d.column, lines[d.line - 1].indexOf('"{') + 1);
  });

  it('a truncated document still shows what could be read, with a diagnostic where it stops', () => {
    const full = JSON.stringify(body, null, 2);
    const cut = full.slice(0, full.indexOf('"done"'));
    const t = parseTranscript(bytes(cut));
    assert.equal(t.format, 'openai-chat');
    assert.ok(t.messages.length >= 4);
    const d = t.diagnostics.find((x) => x.code === 'invalid-json');
    assert.ok(d);
    assert.match(t.formatReason, /broken/);
  });
});

describe('openai-responses', () => {
  it('consecutive function_call_output items are one message; instructions are the system prompt', () => {
    const t = parseTranscript(
      json({
        model: 'gpt-5',
        instructions: 'be careful',
        input: [
          { role: 'user', content: [{ type: 'input_text', text: 'two lookups' }] },
          { type: 'reasoning', id: 'rs1', summary: [{ type: 'summary_text', text: 'plan' }] },
          { type: 'function_call', call_id: 'a', name: 'f', arguments: '{}' },
          { type: 'function_call', call_id: 'b', name: 'g', arguments: '{"x":1}' },
          { type: 'function_call_output', call_id: 'a', output: 'A' },
          { type: 'function_call_output', call_id: 'b', output: [{ type: 'input_text', text: 'B' }] },
          { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'both done' }] },
          { type: 'item_reference', id: 'x' },
        ],
      }),
    );
    assert.equal(t.format, 'openai-responses');
    assert.equal(t.system, 'be careful');
    assert.deepEqual(
      t.messages.map((m) => `${m.role}:${m.blocks.map((b) => b.type).join(',')}`),
      ['user:text', 'assistant:thinking,tool_use,tool_use', 'user:tool_result,tool_result', 'assistant:text'],
    );
    assert.deepEqual(
      t.messages[2].blocks.map((b) => b.location?.valuePath),
      [
        ['input', 4, 'output'],
        ['input', 5, 'output'],
      ],
    );
    assert.deepEqual(
      t.markers.map((m) => [m.label, m.beforeMessage]),
      [['item_reference', 4]],
    );
  });

  it('a string input is one user message', () => {
    const t = parseTranscript(json({ model: 'gpt-5', input: 'hello' }));
    assert.equal(t.format, 'openai-responses');
    assert.equal(t.messages.length, 1);
    assert.deepEqual(t.messages[0].blocks[0].location?.path, ['input']);
  });

  it('previous_response_id: a warning where it stands that the earlier conversation is on the server', () => {
    const t = parseTranscript(json({ model: 'gpt-5', previous_response_id: 'resp_1', input: 'go on' }));
    assert.deepEqual(
      t.diagnostics.map((d) => [d.severity, d.code, d.line, d.column]),
      [['warning', 'server-held-context', 3, 27]],
    );
    assert.match(t.diagnostics[0].message, /held by the server, not in this file/);
  });

  it('an input that is a compaction and the items kept beside it is read as Responses', () => {
    const t = parseTranscript(
      json({
        input: [
          { type: 'message', role: 'user', content: 'kept' },
          { type: 'compaction', encrypted_content: 'gAAAA' },
        ],
      }),
    );
    assert.equal(t.format, 'openai-responses');
    assert.deepEqual(
      t.markers.map((m) => [m.kind, m.label, m.beforeMessage]),
      [['meta-record', 'compaction', 1]],
    );
  });
});
