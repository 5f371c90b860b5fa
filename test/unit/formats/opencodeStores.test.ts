// OpenCode's own stores: its database (read with its write-ahead log, from a copy, no lock) and the older storage/
// folders, each session mirrored as its export into this product's cache and found from a fake home as the agent
// lays it out; a broken record reported where it is.
import assert from 'node:assert/strict';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { defaultPolicyFor } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats/index';
import { adapterFor } from '../../../src/core/formats/registry';
import { recordedUsage } from '../../../src/core/recordedUsage';
import { mirrorInWorker } from '../../../src/host/storeMirror';
import { exportCompacted } from '../../../src/node/exportFile';
import {
  databaseSessions,
  mirrorOpenCode,
  mirrorStore,
  storageSessions,
} from '../../../src/node/openCodeMirror';
import { openCodeMirrorDir } from '../../../src/node/openCodeStore';
import { type ListingOptions, sessionRoots, sessionsOf } from '../../../src/node/sessionFiles';
import { applyWal } from '../../../src/node/sqliteWal';
import { bundledWorker } from '../bundledWorker';
import { openCodeExport } from './opencodeExport';

const STORE = join(import.meta.dirname, '..', '..', 'fixtures', 'opencode-store');
const root = mkdtempSync(join(tmpdir(), 'context-lens-opencode-'));
after(() => rmSync(root, { recursive: true, force: true }));

type Json = Record<string, unknown>;

/** An export laid out as the agent's storage/ folders (session, message and part files). */
function layStorage(storage: string, doc: Json): void {
  const info = doc.info as Json;
  const write = (dir: string[], name: string, value: unknown) => {
    mkdirSync(join(storage, ...dir), { recursive: true });
    writeFileSync(join(storage, ...dir, `${name}.json`), JSON.stringify(value, null, 2));
  };
  write(['session', String(info.projectID)], String(info.id), info);
  for (const m of doc.messages as { info: Json; parts: Json[] }[]) {
    write(['message', String(info.id)], String(m.info.id), m.info);
    for (const p of m.parts) write(['part', String(m.info.id)], String(p.id), p);
  }
}

const exported = () => JSON.parse(JSON.stringify(openCodeExport())) as { info: Json; messages: Json[] };

describe('OpenCode database', () => {
  it('reads the rows still in the write-ahead log: all five messages, as the export holds them', async () => {
    const db = readFileSync(join(STORE, 'opencode.db'));
    const wal = readFileSync(join(STORE, 'opencode.db-wal'));
    const applied = applyWal(db, wal);
    assert.ok(applied.frames > 0);
    // The copy says it keeps no log; the files themselves are not touched.
    assert.deepEqual([applied.bytes[18], applied.bytes[19], db[18], db[19]], [1, 1, 2, 2]);
    const before = statSync(join(STORE, 'opencode.db')).mtimeMs;
    const [doc] = await databaseSessions(join(STORE, 'opencode.db'));
    assert.equal(statSync(join(STORE, 'opencode.db')).mtimeMs, before);
    const want = exported();
    assert.deepEqual(doc.info, { ...want.info });
    assert.deepEqual(doc.messages, want.messages);
  });

  it('without its log, the checkpointed rows only', async () => {
    const dir = join(root, 'nolog');
    mkdirSync(dir);
    copyFileSync(join(STORE, 'opencode.db'), join(dir, 'opencode.db'));
    const [doc] = await databaseSessions(join(dir, 'opencode.db'));
    assert.deepEqual(
      doc.messages.map((m) => ('info' in m ? m.info.id : m.unreadable)),
      ['msg_001', 'msg_002'],
    );
  });

  it('a log of another generation (salts that differ) or cut mid-frame adds only the frames that hold', () => {
    const db = readFileSync(join(STORE, 'opencode.db'));
    const wal = new Uint8Array(readFileSync(join(STORE, 'opencode.db-wal')));
    const all = applyWal(db, wal).frames;
    const cut = applyWal(db, wal.subarray(0, wal.length - 100)).frames;
    assert.ok(cut < all && cut > 0, `${cut} of ${all}`);
    const other = new Uint8Array(wal);
    other[32 + 8] ^= 0xff; // the first frame's salt
    assert.equal(applyWal(db, other).frames, 0);
  });
});

describe('OpenCode storage/ folders', () => {
  it('reads a session from its session, message and part files, in id order', () => {
    const storage = join(root, 'storage-a', 'storage');
    layStorage(storage, openCodeExport());
    const [doc] = storageSessions(storage);
    assert.deepEqual(doc, { info: exported().info, messages: exported().messages });
  });

  it('a broken file stays in its place, said with its path, line and column, and the reader reports it', () => {
    const storage = join(root, 'storage-b', 'storage');
    layStorage(storage, openCodeExport());
    const part = join(storage, 'part', 'msg_003', 'prt_msg_003_1.json');
    writeFileSync(part, '{\n  "id": "prt_msg_003_1",\n  "type": "text" "text": "x"\n}\n');
    const [doc] = storageSessions(storage);
    const parts = (doc.messages[2] as { parts: unknown[] }).parts;
    assert.deepEqual(parts[1], {
      unreadable: 'storage/part/msg_003/prt_msg_003_1.json:3:18: CommaExpected',
    });
    const t = parseTranscript(new TextEncoder().encode(JSON.stringify(doc, null, 2)), 'ses_test0001.json');
    assert.equal(t.format, 'opencode');
    const d = t.diagnostics.find((x) => x.code === 'unreadable-record');
    assert.equal(d?.message, 'storage/part/msg_003/prt_msg_003_1.json:3:18: CommaExpected: left out');
    assert.ok(d && d.line > 1);
  });
});

