// Cline, Roo Code and Kilo Code tasks: the history file read with the request rows of ui_messages.json beside it,
// found in the editors' global storage, written back spliced.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { buildPolicy } from '../../../src/cli/policyArgs';
import { analyzeSync } from '../../../src/core/analysis';
import { loggedBreaks } from '../../../src/core/cacheBreaks';
import { readUiMessages } from '../../../src/core/formats/clineTask/uiMessages';
import { detectFormat, writeTranscript } from '../../../src/core/formats/index';
import { adapterFor } from '../../../src/core/formats/registry';
import { recordedUsage } from '../../../src/core/recordedUsage';
import { parseTranscriptFile } from '../../../src/node/parseFile';
import { sessionsOf } from '../../../src/node/sessionFiles';
import { clineTask, writeTask } from '../../agentTasks';
import { AGENT_SESSIONS } from '../../sharedFixtures';
import { cliArgs } from '../cliProcess';

const root = mkdtempSync(join(tmpdir(), 'context-lens-cline-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('a Cline task is detected by its content and read with the usage, cost, model and truncations of its rows', () => {
  const file = writeTask(join(root, 'a'), clineTask());
  const bytes = readFileSync(file);
  const detected = detectFormat(new Uint8Array(bytes), 'whatever.json');
  assert.equal(detected.format, 'cline-task');
  const t = parseTranscriptFile(new Uint8Array(bytes), file);
  assert.match(
    t.formatReason,
    /<task>.*modelInfo.*Result:.*ui_messages\.json beside it.*Cline, Roo Code or Kilo Code task/,
  );
  assert.equal(t.messages.length, 6);
  // The "[read_file …] Result:" text answers t1; t2 has its tool_result block; the image is kept.
  const pairs = t.messages.flatMap((m) =>
    m.blocks.flatMap((b) => (b.type === 'tool_result' ? [b.toolUseId] : [])),
  );
  assert.deepEqual(pairs, ['t1', 't2']);
  assert.equal(t.messages[4].blocks[1].type, 'image');
  assert.deepEqual(
    t.messages.filter((m) => m.role === 'assistant').map((m) => m.usage?.cacheReadInputTokens),
    [0, 3000, 2900],
  );
  assert.equal(t.model, 'claude-sonnet-4-5');
  assert.deepEqual(t.reloads, [{ at: 4, forgotten: [2, 3] }]);
  assert.deepEqual(
    t.markers.map((m) => [m.label, m.beforeMessage]),
    [['conversationHistoryDeletedRange', 4]],
  );
  const u = recordedUsage(t);
  assert.equal(u?.replies, 3);
  assert.ok(Math.abs((u?.agentCost ?? 0) - 0.019) < 1e-12);
  assert.ok(t.diagnostics.some((d) => d.code === 'request-unfinished'));
  // The replay sends request 3 without messages 2 and 3 (the 40 lines of the read).
  const prompts = (x: typeof t) =>
    analyzeSync(x, buildPolicy(x, 'none', undefined, []))
      .analysis.requests.filter((r) => !r.pending)
      .map((r) => r.promptTokens);
  const sent = prompts(t);
  const whole = prompts({ ...t, reloads: undefined });
  assert.equal(sent.length, 3);
  // (Each fits its hidden prefix to the recorded usage: the first two differ by that alone.)
  assert.equal(whole[0] - sent[0], whole[1] - sent[1]);
  assert.ok(whole[2] - sent[2] - (whole[1] - sent[1]) > 200, `${whole} ${sent}`);
});

test("Roo Code's rows count the cached part into tokensIn (OpenAI protocol, and Anthropic from 31 October 2025)", () => {
  const row = (ts: number, apiProtocol: string) => ({
    ts,
    type: 'say',
    say: 'api_req_started',
    text: JSON.stringify({
      apiProtocol,
      tokensIn: 1000,
      tokensOut: 5,
      cacheWrites: 100,
      cacheReads: 800,
      cost: 0.01,
    }),
  });
  const ui = readUiMessages(
    new TextEncoder().encode(
      JSON.stringify([
        row(Date.UTC(2026, 0, 1), 'openai'),
        row(Date.UTC(2026, 0, 1), 'anthropic'),
        row(Date.UTC(2025, 5, 1), 'anthropic'),
      ]),
    ),
  );
  assert.equal(ui.flavor, 'roo');
  assert.deepEqual(
    ui.requests.map((r) => r.usage?.inputTokens),
    [100, 100, 1000],
  );
});

