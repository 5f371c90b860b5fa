// The "what would be sent" conversion: every format to one Anthropic Messages request, rewrites applied.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { compactTranscriptSync } from '../../../src/core/compact';
import { clonePolicy, DEFAULT_POLICY, type Policy } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import {
  type AnthropicRequest,
  DEFAULT_MAX_TOKENS,
  enableThinking,
  THINKING_BUDGET_TOKENS,
  toAnthropicRequest,
} from '../../../src/core/formats/toAnthropicRequest';
import { applyStrategy, strategyRequestParts } from '../../../src/core/strategyRequest';
import { requestPairBreaks } from '../../../src/node/exportFile';
import { ClaudeSession } from '../formats/helpers';

/** What the Messages API refuses with a 400, as its documentation states it: a missing or non-positive max_tokens; a
 * tool_choice without tools; clear_thinking_20251015 without thinking on; a thinking budget under 1,024 or not below
 * max_tokens, a budget on Claude 4.7 and later; forced tool use with thinking on. */
function refusals(r: AnthropicRequest): string[] {
  const out: string[] = [];
  if (!Number.isInteger(r.max_tokens) || r.max_tokens < 1) out.push(`max_tokens ${r.max_tokens}`);
  if (r.tool_choice && !r.tools?.length) out.push('tool_choice without tools');
  const thinking = r.thinking?.type === 'enabled' || r.thinking?.type === 'adaptive';
  if (r.context_management?.edits.some((e) => e.type === 'clear_thinking_20251015') && !thinking)
    out.push('clear_thinking without thinking');
  if (r.thinking?.type === 'enabled') {
    const budget = r.thinking.budget_tokens as number;
    if (!(budget >= 1024 && budget < r.max_tokens))
      out.push(`budget ${budget} with max_tokens ${r.max_tokens}`);
    if (/^claude-[a-z]+-(4-[7-9]|[5-9])/.test(r.model ?? '')) out.push(`a thinking budget on ${r.model}`);
  }
  if (thinking && (r.tool_choice?.type === 'any' || r.tool_choice?.type === 'tool'))
    out.push('forced tool use');
  return out;
}

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

test("the request has max_tokens: the source body's own, else 8,192", () => {
  const rel = 'anthropic/pydantic-ai-cassette-text-editor-toolset.request.json';
  const original = JSON.parse(readFileSync(join(REAL, rel), 'utf8'));
  const { request } = toAnthropicRequest(load(rel));
  assert.equal(request.max_tokens, original.max_tokens);
  assert.deepEqual(request.tool_choice, original.tool_choice);
  assert.deepEqual(refusals(request), []);
  const session = load('claude-code/drmaciver-hello-world-script.jsonl');
  const converted = toAnthropicRequest(session);
  assert.equal(converted.request.max_tokens, DEFAULT_MAX_TOKENS);
  assert.deepEqual(refusals(converted.request), []);
  assert.deepEqual(Object.keys(converted.request).slice(0, 2), ['model', 'max_tokens']);
});

test("OpenAI bodies: the reply limit and tool choice in Anthropic's words", () => {
  const chat = toAnthropicRequest(load('openai-chat/pydantic-ai-cassette-tool-output.request.json')).request;
  assert.deepEqual(chat.tool_choice, { type: 'any' }, '"required"');
  const body = (extra: Record<string, unknown>) =>
    parseTranscript(
      enc(
        JSON.stringify({
          model: 'gpt-4o',
          messages: [{ role: 'user', content: 'hi' }],
          tools: [{ type: 'function', function: { name: 'look', parameters: { type: 'object' } } }],
          ...extra,
        }),
      ),
      'body.json',
    );
  const named = toAnthropicRequest(
    body({
      max_completion_tokens: 500,
      tool_choice: { type: 'function', function: { name: 'look' } },
      parallel_tool_calls: false,
    }),
  ).request;
  assert.equal(named.max_tokens, 500);
  assert.deepEqual(named.tool_choice, { type: 'tool', name: 'look', disable_parallel_tool_use: true });
  assert.deepEqual(refusals(named), []);
  const odd = toAnthropicRequest(body({ tool_choice: { type: 'allowed_tools' } }));
  assert.equal(odd.request.tool_choice, undefined);
  assert.ok(odd.notes.some((n) => /tool_choice .* has no Anthropic form/.test(n)));
});

test('a max_tokens out of range in the body is reported where it stands and not carried over', () => {
  for (const bad of ['1e308', '-5', '0', '2.5', '"4096"']) {
    const text = `{"model": "claude-sonnet-4-5", "max_tokens": ${bad}, "messages": [{"role": "user", "content": "hi"}]}`;
    const t = parseTranscript(enc(text), 'body.json');
    const d = t.diagnostics.find((x) => x.code === 'figure-out-of-range');
    assert.ok(d, bad);
    assert.equal(d.line, 1);
    assert.equal(text.slice(d.column - 1).startsWith(bad), true, `${bad} at ${d.column}`);
    assert.equal(toAnthropicRequest(t).request.max_tokens, DEFAULT_MAX_TOKENS);
  }
});

