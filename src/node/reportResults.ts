// Each session's figures kept between reports: a session log that has not changed since (same size, modification
// time and inode), replayed by the same engine under the same settings, has the same figures, so the next report
// reads them instead of replaying it. Most of a history does not change from one day to the next.
//
// The engine is identified by the bytes of the running code (the CLI bundle, or the sources under its folder when
// it runs from source), so that any change of the code replays everything again. The file is a cache: written
// whole to a temporary file and renamed; unreadable, damaged or from another version, it is ignored and rebuilt;
// two reports saving at once keep the later one's figures (the other's are replayed next time).
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { SessionFigures } from '../core/history';
import type { SweepGrid } from '../core/sweep';

const VERSION = 2;
/** Bound on the sessions kept (the least recently used go first). */
const MAX_ENTRIES = 20_000;

export interface KeptResult {
  size: number;
  mtimeMs: number;
  ino: number;
  /** The engine and the settings the figures were computed with. */
  key: string;
  usedAt: number;
  row: SessionFigures;
  grid?: SweepGrid;
}

interface ResultsFile {
  version: number;
  entries: Record<string, KeptResult>;
}

/** What identifies the running engine: the hash of the CLI bundle, or of every source file beside the entry. */
export function engineId(script: string = process.argv[1] ?? ''): string {
  const hash = createHash('sha256');
  try {
    if (script.endsWith('.ts')) {
      const root = dirname(script);
      const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'))
        .sort();
      for (const f of files) hash.update(f).update(readFileSync(join(root, f)));
    } else hash.update(readFileSync(script));
  } catch {
    // Nothing to identify it by: a key no saved figures can have.
    hash.update(randomBytes(16));
  }
  return hash.digest('hex').slice(0, 32);
}

export class ReportResults {
  private readonly entries: Record<string, KeptResult>;
  private changed = false;
  hits = 0;

  private constructor(
    private readonly file: string,
    entries: Record<string, KeptResult>,
  ) {
    this.entries = entries;
  }

  static open(dir: string): ReportResults {
    const file = join(dir, `report-results.v${VERSION}.json`);
    let entries: Record<string, KeptResult> = Object.create(null);
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as ResultsFile;
      if (parsed?.version === VERSION && parsed.entries && typeof parsed.entries === 'object')
        entries = Object.assign(Object.create(null), parsed.entries);
    } catch {
      // Absent, unreadable or damaged: every session is replayed, and the file rebuilt.
    }
    return new ReportResults(file, entries);
  }

  /** The kept figures of `path` if the file (`stat`, as listed now) is as it was and the key is the same. */
  get(
    path: string,
    key: string,
    stat: { size: number; mtimeMs: number; ino: number },
  ): KeptResult | undefined {
    const id = `${key}\u0000${path}`;
    const e = Object.hasOwn(this.entries, id) ? this.entries[id] : undefined;
    if (!e || e.key !== key) return undefined;
    if (stat.size !== e.size || stat.mtimeMs !== e.mtimeMs || stat.ino !== e.ino) return undefined;
    e.usedAt = Date.now();
    this.changed = true;
    this.hits++;
    return e;
  }

  /** Keeps the figures of `path` as it stood at `stat` (taken before it was read). */
  set(
    path: string,
    stat: { size: number; mtimeMs: number; ino: number },
    key: string,
    row: SessionFigures,
    grid?: SweepGrid,
  ): void {
    const e: KeptResult = { ...stat, key, usedAt: Date.now(), row };
    if (grid) e.grid = grid;
    // Per settings and file: reports under other settings keep theirs.
    this.entries[`${key}\u0000${path}`] = e;
    this.changed = true;
  }

  async save(): Promise<void> {
    if (!this.changed) return;
    let list = Object.entries(this.entries);
    if (list.length > MAX_ENTRIES)
      list = list.sort((a, b) => b[1].usedAt - a[1].usedAt).slice(0, MAX_ENTRIES);
    const body: ResultsFile = { version: VERSION, entries: Object.fromEntries(list) };
    const tmp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await fsp.mkdir(dirname(this.file), { recursive: true });
      await fsp.writeFile(tmp, JSON.stringify(body), { flag: 'wx' });
      await fsp.rename(tmp, this.file);
    } catch {
      await fsp.rm(tmp, { force: true });
    }
  }
}
