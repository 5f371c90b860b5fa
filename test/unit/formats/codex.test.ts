// Codex rollouts, hand-made: items grouped into messages, usage from token_count, compaction, bad arguments.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { compactTranscriptSync } from '../../../src/core/compact';
import { clonePolicy, defaultPolicyFor } from '../../../src/core/engine/policy';
import { prepareTranscript } from '../../../src/core/engine/prepare';
import { requestSpans } from '../../../src/core/engine/requests';
import { parseTranscript, writeTranscript } from '../../../src/core/formats/index';
import { summarizeTranscript } from '../../../src/core/formats/summary';
import { transcriptProblems } from '../../../src/core/problems';
import { encoderFor } from '../../../src/core/tokens/counter';
import { jsonl } from './helpers';

const item = (payload: Record<string, unknown>) => ({
  timestamp: '2026-01-01T00:00:00Z',
  type: 'response_item',
  payload,
});
const tokens = (input: number, cached: number, output: number, total = input + output) => ({
  timestamp: '2026-01-01T00:00:01Z',
  type: 'event_msg',
  payload: {
    type: 'token_count',
    info: {
      total_token_usage: {
        input_tokens: total,
        cached_input_tokens: 0,
        output_tokens: 0,
        total_tokens: total,
      },
      last_token_usage: {
        input_tokens: input,
        cached_input_tokens: cached,
        output_tokens: output,
        total_tokens: input + output,
      },
    },
  },
});

