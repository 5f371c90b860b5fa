// Atomic file writes for the CLI and the editor host (Node only; the engine never writes files): the bytes go to
// a temporary file in the target's own folder (same file system, so the rename cannot turn into a copy), are
// flushed to disk, then renamed over the target. A reader sees the old file or the new one, never half of one.
import { randomBytes } from 'node:crypto';
import { constants, promises as fsp } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
}

/** Writes `data` to `target` atomically. On any failure the temporary file is removed and the target is left
 * as it was. */
export async function writeFileAtomic(target: string, data: Uint8Array | string): Promise<void> {
  const tmp = tempPathFor(target);
  // O_EXCL: never follow or reuse an existing file under the temporary name.
  const handle = await fsp.open(tmp, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o644);
  try {
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fsp.rename(tmp, target);
  } catch (error) {
    await fsp.rm(tmp, { force: true });
    throw error;
  }
}

/** Whether two paths name the same file: the same resolved path, the same real path (symlinks), or the same
 * inode (hard links). A path that does not exist is only the same as another by its resolved path. */
export async function sameFile(a: string, b: string): Promise<boolean> {
  if (resolve(a) === resolve(b)) return true;
  const [sa, sb] = await Promise.all([fsp.stat(a).catch(() => null), fsp.stat(b).catch(() => null)]);
  if (!sa || !sb) return false;
  return sa.dev === sb.dev && sa.ino === sb.ino;
}

/** Refuses (throws) when `target` is the transcript the export reads: transcripts are read-only. */
export async function assertNotSource(target: string, source: string): Promise<void> {
  if (await sameFile(target, source))
    throw new Error(
      `refusing to write ${target}: it is the source transcript ${source}, which is never overwritten`,
    );
}