describe('OpenCode sessions on disk', () => {
  it('found under $XDG_DATA_HOME/opencode (database and storage/), mirrored, listed and read with its own cost', async () => {
    const home = join(root, 'home');
    const data = join(home, 'data', 'opencode');
    mkdirSync(data, { recursive: true });
    copyFileSync(join(STORE, 'opencode.db'), join(data, 'opencode.db'));
    copyFileSync(join(STORE, 'opencode.db-wal'), join(data, 'opencode.db-wal'));
    // An older session in storage/, a sub-agent's of the one in the database.
    const sub = exported();
    sub.info = { ...sub.info, id: 'ses_test0002', parentID: 'ses_test0001', title: 'Explore' };
    layStorage(join(data, 'storage'), sub);
    const env = { XDG_DATA_HOME: join(home, 'data'), XDG_CACHE_HOME: join(home, 'cache') };
    const format = adapterFor('opencode');
    const mirror = openCodeMirrorDir(data, env);
    assert.deepEqual(sessionRoots(format, env), [mirror]);
    assert.ok(mirror.startsWith(join(home, 'cache', 'context-lens', 'opencode')));
    const found = await sessionsOf(format, env, { mirrorStore });
    assert.deepEqual(
      found.map((f) => [f.path.slice(mirror.length + 1), f.project, f.firstPrompt, f.subAgents?.length ?? 0]),
      [['ses_test0001.json', '/home/me/app', 'read README.md', 1]],
    );
    assert.equal(found[0].subAgents?.[0].path, join(mirror, 'ses_test0002.json'));
    const t = parseTranscript(readFileSync(found[0].path), found[0].path);
    assert.equal(t.format, 'opencode');
    const usage = recordedUsage(t);
    assert.equal(usage?.replies, 3);
    assert.equal(usage?.agentCost?.toFixed(4), '0.0574');
    // Mirroring again writes nothing that did not change; a session gone from the stores leaves the mirror, an
    // export written beside it stays.
    writeFileSync(join(mirror, 'ses_test0001.compacted.json'), '{}');
    assert.equal((await mirrorOpenCode(env)).written, 0);
    rmSync(join(data, 'storage'), { recursive: true });
    const again = await mirrorOpenCode(env);
    assert.deepEqual(
      [
        again.sessions,
        readdirSync(mirror)
          .filter((n) => n.startsWith('ses_'))
          .sort(),
      ],
      [1, ['ses_test0001.compacted.json', 'ses_test0001.json']],
    );
  });
  it('the editor copies the store in a worker thread: the same mirror and listing as a copy made in place', async () => {
    const dist = dirname(await bundledWorker('storeWorker', 'src/host/storeWorker.ts'));
    const listing = async (name: string, options: ListingOptions) => {
      const home = join(root, name);
      const data = join(home, 'data', 'opencode');
      mkdirSync(data, { recursive: true });
      copyFileSync(join(STORE, 'opencode.db'), join(data, 'opencode.db'));
      copyFileSync(join(STORE, 'opencode.db-wal'), join(data, 'opencode.db-wal'));
      const env = { XDG_DATA_HOME: join(home, 'data'), XDG_CACHE_HOME: join(home, 'cache') };
      const found = await sessionsOf(adapterFor('opencode'), env, options);
      return found.map((f) => [basename(f.path), f.project, f.firstPrompt, readFileSync(f.path, 'utf8')]);
    };
    let copies = 0;
    const inWorker = mirrorInWorker(dist);
    const threaded = await listing('threaded', {
      mirrorStore: (env, store) => {
        copies++;
        return inWorker(env, store);
      },
    });
    assert.equal(copies, 1);
    assert.equal(threaded.length, 1);
    assert.deepEqual(threaded, await listing('in-place', { mirrorStore }));
    // Without a way to copy it, the store is not read: nothing is listed from a home that has no mirror yet.
    assert.deepEqual(await listing('not-copied', {}), []);
  });
});

describe('OpenCode sessions exported', () => {
  it('a session of the database exports as the Anthropic request it would send next, and says so', async () => {
    const home = join(root, 'export-home');
    const data = join(home, 'data', 'opencode');
    mkdirSync(data, { recursive: true });
    copyFileSync(join(STORE, 'opencode.db'), join(data, 'opencode.db'));
    copyFileSync(join(STORE, 'opencode.db-wal'), join(data, 'opencode.db-wal'));
    const env = { XDG_DATA_HOME: join(home, 'data'), XDG_CACHE_HOME: join(home, 'cache') };
    const { dir } = await mirrorOpenCode(env);
    const source = join(dir, 'ses_test0001.json');
    const transcript = parseTranscript(readFileSync(source), source);
    const r = await exportCompacted({
      source,
      transcript,
      policy: defaultPolicyFor(transcript.format),
      replace: false,
    });
    assert.equal(r.target, join(dir, 'ses_test0001.compacted.anthropic.json'));
    assert.equal(r.request, r.target);
    assert.match(
      r.requestNotes[0],
      /^the session lives in OpenCode's database .*the export is the Anthropic request/,
    );
    const request = JSON.parse(readFileSync(r.target, 'utf8'));
    assert.ok(Array.isArray(request.messages) && request.messages.length > 0);
    assert.deepEqual(
      readdirSync(dir)
        .filter((n) => n.startsWith('ses_'))
        .sort(),
      ['ses_test0001.compacted.anthropic.json', 'ses_test0001.json'],
    );
  });
});
