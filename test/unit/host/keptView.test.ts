import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FileSource } from '../../../src/host/fileSource';
import { type KeptSession, KeptView } from '../../../src/host/keptView';
import { defaultsFor } from '../../../src/host/policySettings';
import { ViewSnapshots } from '../../../src/host/viewSnapshots';
import type { HostMessage } from '../../../src/protocol';
import { fixture, newSession } from '../fixtureSession';

/** The file's bytes as the kept view is handed them: only their size (a file under SNAPSHOT_MIN_FILE_BYTES keeps no
 * view) and the key made of them matter here. */
const bytes = new Uint8Array(2 * 1024 * 1024);

/** A kept view of the fixture, and a KeptView on it whose session is `session`, with what it broadcast. */
async function keptFor(session: KeptSession) {
  const first = newSession();
  const transcript = first.load(fixture);
  const policy = defaultsFor(first.model);
  await first.request(policy, 'none', 0);
  const analysis = first.complete();
  assert.ok(transcript && analysis);
  const snapshots = new ViewSnapshots(mkdtempSync(join(tmpdir(), 'cl-kept-')), 'build');
  const key = await snapshots.key('/p/a.jsonl', bytes);
  const settings = {
    type: 'settings' as const,
    policy,
    summarizer: 'none' as const,
    models: [],
    scope: 'global' as const,
  };
  await snapshots.keep(key, { transcript, settings, analysis });
  const source = {
    onDisk: true,
    mayKeepSnapshotOf: () => {},
    keyOfSnapshot: () => Promise.resolve(key),
  } as unknown as FileSource;
  const sent: HostMessage['type'][] = [];
  const kept = new KeptView({
    source,
    session,
    snapshots,
    settingsFor: (t) => ({ policy: defaultsFor(t), summarizer: 'none', problems: [] }),
    adopt: () => {},
    settingsMessage: () => settings,
    broadcast: (m) => sent.push(m.type),
    anyViewReady: () => true,
    warn: (m) => assert.fail(m),
  });
  return { kept, sent };
}

test('a kept view is shown as its list, settings and analysis once the session took it; requests wait for the parse', async () => {
  const session = newSession();
  const { kept, sent } = await keptFor(session);
  assert.equal(await kept.restore(bytes, true), true);
  assert.deepEqual(sent, ['list', 'settings', 'analysis']);
  assert.ok(kept.parsing);
  assert.equal(session.transcriptMessage()?.type, 'transcript');
  kept.parsed();
  assert.equal(kept.parsing, null);
});

test('a kept view the session refuses, or that its thread failed to take, is not shown and holds no request', async () => {
  for (const restore of [
    () => false,
    () => Promise.resolve(false),
    () => Promise.reject(new Error('thread ended')),
  ]) {
    const session = Object.assign(newSession(), { restore });
    const { kept, sent } = await keptFor(session);
    assert.equal(await kept.restore(bytes, true), false);
    assert.deepEqual(sent, []);
    assert.equal(kept.parsing, null);
  }
});