test('an export splices a rewritten "[tool] Result:" text into its own text and leaves every other byte', () => {
  const file = writeTask(join(root, 'w'), clineTask());
  const raw = new Uint8Array(readFileSync(file));
  const t = parseTranscriptFile(raw, file);
  const out = writeTranscript(t, [
    { messageIndex: 2, blockIndex: 0, content: '[read_file for a.ts: cleared]' },
  ]);
  const back = JSON.parse(new TextDecoder().decode(out));
  assert.equal(back[2].content[0].text, '[read_file for a.ts: cleared]');
  back[2].content[0].text = JSON.parse(new TextDecoder().decode(raw))[2].content[0].text;
  assert.equal(JSON.stringify(back), new TextDecoder().decode(raw));
  assert.equal(adapterFor('cline-task').wire, 'anthropic');
});

test('a broken history is reported at its line and column; a broken ui_messages.json at its own', () => {
  const task = clineTask();
  const dir = join(root, 'broken');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'api_conversation_history.json');
  const text = JSON.stringify(task.api, null, 1);
  writeFileSync(file, text.slice(0, text.length - 40));
  writeFileSync(
    join(dir, 'ui_messages.json'),
    '[{"ts":1,"type":"say"},\n {"ts":2,"type":"say" "say":"text"}]',
  );
  const t = parseTranscriptFile(new Uint8Array(readFileSync(file)), file);
  assert.equal(t.format, 'cline-task');
  const broken = t.diagnostics.find((d) => d.code === 'invalid-json');
  assert.ok(broken && broken.line > 1 && broken.column >= 1, JSON.stringify(t.diagnostics));
  const ui = t.diagnostics.find((d) => d.code === 'ui-messages');
  assert.match(ui?.message ?? '', /ui_messages\.json: .* \(line 2, column 23 of ui_messages\.json\)/);
});

test("tasks are found in the global storage of each editor, under the agent that wrote them, and in Cline's own data folder", async () => {
  const home = join(root, 'home');
  writeTask(
    join(home, '.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1770000000000'),
    clineTask(),
  );
  const roo = clineTask();
  (roo.api[0] as { content: { text: string }[] }).content[0].text = '<task>\nadd a README\n</task>';
  writeTask(join(home, '.config/Cursor/User/globalStorage/rooveterinaryinc.roo-cline/tasks/0b6f2c8e-1'), roo);
  writeTask(
    join(home, '.local/share/code-server/User/globalStorage/kilocode.kilo-code/tasks/k-1'),
    clineTask(),
  );
  // Cline's own data folder (its CLI's; its extension's tasks from before its SDK), beside the editors' storage.
  const data = join(home, 'cline-data');
  const cli = clineTask();
  (cli.api[0] as { content: { text: string }[] }).content[0].text = '<task>\nrun the linter\n</task>';
  writeTask(join(data, 'tasks', '1770000000009'), cli);
  const files = await sessionsOf(adapterFor('cline-task'), { HOME: home, CLINE_DATA_DIR: data });
  assert.deepEqual(files.map((f) => [f.agent, f.firstPrompt, f.project]).sort(), [
    ['Cline', 'fix the tests', '/home/u/proj'],
    ['Cline', 'run the linter', '/home/u/proj'],
    ['Kilo Code', 'fix the tests', '/home/u/proj'],
    ['Roo Code', 'add a README', '/home/u/proj'],
  ]);
  assert.ok(files.every((f) => f.path.endsWith('api_conversation_history.json')));
});

// Real tasks (docs/testing.md: read where they are, skipped when absent).
const realCline = join(AGENT_SESSIONS, 'cline');
test('real Cline task histories: every message read, one reply per recorded request', {
  skip: !existsSync(realCline),
}, async () => {
  const { readdirSync } = await import('node:fs');
  for (const task of readdirSync(realCline)) {
    const file = join(realCline, task, 'api_conversation_history.json');
    const raw = readFileSync(file);
    const list = JSON.parse(raw.toString('utf8')) as Record<string, unknown>[];
    const t = parseTranscriptFile(new Uint8Array(raw), file);
    assert.equal(t.format, 'cline-task', task);
    assert.equal(t.messages.length, list.length, task);
    const blocks = list.reduce((n, m) => n + (Array.isArray(m.content) ? m.content.length : 1), 0);
    assert.equal(
      t.messages.reduce((n, m) => n + m.blocks.length, 0),
      blocks,
      task,
    );
    const recorded = existsSync(join(realCline, task, 'ui_messages.json'))
      ? readUiMessages(readFileSync(join(realCline, task, 'ui_messages.json'))).requests.filter(
          (r) => r.usage && !r.aside,
        ).length
      : list.filter((m) => m.role === 'assistant' && m.metrics).length;
    assert.equal(t.replies?.filter((r) => r.onBranch).length, recorded, task);
  }
});

