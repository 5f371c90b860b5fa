// Kilo's CLI (an OpenCode fork) keeps its sessions in `kilo.db` under $XDG_DATA_HOME/kilo, or the file KILO_DB
// names: the same tables as OpenCode's. A database made here with the columns Kilo's schema declares
// (Kilo-Org/kilocode `packages/opencode/src/session/session.sql.ts`), holding the tests' OpenCode session, is found
// from a fake home as the agent lays it out, read without being written, listed as Kilo's, and exported.
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { SqlJsStatic } from 'sql.js';
import { defaultPolicyFor } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats/index';
import { adapterFor } from '../../../src/core/formats/registry';
import { recordedUsage } from '../../../src/core/recordedUsage';
import { exportCompacted } from '../../../src/node/exportFile';
import { mirrorStore, mirrorStores } from '../../../src/node/openCodeMirror';
import { openCodeMirrorDir } from '../../../src/node/openCodeStore';
import { sessionRoots, sessionsOf } from '../../../src/node/sessionFiles';
import { sessionWatches } from '../../../src/node/sessionWatches';
import { openCodeExport } from './opencodeExport';

const root = mkdtempSync(join(tmpdir(), 'context-lens-kilo-'));
after(() => rmSync(root, { recursive: true, force: true }));

type Json = Record<string, unknown>;

// The tables as Kilo's drizzle schema declares them (session.sql.ts, project.sql.ts; `Timestamps` are
// time_created and time_updated).
const SCHEMA = `
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, vcs text, name text, time_created integer NOT NULL, time_updated integer NOT NULL);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL REFERENCES project(id) ON DELETE CASCADE,
  workspace_id text, parent_id text, slug text NOT NULL, directory text NOT NULL, title text NOT NULL,
  version text NOT NULL, share_url text, summary_additions integer, summary_deletions integer, summary_files integer,
  summary_diffs text, revert text, permission text, current_state text, recent_progress text,
  time_created integer NOT NULL, time_updated integer NOT NULL, time_compacting integer, time_archived integer);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL REFERENCES session(id) ON DELETE CASCADE,
  time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL REFERENCES message(id) ON DELETE CASCADE,
  session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);
`;

const SID = 'ses_kilo0001';

/** The tests' OpenCode session as Kilo stores it: each row's `data` the message or part without its ids. `broken`:
 * the second message's data is not JSON. */
async function kiloDatabase(path: string, broken = false): Promise<void> {
  const SQL = await (require('sql.js/dist/sql-wasm-inline.js') as () => Promise<SqlJsStatic>)();
  const db = new SQL.Database();
  db.exec(SCHEMA);
  const doc = openCodeExport() as { info: Json; messages: { info: Json; parts: Json[] }[] };
  const t = (doc.info.time as { created: number; updated: number }) ?? { created: 1, updated: 2 };
  db.run("INSERT INTO project VALUES ('prj_1', '/home/me/app', 'git', NULL, ?, ?)", [t.created, t.updated]);
  db.run(
    "INSERT INTO session (id, project_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'prj_1', 'brave-otter', '/home/me/app', ?, '7.0.4', ?, ?)",
    [SID, String(doc.info.title ?? ''), t.created, t.updated],
  );
  doc.messages.forEach((m, i) => {
    const { id, sessionID: _s, ...info } = m.info;
    const at = Number((info.time as Json).created);
    const data = broken && i === 1 ? '{"role": "assistant",' : JSON.stringify(info);
    db.run('INSERT INTO message VALUES (?, ?, ?, ?, ?)', [String(id), SID, at, at, data]);
    for (const p of m.parts) {
      const { id: pid, sessionID: _ps, messageID: _pm, ...part } = p;
      db.run('INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)', [
        String(pid),
        String(id),
        SID,
        at,
        at,
        JSON.stringify(part),
      ]);
    }
  });
  writeFileSync(path, db.export());
  db.close();
}

