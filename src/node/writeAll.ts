// All the files of one export (the compacted transcript, its CCR store, the Anthropic request, the report) are
// written together or not at all: an output whose markers point at a store that failed to write (a full disk)
// is worse than no output. Each file goes to a temporary name in its own folder first (flushed to disk); only
// when every one is written are they renamed over their targets, one after the other. A failure while writing
// removes every temporary file; a failure while renaming also puts back what the renames before it replaced
// (kept meanwhile under a hard link), so the folder is as it was.
//
// Before anything is written, `checkTargets` refuses: the source transcript under any name (same path, symlink,
// hard link), two outputs that are one file, an existing thing that is not a regular file (a directory or a
// device in the way), and, unless `replace` is set, any existing output (the CLI's `--force`).
import { randomBytes } from 'node:crypto';
import { constants, promises as fsp, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { assertNotSource, sameFile } from './atomicWrite';
import { fileKind } from './readRegularFile';

export interface FileToWrite {
  path: string;
  data: Uint8Array | string;
}

/** The file operations `writeAll` uses; tests replace one to make it fail where a full disk would. */
export interface FileOps {
  /** Creates `path` (never an existing file) with `data`, flushed to disk. */
  create(path: string, data: Uint8Array | string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** Gives the existing file a second name (`alias`, which does not exist) holding its current content. */
  keep(existing: string, alias: string): Promise<void>;
  remove(path: string): Promise<void>;
}

export const diskOps: FileOps = {
  async create(path, data) {
    // O_EXCL: never follow or reuse an existing file under the temporary name.
    const handle = await fsp.open(path, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o644);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  rename: (from, to) => fsp.rename(from, to),
  async keep(existing, alias) {
    try {
      // A hard link costs nothing, whatever the size, and keeps a symbolic link a symbolic link.
      await fsp.link(existing, alias);
    } catch {
      // File systems without hard links: a copy.
      await fsp.copyFile(existing, alias, constants.COPYFILE_EXCL);
    }
  },
  remove: (path) => fsp.rm(path, { force: true }),
};

export interface WriteAllOptions {
  /** The transcript the export reads: never written, under any name. */
  source: string;
  /** Replace outputs that exist (the editor's save dialog asked; the CLI's `--force`). */
  replace: boolean;
  ops?: FileOps;
}

/** Thrown when an output exists and `replace` is not set; nothing was written. */
export class OutputExistsError extends Error {
  constructor(readonly paths: string[]) {
    super(
      `${paths.join(', ')} ${paths.length === 1 ? 'exists' : 'exist'}: refusing to replace ${paths.length === 1 ? 'it' : 'them'} (--force replaces)`,
    );
    this.name = 'OutputExistsError';
  }
}

const lstatOrNull = (p: string): Promise<Stats | null> => fsp.lstat(p).catch(() => null);
const statOrNull = (p: string): Promise<Stats | null> => fsp.stat(p).catch(() => null);

/** Refuses (throws, nothing written) what `writeAll` would refuse, so a caller can check before long work. */
export async function checkTargets(paths: string[], options: Omit<WriteAllOptions, 'ops'>): Promise<void> {
  for (const p of paths) await assertNotSource(p, options.source);
  for (let i = 0; i < paths.length; i++)
    for (let j = i + 1; j < paths.length; j++)
      if (await sameFile(paths[i], paths[j]))
        throw new Error(`refusing to write ${paths[i]} and ${paths[j]}: they are the same file`);
  const existing: string[] = [];
  for (const p of paths) {
    const folder = await statOrNull(dirname(p));
    if (!folder?.isDirectory()) throw new Error(`cannot write ${p}: its folder ${dirname(p)} does not exist`);
    const link = await lstatOrNull(p);
    if (!link) continue;
    const s = (await statOrNull(p)) ?? link;
    if (!s.isFile() && !s.isSymbolicLink())
      throw new Error(`refusing to write ${p}: it is ${fileKind(s)}, not a regular file`);
    existing.push(p);
  }
  if (existing.length > 0 && !options.replace) throw new OutputExistsError(existing);
}

function sideName(target: string, suffix: 'tmp' | 'old'): string {
  return join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.${suffix}`,
  );
}

/** Writes every file or none (see the top of this file). */
export async function writeAll(files: FileToWrite[], options: WriteAllOptions): Promise<void> {
  const ops = options.ops ?? diskOps;
  await checkTargets(
    files.map((f) => f.path),
    options,
  );
  const temps: string[] = [];
  try {
    for (const f of files) {
      const tmp = sideName(f.path, 'tmp');
      temps.push(tmp);
      await ops.create(tmp, f.data);
    }
  } catch (error) {
    await Promise.all(temps.map((t) => ops.remove(t).catch(() => undefined)));
    throw error;
  }

  const done: { target: string; kept: string | null }[] = [];
  let pending: string | null = null;
  try {
    for (let i = 0; i < files.length; i++) {
      const target = files[i].path;
      let kept: string | null = null;
      if (await lstatOrNull(target)) {
        kept = sideName(target, 'old');
        await ops.keep(target, kept);
        pending = kept;
      }
      await ops.rename(temps[i], target);
      done.push({ target, kept });
      pending = null;
    }
  } catch (error) {
    // Back to how the folder was: the replaced files return, the new ones go, no side file stays.
    if (pending) await ops.remove(pending).catch(() => undefined);
    for (const { target, kept } of done.reverse()) {
      if (kept) await ops.rename(kept, target).catch(() => undefined);
      else await ops.remove(target).catch(() => undefined);
    }
    await Promise.all(temps.map((t) => ops.remove(t).catch(() => undefined)));
    throw error;
  }
  await Promise.all(done.map(({ kept }) => kept && ops.remove(kept).catch(() => undefined)));
}