test("without ui_messages.json, the replies' metrics are the usage and a fall of the prompt says a truncation is unknown", () => {
  const { api } = clineTask();
  const metrics = (prompt: number) => ({ tokens: { prompt, completion: 5, cached: 0 }, cost: 0.01 });
  Object.assign(api[1] as object, { metrics: metrics(5000) });
  Object.assign(api[3] as object, { metrics: metrics(6000) });
  Object.assign(api[5] as object, { metrics: metrics(3000) });
  const file = writeTask(join(root, 'metrics'), { api });
  const t = parseTranscriptFile(new Uint8Array(readFileSync(file)), file);
  assert.deepEqual(
    t.replies?.map((r) => [r.usage.inputTokens, r.agentCost]),
    [
      [5000, 0.01],
      [6000, 0.01],
      [3000, 0.01],
    ],
  );
  const unknown = t.diagnostics.find((d) => d.code === 'truncations-unknown');
  assert.match(unknown?.message ?? '', /falls at 1 requests \(the first at message 5\)/);
});

test('a rewrite that cuts the "[tool] Result:" header still answers its call when the export is read again', () => {
  const file = writeTask(join(root, 'cut'), clineTask());
  const t = parseTranscriptFile(new Uint8Array(readFileSync(file)), file);
  const out = writeTranscript(t, [
    { messageIndex: 2, blockIndex: 0, content: 'const a = 1; (40 lines, cut)' },
  ]);
  const again = parseTranscriptFile(out, join(root, 'cut', 'elsewhere.json'));
  const block = again.messages[2].blocks[0];
  assert.equal(block.type, 'tool_result');
  assert.equal(block.type === 'tool_result' && block.toolUseId, 't1');
  // The environment's details after the outputs stay text.
  assert.equal(again.messages[2].blocks[1].type, 'text');
});

test("report finds the tasks in the editors' storage of the home it runs in", async () => {
  const { findSessions } = await import('../../../src/cli/report/files');
  const home = join(root, 'report-home');
  const task = join(home, '.config/Code/User/globalStorage/saoudrizwan.claude-dev/tasks/1770000000001');
  writeTask(task, clineTask());
  const saved = {
    HOME: process.env.HOME,
    CLAUDE_CONFIG_DIR: process.env.CLAUDE_CONFIG_DIR,
    CODEX_HOME: process.env.CODEX_HOME,
  };
  Object.assign(process.env, {
    HOME: home,
    CLAUDE_CONFIG_DIR: join(home, 'none'),
    CODEX_HOME: join(home, 'none'),
  });
  try {
    const found = await findSessions(
      { paths: [] } as unknown as Parameters<typeof findSessions>[0],
      () => {},
    );
    // The history is the session; the chat's rows beside it are read with it, not listed.
    assert.deepEqual(
      found.map((f) => f.path),
      [join(task, 'api_conversation_history.json')],
    );
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
});

test("a task's ui_messages.json opened alone is no transcript, and says which file to open", () => {
  const d = detectFormat(new TextEncoder().encode(JSON.stringify(clineTask().ui)), 'ui_messages.json');
  assert.equal(d.format, null);
  assert.ok('rejected' in d);
  assert.match(
    d.rejected.find((r) => r.format === 'cline-task')?.reason ?? '',
    /open api_conversation_history\.json beside it/,
  );
});

const REAL_TASKS = join(import.meta.dirname, '..', '..', 'fixtures', 'real', 'cline-task');
const realTask = (id: string) => {
  const file = join(REAL_TASKS, id, 'api_conversation_history.json');
  const t = parseTranscriptFile(new Uint8Array(readFileSync(file)), file);
  return { t, a: analyzeSync(t, buildPolicy(t, 'none', undefined, [])).analysis };
};
const promptError = (r: { promptTokens: number; recorded?: Record<string, number> }) => {
  const rec = r.recorded as Record<string, number>;
  const p = rec.inputTokens + rec.cacheReadInputTokens + rec.cacheCreationInputTokens;
  return Math.abs(r.promptTokens - p) / p;
};
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];

