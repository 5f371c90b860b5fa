// Token counts kept on disk by content digest, across runs and sessions: a second `simulate` or `report` over the
// same files, and the editor reopening a session (or opening another that shares its tool outputs), tokenize
// nothing they counted before. The bytes of the files are tokenStoreFile.ts's.
//
// Saving re-reads the file under a lock file, merges what this process added, evicts the least recently used
// records beyond the bound, and renames a complete temporary file over it: two processes saving at once both keep
// their counts, a reader sees the old file or the new one, and a file that fails its checks (a crash of another
// tool, a disk error, a hand edit) is ignored and rebuilt. Nothing here is ever fatal: a store that cannot be read
// counts as empty, one that cannot be written is left as it was.
import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import {
  type CountBacking,
  keyDigest,
  TOKENIZERS,
  type TokenCounter,
  type TokenizerName,
  tokenCounter,
} from '../core/tokens/counter';
import {
  FileTooLargeError,
  NotRegularFileError,
  readRegularFile,
  readRegularFileSync,
  refusalWords,
} from './readRegularFile';
import {
  type Added,
  DEFAULT_MAX_ENTRIES,
  fileBytes,
  maxFileBytes,
  mergeRecords,
  readRecords,
  SortedRecords,
  storeFile,
} from './tokenStoreFile';

/** A record used again is re-stamped (and the file rewritten) only when its stamp is older than this. */
const RESTAMP_HOURS = 24;
/** A lock file older than this is left over from a process that died while saving. */
const STALE_LOCK_MS = 30_000;
const LOCK_WAIT_MS = 5_000;

const hoursNow = () => Math.floor(Date.now() / 3_600_000);

/** The default folder of the CLI's store: `$CONTEXT_LENS_TOKEN_CACHE` (a folder, or `off`), else the platform's
 * cache folder (`$XDG_CACHE_HOME` or ~/.cache on Linux, ~/Library/Caches on macOS, %LOCALAPPDATA% on Windows).
 * Null: off. */
export function defaultStoreDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const set = env.CONTEXT_LENS_TOKEN_CACHE;
  if (set) return set === 'off' ? null : set;
  if (process.platform === 'win32' && env.LOCALAPPDATA)
    return join(env.LOCALAPPDATA, 'context-lens', 'tokens');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'context-lens', 'tokens');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'context-lens', 'tokens');
}

export interface TokenStoreOptions {
  maxEntries?: number;
  /** Called with a sentence when the file could not be read or written (the store goes on without it). */
  warn?: (message: string) => void;
  /** How long `save` waits for another process's lock before giving up (default 5 s). */
  lockWaitMs?: number;
}

/** The counts of one tokenizer kept in `dir`, as a TokenCounter's backing. */
export class TokenStore implements CountBacking {
  private sorted: SortedRecords;
  private added: Added = new Map();
  private readonly now = hoursNow();
  private readonly maxEntries: number;
  private readonly warn: (message: string) => void;
  private readonly lockWaitMs: number;
  /** A kept count was found wrong (`distrust`): the file's counts are not trusted, nor merged at the next save. */
  private distrusted = false;
  /** Lookups answered from the file, and counts added to it, since the store was opened. */
  hits = 0;
  adds = 0;

  private constructor(
    readonly file: string | null,
    records: Buffer,
    options: TokenStoreOptions,
  ) {
    this.sorted = new SortedRecords(records);
    this.maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
    this.warn = options.warn ?? (() => {});
    this.lockWaitMs = options.lockWaitMs ?? LOCK_WAIT_MS;
  }

  private loadOptions(): TokenStoreOptions {
    return { maxEntries: this.maxEntries, warn: this.warn };
  }

  /** Opens the store of `tokenizer` in `dir` (absent, unreadable or corrupt: empty, and rebuilt by `save`). */
  static open(dir: string, tokenizer: TokenizerName, options: TokenStoreOptions = {}): TokenStore {
    const file = storeFile(dir, tokenizer);
    const o = onceEach(options);
    return new TokenStore(file, loadRecords(file, o), o);
  }

  /** `open` without blocking the thread on the read (the extension host). */
  static async openAsync(
    dir: string,
    tokenizer: TokenizerName,
    options: TokenStoreOptions = {},
  ): Promise<TokenStore> {
    const file = storeFile(dir, tokenizer);
    const o = onceEach(options);
    return new TokenStore(file, await loadRecordsAsync(file, o), o);
  }

  /** A store over records read elsewhere (a worker thread given the main thread's snapshot): never saves itself;
   * what it adds is taken with `takeAdded` and handed to the store that saves. */
  static fromSnapshot(records: Uint8Array): TokenStore {
    return new TokenStore(null, Buffer.from(records.buffer, records.byteOffset, records.byteLength), {});
  }