describe('codex', () => {
  it('groups model items into one assistant message and outputs into one tool-result message', () => {
    const raw = jsonl([
      {
        timestamp: 't',
        type: 'session_meta',
        payload: {
          id: 's',
          cli_version: '0.77.0',
          originator: 'codex_cli_rs',
          base_instructions: { text: 'You are Codex.' },
        },
      },
      { timestamp: 't', type: 'turn_context', payload: { model: 'gpt-5-codex', cwd: '/x' } },
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'list files' }] }),
      item({
        type: 'reasoning',
        summary: [{ type: 'summary_text', text: 'I should run ls' }],
        encrypted_content: 'gAAA',
      }),
      item({ type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: 'c1' }),
      item({
        type: 'custom_tool_call',
        name: 'apply_patch',
        input: '*** Begin Patch',
        call_id: 'c2',
        status: 'completed',
      }),
      tokens(1000, 800, 50),
      item({ type: 'function_call_output', call_id: 'c1', output: 'a.txt\nb.txt' }),
      item({ type: 'custom_tool_call_output', call_id: 'c2', output: 'Success' }),
      { timestamp: 't', type: 'event_msg', payload: { type: 'agent_message', message: 'echo of the reply' } },
      item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'two files' }] }),
      tokens(1200, 1000, 10, 2260),
      tokens(1200, 1000, 10, 2260), // Codex repeats a count at times: not counted twice
    ]);
    const t = parseTranscript(raw, 'rollout.jsonl');
    assert.equal(t.format, 'codex');
    assert.equal(t.system, 'You are Codex.');
    assert.equal(t.model, 'gpt-5-codex');
    assert.deepEqual(
      t.messages.map((m) => `${m.role}:${m.blocks.map((b) => b.type).join(',')}`),
      ['user:text', 'assistant:thinking,tool_use,tool_use', 'user:tool_result,tool_result', 'assistant:text'],
    );
    const [think, shell, patch] = t.messages[1].blocks;
    assert.ok(think.type === 'thinking' && think.text === 'I should run ls' && !think.redacted);
    assert.ok(shell.type === 'tool_use' && shell.name === 'shell' && shell.id === 'c1');
    assert.deepEqual(shell.type === 'tool_use' && shell.input, { command: ['ls'] });
    assert.ok(patch.type === 'tool_use' && patch.input === '*** Begin Patch' && !patch.inputInvalid);
    assert.deepEqual(t.messages[1].usage, {
      inputTokens: 200,
      outputTokens: 50,
      cacheReadInputTokens: 800,
      cacheCreationInputTokens: 0,
    });
    assert.deepEqual(t.messages[3].usage, {
      inputTokens: 200,
      outputTokens: 10,
      cacheReadInputTokens: 1000,
      cacheCreationInputTokens: 0,
    });
    const results = t.messages[2].blocks;
    assert.deepEqual(
      results.map((b) => b.type === 'tool_result' && [b.toolUseId, b.content, b.location?.recordLine]),
      [
        ['c1', 'a.txt\nb.txt', 8],
        ['c2', 'Success', 9],
      ],
    );
    assert.deepEqual(
      t.markers.map((m) => m.label),
      ['session_meta', 'turn_context'],
    );
    // The agent_message echo is accounted for once, where it first appears.
    assert.deepEqual(
      t.diagnostics.map((d) => [d.code, d.line]),
      [['echo-events', 10]],
    );
    assert.deepEqual(writeTranscript(t, []), raw);
  });

  it('compacted is a compaction marker; encrypted reasoning is redacted thinking; older {content, success} outputs', () => {
    const raw = jsonl([
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }),
      { timestamp: 't', type: 'compacted', payload: { message: 'summary of the earlier turns' } },
      item({ type: 'reasoning', summary: [], encrypted_content: 'gAAAA' }),
      item({ type: 'function_call', name: 'shell', arguments: '{"command":', call_id: 'c1' }),
      item({ type: 'function_call_output', call_id: 'c1', output: { content: 'boom', success: false } }),
    ]);
    const t = parseTranscript(raw);
    assert.deepEqual(
      t.markers.map((m) => [m.kind, m.label, m.beforeMessage, m.text]),
      [['compaction', 'compacted', 1, 'summary of the earlier turns']],
    );
    const [think, call] = t.messages[1].blocks;
    assert.ok(think.type === 'thinking' && think.redacted);
    assert.ok(call.type === 'tool_use' && call.inputInvalid && call.input === '{"command":');
    const d = t.diagnostics.find((x) => x.code === 'invalid-arguments');
    assert.equal(d?.line, 4);
    const result = t.messages[2].blocks[0];
    assert.ok(result.type === 'tool_result' && result.content === 'boom' && result.isError);
    assert.deepEqual(result.location?.valuePath, ['payload', 'output', 'content']);
  });

  it('compacted with replacement_history: the requests after it carry those items (kept prompts, the summary), an encrypted one counted apart', () => {
    const kept = 'please keep the build green';
    const t = parseTranscript(
      jsonl([
        item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'old turn' }] }),
        item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'old answer' }] }),
        {
          timestamp: 't',
          type: 'compacted',
          payload: {
            message: '',
            replacement_history: [
              { type: 'message', role: 'user', content: [{ type: 'input_text', text: kept }] },
              { type: 'compaction', encrypted_content: 'gAAAAB'.repeat(50) },
              // Codex's own bookkeeping, never sent to the model.
              { type: 'ghost_snapshot', ghost_commit: { id: 'abc123', parent: null } },
            ],
          },
        },
        item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'next' }] }),
        item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'done' }] }),
      ]),
    );
    assert.deepEqual(
      t.markers.map((m) => [m.kind, m.beforeMessage, m.text, m.summary]),
      [['compaction', 2, '3 items carried over, 1 encrypted (their tokens only the log tells)', kept]],
    );
    const prep = prepareTranscript(t, 'o200k_base');
    assert.equal(
      prep.compactionSummaryTokens.get(2),
      encoderFor('o200k_base').encode(kept).length,
      'the kept prompt is sent in place of the old turns',
    );
    // A local compaction's history holds the summary as a user message: its text and the kept prompts are sent.
    const local = parseTranscript(
      jsonl([
        item({ type: 'message', role: 'user', content: 'a' }),
        {
          timestamp: 't',
          type: 'compacted',
          payload: {
            message: 'the summary',
            replacement_history: [
              { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'a' }] },
              {
                type: 'message',
                role: 'user',
                content: [{ type: 'input_text', text: 'prefix: the summary' }],
              },
            ],
          },
        },
      ]),
    );
    assert.equal(local.markers[0].summary, 'a\n\nprefix: the summary');
    assert.equal(local.markers[0].text, '2 items carried over: the summary');
  });

  it('a context_compacted event alone marks the compaction; beside a compacted record (either order) the record does', () => {
    const event = { timestamp: 't', type: 'event_msg', payload: { type: 'context_compacted' } };
    const record = { timestamp: 't', type: 'compacted', payload: { message: 'the summary' } };
    const around = (...middle: Record<string, unknown>[]) =>
      parseTranscript(
        jsonl([
          item({ type: 'message', role: 'user', content: 'old' }),
          ...middle,
          item({ type: 'message', role: 'user', content: 'new' }),
        ]),
      ).markers.map((m) => [m.kind, m.label, m.beforeMessage]);
    assert.deepEqual(around(event), [['compaction', 'context_compacted', 1]]);
    assert.deepEqual(around(event, record), [['compaction', 'compacted', 1]]);
    assert.deepEqual(around(record, event), [
      ['compaction', 'compacted', 1],
      ['meta-record', 'event_msg:context_compacted', 1],
    ]);
  });

  it('a server-side compaction item is shown, starts no segment, and is not an unknown record', () => {
    const t = parseTranscript(
      jsonl([
        item({ type: 'message', role: 'user', content: 'kept prompt' }),
        item({ type: 'compaction', id: 'cmp_1', encrypted_content: 'gAAAA' }),
        item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ok' }] }),
      ]),
    );
    assert.deepEqual(
      t.markers.map((m) => [m.kind, m.label, m.beforeMessage, m.text]),
      [
        [
          'meta-record',
          'compaction',
          1,
          'encrypted summary of the earlier turns (5 characters; its tokens only the log tells)',
        ],
      ],
    );
    assert.deepEqual(t.diagnostics, []);
  });

  it('an unknown record type is a marker, reported once', () => {
    const t = parseTranscript(
      jsonl([
        item({ type: 'message', role: 'user', content: 'x' }),
        { timestamp: 't', type: 'future_thing', payload: {} },
      ]),
    );
    assert.deepEqual(
      t.markers.map((m) => [m.kind, m.label]),
      [['unknown-record', 'future_thing']],
    );
    assert.equal(t.diagnostics.filter((d) => d.code === 'unknown-record').length, 1);
  });
});

