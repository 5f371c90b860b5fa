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
import { decodeList } from '../protocol/listWire';

type Message<T extends HostMessage['type']> = Extract<HostMessage, { type: T }>;

export interface ViewSnapshot {
  transcript: Message<'transcript'>;
  settings: Message<'settings'>;
  analysis: Message<'analysis'>;
}

/** A snapshot to keep: its transcript as made in place, or packed as it crossed to the views. */
export type SnapshotToKeep = Omit<ViewSnapshot, 'transcript'> & {
  transcript: Message<'transcript' | 'list'>;
};

/** Files smaller than this open in about a second anyway: no snapshot is kept of them. */
export const SNAPSHOT_MIN_FILE_BYTES = 1024 * 1024;

/** The most snapshots kept, and their most bytes together (a 100 MB session's is ~8 MB); the least recently
 * used go first. */
export const SNAPSHOT_LIMITS = { files: 16, bytes: 128 * 1024 * 1024 };

const SUFFIX = '.view.json';
const VERSION = 1;
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
    let data: unknown;
    try {
      // Only a regular file no larger than all snapshots together (a FIFO here would block the read for ever).
      const bytes = await readRegularFile(file, { maxBytes: this.limits.bytes });
      data = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    } catch {
      return null;
    }
    const snapshot = checked(data);
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
    const text =
      transcript.type === 'list'
        ? `{"list":${new TextDecoder().decode(transcript.json)},"settings":${JSON.stringify(settings)},"analysis":${JSON.stringify(analysis)}}`
        : JSON.stringify(snapshot);
    await writeFileAtomic(this.fileOf(key), text);
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

function checked(data: unknown): ViewSnapshot | null {
  if (typeof data !== 'object' || data === null) return null;
  const { transcript, list, settings, analysis } = data as Record<string, unknown>;
  const decoded = list === undefined ? null : decodeList(list);
  if (decoded && !decoded.ok) return null;
  const t = parseHostMessage(decoded ? decoded.value : transcript);
  const s = parseHostMessage(settings);
  const a = parseHostMessage(analysis);
  if (!t.ok || t.value.type !== 'transcript' || t.value.beginning) return null;
  if (!s.ok || s.value.type !== 'settings') return null;
  if (!a.ok || a.value.type !== 'analysis' || a.value.analysis.tokensPending) return null;
  return { transcript: t.value, settings: s.value, analysis: a.value };
}
