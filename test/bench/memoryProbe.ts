// The editor's open of one file, without the editor (memory.bench.ts runs it in a process of its own and reads its
// memory from outside): what src/host/transcriptDocument.ts does on the extension host, with the same parts (the
// file read by what it grew, its beginning shown first, the session in its worker thread, the parse in its own, the
// token processes, the kept view), the views stood for by a sink that serialises each message as the editor does
// before posting it. Prints one JSON line per phase: {phase, at (ms from the open), heap (this thread's), rss, hwm
// (the process's resident memory now and at its peak so far), in bytes}.
//
// Usage: node --import tsx test/bench/memoryProbe.ts <file> <storage dir>
import { readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { BEGINNING_BYTES, FileSource } from '../../src/host/fileSource';
import { KeptView } from '../../src/host/keptView';
import { type EffectiveSettings, policyFromSettings } from '../../src/host/policySettings';
import { RemoteSession } from '../../src/host/remoteSession';
import { ViewSnapshots } from '../../src/host/viewSnapshots';
import type { HostMessage } from '../../src/protocol';

const [file, storage] = process.argv.slice(2);
if (!file || !storage) throw new Error('usage: memoryProbe.ts <file> <storage dir>');
const dist = (name: string) => resolve('dist', name);
const t0 = performance.now();
/** This process's resident memory now and at its peak so far, in bytes (Linux). */
function resident(): { rss: number; hwm: number } {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}
const mark = (phase: string, extra: Record<string, unknown> = {}) =>
  console.log(
    JSON.stringify({
      phase,
      at: Math.round(performance.now() - t0),
      heap: process.memoryUsage().heapUsed,
      ...resident(),
      ...extra,
    }),
  );
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function main(): Promise<void> {
  const name = basename(file);
  let listShown = false;
  let sent = 0;
  // The editor serialises a message to a view on the host's thread (a list's bytes go as they are).
  const post = (m: HostMessage) => {
    if (m.type === 'list') {
      sent += m.json.length;
      if (!listShown) mark('first list');
      listShown = true;
    } else sent += JSON.stringify(m).length;
  };
  const session = new RemoteSession(
    dist('sessionWorker.js'),
    name,
    {
      path: file,
      parseScript: dist('parseWorker.js'),
      tokenScript: dist('tokenWorker.js'),
      tokenDir: join(storage, 'tokens'),
      settings: {},
    },
    post,
  );
  const snapshots = new ViewSnapshots(join(storage, 'views'), 'memory-bench');
  const source = new FileSource(file, file, async () => new Uint8Array(0), session, snapshots);
  // The defaults of the file's format, as for a user who set none.
  const settingsFor = (t: Parameters<typeof policyFromSettings>[0]): EffectiveSettings => ({
    policy: policyFromSettings(t, () => undefined).policy,
    summarizer: 'none',
    problems: [],
  });
  let settings = settingsFor(null);
  const settingsMessage = (): Extract<HostMessage, { type: 'settings' }> => ({
    type: 'settings',
    policy: settings.policy,
    summarizer: settings.summarizer,
    models: [],
    scope: 'global',
  });
  const kept = new KeptView({
    source,
    session,
    snapshots,
    settingsFor,
    adopt: (s) => {
      settings = s;
    },
    settingsMessage,
    broadcast: post,
    anyViewReady: () => true,
    warn: (m) => console.error(m),
  });

  // As TranscriptDocument.readAndParse: a call of its own, so that no frame holds the file's bytes after it.
  const readAndParse = async () => {
    let beginning: Promise<number> | undefined;
    const isKept = await kept.isKeptFor(file);
    const read = await source.readChanges(
      !isKept
        ? {
            bytes: BEGINNING_BYTES + 1,
            read: (start, size) => {
              beginning = source.showBeginning(start, size, post);
            },
          }
        : undefined,
    );
    const bytes = read?.bytes ?? source.bytes;
    source.bytesRead = bytes.length;
    const restored = await kept.restore(bytes, isKept && beginning === undefined);
    if (restored) mark('restored');
    const shown = restored ? 0 : await (beginning ?? source.showBeginning(bytes, bytes.length, post));
    const moved = await source.handOver(bytes);
    return session.loadAsync(bytes, shown, undefined, false, moved);
  };

  mark('open');
  const list = await readAndParse();
  if (!list) throw new Error('the load was superseded');
  mark('parsed', { messages: list.messages });
  // As TranscriptDocument.firstLoad.
  if (session.confirmsRestored(list)) {
    const analysed = session.request(settings.policy, settings.summarizer, 0);
    kept.parsed();
    void source.letGoOfBytes();
    await analysed;
  } else {
    settings = settingsFor(session.model);
    post(list);
    post(settingsMessage());
    void source.letGoOfBytes();
    await session.request(settings.policy, settings.summarizer, 0);
    await kept.keep();
    kept.parsed();
  }
  mark('exact');
  // The runs ahead start after a pause of 700 ms.
  await wait(1_000);
  await session.settled();
  mark('settled', { sent });
  // The token processes end after 10 s without a count, the kept analyses are let go of after 30 s.
  await wait(12_000);
  mark('idle');
  await wait(23_000);
  mark('lasting');
  // The view closed (as TranscriptDocument.dispose): the session's thread ends once its counts are kept.
  void kept.keep();
  session.dispose();
  await wait(5_000);
  mark('closed');
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