describe('codex, token_count before the reply (0.5x)', () => {
  it("a count written before its reply's items is that reply's, not the previous one's", () => {
    const user = (text: string) =>
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
    const call = (id: string) =>
      item({ type: 'function_call', name: 'shell', arguments: '{"command":["ls"]}', call_id: id });
    const output = (id: string) => item({ type: 'function_call_output', call_id: id, output: 'a.txt' });
    const says = (text: string) =>
      item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
    const rollout = (countFirst: boolean) => {
      const replies = [
        [tokens(1000, 0, 10, 1010), call('c1')],
        [tokens(1100, 1000, 20, 2130), call('c2')],
        [tokens(1200, 1100, 30, 3360), says('done')],
      ];
      return parseTranscript(
        jsonl([
          user('task'),
          ...replies.flatMap(([count, reply], i) => [
            ...(countFirst ? [count, reply] : [reply, count]),
            ...(i < 2 ? [output(`c${i + 1}`)] : []),
          ]),
        ]),
        'rollout.jsonl',
      );
    };
    for (const countFirst of [true, false]) {
      const t = rollout(countFirst);
      assert.deepEqual(
        t.messages.filter((m) => m.role === 'assistant').map((m) => m.usage?.outputTokens),
        [10, 20, 30],
        countFirst ? 'count first' : 'count after',
      );
      assert.equal(t.diagnostics.filter((d) => d.code === 'usage-without-reply').length, 0);
    }
  });
});

describe('codex, early rollouts', () => {
  it('reads a {id, timestamp} header followed by bare Responses items', () => {
    const raw = jsonl([
      { id: '5f8a', timestamp: '2025-05-01T10:00:00Z', instructions: 'project notes' },
      { record_type: 'state' },
      { type: 'message', id: null, role: 'user', content: [{ type: 'input_text', text: 'run the tests' }] },
      {
        type: 'function_call',
        id: 'fc_1',
        name: 'shell',
        arguments: '{"command":["npm","test"]}',
        call_id: 'call_1',
      },
      {
        type: 'function_call_output',
        call_id: 'call_1',
        output: '{"output":"ok","metadata":{"exit_code":0}}',
      },
      {
        type: 'message',
        id: 'msg_1',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'all green' }],
      },
    ]);
    const t = parseTranscript(raw, 'rollout-2025-05-01.jsonl');
    assert.equal(t.format, 'codex');
    assert.match(t.formatReason, /early Codex CLI rollout/);
    assert.equal(t.system, 'project notes');
    assert.deepEqual(
      t.messages.map((m) => `${m.role}:${m.blocks.map((b) => b.type).join(',')}`),
      ['user:text', 'assistant:tool_use', 'user:tool_result', 'assistant:text'],
    );
    assert.deepEqual(
      t.markers.map((m) => m.label),
      ['session header', 'state'],
    );
    const out = writeTranscript(t, [{ messageIndex: 2, blockIndex: 0, content: 'snipped' }]);
    assert.equal(JSON.parse(new TextDecoder().decode(out).split('\n')[4]).output, 'snipped');
  });
});

