// Claude Code sessions, hand-made: the active branch, replies over several lines, compactions, sub-agents,
// bookkeeping records and broken lines.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { clonePolicy, DEFAULT_POLICY } from '../../../src/core/engine/policy';
import { parseTranscript, writeTranscript } from '../../../src/core/formats/index';
import { bytes, ClaudeSession, jsonl } from './helpers';

const use = (id: string, name = 'Read', input: unknown = { file_path: '/a' }) => ({
  type: 'tool_use',
  id,
  name,
  input,
});
const usage = (output: number) => ({
  input_tokens: 5,
  output_tokens: output,
  cache_read_input_tokens: 100,
  cache_creation_input_tokens: 20,
});

describe('claude-code', () => {
  it('follows the active branch from the newest record; an edited turn is an off-branch marker', () => {
    const s = new ClaudeSession();
    const root = s.user('first question');
    s.assistant('msg_a', [{ type: 'text', text: 'first answer' }]);
    s.user('abandoned follow-up');
    s.assistant('msg_b', [{ type: 'text', text: 'abandoned answer' }]);
    // The user edited the follow-up: a new branch from the first answer.
    const firstAnswer = s.records[1].uuid as string;
    s.user('edited follow-up', {}, firstAnswer);
    s.assistant('msg_c', [{ type: 'text', text: 'final answer' }]);
    const t = parseTranscript(s.bytes());
    assert.equal(root, s.records[0].uuid);
    assert.deepEqual(
      t.messages.map((m) => (m.blocks[0] as { text: string }).text),
      ['first question', 'first answer', 'edited follow-up', 'final answer'],
    );
    const off = t.markers.find((m) => m.label === 'off-branch');
    assert.ok(off);
    assert.equal(off.beforeMessage, 2);
    assert.equal(off.source?.line, 3);
    assert.equal(off.source?.endLine, 4);
    assert.match(off.text ?? '', /^2 records/);
  });

  it('joins the lines of one reply (same message.id) and keeps its usage once, from its last line', () => {
    const s = new ClaudeSession();
    s.user('go');
    s.assistant('msg_1', [{ type: 'thinking', thinking: 'hmm', signature: 'x' }], usage(1));
    s.assistant('msg_1', [{ type: 'text', text: 'calling two tools' }], usage(2));
    const a = s.assistant('msg_1', [use('t1')], usage(3));
    const b = s.assistant('msg_1', [use('t2', 'Grep', { pattern: 'x' })], usage(40));
    // Results of parallel calls hang off their own call's line: siblings, not one chain.
    s.result('t1', 'one', a);
    s.result('t2', 'two', b);
    s.assistant('msg_2', [{ type: 'text', text: 'done' }], usage(7));
    const t = parseTranscript(s.bytes());
    assert.deepEqual(
      t.messages.map((m) => `${m.role}:${m.blocks.map((x) => x.type).join(',')}`),
      [
        'user:text',
        'assistant:thinking,text,tool_use,tool_use',
        'user:tool_result,tool_result',
        'assistant:text',
      ],
    );
    assert.deepEqual(t.messages[1].usage, {
      inputTokens: 5,
      outputTokens: 40,
      cacheReadInputTokens: 100,
      cacheCreationInputTokens: 20,
    });
    assert.equal(t.messages[1].source?.line, 2);
    assert.equal(t.messages[1].source?.endLine, 5);
    assert.equal(t.messages.filter((m) => m.usage).length, 2);
    // Each block knows its own line.
    assert.equal(t.messages[2].blocks[1].location?.recordLine, 7);
  });

  it('a result written between two lines of the same reply stays after the reply', () => {
    const s = new ClaudeSession();
    s.user('go');
    const a = s.assistant('msg_1', [use('t1')]);
    s.result('t1', 'one', a);
    s.assistant('msg_1', [use('t2')], undefined, a);
    s.result('t2', 'two');
    const t = parseTranscript(s.bytes());
    assert.deepEqual(
      t.messages.map((m) => `${m.role}:${m.blocks.length}`),
      ['user:1', 'assistant:2', 'user:2'],
    );
  });

  it('compaction: compact_boundary marks it, the summary is the message the next requests start with; the branch continues through logicalParentUuid', () => {
    const s = new ClaudeSession();
    s.user('before compaction');
    const last = s.assistant('msg_1', [{ type: 'text', text: 'old answer' }]);
    const boundary = s.add(
      {
        type: 'system',
        subtype: 'compact_boundary',
        logicalParentUuid: last,
        content: 'Conversation compacted',
        compactMetadata: { trigger: 'auto', preTokens: 155000 },
      },
      null,
    );
    s.user('This session is being continued… summary text', { isCompactSummary: true }, boundary);
    s.user('after compaction');
    s.assistant('msg_2', [{ type: 'text', text: 'new answer' }]);
    const t = parseTranscript(s.bytes());
    assert.deepEqual(
      t.messages.map((m) => (m.blocks[0] as { text: string }).text),
      [
        'before compaction',
        'old answer',
        'This session is being continued… summary text',
        'after compaction',
        'new answer',
      ],
    );
    assert.deepEqual(t.messages[2].flags, ['isCompactSummary']);
    assert.deepEqual(
      t.markers.map((m) => [m.kind, m.label, m.beforeMessage]),
      [
        ['compaction', 'compact_boundary', 2],
        ['compaction', 'isCompactSummary', 2],
      ],
    );
    assert.match(t.markers[0].text ?? '', /auto, 155000 tokens before/);
    assert.match(t.markers[1].text ?? '', /summary text/);
  });

  it("a compaction's preTokens out of range is reported where it stands and not used; the compaction stays", () => {
    const session = (preTokens: unknown) => {
      const s = new ClaudeSession();
      s.user('before compaction');
      const last = s.assistant('msg_1', [{ type: 'text', text: 'old answer' }]);
      const boundary = s.add(
        {
          type: 'system',
          subtype: 'compact_boundary',
          logicalParentUuid: last,
          compactMetadata: { trigger: 'auto', preTokens },
        },
        null,
      );
      s.user('summary', { isCompactSummary: true }, boundary);
      s.user('after compaction');
      s.assistant('msg_2', [{ type: 'text', text: 'new answer' }]);
      return s;
    };
    for (const bad of [1e308, -5, 0, 2.5, '170000', 10_000_001, true]) {
      const s = session(bad);
      const t = parseTranscript(s.bytes());
      const marker = t.markers.find((m) => m.label === 'compact_boundary');
      assert.equal(marker?.kind, 'compaction', String(bad));
      assert.equal(marker?.preTokens, undefined, String(bad));
      assert.doesNotMatch(marker?.text ?? '', /tokens before/);
      const d = t.diagnostics.find((x) => x.code === 'figure-out-of-range');
      assert.ok(d, `no diagnostic for ${String(bad)}`);
      assert.equal(d.severity, 'warning');
      assert.equal(d.line, 3);
      const line = new TextDecoder().decode(s.bytes()).split('\n')[2];
      assert.equal(line.slice(d.column - 1).startsWith(JSON.stringify(bad)), true, `${d.column} in ${line}`);
      assert.match(d.message, /compactMetadata\.preTokens is .*not a context size/);
      const none = clonePolicy(DEFAULT_POLICY);
      none.name = 'compaction';
      const compactions = analyzeSync(t, none).analysis.compactions;
      assert.equal(compactions?.recorded[0]?.preTokens, undefined);
    }
    const good = parseTranscript(session(170_000).bytes());
    assert.equal(good.markers.find((m) => m.label === 'compact_boundary')?.preTokens, 170_000);
    assert.equal(good.diagnostics.filter((x) => x.code === 'figure-out-of-range').length, 0);
  });

  it('sidechain records are their own conversations, and a marker shows where each ran', () => {
    const s = new ClaudeSession();
    s.user('main question');
    const main = s.assistant('msg_1', [use('task1', 'Task', { prompt: 'look around' })]);
    const sub = s.add(
      { type: 'user', isSidechain: true, agentId: 'ag1', message: { role: 'user', content: 'look around' } },
      null,
    );
    s.add(
      {
        type: 'assistant',
        isSidechain: true,
        agentId: 'ag1',
        message: { id: 'msg_s', role: 'assistant', content: [{ type: 'text', text: 'found it' }] },
      },
      sub,
    );
    s.result('task1', 'found it', main);
    const t = parseTranscript(s.bytes());
    assert.equal(t.messages.length, 3);
    assert.equal(t.sidechains.length, 1);
    assert.equal(t.sidechains[0].id, 'ag1');
    assert.deepEqual(
      t.sidechains[0].messages.map((m) => m.role),
      ['user', 'assistant'],
    );
    const marker = t.markers.find((m) => m.label === 'sidechain');
    assert.equal(marker?.beforeMessage, 2);
    assert.equal(marker?.source?.line, 3);
  });

  it('bookkeeping and unknown record types are markers; unknown ones are reported once', () => {
    const s = new ClaudeSession();
    s.records.push({ type: 'file-history-snapshot', messageId: 'm', snapshot: {} });
    s.user('hi');
    s.records.push({ type: 'brand-new-kind', x: 1 });
    s.records.push({ type: 'brand-new-kind', x: 2 });
    s.assistant('msg_1', [
      { type: 'text', text: 'hello' },
      { type: 'server_tool_use', id: 'srv', name: 'web_search', input: {} },
    ]);
    const t = parseTranscript(s.bytes());
    assert.deepEqual(
      t.markers.map((m) => [m.kind, m.label, m.beforeMessage]),
      [
        ['meta-record', 'file-history-snapshot', 0],
        ['unknown-record', 'brand-new-kind', 1],
        ['unknown-record', 'brand-new-kind', 1],
      ],
    );
    assert.equal(t.diagnostics.filter((d) => d.code === 'unknown-record').length, 1);
    const other = t.messages[1].blocks[1];
    assert.equal(other.type, 'other');
    assert.equal(other.type === 'other' && other.kind, 'server_tool_use');
    assert.ok(t.diagnostics.some((d) => d.code === 'unknown-block' && d.line === 5));
  });

  it('a broken line is a diagnostic with line and column and a marker; parsing continues', () => {
    const s = new ClaudeSession();
    s.user('one');
    s.assistant('msg_1', [{ type: 'text', text: 'two' }]);
    const good = new TextDecoder().decode(s.bytes()).split('\n');
    const broken = [good[0], '{"type":"user","message":{"role":"user","content":"cut', good[1], ''].join(
      '\n',
    );
    const t = parseTranscript(bytes(broken));
    assert.equal(t.messages.length, 2);
    const d = t.diagnostics.find((x) => x.code === 'invalid-json');
    assert.ok(d);
    assert.equal(d.line, 2);
    assert.equal(d.column, 55); // just past the end of the line, where the string was cut
    assert.equal(t.markers[0].label, 'malformed line');
    assert.equal(t.markers[0].beforeMessage, 1);
    assert.deepEqual(writeTranscript(t, []), bytes(broken));
  });

  it('invalid UTF-8 is reported with its line and column and the bytes are kept', () => {
    const s = new ClaudeSession();
    s.user('café ok');
    s.assistant('msg_1', [{ type: 'text', text: 'XbadX' }]);
    const raw = s.bytes();
    const at = raw.indexOf('X'.charCodeAt(0));
    raw[at] = 0xff;
    const t = parseTranscript(raw);
    const d = t.diagnostics.find((x) => x.code === 'invalid-utf8');
    assert.ok(d);
    assert.equal(d.line, 2);
    const line2 = new TextDecoder().decode(raw).split('\n')[1];
    assert.equal(d.column, line2.indexOf('\uFFFD') + 1);
    assert.equal((t.messages[1].blocks[0] as { text: string }).text, '\uFFFDbadX');
    assert.deepEqual(writeTranscript(t, []), raw);
  });

  it('a JSON nesting bomb on one line is reported and skipped over', () => {
    const s = new ClaudeSession();
    s.user('before');
    const bomb = `{"type":"user","message":{"role":"user","content":${'['.repeat(100000)}${']'.repeat(100000)}}}`;
    const after = JSON.stringify({
      type: 'user',
      uuid: 'u9',
      parentUuid: s.records[0].uuid,
      sessionId: 's1',
      message: { role: 'user', content: 'after' },
    });
    const raw = bytes(`${JSON.stringify(s.records[0])}\n${bomb}\n${after}\n`);
    const t = parseTranscript(raw);
    assert.deepEqual(
      t.messages.map((m) => (m.blocks[0] as { text: string }).text),
      ['before', 'after'],
    );
    const d = t.diagnostics.find((x) => x.code === 'invalid-json');
    assert.equal(d?.line, 2);
    assert.match(d?.message ?? '', /nested deeper than 256/);
    assert.deepEqual(writeTranscript(t, []), raw);
  });

  it('a 50 MB line (a huge tool output) parses, and a 50 MB broken line is reported at its end', () => {
    const s = new ClaudeSession();
    s.user('read it');
    const a = s.assistant('msg_1', [use('big')]);
    const huge = 'x'.repeat(50 * 1024 * 1024);
    s.result('big', huge, a);
    const raw = s.bytes();
    const t = parseTranscript(raw);
    const result = t.messages[2].blocks[0];
    assert.equal(result.type === 'tool_result' && result.content.length, huge.length);
    // The same line cut short: a diagnostic, and the lines around it still read.
    const text = new TextDecoder().decode(raw).split('\n');
    const cut = [text[0], text[1], text[2].slice(0, 40 * 1024 * 1024), ''].join('\n');
    const t2 = parseTranscript(bytes(cut));
    assert.equal(t2.messages.length, 2);
    const d = t2.diagnostics.find((x) => x.code === 'invalid-json');
    assert.equal(d?.line, 3);
    assert.equal(d?.column, 40 * 1024 * 1024 + 1);
  });

  it('a microcompact boundary: the results it cleared are no longer sent from there on, and the cache breaks', () => {
    const s = new ClaudeSession();
    s.user('look at the files');
    const big = (k: string) => `${k} `.repeat(3000);
    s.result('t1', big('one'), s.assistant('msg_1', [use('t1')]));
    s.result('t2', big('two'), s.assistant('msg_2', [use('t2')]));
    s.result('t3', big('three'), s.assistant('msg_3', [use('t3')]));
    s.assistant('msg_4', [{ type: 'text', text: 'read them' }]);
    s.add({
      type: 'system',
      subtype: 'microcompact_boundary',
      content: 'Context microcompacted',
      microcompactMetadata: {
        trigger: 'auto',
        preTokens: 9000,
        tokensSaved: 6000,
        compactedToolIds: ['t1', 't2'],
      },
    });
    s.user('go on');
    s.assistant('msg_5', [{ type: 'text', text: 'done' }]);
    const t = parseTranscript(s.bytes());
    // Messages: 0 prompt, 1/2 t1, 3/4 t2, 5/6 t3, 7 reply, 8 prompt (the boundary sits before it), 9 reply. The
    // clearing applies from the first request that sends message 7 on.
    assert.deepEqual(t.reloads, [{ at: 7, forgotten: [2, 4] }]);
    const marker = t.markers.find((m) => m.label === 'system:microcompact_boundary');
    assert.equal(
      marker?.text,
      'microcompact: 2 older tool results cleared from the requests after this, 6000 tokens saved',
    );
    assert.match(
      t.diagnostics.find((d) => d.code === 'microcompact')?.message ?? '',
      /cleared 2 older tool results/,
    );
    const none = clonePolicy(DEFAULT_POLICY);
    none.name = 'none';
    const [r0, , , r3, r4] = analyzeSync(t, none).analysis.requests;
    const cleared = r3.promptTokens - r0.promptTokens;
    assert.ok(r4.promptTokens < r3.promptTokens - cleared / 2, `${r3.promptTokens} → ${r4.promptTokens}`);
    assert.ok(r4.cachedTokens < r3.promptTokens / 2, 'the cache breaks at the first cleared result');
  });

  it('microcompactions clear results one by one and add up; the request right after a boundary sends them cleared', () => {
    const s = new ClaudeSession();
    s.user('look at the files');
    const big = (k: string) => `${k} `.repeat(3000);
    // Three reads in one reply, their results in one message (Claude Code 2.1.19 writes one record each).
    const reply = s.assistant('msg_1', [use('t1'), use('t2'), use('t3')]);
    s.result('t1', big('one'), reply);
    s.result('t2', big('two'));
    s.result('t3', big('three'));
    s.result('t4', 'small', s.assistant('msg_2', [use('t4')]));
    const boundary = (ids: string[]) =>
      s.add({
        type: 'system',
        subtype: 'microcompact_boundary',
        content: 'Context microcompacted',
        microcompactMetadata: { trigger: 'auto', preTokens: 9000, tokensSaved: 3000, compactedToolIds: ids },
      });
    boundary(['t3']);
    s.result('t5', 'small', s.assistant('msg_3', [use('t5')]));
    boundary(['t1', 't2']);
    s.assistant('msg_4', [{ type: 'text', text: 'done' }]);
    const t = parseTranscript(s.bytes());
    // Messages: 0 prompt, 1 reply, 2 results of t1-t3, 3 reply, 4 result t4, 5 reply, 6 result t5, 7 reply.
    assert.equal(t.messages[2].blocks.length, 3);
    assert.deepEqual(t.reloads, [
      { at: 4, forgotten: [], cleared: [[2, 2]] },
      { at: 6, forgotten: [2] },
    ]);
    const none = clonePolicy(DEFAULT_POLICY);
    none.name = 'none';
    const [r0, r1, r2, r3] = analyzeSync(t, none).analysis.requests;
    const read = r1.promptTokens - r0.promptTokens;
    // Request 2 (after the first boundary) no longer sends t3's result, a third of the reads, though it keeps t1's
    // and t2's; request 3 (after the second) none of them.
    assert.ok(r2.promptTokens < r1.promptTokens - read / 4, `${r1.promptTokens} → ${r2.promptTokens}`);
    assert.ok(r2.promptTokens > r1.promptTokens - read / 2, `${r1.promptTokens} → ${r2.promptTokens}`);
    assert.ok(r3.promptTokens < r0.promptTokens + read / 10, `${r0.promptTokens} … ${r3.promptTokens}`);
    assert.ok(r2.cachedTokens < r1.promptTokens - read / 4, 'the cache breaks at the cleared result');
  });

  it('detects a session by content whatever the file is called', () => {
    const s = new ClaudeSession();
    s.user('hi');
    const t = parseTranscript(s.bytes(), 'notes.txt');
    assert.equal(t.format, 'claude-code');
    assert.match(t.formatReason, /Claude Code/);
  });

  it('CRLF line ends are kept out of records and survive the round trip', () => {
    const raw = bytes(
      `${JSON.stringify({ type: 'user', uuid: 'a', parentUuid: null, sessionId: 's', message: { role: 'user', content: 'hi' } })}\r\n`,
    );
    const t = parseTranscript(raw);
    assert.equal(t.messages.length, 1);
    assert.equal(t.messages[0].source?.end, raw.length - 2);
    assert.deepEqual(writeTranscript(t, []), raw);
    assert.equal(jsonl([]).length, 1);
  });
});
