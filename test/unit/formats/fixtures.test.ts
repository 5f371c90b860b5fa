// Every real transcript: the format detected, the counts read off the file by hand, and a byte-identical
// round trip with no rewrites.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTranscript, writeTranscript } from '../../../src/core/formats/index';
import { summarizeTranscript } from '../../../src/core/formats/summary';
import type { Transcript } from '../../../src/core/model';
import { fixture, fixtureFiles } from './helpers';

function parse(file: string): Transcript {
  return parseTranscript(fixture(file), file);
}

describe('real fixtures', () => {
  for (const file of fixtureFiles().filter((f) => !f.endsWith('.md'))) {
    it(`${file}: parses without errors and writes back byte-identical`, () => {
      const raw = fixture(file);
      const t = parseTranscript(raw, file);
      assert.equal(t.diagnostics.filter((d) => d.severity === 'error').length, 0);
      assert.deepEqual(writeTranscript(t, []), raw);
      const folder = {
        anthropic: 'anthropic-messages',
        'openai-chat': 'openai-chat',
        'openai-responses': 'openai-responses',
        'claude-code': 'claude-code',
        codex: 'codex',
        'gemini-cli-json': 'gemini-cli-json',
        'gemini-cli': 'gemini-cli',
        opencode: 'opencode',
        'cline-session': 'cline-session',
        'cline-task': 'cline-task',
        'copilot-chat-json': 'copilot-chat-json',
        'copilot-chat': 'copilot-chat',
        'copilot-cli': 'copilot-cli',
      }[file.split('/')[0]];
      assert.equal(t.format, folder);
      // Every block can be found again in the file.
      for (const m of t.messages)
        for (const b of m.blocks) assert.ok(b.location, `message ${m.index} has a block without location`);
    });
  }

  it('claude-code/drmaciver-coverage-test-fix: replies sharing message.id are one message, parallel results one message', () => {
    const t = parse('claude-code/drmaciver-coverage-test-fix.jsonl');
    assert.equal(t.format, 'claude-code');
    const s = summarizeTranscript(t);
    assert.equal(s.messages.total, 28);
    assert.deepEqual(s.messages.byRole, { user: 14, assistant: 14 });
    assert.deepEqual(s.toolCalls.byName, { Glob: 2, Read: 3, Edit: 3, Bash: 5 });
    assert.equal(s.toolResults, 13);
    assert.equal(s.toolResultMessages, 11);
    assert.deepEqual(s.pairing, []);
    assert.deepEqual(s.markers.byLabel, { 'queue-operation': 1 });
    // Lines 6 and 7 share message.id …JZ86Ae: one assistant message with both Read calls; their results
    // (lines 8 and 9, siblings in the tree) form one tool-result message.
    const reads = t.messages[3];
    assert.equal(reads.role, 'assistant');
    assert.deepEqual(
      reads.blocks.map((b) => (b.type === 'tool_use' ? b.name : b.type)),
      ['Read', 'Read'],
    );
    assert.equal(reads.source?.line, 6);
    assert.equal(reads.source?.endLine, 7);
    assert.equal(t.messages[4].blocks.length, 2);
    assert.equal(t.messages[4].source?.line, 8);
    assert.equal(t.messages[4].source?.endLine, 9);
    // The failing Bash (is_error) is kept as an error result.
    const errors = t.messages.flatMap((m) => m.blocks).filter((b) => b.type === 'tool_result' && b.isError);
    assert.equal(errors.length, 1);
    // Usage once per reply (14 distinct message.id), summed as the last line of each reply recorded it.
    assert.deepEqual(s.recordedUsage, {
      inputTokens: 9,
      outputTokens: 158,
      cacheReadInputTokens: 286596,
      cacheCreationInputTokens: 7610,
      replies: 14,
    });
    assert.equal(t.model, 'claude-opus-4-5-20251101');
    assert.deepEqual(t.messages[8].flags, ['isMeta']);
  });

  it('claude-code/drmaciver-hello-world-script: the smallest tool loop', () => {
    const s = summarizeTranscript(parse('claude-code/drmaciver-hello-world-script.jsonl'));
    assert.deepEqual(s.messages.byRole, { user: 4, assistant: 4 });
    assert.deepEqual(s.toolCalls.byName, { Write: 1, Bash: 1 });
    assert.equal(s.toolResults, 2);
    assert.deepEqual(s.recordedUsage, {
      inputTokens: 3,
      outputTokens: 29,
      cacheReadInputTokens: 71036,
      cacheCreationInputTokens: 3539,
      replies: 4,
    });
  });

  it('claude-code/kvsankar 2.1.152: newer record types are markers', () => {
    const t = parse('claude-code/kvsankar-real-session-01-redacted-v2.1.152.jsonl');
    assert.equal(t.messages.length, 2);
    assert.deepEqual(
      t.markers.map((m) => [m.label, m.beforeMessage, m.source?.line]),
      [
        ['queue-operation', 0, 1],
        ['queue-operation', 0, 2],
        ['last-prompt', 2, 5],
      ],
    );
    assert.equal(t.messages[1].usage?.outputTokens, 16);
  });

  it('claude-code/tonghuikang summary-only: no conversation, four visible markers', () => {
    const t = parse('claude-code/tonghuikang-668bd5a3-summary-localcommand-only.jsonl');
    assert.equal(t.messages.length, 0);
    assert.deepEqual(
      t.markers.map((m) => m.label),
      ['summary', 'summary', 'system:local_command', 'system:local_command'],
    );
  });

  it('claude-code/tonghuikang sidechain file: the sub-agent conversation, also listed as a sidechain', () => {
    const t = parse('claude-code/tonghuikang-agent-a3ba710-warmup-sidechain.jsonl');
    assert.equal(t.sidechains.length, 1);
    assert.equal(t.sidechains[0].id, 'a3ba710');
    assert.equal(t.sidechains[0].messages.length, 2);
    assert.equal(t.messages.length, 2);
    assert.ok(t.diagnostics.some((d) => d.code === 'sidechain-only'));
    assert.deepEqual(t.messages[0].flags, ['isSidechain']);
  });

  it('codex/kvsankar: developer → system, token_count → usage of the reply it follows', () => {
    const t = parse('codex/kvsankar-real-session-01-redacted.jsonl');
    assert.equal(t.format, 'codex');
    assert.deepEqual(
      t.messages.map((m) => m.role),
      ['system', 'user', 'user', 'assistant'],
    );
    assert.deepEqual(t.messages[0].flags, ['developer']);
    // input_tokens 22539 of which 20864 cached: the model keeps the uncached part as inputTokens.
    assert.deepEqual(t.messages[3].usage, {
      inputTokens: 1675,
      outputTokens: 10,
      cacheReadInputTokens: 20864,
      cacheCreationInputTokens: 0,
      reasoningOutputTokens: 0,
    });
    assert.equal(t.model, 'gpt-5.5');
    assert.ok(t.system?.length);
    assert.deepEqual(
      t.markers.map((m) => m.label),
      ['session_meta', 'event_msg:task_started', 'turn_context', 'event_msg:task_complete'],
    );
  });

  it('codex/simonw 0.77: three user messages, the turn contexts as markers', () => {
    const t = parse('codex/simonw-sample-codex-session-0.77.jsonl');
    assert.deepEqual(
      t.messages.map((m) => m.role),
      ['user', 'user', 'user'],
    );
    assert.ok((t.messages[2].blocks[0] as { text: string }).text.startsWith('can you analyse the MD files'));
    assert.equal(t.markers.filter((m) => m.label === 'turn_context').length, 6);
    assert.equal(t.model, 'gpt-5.2-codex');
  });

  it('anthropic: system, tools, a tool_use and its result', () => {
    const t = parse('anthropic/pydantic-ai-cassette-text-editor-toolset.request.json');
    assert.equal(t.format, 'anthropic-messages');
    assert.equal(t.system, 'Always use the text editor tool. Keep responses brief.');
    assert.equal(t.tools?.length, 1);
    const use = t.messages[1].blocks[0];
    assert.equal(use.type, 'tool_use');
    assert.deepEqual(use.type === 'tool_use' && use.input, { command: 'view', path: '/tmp/example.py' });
    const result = t.messages[2].blocks[0];
    assert.ok(result.type === 'tool_result' && result.toolUseId === 'toolu_01F9jsn5Fg38kS5NSUURKpyy');
    // Exact ranges in a JSON document: the tool_use block starts on line 15, column 9.
    assert.equal(use.source?.line, 15);
    assert.equal(use.source?.column, 9);
  });

  it('openai-chat: the tool call and its role:"tool" reply', () => {
    const t = parse('openai-chat/pydantic-ai-cassette-tool-output.request.json');
    assert.equal(t.format, 'openai-chat');
    assert.deepEqual(
      t.messages.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    const call = t.messages[1].blocks[0];
    assert.ok(
      call.type === 'tool_use' &&
        call.name === 'get_user_country' &&
        call.id === 'call_55Y1MexM7u2PSyLKUqMvO1o0',
    );
    assert.deepEqual(call.type === 'tool_use' && call.input, {});
    const result = t.messages[2].blocks[0];
    assert.ok(result.type === 'tool_result' && result.content === 'Mexico');
  });

  it('openai-responses: message, function_call and its output', () => {
    const t = parse('openai-responses/pydantic-ai-cassette-simple-response-with-tool-call.request.json');
    assert.equal(t.format, 'openai-responses');
    assert.deepEqual(
      t.messages.map((m) => m.role),
      ['user', 'assistant', 'user'],
    );
    assert.deepEqual(
      t.messages[1].blocks.map((b) => b.type),
      ['text', 'tool_use'],
    );
    const call = t.messages[1].blocks[1];
    assert.deepEqual(call.type === 'tool_use' && call.input, { country: 'PotatoLand' });
    const result = t.messages[2].blocks[0];
    assert.ok(
      result.type === 'tool_result' &&
        result.content === 'Potato City' &&
        result.toolUseId === 'call_61cRAI5gleGxCN89umufHn2a',
    );
  });
});