describe('codex, records of newer agents', () => {
  const user = (text: string) =>
    item({ type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
  const say = (text: string) =>
    item({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
  const think = () => item({ type: 'reasoning', summary: [], encrypted_content: 'gAAAA' });
  const meta = { timestamp: 't', type: 'session_meta', payload: { id: 's', cli_version: '0.144.5' } };
  const event = (payload: Record<string, unknown>) => ({ timestamp: 't', type: 'event_msg', payload });
  let total = 0;
  const count = (input: number, cached = 0, extra: Record<string, number> = {}) => {
    total += input;
    const c = tokens(input, cached, 10, total);
    Object.assign((c.payload.info as { last_token_usage: object }).last_token_usage, extra);
    return c;
  };

  it('a reasoning item cut off by a restart (no token_count, a new session_meta after it) is no request', () => {
    const t = parseTranscript(
      jsonl([
        meta,
        user('first'),
        think(),
        item({ type: 'function_call', name: 'shell', arguments: '{}', call_id: 'c1' }),
        count(100),
        item({ type: 'function_call_output', call_id: 'c1', output: 'ok' }),
        think(), // the reply the restart cut: reasoning only, never counted
        user('again'),
        meta,
        think(),
        say('two'),
        count(200),
      ]),
    );
    assert.deepEqual(
      t.messages.map((m) => `${m.role}${m.flags?.length ? `[${m.flags.join()}]` : ''}`),
      ['user', 'assistant', 'user', 'assistant[cut]', 'user', 'assistant'],
    );
    assert.equal(requestSpans(t.messages, t.markers).ends.length, 2);
    assert.ok(t.diagnostics.some((d) => d.code === 'cut-reply' && d.line === 7));
  });

  it('a reasoning item whose count comes after the restart is a request after all', () => {
    const t = parseTranscript(
      jsonl([meta, user('first'), think(), say('x'), count(50), user('go'), think(), meta, count(100)]),
    );
    assert.equal(requestSpans(t.messages, t.markers).ends.length, 2);
    assert.ok(!t.diagnostics.some((d) => d.code === 'cut-reply'));
  });

  it('a reasoning item before a normal resume with its count is still a request', () => {
    const t = parseTranscript(
      jsonl([meta, user('first'), think(), count(100), user('again'), meta, think(), say('x'), count(200)]),
    );
    assert.equal(requestSpans(t.messages, t.markers).ends.length, 2);
  });

  it('tool_search_call / tool_search_output are a call and its result: the reply after the output is a new request', () => {
    const t = parseTranscript(
      jsonl([
        user('find the tool'),
        think(),
        say('searching'),
        item({
          type: 'tool_search_call',
          call_id: 'ts1',
          status: 'completed',
          execution: 'client',
          arguments: { query: 'document sessions', limit: 5 },
        }),
        item({
          type: 'tool_search_output',
          call_id: 'ts1',
          status: 'completed',
          execution: 'client',
          tools: [{ type: 'function', name: 'list_sessions', parameters: { type: 'object' } }],
        }),
        count(100),
        think(),
        item({
          type: 'web_search_call',
          id: 'ws1',
          status: 'completed',
          action: { type: 'search', query: 'q' },
        }),
        say('found it'),
        count(200),
      ]),
    );
    assert.deepEqual(
      t.messages.map(
        (m) => `${m.role}:${m.blocks.map((b) => (b.type === 'other' ? b.kind : b.type)).join(',')}`,
      ),
      [
        'user:text',
        'assistant:thinking,text,tool_use',
        'user:tool_result',
        'assistant:thinking,web_search_call,text',
      ],
    );
    assert.equal(requestSpans(t.messages, t.markers).ends.length, 2);
    assert.equal(t.messages[2].blocks[0].type === 'tool_result' && t.messages[2].blocks[0].toolUseId, 'ts1');
    assert.equal(t.messages[3].usage?.inputTokens, 200, 'each reply keeps its own count');
    const s = summarizeTranscript(t);
    assert.deepEqual({ ...s.toolCalls.byName }, { web_search: 1 });
    assert.equal(s.toolCalls.total, 1);
    assert.equal(s.toolSearches, 1, 'a tool search loads definitions: counted apart');
    assert.deepEqual(s.pairing, []);
    assert.ok(!t.diagnostics.some((d) => d.code === 'unknown-record'));
  });

  it('no policy rewrites the tool definitions a tool search loaded: the rollout could not hold the stub', () => {
    const records: Record<string, unknown>[] = [
      user('find the tool'),
      item({ type: 'tool_search_call', call_id: 'ts1', execution: 'client', arguments: { query: 'q' } }),
      item({
        type: 'tool_search_output',
        call_id: 'ts1',
        execution: 'client',
        tools: [{ type: 'function', name: 'list_sessions', description: 'd '.repeat(500) }],
      }),
      item({ type: 'function_call', name: 'shell', arguments: '{}', call_id: 'c1' }),
      item({ type: 'function_call_output', call_id: 'c1', output: 'o '.repeat(500) }),
    ];
    for (let i = 2; i < 6; i++)
      records.push(
        item({ type: 'function_call', name: 'shell', arguments: '{}', call_id: `c${i}` }),
        item({ type: 'function_call_output', call_id: `c${i}`, output: `out ${i}` }),
      );
    records.push(say('done'));
    const t = parseTranscript(jsonl(records));
    const policy = clonePolicy(defaultPolicyFor('codex'));
    policy.tiered.floorTools = [];
    policy.name = 'tiered';
    policy.tiered.keepRecent = 1;
    policy.tiered.tier1Distance = 2;
    const result = compactTranscriptSync(t, policy, { fileName: 'rollout.jsonl' });
    const rewritten = result.rewrites.map((r) => t.messages[r.messageIndex].blocks[r.blockIndex]);
    assert.ok(
      rewritten.some((b) => b.type === 'tool_result' && b.toolUseId === 'c1'),
      'the shell output is stubbed',
    );
    assert.ok(!rewritten.some((b) => b.type === 'tool_result' && b.toolUseId === 'ts1'));
    assert.match(
      new TextDecoder().decode(result.output),
      /"tools":\[\{"type":"function","name":"list_sessions"/,
    );
  });

  it('thread_rolled_back: the rolled-back turn is no longer sent by the requests after it', () => {
    const long = 'x '.repeat(3000);
    const records = [
      user('first'),
      say('one'),
      count(100),
      user('second'),
      item({ type: 'function_call', name: 'shell', arguments: '{}', call_id: 'c1' }),
      count(120),
      item({ type: 'function_call_output', call_id: 'c1', output: long }),
      user('<turn_aborted>\nThe user interrupted the previous turn on purpose.\n</turn_aborted>'),
      event({ type: 'turn_aborted', reason: 'interrupted' }),
      event({ type: 'thread_rolled_back', num_turns: 1 }),
      user('third'),
      say('three'),
      count(110),
    ];
    const t = parseTranscript(jsonl(records));
    assert.deepEqual(t.reloads, [{ at: 6, forgotten: [2, 3, 4, 5] }]);
    const none = parseTranscript(
      jsonl(
        records.map((r) =>
          r.payload.type === 'thread_rolled_back' ? event({ type: 'thread_rolled_back', num_turns: 0 }) : r,
        ),
      ),
    );
    assert.equal(none.reloads, undefined, 'no turn rolled back');
    assert.ok(t.markers.some((m) => m.text === '1 turn rolled back: 4 messages no longer sent'));
    const policy = clonePolicy(defaultPolicyFor('codex'));
    policy.name = 'none';
    const requests = analyzeSync(t, policy).analysis.requests.filter((r) => !r.pending);
    assert.equal(requests.length, 3);
    assert.ok(
      requests[2].promptTokens < requests[0].promptTokens + 100,
      `the third request sends the first turn and the third prompt only (${requests.map((r) => r.promptTokens)})`,
    );
  });

  it('cache_write_input_tokens (Codex 0.146) are the recorded cache writes, inside input_tokens', () => {
    const t = parseTranscript(
      jsonl([user('a'), say('b'), count(1000, 600, { cache_write_input_tokens: 300 })]),
    );
    assert.deepEqual(
      [
        t.messages[1].usage?.inputTokens,
        t.messages[1].usage?.cacheReadInputTokens,
        t.messages[1].usage?.cacheCreationInputTokens,
      ],
      [100, 600, 300],
    );
    const bad = parseTranscript(
      jsonl([user('a'), say('b'), count(1000, 600, { cache_write_input_tokens: 500 })]),
    );
    assert.equal(bad.messages[1].usage?.cacheCreationInputTokens, 0);
    assert.ok(bad.diagnostics.some((d) => d.code === 'usage-out-of-range' && d.line === 3));
  });

  it('a malformed compacted record (payload null or a string, replacement_history an object) is no compaction', () => {
    for (const payload of [
      null,
      'summary',
      { message: 'm', replacement_history: { a: 1 } },
      { message: 5 },
    ]) {
      const t = parseTranscript(
        jsonl([
          user('old'),
          say('answer'),
          count(100),
          { timestamp: 't', type: 'compacted', payload },
          user('new'),
        ]),
      );
      assert.ok(!t.markers.some((m) => m.kind === 'compaction'), JSON.stringify(payload));
      const problems = transcriptProblems(t, defaultPolicyFor('codex'));
      const found = problems.find((p) => p.line === 4);
      assert.ok(found?.message.includes('no compaction'), JSON.stringify(problems));
      assert.ok((found?.column ?? 0) > 1, 'the column of the bad value');
    }
  });
});