  /** The records as read, for `fromSnapshot` in another thread (copied into shared memory once, not per thread). */
  snapshot(): Uint8Array {
    const shared = new Uint8Array(new SharedArrayBuffer(this.sorted.records.length));
    shared.set(this.sorted.records);
    return shared;
  }

  get size(): number {
    return this.sorted.n + this.added.size;
  }

  get(key: string): number | undefined {
    return this.getDigest(keyDigest(key));
  }

  getDigest(digest: Buffer): number | undefined {
    const id = digest.toString('latin1');
    const a = this.added.get(id);
    if (a) return a[0];
    const i = this.sorted.find(digest);
    if (i < 0) return undefined;
    this.hits++;
    const tokens = this.sorted.tokensAt(i);
    // Used again long after it was stamped: re-stamped at the next save, so eviction keeps what is in use.
    if (this.sorted.stampAt(i) + RESTAMP_HOURS < this.now) this.added.set(id, [tokens, this.now]);
    return tokens;
  }

  put(key: string, count: number): void {
    const digest = keyDigest(key);
    if (this.getDigest(digest) !== undefined) return;
    this.added.set(digest.toString('latin1'), [count, this.now]);
    this.adds++;
  }

  /** A count read from this store differed from the tokenizer's (see TokenCounter's spot checks): every count it
   * holds is dropped (a file edited to bend figures, or a tokenizer changed without a new COUNTING_VERSION), and the
   * next save rebuilds the file from the counts made anew instead of merging with it. */
  distrust(why: string): void {
    if (!this.distrusted)
      this.warn(
        `token cache ${this.file ?? '(snapshot)'}: ${why}; every kept count is discarded, counted anew and the cache rebuilt`,
      );
    this.distrusted = true;
    this.sorted = new SortedRecords(Buffer.alloc(0));
    // Re-stamped records came from the file too: none of them is kept.
    this.added = new Map();
  }

  /** Whether a count of this store was found wrong since it was opened (or last saved). */
  get isDistrusted(): boolean {
    return this.distrusted;
  }

  /** What this store added since it was opened (or last taken), to hand to another thread's store. */
  takeAdded(): [string, number, number][] {
    const out = [...this.added].map(([d, [tokens, stamp]]) => [d, tokens, stamp] as [string, number, number]);
    this.added = new Map();
    return out;
  }

  /** Adds what another thread's store took with `takeAdded`. */
  addTaken(entries: readonly [string, number, number][]): void {
    for (const [d, tokens, stamp] of entries) {
      if (this.added.has(d) || this.sorted.find(Buffer.from(d, 'latin1')) >= 0) continue;
      this.added.set(d, [tokens, stamp]);
      this.adds++;
    }
  }

  /** Whether `save` has anything to write. */
  get dirty(): boolean {
    return this.added.size > 0 || this.distrusted;
  }

  /** Writes what was added: under the lock, merged with the file as it is now (another process may have saved
   * since it was read), bounded, renamed into place. Returns false, with a warning, when it could not. */
  async save(): Promise<boolean> {
    if (!this.file || (this.added.size === 0 && !this.distrusted)) return true;
    const file = this.file;
    const dir = join(file, '..');
    try {
      await fsp.mkdir(dir, { recursive: true });
    } catch (e) {
      this.warn(`token cache ${dir}: cannot create the folder (${errorCode(e)}); counts are not kept`);
      return false;
    }
    const lock = `${file}.lock`;
    const locked = await acquireLock(lock, this.lockWaitMs);
    if (locked !== 'locked') {
      this.warn(
        locked === 'held'
          ? `token cache ${file}: another process holds ${lock}; this run's counts are not kept`
          : `token cache ${dir}: cannot write in the folder (${errorCode(locked)}); counts are not kept`,
      );
      return false;
    }
    try {
      // Discarded as untrustworthy: rebuilt from this run's counts alone, not merged with the file.
      const current = this.distrusted ? Buffer.alloc(0) : loadRecords(file, this.loadOptions());
      const merged = mergeRecords(current, this.added, this.maxEntries);
      const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      try {
        // No fsync: a file cut by a power loss fails its checksum and is rebuilt; a cache is worth no disk flush.
        await fsp.writeFile(tmp, fileBytes(merged), { flag: 'wx' });
        await fsp.rename(tmp, file);
      } catch (e) {
        await fsp.rm(tmp, { force: true });
        throw e;
      }
      this.sorted = new SortedRecords(merged);
      this.added = new Map();
      this.distrusted = false;
      return true;
    } catch (e) {
      this.warn(`token cache ${file}: cannot write (${errorCode(e)}); counts are not kept`);
      return false;
    } finally {
      await fsp.rm(lock, { force: true });
    }
  }
}