test("a real Roo Code task that switched modes: each mode's system prompt fitted apart, every request within 5%", () => {
  const { t, a } = realTask('bc93a6f7-cd2e-4686-a832-46e3cd14d338');
  const modes = t.messages.filter((m) => m.role === 'assistant').map((m) => m.agentMode);
  assert.deepEqual([...new Set(modes)], ['code', 'orchestrator']);
  assert.deepEqual(
    a.hiddenPrefix?.byModel?.map((m) => m.model),
    ['claude-sonnet-4-20250514 in code mode', 'claude-sonnet-4-20250514 in orchestrator mode'],
  );
  const sent = a.requests.filter((r) => r.recorded);
  assert.equal(sent.length, 30);
  // One fit for both modes left the requests after the switch 13–27% off.
  assert.ok(sent.every((r) => promptError(r) < 0.05));
});

test('a real Roo Code task whose condensation deleted the older messages: each reply paired with its row by time', () => {
  const { t, a } = realTask('ac8aa7b4-319c-4925-a139-4f4adca81921');
  // The summary put in place of the deleted messages answers no request of this file.
  const summary = t.messages.find((m) => m.flags?.includes('summary-without-call'));
  assert.equal(summary?.index, 1);
  assert.ok(a.requests.every((r) => r.messageCount !== 1));
  // Paired in order from the first row, the rows of the deleted requests landed on the later replies (median error
  // 25%); by time, the rows answered before the condensation pair with nothing here.
  const sent = a.requests.filter((r) => r.recorded);
  assert.ok(sent.length >= 20);
  assert.ok(median(sent.map(promptError)) < 0.05);
  const first = sent[0].recorded as Record<string, number>;
  assert.ok(first.cacheCreationInputTokens + first.cacheReadInputTokens > 40_000);
});

test('the CLI reads a task named by a relative path with its rows beside it (the request rows, the cache breaks)', () => {
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [...cliArgs, ...args], { encoding: 'utf8', cwd: REAL_TASKS });
  const file = join('bc93a6f7-cd2e-4686-a832-46e3cd14d338', 'api_conversation_history.json');
  const inspect = run('inspect', file);
  assert.equal(inspect.status, 0, inspect.stderr);
  assert.match(inspect.stdout, /usage from ui_messages\.json beside it \(30 requests\)/);
  const cache = run('cache', file);
  assert.equal(cache.status, 0, cache.stderr);
  assert.match(cache.stdout, /cache breaks over 30 requests/);
});

test("a switch of the agent's mode breaks the cache (each mode its own system prompt), as the log says", () => {
  const { t, a } = realTask('ac8aa7b4-319c-4925-a139-4f4adca81921');
  const modeOf = (r: { messageCount: number }) => t.messages[r.messageCount]?.agentMode;
  const sent = a.requests.filter((r) => !r.pending);
  const k = sent.findIndex((r, i) => i > 0 && modeOf(r) !== modeOf(sent[i - 1]));
  assert.ok(k > 0, 'the task switches modes');
  const log = loggedBreaks(t, a, 'main');
  const at = log.breaks.find((b) => b.index === sent[k].index);
  assert.equal(at?.evidence.cause, 'prefix-changed');
  assert.match(
    at?.evidence.cause === 'prefix-changed' ? at.evidence.what : '',
    /mode changed from code to orchestrator/,
  );
});

test('real Roo Code tasks with rows that wrote no figures: their replies replayed and said, every request within 1%', () => {
  for (const [id, replies, unrecorded] of [
    ['d6a6a99a-b7fd-41fc-86ce-2f17c9520437', 13, 2],
    ['91e837de-a4b2-4c18-ab9b-6fcd36596e38', 7, 1],
  ] as const) {
    const { t, a } = realTask(id);
    const sent = a.requests.filter((r) => !r.pending);
    assert.equal(sent.length, replies);
    assert.equal(sent.filter((r) => !r.recorded).length, unrecorded);
    assert.match(
      t.diagnostics.find((d) => d.code === 'request-unrecorded')?.message ?? '',
      new RegExp(`^${unrecorded} requests .* recorded no usage though the history holds their replies`),
    );
    assert.ok(sent.filter((r) => r.recorded).every((r) => promptError(r) < 0.01));
  }
});
