import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { claudeSessions, codexSessions } from '../../../src/host/sessionFiles';

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
