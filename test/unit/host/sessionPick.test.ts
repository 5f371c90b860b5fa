// "Open Agent Session…": every agent's sessions in one pick, grouped by agent, the transcripts' words inert.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { adapterFor } from '../../../src/core/formats/registry';
import { noSessionsMessage, sessionPickRows } from '../../../src/host/sessionPick';
import type { SessionFile } from '../../../src/node/sessionFiles';
import { HOSTILE, icons, notificationLinks } from './editorText';

const file = (path: string, firstPrompt: string, more: Partial<SessionFile> = {}): SessionFile => ({
  path,
  project: 'proj',
  modified: new Date(0),
  size: 2_000,
  firstPrompt,
  ...more,
});
const claude = adapterFor('claude-code');
const codex = adapterFor('codex');

test('each agent with sessions gets a heading before its own, in the order given; a sub-agent follows its session', () => {
  const sub = file('/c/s1/subagents/agent-a.jsonl', 'the task', { subAgent: true });
  const rows = sessionPickRows([
    { format: claude, root: '/c', files: [file('/c/s1.jsonl', 'fix the bug', { subAgents: [sub] })] },
    { format: codex, root: '/x', files: [file('/x/r1.jsonl', 'write tests'), file('/x/r2.jsonl', '')] },
  ]);
  assert.deepEqual(
    rows.map((r) => (r.kind === 'agent' ? `# ${r.label}` : r.label)),
    ['# Claude Code', 'fix the bug', '↳ sub-agent: the task', '# Codex', 'write tests', 'r2.jsonl'],
  );
  const first = rows[1];
  assert.ok(first.kind === 'session');
  assert.equal(first.file.path, '/c/s1.jsonl');
  assert.ok(first.detail.endsWith(' · 2 KB · /c/s1.jsonl'), first.detail);
});

test('an agent with no sessions gets no heading, and one agent alone needs none', () => {
  const rows = sessionPickRows([
    { format: claude, root: '/c', files: [] },
    { format: codex, root: '/x', files: [file('/x/r1.jsonl', 'write tests')] },
  ]);
  assert.deepEqual(
    rows.map((r) => r.kind),
    ['session'],
  );
});

test('a prompt, project, path or read error from the files shows no icon and makes no link', () => {
  const hostile = file(`/x/${HOSTILE}.jsonl`, HOSTILE, { project: HOSTILE, error: HOSTILE });
  for (const row of sessionPickRows([{ format: codex, root: '/x', files: [hostile] }])) {
    assert.ok(row.kind === 'session');
    for (const text of [row.label, row.description, row.detail]) {
      assert.deepEqual(icons(text), [], text);
      assert.deepEqual(notificationLinks(text), [], text);
    }
  }
});

test('with nothing to offer, the message says where each agent was looked for', () => {
  const found = [
    { format: claude, root: '/home/u/.claude/projects', files: [] },
    { format: codex, root: '/home/u/.codex/sessions', files: [] },
  ];
  assert.deepEqual(sessionPickRows(found), []);
  const message = noSessionsMessage(found);
  assert.match(message, /Claude Code: \/home\/u\/\.claude\/projects/);
  assert.match(message, /Codex: \/home\/u\/\.codex\/sessions/);
  assert.equal(
    noSessionsMessage(found.slice(1)),
    'Context Lens: no Codex sessions found under /home/u/.codex/sessions.',
  );
});