/** A Claude Code session with extended thinking, answered by `model`. */
function thinkingSession(model: string): ClaudeSession {
  const s = new ClaudeSession();
  s.user('look at the file');
  const reply = (id: string, content: unknown[]) => {
    const uuid = s.assistant(id, content);
    (s.records[s.records.length - 1].message as Record<string, unknown>).model = model;
    return uuid;
  };
  const call = reply('msg_1', [
    { type: 'thinking', thinking: 'which file?', signature: 'sig1' },
    { type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/a' } },
  ]);
  s.result('t1', 'contents', call);
  reply('msg_2', [
    { type: 'thinking', thinking: 'done', signature: 'sig2' },
    { type: 'text', text: 'read it' },
  ]);
  return s;
}

test('context editing that clears thinking turns thinking on, the way the model takes it', () => {
  const cases: [string, Record<string, unknown>][] = [
    ['claude-sonnet-4-5-20250929', { type: 'enabled', budget_tokens: THINKING_BUDGET_TOKENS }],
    ['claude-3-7-sonnet-20250219', { type: 'enabled', budget_tokens: THINKING_BUDGET_TOKENS }],
    ['claude-sonnet-4-6', { type: 'adaptive' }],
    ['claude-opus-4-8', { type: 'adaptive' }],
    ['claude-mythos-5', { type: 'adaptive' }],
  ];
  for (const [model, thinking] of cases) {
    const t = parseTranscript(thinkingSession(model).bytes(), 'session.jsonl');
    const policy = clonePolicy(DEFAULT_POLICY);
    policy.name = 'anthropic-context-editing';
    const { request } = toAnthropicRequest(t);
    const strategy = strategyRequestParts(policy, t, 200_000);
    applyStrategy(request, strategy, strategy.notes);
    assert.equal(request.context_management?.edits[0].type, 'clear_thinking_20251015', model);
    assert.deepEqual(request.thinking, thinking, model);
    assert.deepEqual(refusals(request), [], model);
    assert.ok(
      strategy.notes.some((n) => /thinking .* added: clear_thinking_20251015 applies only with/.test(n)),
    );
  }
});

test('thinking on: a budget stays below max_tokens, a forced tool choice gives way, thinking already on stays', () => {
  const base = (): AnthropicRequest => ({
    model: 'claude-sonnet-4-5',
    max_tokens: 2000,
    tools: [{ name: 'look', input_schema: { type: 'object' } }],
    tool_choice: { type: 'tool', name: 'look' },
    messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
  });
  const r = base();
  const notes: string[] = [];
  enableThinking(r, notes);
  assert.equal(r.max_tokens, DEFAULT_MAX_TOKENS);
  assert.deepEqual(r.tool_choice, { type: 'auto' });
  assert.deepEqual(refusals(r), []);
  assert.equal(notes.length, 3);
  const on = { ...base(), tool_choice: undefined, thinking: { type: 'enabled', budget_tokens: 1500 } };
  enableThinking(on, []);
  assert.deepEqual(on.thinking, { type: 'enabled', budget_tokens: 1500 });
  assert.equal(on.max_tokens, 2000);
});

for (const [file, records, least] of [
  ['claude-code/drmaciver-coverage-test-fix.jsonl', 'a record per block', 20],
  ['anthropic/pydantic-ai-cassette-text-editor-toolset.request.json', 'one record for every block', 3],
] as const)
  test(`the request takes each block's own JSON one record at a time, each parsed once (${records})`, (t) => {
    // Keeping every record's parsed JSON to the end held ~40× the file; one record parsed per record read is the
    // design that holds ~1× (the export bench measures the memory itself).
    const transcript = load(file);
    const blocks = transcript.messages.flatMap((m) => m.blocks.filter((b) => b.location));
    const starts = new Set(blocks.map((b) => b.location?.recordStart));
    assert.ok(blocks.length >= least, `blocks with their own JSON: ${blocks.length}`);
    const parse = t.mock.method(JSON, 'parse');
    const { request } = toAnthropicRequest(transcript);
    const parsed = parse.mock.callCount();
    parse.mock.restore();
    assert.ok(request.messages.length > 0);
    assert.equal(parsed, starts.size);
  });

test("Anthropic's server-side compaction: the request carries its edit, the notes its beta header", () => {
  const t = parseTranscript(thinkingSession('claude-sonnet-4-6').bytes(), 'session.jsonl');
  const policy = clonePolicy(DEFAULT_POLICY);
  policy.name = 'anthropic-compaction';
  policy.anthropicCompaction.trigger = 80_000;
  const { request } = toAnthropicRequest(t);
  const strategy = strategyRequestParts(policy, t, 200_000);
  applyStrategy(request, strategy, strategy.notes);
  assert.deepEqual(request.context_management, {
    edits: [
      {
        type: 'compact_20260112',
        trigger: { type: 'input_tokens', value: 80_000 },
        pause_after_compaction: false,
      },
    ],
  });
  assert.ok(strategy.notes.some((n) => n.includes('anthropic-beta: compact-2026-01-12')));
  assert.deepEqual(refusals(request), []);
});
