// `report`'s file finding: the session logs under the agents' folders, or under the folders and files given.
import { existsSync, lstatSync, statSync } from 'node:fs';
import { pushAll } from '../../core/arrays';
import { discoverableFormats } from '../../core/formats/registry';
import { argPath, undecodedNameHint } from '../../node/argPath';
import { mirrorStores } from '../../node/openCodeMirror';
import { type JsonlFile, listJsonlFiles, sessionRoots } from '../../node/sessionFiles';
import type { Options } from './args';

/** Folders below each DIR read this deep (an agent's layout is 1 to 4 levels; a link loop or a copied home is not
 * walked for ever): a folder deeper is said, never silently left out. */
const FOLDER_DEPTH = 8;

export interface Found {
  /** As shown; `bytes`, where a name on it is not UTF-8, is what is opened. */
  path: string;
  bytes?: Buffer;
  size: number;
  modified: number;
  ino: number;
}

/** What an agent keeps its sessions in besides *.jsonl, where the folder is that agent's (or any folder given, for
 * any agent): the name prefix of its older sessions kept as JSON documents (Gemini CLI's `session-*.json`), the end
 * of the name of its sessions that are not JSONL (Cline's `<id>.messages.json`). */
function sessionFilesUnder(root: string, given: boolean): { documents?: string; suffix?: string } {
  const formats = discoverableFormats().filter((f) => given || sessionRoots(f).includes(root));
  const locations = formats.flatMap((f) => f.session?.location ?? []);
  return {
    documents: locations.find((l) => l.documents !== undefined)?.documents,
    suffix: locations.find((l) => l.fileSuffix !== undefined)?.fileSuffix,
  };
}

/** The session logs to read: every *.jsonl under each folder (symbolic links are not followed), each file given. */
export async function findSessions(o: Options, warn: (m: string) => void): Promise<Found[]> {
  // The agents' own stores (OpenCode's database) are copied into their mirrors first: those are what is read.
  if (o.paths.length === 0) for (const problem of await mirrorStores()) warn(problem);
  const roots = o.paths.length > 0 ? o.paths : discoverableFormats().flatMap((f) => sessionRoots(f));
  // Besides *.jsonl, the one file of a session that is a folder (a Cline task's api_conversation_history.json).
  const names = discoverableFormats().flatMap((f) => f.session?.location?.fileName ?? []);
  const paths: JsonlFile[] = [];
  for (const root of roots) {
    const opened = argPath(root);
    let s: ReturnType<typeof statSync>;
    try {
      s = statSync(opened);
    } catch (e) {
      if (o.paths.length > 0)
        warn(
          `${root}: cannot read (${(e as NodeJS.ErrnoException).code ?? e})${undecodedNameHint(root, opened)}; skipped`,
        );
      continue;
    }
    if (s.isDirectory()) {
      const deeper: string[] = [];
      const listed = await listJsonlFiles(opened, FOLDER_DEPTH, {
        links: true,
        deeper: (d) => deeper.push(d),
        names,
        ...sessionFilesUnder(root, o.paths.length > 0),
      });
      pushAll(
        paths,
        listed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
      );
      if (deeper.length > 0)
        warn(
          `${root}: ${deeper.length} ${deeper.length === 1 ? 'folder lies' : 'folders lie'} more than ${FOLDER_DEPTH} levels deep and ${deeper.length === 1 ? 'was' : 'were'} not read ` +
            `(e.g. ${deeper.sort()[0]}); give such a folder as DIR to read it`,
        );
    } else paths.push(typeof opened === 'string' ? { path: root } : { path: root, bytes: opened });
  }
  const since = o.since ? new Date(`${o.since}T00:00:00`).getTime() : undefined;
  const out: Found[] = [];
  const seen = new Set<string>();
  for (const { path, bytes } of paths) {
    const opened = bytes ?? path;
    const key = bytes ? `bytes:${bytes.toString('hex')}` : path;
    if (seen.has(key)) continue;
    seen.add(key);
    try {
      // A dangling link is listed (and reported unreadable by its worker): lstat stands in for its times.
      const s = statSync(opened, { throwIfNoEntry: false }) ?? lstatSync(opened);
      // Last written before --since: it cannot have started on or after it.
      if (since !== undefined && s.mtimeMs < since) continue;
      out.push({ path, ...(bytes ? { bytes } : {}), size: s.size, modified: s.mtimeMs, ino: s.ino });
    } catch (e) {
      warn(`${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? e}); skipped`);
    }
  }
  if (o.paths.length === 0 && !roots.some((r) => existsSync(r)))
    warn(`no session folders: ${roots.join(', ')} (give the folders to read)`);
  // Largest first: the long sessions start early and the threads finish together.
  return out.sort((a, b) => b.size - a.size);
}
