// Where an open transcript's bytes come from, and how its last parse takes them over (fileSource.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { FileSource, type SourcedSession } from '../../../src/host/fileSource';
import { ViewSnapshots } from '../../../src/host/viewSnapshots';

const session: SourcedSession = {
  model: null,
  loadAsync: async () => null,
  releaseBytes: () => {},
};

test("a file on disk read whole is moved to the session's thread by its last parse, once its snapshot key is made; a file from elsewhere is not", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-source-'));
  const path = join(dir, 'session.jsonl');
  writeFileSync(path, `${'{"type":"user"}\n'.repeat(100_000)}`);
  const snapshots = new ViewSnapshots(join(dir, 'views'), 'build');
  const source = new FileSource(path, path, async () => new Uint8Array(0), session, snapshots);
  const read = await source.readChanges();
  assert.ok(read);
  const expectedKey = await snapshots.key(path, read.bytes);
  source.mayKeepSnapshotOf(read.bytes);
  assert.equal(await source.handOver(read.bytes), true);
  // Moving the bytes now (as the session's proxy does) leaves the key as it was made of them.
  structuredClone(read.bytes, { transfer: [read.bytes.buffer as ArrayBuffer] });
  assert.equal(read.bytes.length, 0);
  assert.equal(await source.keyOfSnapshot(), expectedKey);
  assert.equal(source.bytes.length, 0, 'the source holds none of them');

  const elsewhere = new Uint8Array(100);
  const remote = new FileSource(path, null, async () => elsewhere, session, null);
  const whole = await remote.readChanges();
  assert.ok(whole);
  assert.equal(await remote.handOver(whole.bytes), false, 'bytes the editor gave are not taken from it');
});
