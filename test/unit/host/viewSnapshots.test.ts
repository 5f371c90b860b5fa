import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultsFor } from '../../../src/host/policySettings';
import { packed } from '../../../src/host/sessionProtocol';
import { type SnapshotToKeep, ViewSnapshots } from '../../../src/host/viewSnapshots';
import { fixture, newSession } from '../fixtureSession';

/** What a view was sent of the fixture: its transcript, settings and first analysis. */
async function viewOf(bytes: Uint8Array): Promise<SnapshotToKeep & { transcript: { type: 'transcript' } }> {
  const s = newSession();
  const transcript = s.load(bytes);
  const policy = defaultsFor(s.model);
  await s.request(policy, 'none', 0);
  const analysis = s.complete();
  assert.ok(analysis && transcript);
  return {
    transcript,
    settings: { type: 'settings', policy, summarizer: 'none', models: [], scope: 'global' },
    analysis,
  };
}

const store = (limits?: { files: number; bytes: number }) =>
  new ViewSnapshots(mkdtempSync(join(tmpdir(), 'cl-views-')), 'build 1', limits);

test('a snapshot kept under a key is found under it, as it was sent: its list packed, byte for byte', async () => {
  const views = store();
  const view = await viewOf(fixture);
  const key = await views.key('/p/a.jsonl', fixture);
  assert.equal(await views.find(key), null);
  await views.keep(key, view);
  const { transcript, ...rest } = view;
  const list = packed(transcript);
  const found = await views.find(key);
  assert.deepEqual(found, { ...JSON.parse(JSON.stringify(rest)), list });
  // Kept as it crossed to the views (a remote session's list), the same.
  await views.keep(key, { ...rest, transcript: list });
  assert.deepEqual(await views.find(key), found);
});

test('the key changes with the file, its path and the build, and with nothing else', async () => {
  const views = store();
  const key = (path: string, bytes: Uint8Array) => views.key(path, bytes);
  const base = await key('/p/a.jsonl', fixture);
  assert.equal(await key('/p/a.jsonl', Buffer.from(fixture)), base);
  const changed = Buffer.from(fixture);
  changed[changed.length - 2] ^= 1;
  assert.notEqual(await key('/p/a.jsonl', changed), base);
  assert.notEqual(await key('/q/a.jsonl', fixture), base);
  assert.notEqual(await new ViewSnapshots(views.dir, 'build 2').key('/p/a.jsonl', fixture), base);
  // Files larger than one chunk hash every chunk.
  const big = new Uint8Array(20 * 1024 * 1024);
  const bigKey = await key('/p/a.jsonl', big);
  big[big.length - 1] = 1;
  assert.notEqual(await key('/p/a.jsonl', big), bigKey);
});

test('a damaged snapshot, or one whose messages the views would refuse, is not found or not restored', async () => {
  const views = store();
  const view = await viewOf(fixture);
  const key = await views.key('/p/a.jsonl', fixture);
  await views.keep(key, view);
  const [file] = readdirSync(views.dir);
  const path = join(views.dir, file);
  const whole = readFileSync(path);
  // Cut in its head, or in its list.
  writeFileSync(path, whole.subarray(0, 1000));
  assert.equal(await views.find(key), null);
  writeFileSync(path, whole.subarray(0, whole.length - 1));
  assert.equal(await views.find(key), null);
  const pending = structuredClone(view);
  pending.analysis.analysis.tokensPending = true;
  await views.keep(key, pending);
  assert.equal(await views.find(key), null);
  // A list a view would refuse is found (its bytes are not read on the extension host's thread), and the session
  // refuses to restore it.
  const wrong = structuredClone(view);
  wrong.transcript.messages[0].role = 'robot' as 'user';
  await views.keep(key, wrong);
  const found = await views.find(key);
  assert.ok(found);
  assert.equal(newSession().restore(found), false);
  await views.keep(key, view);
  assert.equal(newSession().restore((await views.find(key))!), true);
});

test('beyond the limits, the least recently used snapshots go first', async () => {
  const views = store({ files: 2, bytes: 1 << 30 });
  const view = await viewOf(fixture);
  const keys = await Promise.all(['a', 'b', 'c'].map((n) => views.key(`/p/${n}.jsonl`, fixture)));
  const age = (key: string, seconds: number) => {
    const t = new Date(Date.now() - seconds * 1000);
    utimesSync(join(views.dir, `${key}.view.json`), t, t);
  };
  await views.keep(keys[0], view);
  age(keys[0], 30);
  await views.keep(keys[1], view);
  age(keys[1], 20);
  // Found, so used now: b is the least recently used.
  assert.ok(await views.find(keys[0]));
  await views.keep(keys[2], view);
  assert.ok(await views.find(keys[0]));
  assert.equal(await views.find(keys[1]), null);
  assert.ok(await views.find(keys[2]));
  const bytes = readFileSync(join(views.dir, `${keys[2]}.view.json`)).length;
  const small = new ViewSnapshots(views.dir, 'build 1', { files: 10, bytes: bytes + 10 });
  await small.keep(keys[1], view);
  assert.deepEqual(readdirSync(views.dir), [`${keys[1]}.view.json`]);
});

test('whether a snapshot of a file is kept is known by its path, without hashing its content', async () => {
  const views = store();
  assert.equal(await views.keptFor('/p/a.jsonl'), false);
  await views.keep(await views.key('/p/a.jsonl', fixture), await viewOf(fixture));
  assert.equal(await views.keptFor('/p/a.jsonl'), true);
  assert.equal(await views.keptFor('/p/b.jsonl'), false);
  assert.equal(await new ViewSnapshots(views.dir, 'build 2').keptFor('/p/a.jsonl'), false);
});

test('a snapshot of a file whose content changed replaces the one kept of its old content', async () => {
  const views = store();
  const view = await viewOf(fixture);
  const old = await views.key('/p/a.jsonl', fixture);
  const other = await views.key('/p/b.jsonl', fixture);
  await views.keep(old, view);
  await views.keep(other, view);
  const grown = Buffer.concat([fixture, Buffer.from('\n')]);
  const now = await views.key('/p/a.jsonl', grown);
  await views.keep(now, view);
  assert.equal(await views.find(old), null);
  assert.ok(await views.find(now));
  assert.ok(await views.find(other));
});

test('a snapshot is written compact: a line for its settings and analysis, then its list as it crossed to the views', async () => {
  const views = store();
  const view = await viewOf(fixture);
  const key = await views.key('/p/a.jsonl', fixture);
  await views.keep(key, view);
  const [file] = readdirSync(views.dir);
  const bytes = readFileSync(join(views.dir, file));
  const list = packed(view.transcript).json;
  const head = bytes.indexOf(10);
  assert.equal(head, bytes.length - list.length - 1);
  assert.deepEqual(new Uint8Array(bytes.subarray(head + 1)), list);
  assert.ok(bytes.length < JSON.stringify(view).length, `${bytes.length} bytes kept`);
});
