import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { claudeSessions, codexSessions } from '../../../src/node/sessionFiles';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures', 'real');
const root = mkdtempSync(join(tmpdir(), 'context-lens-sessions-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('Claude Code sessions under $CLAUDE_CONFIG_DIR/projects, newest first, with project and first prompt', async () => {
  const dir = join(root, 'claude', 'projects', '-tmp-project');
  mkdirSync(dir, { recursive: true });
  const older = join(dir, 'a.jsonl');
  const newer = join(dir, 'b.jsonl');
  copyFileSync(join(fixtures, 'claude-code', 'drmaciver-hello-world-script.jsonl'), older);
  copyFileSync(join(fixtures, 'claude-code', 'drmaciver-coverage-test-fix.jsonl'), newer);
  utimesSync(older, new Date('2025-01-01'), new Date('2025-01-01'));
  utimesSync(newer, new Date('2025-06-01'), new Date('2025-06-01'));
  writeFileSync(join(dir, 'notes.txt'), 'not a session');
  const found = await claudeSessions({ CLAUDE_CONFIG_DIR: join(root, 'claude') });
  assert.deepEqual(
    found.map((f) => f.path),
    [newer, older],
  );
  assert.match(found[0].firstPrompt, /^Add a function called multiply_numbers/);
  assert.ok(found[0].project.length > 0);
  assert.ok(found[0].size > 40_000);
});

test('Codex rollouts under $CODEX_HOME/sessions/YYYY/MM/DD, with the working directory as project', async () => {
  const dir = join(root, 'codex', 'sessions', '2025', '10', '01');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'rollout-1.jsonl');
  copyFileSync(join(fixtures, 'codex', 'simonw-sample-codex-session-0.77.jsonl'), file);
  const found = await codexSessions({ CODEX_HOME: join(root, 'codex') });
  assert.equal(found.length, 1);
  assert.equal(found[0].path, file);
  assert.ok(found[0].firstPrompt.length > 0, 'first prompt');
  assert.doesNotMatch(found[0].firstPrompt, /^<(environment_context|user_instructions)/);
});

test('no sessions folder: an empty list, not an error', async () => {
  assert.deepEqual(await claudeSessions({ CLAUDE_CONFIG_DIR: join(root, 'missing') }), []);
  assert.deepEqual(await codexSessions({ CODEX_HOME: join(root, 'missing') }), []);
});

test('sub-agents files are grouped under their session (same sessionId), in both layouts; an orphan stays, marked', async () => {
  const claude = join(root, 'claude-agents');
  const dir = join(claude, 'projects', '-Users-htong-Desktop-claude-code-sessions');
  const session = '94a00534-f723-4d8d-ad58-4f1f717d7ef6';
  mkdirSync(join(dir, session, 'subagents'), { recursive: true });
  const parent = join(dir, `${session}.jsonl`);
  writeFileSync(
    parent,
    `${JSON.stringify({ type: 'user', sessionId: session, uuid: 'u1', parentUuid: null, cwd: '/Users/htong/Desktop/claude-code-sessions', message: { role: 'user', content: 'Look at the sessions folder' } })}\n`,
  );
  const older = join(dir, 'agent-a3ba710.jsonl');
  const newer = join(dir, session, 'subagents', 'agent-b000001.jsonl');
  copyFileSync(join(fixtures, 'claude-code', 'tonghuikang-agent-a3ba710-warmup-sidechain.jsonl'), older);
  copyFileSync(join(fixtures, 'claude-code', 'tonghuikang-agent-a3ba710-warmup-sidechain.jsonl'), newer);
  const orphan = join(dir, 'agent-orphan.jsonl');
  const other = readFileSync(
    join(fixtures, 'claude-code', 'tonghuikang-agent-a3ba710-warmup-sidechain.jsonl'),
    'utf8',
  );
  writeFileSync(orphan, other.replaceAll(session, '00000000-0000-0000-0000-000000000000'));
  const found = await claudeSessions({ CLAUDE_CONFIG_DIR: claude });
  const top = found.map((f) => f.path).sort();
  assert.deepEqual(top, [orphan, parent].sort());
  const p = found.find((f) => f.path === parent)!;
  assert.equal(p.firstPrompt, 'Look at the sessions folder');
  assert.deepEqual(p.subAgents?.map((f) => f.path).sort(), [older, newer].sort());
  assert.equal(p.subAgents?.[0].firstPrompt, 'Warmup');
  assert.equal(found.find((f) => f.path === orphan)?.subAgent, true);
});

test('3,001 session files with few file descriptors: every one listed (read a few at a time), one that cannot be read listed with its error', () => {
  const home = join(root, 'many');
  const dir = join(home, 'projects', '-tmp-many');
  mkdirSync(dir, { recursive: true });
  const record = (r: Record<string, unknown>) => `${JSON.stringify(r)}\n`;
  writeFileSync(
    join(dir, 'main.jsonl'),
    record({
      type: 'user',
      sessionId: 'S',
      cwd: '/tmp/many',
      message: { role: 'user', content: 'the main task' },
    }),
  );
  for (let i = 0; i < 3000; i++)
    writeFileSync(
      join(dir, `agent-${i}.jsonl`),
      record({
        type: 'user',
        sessionId: 'S',
        isSidechain: true,
        message: { role: 'user', content: `part ${i}` },
      }),
    );
  const script = join(root, 'list.ts');
  writeFileSync(
    script,
    `import { claudeSessions } from ${JSON.stringify(join(process.cwd(), 'src/node/sessionFiles'))};
     (async () => {
       const out: unknown[] = [];
       for (const concurrency of [undefined, 5000]) {
         const files = await claudeSessions({ CLAUDE_CONFIG_DIR: ${JSON.stringify(home)} }, { concurrency });
         const all = files.flatMap((f) => [f, ...(f.subAgents ?? [])]);
         out.push({
           top: files.length,
           listed: all.length,
           errors: all.filter((f) => f.error).length,
           error: all.find((f) => f.error)?.error,
         });
       }
       process.stdout.write(JSON.stringify(out));
     })();`,
  );
  // A descriptor limit as macOS sets it by default: the listing must hold with it.
  const r = spawnSync('sh', ['-c', `ulimit -n 256 && exec "${process.execPath}" --import tsx "${script}"`], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(r.status, 0, r.stderr);
  const [bounded, unbounded] = JSON.parse(r.stdout) as {
    top: number;
    listed: number;
    errors: number;
    error?: string;
  }[];
  assert.deepEqual(
    bounded,
    { top: 1, listed: 3001, errors: 0 },
    'the main session with its 3,000 sub-agents',
  );
  // Opened all at once (the limit lifted): some fail, and are listed with why, none dropped.
  assert.equal(unbounded.listed, 3001);
  assert.ok(unbounded.errors > 0);
  assert.match(unbounded.error ?? '', /cannot read \(EMFILE\)/);
});
