// `context-lens inspect`, run as a process: text and --json output, exit codes, messages for bad input.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { defaultPolicyFor } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats/index';
import { transcriptProblems } from '../../../src/core/problems';
import { transcriptMessage } from '../../../src/host/summaries';
import { cliArgs } from '../cliProcess';
import { ClaudeSession } from '../formats/helpers';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'real');

function inspect(...args: string[]) {
  const run = spawnSync(process.execPath, [...cliArgs, 'inspect', ...args], { encoding: 'utf8', cwd: ROOT });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

describe('context-lens inspect', () => {
  it('prints format and why, counts, pairing, usage and diagnostics', () => {
    const r = inspect(join(FIXTURES, 'claude-code', 'drmaciver-coverage-test-fix.jsonl'));
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /: claude-code \(42527 bytes\)/);
    assert.match(r.out, /why: JSONL records of type user\/assistant/);
    assert.match(r.out, /messages: 28 \(assistant 14, user 14\)/);
    assert.match(r.out, /tool calls: 13 \(Bash 5, Edit 3, Read 3, Glob 2\)/);
    assert.match(r.out, /tool results: 13 in 11 tool-result messages/);
    assert.match(r.out, /markers: 1 \(queue-operation 1\)/);
    assert.match(r.out, /pairing: every tool_use has its tool_result/);
    assert.match(
      r.out,
      /recorded usage, the whole file \(14 replies: input 9, output 158, cache read 286596, cache write 7610; \$0\.1949\)/,
    );
    assert.match(r.out, /problems: none/);
  });

  it('--json prints the same as one object, with pairing problems by id and line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'inspect-'));
    const file = join(dir, 'chat.json');
    writeFileSync(
      file,
      JSON.stringify({
        messages: [
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'lonely', type: 'function', function: { name: 'f', arguments: 'not json' } }],
          },
          { role: 'tool', tool_call_id: 'stray', content: 'x' },
        ],
      }),
    );
    const r = inspect(file, '--json');
    assert.equal(r.code, 0, r.err);
    const j = JSON.parse(r.out);
    assert.equal(j.format, 'openai-chat');
    assert.deepEqual(j.toolCalls, { total: 1, byName: { f: 1 } });
    assert.deepEqual(
      j.pairing.map((p: { kind: string; id: string; line: number }) => [p.kind, p.id, p.line]),
      [
        ['tool_use-without-result', 'lonely', 1],
        ['tool_result-without-use', 'stray', 1],
      ],
    );
    assert.equal(j.diagnostics[0].code, 'invalid-arguments');
    assert.equal(j.recordedUsage, null);
    // One list of problems: inspect, the view's Problems tab and the Problems panel say the same, from one function.
    const t = parseTranscript(new Uint8Array(readFileSync(file)), file);
    const panel = transcriptProblems(t, defaultPolicyFor(t.format));
    const view = transcriptMessage(t, file, 1).diagnostics;
    assert.deepEqual(
      j.problems.map((p: { code: string; line: number }) => [p.code, p.line]),
      panel.map((p) => [p.code, p.line]),
    );
    assert.deepEqual(
      view.map((p) => [p.code, p.line]),
      panel.map((p) => [p.code, p.line]),
    );
    assert.equal(panel.length, 3, 'the invalid arguments and both pairing problems');
  });

  it('exits non-zero with what was expected for an unrecognised or unreadable file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'inspect-'));
    const file = join(dir, 'notes.json');
    writeFileSync(file, '{"title": "not a transcript"}');
    const bad = inspect(file);
    assert.equal(bad.code, 1);
    assert.match(bad.err, /is not a transcript this tool reads/);
    assert.match(bad.err, /Expected one of:/);
    assert.match(bad.err, /anthropic-messages: not a JSON document with a "messages" array/);
    const missing = inspect(join(dir, 'missing.jsonl'));
    assert.equal(missing.code, 1);
    assert.match(missing.err, /cannot read .*missing\.jsonl \(ENOENT/);
    assert.match(missing.err, /Expected a transcript file/);
    assert.equal(inspect().code, 2);
  });
});

describe('context-lens inspect on a Claude Code session with a subagents folder', () => {
  const usage = {
    input_tokens: 10,
    output_tokens: 5,
    cache_read_input_tokens: 0,
    cache_creation_input_tokens: 100,
  };
  function session(dir: string) {
    const s = new ClaudeSession();
    s.user('look around');
    s.assistant('msg_1', [{ type: 'tool_use', id: 'task1', name: 'Task', input: { prompt: 'list' } }], usage);
    // The runtime echoes the sub-agent's call in a progress record as well (2.1.19).
    s.add({
      type: 'progress',
      data: {
        type: 'agent_progress',
        agentId: 'a1',
        message: {
          type: 'assistant',
          message: {
            id: 'msg_sub',
            role: 'assistant',
            model: 'claude-test',
            content: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'ls' } }],
          },
        },
      },
    });
    s.result('task1', 'two files');
    s.assistant('msg_2', [{ type: 'text', text: 'done' }], usage);
    const file = join(dir, 'session-1.jsonl');
    writeFileSync(file, s.bytes());
    const agent = new ClaudeSession();
    agent.add(
      { type: 'user', isSidechain: true, agentId: 'a1', message: { role: 'user', content: 'list' } },
      null,
    );
    agent.add({
      type: 'assistant',
      isSidechain: true,
      agentId: 'a1',
      message: {
        id: 'msg_sub',
        role: 'assistant',
        model: 'claude-test',
        content: [{ type: 'tool_use', id: 'b1', name: 'Bash', input: { command: 'ls' } }],
        usage,
      },
    });
    agent.add({
      type: 'user',
      isSidechain: true,
      agentId: 'a1',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'b1', content: 'a b' }] },
    });
    mkdirSync(join(dir, 'session-1', 'subagents'), { recursive: true });
    writeFileSync(join(dir, 'session-1', 'subagents', 'agent-a1.jsonl'), agent.bytes());
    writeFileSync(join(dir, 'session-1', 'subagents', 'notes.txt'), 'not an agent file');
    return file;
  }

  it('reads the sub-agent files as the Sessions view does, counting a sub-agent the file also echoes once', () => {
    const file = session(mkdtempSync(join(tmpdir(), 'inspect-sub-')));
    const r = inspect(file);
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out,
      /tool calls: 1 \(Task 1\)\n {2}1 more echoed in the sub-agents' progress records \(their own files hold them; not counted\)/,
    );
    assert.match(
      r.out,
      /sub-agent files: 1 in the session's subagents folder: a1 \(3 messages, 1 tool calls\)/,
    );
    assert.match(r.out, /the session with its sub-agent files: 2 tool calls/);
    assert.match(r.out, /recorded usage, with the sub-agent files \(3 replies: input 30, output 15,/);
    const json = JSON.parse(inspect(file, '--json').out);
    assert.equal(json.subAgentFiles.length, 1);
    assert.equal(json.subAgentFiles[0].agentId, 'a1');
    assert.equal(json.session.toolCalls, 2);
    assert.equal(json.session.recordedUsage.replies, 3);
  });
});
