// A session's sub-agent files are found where its adapter says its agent writes them, not where one agent does.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { adapterFor } from '../../../src/core/formats/registry';
import { subAgentFilesOf } from '../../../src/node/sessionFiles';

const root = mkdtempSync(join(tmpdir(), 'context-lens-subagents-'));
after(() => rmSync(root, { recursive: true, force: true }));

test('the files are those of the place given: its folder beside the session, its prefix, sorted', () => {
  const kids = join(root, 's1', 'kids');
  mkdirSync(kids, { recursive: true });
  for (const name of ['k-b.jsonl', 'k-a.jsonl', 'k-.jsonl', 'agent-c.jsonl', 'k-d.json'])
    writeFileSync(join(kids, name), '');
  const session = join(root, 's1.jsonl');
  assert.deepEqual(subAgentFilesOf(session, { folder: 'kids', prefix: 'k-' }), [
    join(kids, 'k-a.jsonl'),
    join(kids, 'k-b.jsonl'),
  ]);
  assert.deepEqual(subAgentFilesOf(session, { folder: 'subagents', prefix: 'k-' }), [], 'no such folder');
  assert.deepEqual(
    subAgentFilesOf(join(root, 's1.json'), { folder: 'kids', prefix: 'k-' }),
    [],
    'no session log',
  );
});

test('Claude Code writes its sub-agents beside the session; a Codex rollout is its one file', () => {
  assert.deepEqual(adapterFor('claude-code').session?.subAgentFiles, {
    folder: 'subagents',
    prefix: 'agent-',
    compactions: 'agent-acompact-',
  });
  assert.equal(adapterFor('codex').session?.subAgentFiles, undefined);
});