/** The options with a `warn` that says each thing once: the file is read again under the lock when saving, and
 * may fail the same way. */
function onceEach(options: TokenStoreOptions): TokenStoreOptions {
  const warn = options.warn;
  if (!warn) return options;
  const said = new Set<string>();
  return {
    ...options,
    warn: (m) => {
      if (said.has(m)) return;
      said.add(m);
      warn(m);
    },
  };
}

function errorCode(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e instanceof Error ? e.message : String(e));
}

function loadRecords(file: string, options: TokenStoreOptions): Buffer {
  let bytes: Uint8Array;
  try {
    bytes = readRegularFileSync(file, { maxBytes: maxFileBytes(options.maxEntries) });
  } catch (e) {
    return unreadable(file, e, options.warn);
  }
  return checked(file, bytes, options.warn);
}

async function loadRecordsAsync(file: string, options: TokenStoreOptions): Promise<Buffer> {
  let bytes: Uint8Array;
  try {
    bytes = await readRegularFile(file, { maxBytes: maxFileBytes(options.maxEntries) });
  } catch (e) {
    return unreadable(file, e, options.warn);
  }
  return checked(file, bytes, options.warn);
}

function unreadable(file: string, e: unknown, warn?: (message: string) => void): Buffer {
  // A FIFO, a device, a folder or a file too large in the store's place is never read (a FIFO would block the
  // reader forever, /dev/zero never ends); the next save renames a valid store over it.
  if (e instanceof NotRegularFileError || e instanceof FileTooLargeError)
    warn?.(`token cache ${refusalWords(e)}; ignored and rebuilt`);
  else if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
    warn?.(`token cache ${file}: cannot read (${errorCode(e)}); counting anew`);
  return Buffer.alloc(0);
}

function checked(file: string, bytes: Uint8Array, warn?: (message: string) => void): Buffer {
  const records = readRecords(bytes);
  if (records) return records;
  warn?.(`token cache ${file}: not a valid store (cut or damaged); ignored and rebuilt`);
  return Buffer.alloc(0);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Creates `lock` exclusively; waits while another process holds it, and takes over one left by a dead process.
 * True once held; 'held' when another process kept it past the wait; the error when it cannot be created at all
 * (a read-only folder: no other process is to blame). */
async function acquireLock(lock: string, waitMs: number): Promise<'locked' | 'held' | Error> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await fsp.writeFile(lock, String(process.pid), { flag: 'wx' });
      return 'locked';
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return e as Error;
    }
    try {
      const s = await fsp.stat(lock);
      if (Date.now() - s.mtimeMs > STALE_LOCK_MS) {
        await fsp.rm(lock, { force: true });
        continue;
      }
    } catch {
      continue; // released meanwhile
    }
    if (Date.now() > deadline) return 'held';
    await sleep(20 + Math.random() * 30);
  }
}

/** A backing that opens its store on first use: a run that never counts with a tokenizer never reads its file. */
class LazyStore implements CountBacking {
  store: TokenStore | undefined;
  constructor(private readonly open: () => TokenStore) {}
  private get s(): TokenStore {
    this.store ??= this.open();
    return this.store;
  }
  get(key: string): number | undefined {
    return this.s.get(key);
  }
  put(key: string, count: number): void {
    this.s.put(key, count);
  }
  distrust(why: string): void {
    this.s.distrust(why);
  }
}

export interface BackedCounters {
  /** The stores opened so far (for their figures). */
  stores(): TokenStore[];
  /** Saves every opened store; never throws. */
  save(): Promise<void>;
  /** Detaches the stores from the counters. */
  detach(): void;
}

/** Backs every tokenizer's process-wide counter (or the given ones) with its store in `dir`. */
export function backCounters(
  dir: string,
  options: TokenStoreOptions = {},
  counters: readonly TokenCounter[] = TOKENIZERS.map((t) => tokenCounter(t)),
): BackedCounters {
  const lazies = counters.map((c) => {
    const lazy = new LazyStore(() => TokenStore.open(dir, c.tokenizer, options));
    c.backing = lazy;
    return { counter: c, lazy };
  });
  const stores = () => lazies.flatMap((l) => (l.lazy.store ? [l.lazy.store] : []));
  return {
    stores,
    save: async () => {
      await Promise.all(stores().map((s) => s.save()));
    },
    detach: () => {
      for (const l of lazies) if (l.counter.backing === l.lazy) l.counter.backing = null;
    },
  };
}