describe("Kilo's CLI sessions", () => {
  it("found in $XDG_DATA_HOME/kilo/kilo.db, read without a write, listed as Kilo's with its own cost", async () => {
    const home = join(root, 'home');
    const kilo = join(home, 'data', 'kilo');
    mkdirSync(kilo, { recursive: true });
    await kiloDatabase(join(kilo, 'kilo.db'));
    const before = statSync(join(kilo, 'kilo.db')).mtimeMs;
    const env = { XDG_DATA_HOME: join(home, 'data'), XDG_CACHE_HOME: join(home, 'cache') };
    const format = adapterFor('opencode');
    const mirror = openCodeMirrorDir(kilo, env, 'kilo');
    assert.ok(mirror.startsWith(join(home, 'cache', 'context-lens', 'kilo')));
    // OpenCode's own mirror (no store of its own here) and Kilo's.
    assert.deepEqual(sessionRoots(format, env), [
      openCodeMirrorDir(join(home, 'data', 'opencode'), env),
      mirror,
    ]);
    const found = await sessionsOf(format, env, { mirrorStore });
    assert.deepEqual(
      found.map((f) => [f.path.slice(mirror.length + 1), f.agent, f.project, f.firstPrompt]),
      [[`${SID}.json`, 'Kilo', '/home/me/app', 'read README.md']],
    );
    // Nothing was written where Kilo keeps its database: not the file, no log or lock beside it.
    assert.equal(statSync(join(kilo, 'kilo.db')).mtimeMs, before);
    assert.deepEqual(readdirSync(kilo), ['kilo.db']);
    const t = parseTranscript(readFileSync(found[0].path), found[0].path);
    assert.equal(t.format, 'opencode');
    const usage = recordedUsage(t);
    assert.equal(usage?.replies, 3);
    assert.equal(usage?.agentCost?.toFixed(4), '0.0574');
    // The Sessions view watches the database and its log.
    assert.ok(sessionWatches(env).some(([dir, glob]) => dir === kilo && glob.includes('kilo.db-wal')));
    // Its export is the Anthropic request it would send next, beside the copy, and says where the session lives.
    const r = await exportCompacted({
      source: found[0].path,
      transcript: t,
      policy: defaultPolicyFor(t.format),
      replace: false,
    });
    assert.equal(r.target, join(mirror, `${SID}.compacted.anthropic.json`));
    assert.match(
      r.requestNotes[0],
      /^the session lives in Kilo's database .*the export is the Anthropic request/,
    );
  });

  it('the database KILO_DB names, inside the data folder or anywhere; none when Kilo has never run', async () => {
    const home = join(root, 'home-env');
    const kilo = join(home, 'data', 'kilo');
    mkdirSync(kilo, { recursive: true });
    await kiloDatabase(join(kilo, 'work.db'));
    const base = { XDG_DATA_HOME: join(home, 'data'), XDG_CACHE_HOME: join(home, 'cache') };
    const format = adapterFor('opencode');
    const named = await sessionsOf(format, { ...base, KILO_DB: 'work.db' }, { mirrorStore });
    assert.deepEqual(
      named.map((f) => f.agent),
      ['Kilo'],
    );
    const elsewhere = join(home, 'elsewhere', 'k.db');
    mkdirSync(join(home, 'elsewhere'));
    await kiloDatabase(elsewhere);
    rmSync(kilo, { recursive: true });
    const absolute = await sessionsOf(format, { ...base, KILO_DB: elsewhere }, { mirrorStore });
    assert.deepEqual(
      absolute.map((f) => f.agent),
      ['Kilo'],
    );
    const none = {
      XDG_DATA_HOME: join(root, 'nobody', 'data'),
      XDG_CACHE_HOME: join(root, 'nobody', 'cache'),
    };
    assert.deepEqual(sessionRoots(format, none), [
      openCodeMirrorDir(join(root, 'nobody', 'data', 'opencode'), none),
    ]);
  });

  it("a preview build's database beside the agent's is listed as that build's; OPENCODE_DB names OpenCode's", async () => {
    const home = join(root, 'home-channels');
    const data = join(home, 'data');
    mkdirSync(join(data, 'kilo'), { recursive: true });
    mkdirSync(join(data, 'opencode'));
    // Kilo's dev build: its own name, and OpenCode's name it would not use beside it; an older build's under
    // OpenCode's name, which Kilo keeps using; OpenCode's build from source (channel "local").
    for (const file of [
      'kilo/kilo-dev.db',
      'kilo/opencode-dev.db',
      'kilo/opencode-old.db',
      'opencode/opencode-local.db',
    ])
      await kiloDatabase(join(data, file));
    const env = { XDG_DATA_HOME: data, XDG_CACHE_HOME: join(home, 'cache') };
    const format = adapterFor('opencode');
    const found = await sessionsOf(format, env, { mirrorStore });
    const store = (path: string) => path.split(/[\\/]/).at(-3);
    assert.deepEqual(found.map((f) => [store(f.path), f.agent ?? 'OpenCode']).sort(), [
      ['kilo-dev', 'Kilo'],
      ['kilo-old', 'Kilo'],
      ['opencode-local', 'OpenCode'],
    ]);
    // Nothing written beside the databases.
    assert.deepEqual(readdirSync(join(data, 'kilo')).sort(), [
      'kilo-dev.db',
      'opencode-dev.db',
      'opencode-old.db',
    ]);
    assert.ok(
      sessionWatches(env).some(
        ([dir, glob]) => dir === join(data, 'kilo') && glob === '{kilo-dev.db,kilo-dev.db-wal}',
      ),
    );
    const dev = found.find((f) => store(f.path) === 'kilo-dev');
    assert.ok(dev);
    const t = parseTranscript(readFileSync(dev.path), dev.path);
    const r = await exportCompacted({
      source: dev.path,
      transcript: t,
      policy: defaultPolicyFor(t.format),
      replace: false,
    });
    assert.match(r.requestNotes[0], /^the session lives in Kilo's database of its dev build/);
    // OPENCODE_DB: that database alone, inside OpenCode's folder or anywhere.
    await kiloDatabase(join(data, 'opencode', 'work.db'));
    const named = await sessionsOf(format, { ...env, OPENCODE_DB: 'work.db' }, { mirrorStore });
    assert.deepEqual(
      named.filter((f) => !f.agent).map((f) => store(f.path)),
      ['opencode'],
    );
    assert.equal(
      readFileSync(named.find((f) => !f.agent)?.path ?? '', 'utf8'),
      readFileSync(dev.path, 'utf8'),
    );
  });

  it('a row whose data is not JSON is reported with the table, the row and where in its data', async () => {
    const home = join(root, 'home-broken');
    const kilo = join(home, 'data', 'kilo');
    mkdirSync(kilo, { recursive: true });
    await kiloDatabase(join(kilo, 'kilo.db'), true);
    const env = { XDG_DATA_HOME: join(home, 'data'), XDG_CACHE_HOME: join(home, 'cache') };
    assert.deepEqual(await mirrorStores(env), []);
    const file = join(openCodeMirrorDir(kilo, env, 'kilo'), `${SID}.json`);
    assert.ok(existsSync(file));
    const t = parseTranscript(readFileSync(file), file);
    const d = t.diagnostics.find((x) => x.code === 'unreadable-record');
    assert.equal(d?.message, 'kilo.db message msg_002 data:1:22: PropertyNameExpected: left out');
    assert.ok(d && d.line > 1);
  });
});
