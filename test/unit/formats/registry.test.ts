// The registry drives what used to be declared per format elsewhere: policy presets, the trigger, session discovery.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { defaultPolicyFor, resolveTrigger } from '../../../src/core/engine/policy';
import { discoverableFormats, FORMATS } from '../../../src/core/formats/registry';
import { buildTree } from '../../../src/host/sessionsTree';
import { mirrorStore } from '../../../src/node/openCodeMirror';
import { discoverSessions, sessionRoots, sessionsDir } from '../../../src/node/sessionFiles';

const root = mkdtempSync(join(tmpdir(), 'context-lens-registry-'));
after(() => rmSync(root, { recursive: true, force: true }));

test("every adapter's tool presets are in its format's default policy", () => {
  const ids = FORMATS.map((f) => f.id);
  assert.equal(new Set(ids).size, ids.length, 'one adapter per id');
  for (const f of FORMATS) {
    const policy = defaultPolicyFor(f.id);
    for (const t of f.tools.floorTools) assert.ok(policy.tiered.floorTools.includes(t), `${f.id} ${t}`);
    for (const t of f.tools.noSummaryTools)
      assert.ok(policy.tiered.noSummaryTools.includes(t), `${f.id} ${t}`);
    for (const t of f.tools.observationTools) assert.ok(policy.observation.tools.includes(t), `${f.id} ${t}`);
  }
});

test('auto replays every request of a session format, one pass of a request body', () => {
  for (const f of FORMATS)
    assert.equal(resolveTrigger('auto', f.id, 3), f.session ? 'everyRequest' : 'once', f.id);
});

test('discovery lists the adapters that say where their sessions live, each under its own folder', async () => {
  const formats = discoverableFormats();
  assert.deepEqual(
    formats.map((f) => f.id),
    FORMATS.filter((f) => f.session?.location).map((f) => f.id),
  );
  assert.ok(formats.length >= 2);
  const env: NodeJS.ProcessEnv = { HOME: join(root, 'home'), XDG_CACHE_HOME: join(root, 'cache') };
  const expected: [string, string[]][] = [];
  for (const f of formats) {
    const location = f.session?.location;
    assert.ok(location);
    // An editor extension's agent keeps its sessions in the editor's storage, one named file per session folder.
    const editor = location.editorExtensions?.[0];
    const user = join(root, 'home', '.config', 'Code', 'User');
    if (!editor && !location.editorWorkspaces) env[location.env] = join(root, f.id);
    // An agent with a store of its own: a session in it, listed from the mirror.
    if (location.mirror) {
      const dir = join(sessionsDir(f, env), 'storage', 'session', 'x');
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'ses_x.json'), JSON.stringify({ id: 'ses_x', directory: '/x', title: 'x' }));
      expected.push([f.id, [join(sessionRoots(f, env)[0], 'ses_x.json')]]);
      continue;
    }
    const base = editor
      ? join(user, 'globalStorage', editor.id, location.logs)
      : location.editorWorkspaces
        ? join(user, 'workspaceStorage', 'ab12', location.logs)
        : sessionsDir(f, env);
    // A session per file of the workspace's folder, else a folder per session.
    const dir = location.editorWorkspaces ? base : join(base, 'x');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, location.fileName ?? `${f.id}${location.fileSuffix ?? '.jsonl'}`);
    writeFileSync(file, '{}\n');
    expected.push([f.id, [file]]);
  }
  const found = await discoverSessions(env, { mirrorStore });
  assert.deepEqual(
    found.map(({ format, files }) => [format.id, files.map((s) => s.path)]),
    expected,
  );
  const tree = buildTree({
    sessions: Object.fromEntries(found.map(({ format, files }) => [format.id, files])),
    figures: new Map(),
    errors: new Map(),
    sort: 'date',
    filter: '',
  });
  assert.deepEqual(
    tree.map((n) => n.label),
    formats.map((f) => f.session?.agent),
  );
});
