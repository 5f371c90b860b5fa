// The "what would be sent" conversion: every format to one Anthropic Messages request, rewrites applied.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseTranscript } from '../../../src/core/formats';
import { toAnthropicRequest } from '../../../src/core/formats/toAnthropicRequest';
import { requestPairBreaks } from '../../../src/node/exportFile';

const REAL = join(__dirname, '../../fixtures/real');
const load = (rel: string) => parseTranscript(new Uint8Array(readFileSync(join(REAL, rel))), rel);
const enc = (s: string) => new TextEncoder().encode(s);

test('an Anthropic request log converts to itself: system, tools and messages as they were', () => {
  const rel = 'anthropic/pydantic-ai-cassette-text-editor-toolset.request.json';
  const original = JSON.parse(readFileSync(join(REAL, rel), 'utf8'));
  const { request, notes } = toAnthropicRequest(load(rel));
  assert.deepEqual(notes, []);
  assert.equal(request.model, original.model);
  assert.equal(request.system, original.system);
  assert.deepEqual(request.tools, original.tools);
  assert.deepEqual(request.messages, original.messages);
});

test('OpenAI Chat: tool calls and tool messages become tool_use/tool_result, functions become input_schema tools', () => {
  const { request } = toAnthropicRequest(load('openai-chat/pydantic-ai-cassette-tool-output.request.json'));
  assert.deepEqual(
    request.messages.map((m) => [m.role, m.content.map((b) => b.type).join('+')]),
    [
      ['user', 'text'],
      ['assistant', 'tool_use'],
      ['user', 'tool_result'],
    ],
  );
  assert.deepEqual(request.messages[2].content[0], {
    type: 'tool_result',
    tool_use_id: 'call_55Y1MexM7u2PSyLKUqMvO1o0',
    content: 'Mexico',
  });
  const tool = request.tools?.[0] as Record<string, unknown>;
  assert.equal(tool.name, 'get_user_country');
  assert.deepEqual(tool.input_schema, { additionalProperties: false, properties: {}, type: 'object' });
  assert.deepEqual(requestPairBreaks(request), []);
});

test('OpenAI Responses: function_call items join the assistant turn; arguments are parsed JSON', () => {
  const { request } = toAnthropicRequest(
    load('openai-responses/pydantic-ai-cassette-simple-response-with-tool-call.request.json'),
  );
  const use = request.messages.flatMap((m) => m.content).find((b) => b.type === 'tool_use');
  assert.deepEqual(use?.input, { country: 'PotatoLand' });
  for (const m of request.messages)
    for (const b of m.content)
      if (b.type === 'text') assert.notEqual(b.text, '', 'the API refuses empty text blocks');
  assert.deepEqual(requestPairBreaks(request), []);
});

test('rewrites replace the content; system messages go to system; images keep their data; unknown blocks are noted', () => {
  const body = {
    model: 'gpt-4o',
    messages: [
      { role: 'system', content: 'Be brief.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } },
        ],
      },
      {
        role: 'assistant',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'look', arguments: '{"x":1' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a long answer' },
    ],
  };
  const t = parseTranscript(enc(JSON.stringify(body)), 'chat.json');
  const resultAt = t.messages.findIndex((m) => m.blocks.some((b) => b.type === 'tool_result'));
  const { request, notes } = toAnthropicRequest(t, [
    { messageIndex: resultAt, blockIndex: 0, content: 'short' },
  ]);
  assert.equal(request.system, 'Be brief.');
  assert.equal(request.messages[0].role, 'user');
  assert.deepEqual(request.messages[0].content[1], {
    type: 'image',
    source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
  });
  const result = request.messages.flatMap((m) => m.content).find((b) => b.type === 'tool_result');
  assert.equal(result?.content, 'short');
  const use = request.messages.flatMap((m) => m.content).find((b) => b.type === 'tool_use');
  assert.deepEqual(use?.input, { arguments: '{"x":1' }, 'invalid arguments travel as text inside an object');
  assert.ok(
    notes.some((n) => /input_audio/.test(n)),
    notes.join('; '),
  );
  assert.ok(
    notes.some((n) => /not a JSON object/.test(n)),
    notes.join('; '),
  );
});
