// `simulate` and `cache` name the sub-agent they replay by the description of the Task call that started it (as the
// view's conversation picker names it), with the id `--thread` takes; a description is transcript text, shown inert.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { cliArgs } from '../cliProcess';
import { ClaudeSession } from '../formats/helpers';

const AGENT = 'a1b2c3d';
const PROMPT = 'List the entry points of src/parser and what each one reads.';
const USAGE = {
  input_tokens: 1200,
  output_tokens: 40,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
};

/** A session whose one Task call starts a sub-agent, inline in the file (`isSidechain`, `agentId`). */
function session(description: string): string {
  const s = new ClaudeSession();
  s.user('Where does the parser start?');
  const main = s.assistant(
    'msg_1',
    [{ type: 'tool_use', id: 'toolu_1', name: 'Task', input: { description, prompt: PROMPT } }],
    USAGE,
  );
  const side = { isSidechain: true, agentId: AGENT };
  s.user(PROMPT, side, null);
  s.add({
    type: 'assistant',
    ...side,
    message: {
      id: 'msg_2',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'parse() and parseFile().' }],
      usage: USAGE,
    },
  });
  s.result('toolu_1', 'parse() and parseFile().', main);
  s.assistant('msg_3', [{ type: 'text', text: 'It starts at parse().' }], USAGE);
  const file = join(mkdtempSync(join(tmpdir(), 'context-lens-thread-')), 'session.jsonl');
  writeFileSync(file, s.bytes());
  return file;
}

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [...cliArgs, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test("simulate and cache name a sub-agent by its call's description, with its id", () => {
  const file = session('Survey the parser');
  const simulated = cli('simulate', '--no-token-cache', '--policy', 'none', '--thread', AGENT, file);
  assert.equal(simulated.code, 0, simulated.err);
  assert.match(simulated.out, new RegExp(`; sub-agent: Survey the parser \\(${AGENT}\\); `));
  const cached = cli('cache', '--thread', AGENT, file);
  assert.equal(cached.code, 0, cached.err);
  assert.match(
    cached.out,
    new RegExp(`\\(sub-agent: Survey the parser \\(${AGENT}\\)\\), as the log records them`),
  );
  // The main thread keeps its name.
  assert.match(cli('simulate', '--no-token-cache', '--policy', 'none', file).out, /; main thread; /);
});

test("a description's escape sequences reach the terminal as text", () => {
  const file = session('Survey\u001b]0;owned\u0007 the parser');
  const r = cli('simulate', '--no-token-cache', '--policy', 'none', '--thread', AGENT, file);
  assert.equal(r.code, 0, r.err);
  assert.ok(!r.out.includes('\u001b'), 'no escape reaches the terminal');
  assert.ok(r.out.includes('sub-agent: Survey\\u001b]0;owned\\u0007 the parser'), r.out);
});
