// What the views of a file were last sent once its exact figures were made (the transcript, the settings, the
// analysis), kept in the extension's global storage so that reopening the same file under the same settings
// shows its exact figures at once: a 100 MB session takes seconds to parse and analyse again, even with every
// token count on disk. The parse still runs, and what it makes replaces the kept messages if it differs.
//
// A snapshot is found by the file's content (SHA-256 of its bytes), its path (the title and the name come from
// it) and the build of the engine (a new build may draw other figures); it is shown only when the settings in
// force make the policy its analysis was made under. Damaged or foreign files are ignored. Node only, no editor
// API: the unit tests drive it as the host does.
import { createHash } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../node/atomicWrite';
import { readRegularFile } from '../node/readRegularFile';
import { type HostMessage, parseHostMessage } from '../protocol';
import { packed } from './sessionProtocol';

type Message<T extends HostMessage['type']> = Extract<HostMessage, { type: T }>;

/** As found: its settings and analysis checked as the views check them; its transcript packed as it crossed to the
 * views (listWire.ts), its bytes neither decoded nor checked here, on the extension host's thread, but where the
 * session restores it (`TranscriptSession.restore`). */
export interface ViewSnapshot {
  list: Message<'list'>;
  settings: Message<'settings'>;
  analysis: Message<'analysis'>;
}

/** A snapshot to keep: its transcript as made in place, or packed as it crossed to the views. */
export type SnapshotToKeep = Omit<ViewSnapshot, 'list'> & {
  transcript: Message<'transcript' | 'list'>;
};

/** Files smaller than this open in about a second anyway: no snapshot is kept of them. */
export const SNAPSHOT_MIN_FILE_BYTES = 1024 * 1024;

/** The most snapshots kept, and their most bytes together (a 100 MB session's is ~8 MB); the least recently
 * used go first. */
export const SNAPSHOT_LIMITS = { files: 16, bytes: 128 * 1024 * 1024 };

const SUFFIX = '.view.json';
/** 2: a line of JSON (settings, analysis, the list's key, count and length), then the list's bytes. */
const VERSION = 2;
/** The file's bytes are hashed this many at a time, giving the host's thread back in between. */
const HASH_CHUNK = 1024 * 1024;

export class ViewSnapshots {
  constructor(
    readonly dir: string,
    /** The build of the engine (its bundles' identity): a snapshot of another build is never shown. */
    private readonly build: string,
    private readonly limits = SNAPSHOT_LIMITS,
  ) {}

  /** The key of `bytes`, the file at `path`: the file's place (`placeOf`), then its content. */
  async key(path: string, bytes: Uint8Array): Promise<string> {
    const content = createHash('sha256');
    for (let at = 0; at < bytes.length; at += HASH_CHUNK) {
      content.update(bytes.subarray(at, at + HASH_CHUNK));
      await new Promise((resolve) => setImmediate(resolve));
    }
    return `${this.placeOf(path)}-${content.digest('hex')}`;
  }

  /** Whether a snapshot of the file at `path` is kept (of any content): a file opened for the first time is not
   * hashed. */
  async keptFor(path: string): Promise<boolean> {
    const place = `${this.placeOf(path)}-`;
    const names = await fsp.readdir(this.dir).catch(() => [] as string[]);
    return names.some((n) => n.startsWith(place) && n.endsWith(SUFFIX));
  }

  private placeOf(path: string): string {
    return createHash('sha256')
      .update(JSON.stringify([VERSION, this.build, path]))
      .digest('hex')
      .slice(0, 32);
  }

  /** The snapshot kept under `key`, checked as the views check every message; null when there is none (or it is
   * damaged). */
  async find(key: string): Promise<ViewSnapshot | null> {
    const file = this.fileOf(key);
    let snapshot: ViewSnapshot | null;
    try {
      // Only a regular file no larger than all snapshots together (a FIFO here would block the read for ever).
      snapshot = checked(await readRegularFile(file, { maxBytes: this.limits.bytes }));
    } catch {
      return null;
    }
    // Used now: the last to go.
    if (snapshot) await fsp.utimes(file, new Date(), new Date()).catch(() => {});
    return snapshot;
  }

  /** Keeps `snapshot` under `key` (written whole or not at all), then lets go of the file's other contents (it
   * changed since) and of the least recently used beyond the limits. A transcript packed as it crossed to the
   * views (listWire.ts) is written as it is, in its compact form, not decoded and serialised again. */
  async keep(key: string, snapshot: SnapshotToKeep): Promise<void> {
    await fsp.mkdir(this.dir, { recursive: true });
    const { transcript, settings, analysis } = snapshot;
    const list = transcript.type === 'list' ? transcript : packed(transcript);
    const head = {
      settings,
      analysis,
      list: { key: list.key, messages: list.messages, bytes: list.json.length },
    };
    await writeFileAtomic(
      this.fileOf(key),
      Buffer.concat([Buffer.from(`${JSON.stringify(head)}\n`), list.json]),
    );
    await this.prune(key);
  }

  private fileOf(key: string): string {
    return join(this.dir, `${key}${SUFFIX}`);
  }

  /** Removes the other contents of `keptKey`'s file, and the least recently used beyond the limits, never the one
   * just written. */
  private async prune(keptKey: string): Promise<void> {
    const kept = this.fileOf(keptKey);
    const place = keptKey.slice(0, keptKey.indexOf('-') + 1);
    const names = (await fsp.readdir(this.dir)).filter((n) => n.endsWith(SUFFIX));
    for (const n of names)
      if (n.startsWith(place) && join(this.dir, n) !== kept) await fsp.rm(join(this.dir, n), { force: true });
    const files = (
      await Promise.all(
        names.map(async (name) => {
          const path = join(this.dir, name);
          const stat = await fsp.stat(path).catch(() => null);
          return stat ? { path, bytes: stat.size, used: stat.mtimeMs } : null;
        }),
      )
    ).filter((f) => f !== null);
    files.sort((a, b) => Number(b.path === kept) - Number(a.path === kept) || b.used - a.used);
    let bytes = 0;
    for (const [i, f] of files.entries()) {
      bytes += f.bytes;
      if (f.path !== kept && (i >= this.limits.files || bytes > this.limits.bytes))
        await fsp.rm(f.path, { force: true });
    }
  }
}

/** The snapshot a file holds (`keep`'s layout), its settings and analysis checked; null when it is damaged. */
function checked(bytes: Uint8Array): ViewSnapshot | null {
  // (JSON never holds a raw line break: the first one ends the head.)
  const end = bytes.indexOf(10);
  if (end === -1) return null;
  const head: unknown = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, end).toString('utf8'));
  if (typeof head !== 'object' || head === null) return null;
  const { settings, analysis, list } = head as Record<string, unknown>;
  if (typeof list !== 'object' || list === null) return null;
  const { key, messages, bytes: length } = list as Record<string, unknown>;
  if (typeof key !== 'string' || !Number.isSafeInteger(messages) || length !== bytes.length - end - 1)
    return null;
  const s = parseHostMessage(settings);
  const a = parseHostMessage(analysis);
  if (!s.ok || s.value.type !== 'settings') return null;
  if (!a.ok || a.value.type !== 'analysis' || a.value.analysis.tokensPending) return null;
  return {
    list: { type: 'list', key, messages: messages as number, json: bytes.subarray(end + 1) },
    settings: s.value,
    analysis: a.value,
  };
}
