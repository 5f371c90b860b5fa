// `context-lens inspect`, run as a process: text and --json output, exit codes, messages for bad input.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { defaultPolicyFor } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats/index';
import { transcriptProblems } from '../../../src/core/problems';
import { transcriptMessage } from '../../../src/host/summaries';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'real');

function inspect(...args: string[]) {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', join(ROOT, 'src', 'cli.ts'), 'inspect', ...args],
    { encoding: 'utf8', cwd: ROOT },
  );
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
