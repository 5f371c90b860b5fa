// The "what would be sent" conversion: every format to one Anthropic Messages request, rewrites applied.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { compactTranscriptSync } from '../../../src/core/compact';
import { clonePolicy, DEFAULT_POLICY, type Policy } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import { toAnthropicRequest } from '../../../src/core/formats/toAnthropicRequest';
import { requestPairBreaks } from '../../../src/node/exportFile';

const REAL = join(__dirname, '../../fixtures/real');
const load = (rel: string) => parseTranscript(new Uint8Array(readFileSync(join(REAL, rel))), rel);
const enc = (s: string) => new TextEncoder().encode(s);
function liveZonePolicy(ccr: boolean): Policy {
  const p = clonePolicy(DEFAULT_POLICY);
  p.name = 'live-zone';
  p.liveZone.ccr = ccr;
  return p;
}

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

// ---- SPEC §4: a request that carries CCR markers declares the tool that redeems them -------------------------

const grepLines = Array.from(
  { length: 120 },
  (_, i) => `lib/ledger/entry_${i % 9}.py:${40 + i}:    total += line.amount  # rounding ${i}`,
).join('\n');

function requestWith(tools: unknown[] | undefined, result: string) {
  const body: Record<string, unknown> = {
    model: 'claude-sonnet-4-20250514',
    max_tokens: 256,
    messages: [
      { role: 'user', content: 'Where is the ledger total rounded?' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_g1', name: 'grep', input: { q: 'total' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_g1', content: result }] },
    ],
  };
  if (tools) body.tools = tools;
  return parseTranscript(enc(JSON.stringify(body)), 'ledger.request.json');
}
const grepTool = { name: 'grep', description: 'Search files', input_schema: { type: 'object' } };
const retrieveTools = (tools: unknown[] | undefined) =>
  (tools ?? []).filter((t) => (t as { name?: string }).name === 'headroom_retrieve');

test('a request whose rewrites carry CCR markers declares headroom_retrieve with one required string "hash"', () => {
  const t = requestWith([grepTool], grepLines);
  const r = compactTranscriptSync(t, liveZonePolicy(true), { fileName: 'ledger.request.json' });
  const { request } = toAnthropicRequest(t, r.rewrites);
  assert.match(JSON.stringify(request.messages), /Retrieve more: hash=[0-9a-f]{24}\]/);
  assert.deepEqual(request.tools?.[0], grepTool, 'the file’s own tools come first, as they were');
  const [retrieve] = retrieveTools(request.tools) as {
    input_schema: { properties: Record<string, { type: string }>; required: string[] };
  }[];
  assert.ok(retrieve, 'headroom_retrieve declared');
  assert.deepEqual(retrieve.input_schema.required, ['hash']);
  assert.deepEqual(Object.keys(retrieve.input_schema.properties), ['hash']);
  assert.equal(retrieve.input_schema.properties.hash.type, 'string');
  assert.equal(request.tools?.length, 2);
});

test('no marker, no retrieval tool: untouched requests and liveZone.ccr=false keep their tools as they were', () => {
  const t = requestWith([grepTool], grepLines);
  assert.deepEqual(toAnthropicRequest(t).request.tools, [grepTool]);
  const off = compactTranscriptSync(t, liveZonePolicy(false), { fileName: 'ledger.request.json' });
  assert.equal(off.rewrites.length, 1, 'the live zone was compressed, to its plain form');
  assert.deepEqual(toAnthropicRequest(t, off.rewrites).request.tools, [grepTool]);
  const bare = requestWith(undefined, 'short');
  assert.equal(toAnthropicRequest(bare).request.tools, undefined);
});

test('a file that already declares headroom_retrieve keeps its one declaration', () => {
  const own = {
    name: 'headroom_retrieve',
    description: 'their words',
    input_schema: { type: 'object', properties: { hash: { type: 'string' } }, required: ['hash'] },
  };
  const t = requestWith([grepTool, own], grepLines);
  const r = compactTranscriptSync(t, liveZonePolicy(true), { fileName: 'ledger.request.json' });
  const { request } = toAnthropicRequest(t, r.rewrites);
  assert.deepEqual(retrieveTools(request.tools), [own]);
  assert.equal(request.tools?.length, 2);
});

test('markers already in the source (a session that went through the proxy) and in nested text are redeemable', () => {
  const marker = `[812 lines compressed to 40. Retrieve full diff: hash=${'0a1b2c3d4e5f'.repeat(2)}]`;
  const viaProxy = requestWith(undefined, `diff --git a/x b/x\n${marker}`);
  assert.equal(retrieveTools(toAnthropicRequest(viaProxy).request.tools).length, 1);
  const nested = requestWith(undefined, 'x');
  const at = nested.messages.findIndex((m) => m.blocks.some((b) => b.type === 'tool_result'));
  const { request } = toAnthropicRequest(nested, [
    {
      messageIndex: at,
      blockIndex: 0,
      content: [
        { type: 'text', text: `[{"id":1},{"_ccr_dropped":"<<ccr:${'f'.repeat(24)} 9_rows_offloaded>>"}]` },
      ],
    },
  ]);
  assert.equal(retrieveTools(request.tools).length, 1);
  // A hash-like word in ordinary text is not a marker.
  const plain = requestWith(undefined, `commit hash=${'a'.repeat(24)} was reverted`);
  assert.equal(toAnthropicRequest(plain).request.tools, undefined);
});
