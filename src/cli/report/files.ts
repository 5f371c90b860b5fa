// `report`'s file finding: the session logs under the agents' folders, or under the folders and files given.
import { existsSync, lstatSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pushAll } from '../../core/arrays';
import { discoverableFormats } from '../../core/formats/registry';
import { listJsonl, sessionsDir } from '../../node/sessionFiles';
import type { Options } from './args';

/** Folders below each DIR read this deep (an agent's layout is 1 to 4 levels; a link loop or a copied home is not
 * walked for ever): a folder deeper is said, never silently left out. */
const FOLDER_DEPTH = 8;

export interface Found {
  path: string;
  size: number;
  modified: number;
  ino: number;
}

/** The session logs to read: every *.jsonl under each folder (symbolic links are not followed), each file given. */
export async function findSessions(o: Options, warn: (m: string) => void): Promise<Found[]> {
  const roots = o.paths.length > 0 ? o.paths : discoverableFormats().map((f) => sessionsDir(f));
  const paths: string[] = [];
  for (const root of roots) {
    let s: ReturnType<typeof statSync>;
    try {
      s = statSync(root);
    } catch (e) {
      if (o.paths.length > 0)
        warn(`${root}: cannot read (${(e as NodeJS.ErrnoException).code ?? e}); skipped`);
      continue;
    }
    if (s.isDirectory()) {
      const deeper: string[] = [];
      pushAll(
        paths,
        (await listJsonl(root, FOLDER_DEPTH, { links: true, deeper: (d) => deeper.push(d) })).sort(),
      );
      if (deeper.length > 0)
        warn(
          `${root}: ${deeper.length} ${deeper.length === 1 ? 'folder lies' : 'folders lie'} more than ${FOLDER_DEPTH} levels deep and ${deeper.length === 1 ? 'was' : 'were'} not read ` +
            `(e.g. ${deeper.sort()[0]}); give such a folder as DIR to read it`,
        );
    } else paths.push(root);
  }
  const since = o.since ? new Date(`${o.since}T00:00:00`).getTime() : undefined;
  const out: Found[] = [];
  for (const path of [...new Set(paths)]) {
    try {
      // A dangling link is listed (and reported unreadable by its worker): lstat stands in for its times.
      const s = statSync(path, { throwIfNoEntry: false }) ?? lstatSync(path);
      // Last written before --since: it cannot have started on or after it.
      if (since !== undefined && s.mtimeMs < since) continue;
      out.push({ path, size: s.size, modified: s.mtimeMs, ino: s.ino });
    } catch (e) {
      warn(`${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? e}); skipped`);
    }
  }
  if (o.paths.length === 0 && !roots.some((r) => existsSync(r)))
    warn(`no session folders: ${roots.join(', ')} (give the folders to read)`);
  // Largest first: the long sessions start early and the threads finish together.
  return out.sort((a, b) => b.size - a.size);
}
