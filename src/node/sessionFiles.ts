// Finds the agents' session logs for the session pickers, the Sessions view and the report: under the folder each
// session format's adapter names (its environment override, else a folder in the home directory), e.g.
// ~/.claude/projects/<project>/<session>.jsonl or ~/.codex/sessions/YYYY/MM/DD/*.jsonl. Only the first bytes of
// each file are read, for the project and the first prompt.
import { constants, existsSync, readdirSync } from 'node:fs';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, sep } from 'node:path';
import { adapterFor, discoverableFormats } from '../core/formats/registry';
import type {
  FormatAdapter,
  SessionDescriptor,
  SessionHeadFacts,
  SubAgentFilesPlace,
} from '../core/formats/types';
import { headRecords, projectOf } from '../core/sessionProject';
import { editorSessionRoots, type StorageRoot } from './editorStorage';
import { type AgentStore, agentStores, openCodeMirrorDir } from './openCodeStore';

export interface SessionFile {
  path: string;
  project: string;
  modified: Date;
  size: number;
  firstPrompt: string;
  /** Claude Code: the session the file's records belong to (a sub-agent's file names its parent's). */
  sessionId?: string;
  /** The file holds a sub-agent's conversation (`agent-*.jsonl`, sidechain records). */
  subAgent?: boolean;
  /** The sub-agents' files of this session, listed under it in the picker. */
  subAgents?: SessionFile[];
  /** Why the file could not be read for its first prompt (it is listed all the same, with this). */
  error?: string;
  /** The agent, where one format is written by several (Cline, Roo Code, Kilo Code): from the folder it lies in. */
  agent?: string;
}

/** Files read at once while listing: a history of thousands of sessions opened all together ran out of file
 * descriptors (EMFILE at 1,024 on Linux, 256 on macOS) and lost the files that hit the limit. */
export const LISTING_CONCURRENCY = 16;

export interface ListingOptions {
  /** Files read at once (default LISTING_CONCURRENCY). */
  concurrency?: number;
  /** How an agent's own store is copied into its mirror before it is listed (`openCodeMirror.ts`'s `mirrorStore` in
   * the CLI, a worker thread in the editor); without it the mirror is listed as it is. */
  mirrorStore?: (env: NodeJS.ProcessEnv, store: AgentStore) => Promise<unknown>;
}

/** The first prompt is nearly always in the first few records: they are read first, and up to HEAD_BYTES only when
 * they hold none (a session that starts with large snapshots or pasted text). 500 sessions list in a fraction of
 * the time 256 KB each would take. */
const FIRST_BYTES = 32 * 1024;
const HEAD_BYTES = 256 * 1024;

/** The agent's folder: its environment override, else its folder in the home directory. */
export function agentRoot(format: FormatAdapter, env: NodeJS.ProcessEnv = process.env): string {
  const location = format.session?.location;
  if (!location) throw new Error(`${format.id} keeps no sessions in a known place`);
  const set = env[location.env] || (location.envFallback ? env[location.envFallback] : undefined);
  if (set && location.envIsHome) return join(set, location.home);
  return set || join(homedir(), location.home);
}

/** Every folder the agent's logs lie under: its logs' folder, or for an editor extension's agent one in each
 * editor's storage found, or for an agent with a store of its own the mirror of its sessions
 * (`openCodeMirror.ts` fills it). */
export function sessionRoots(format: FormatAdapter, env: NodeJS.ProcessEnv = process.env): string[] {
  const location = format.session?.location;
  if (location?.mirror) return storesOf(format, env).map((s) => openCodeMirrorDir(s.data, env, s.name));
  return location?.editorExtensions || location?.editorWorkspaces
    ? editorAgentRoots(format, env).map((r) => r.dir)
    : [sessionsDir(format, env)];
}

/** The folders of an editor extension's agent: its folder in each editor's storage, and the one its own build keeps
 * outside the editor, when there is one (`homeAgent`). */
function editorAgentRoots(format: FormatAdapter, env: NodeJS.ProcessEnv): StorageRoot[] {
  const roots = editorSessionRoots(format, env);
  const agent = format.session?.location?.homeAgent;
  if (agent && existsSync(sessionsDir(format, env))) roots.push({ dir: sessionsDir(format, env), agent });
  return roots;
}

/** The stores of an agent that keeps its sessions in a store of its own, and its forks' found beside it. */
export function storesOf(format: FormatAdapter, env: NodeJS.ProcessEnv = process.env): AgentStore[] {
  const location = format.session?.location;
  return location?.mirror === 'opencode' ? agentStores(location, sessionsDir(format, env), env) : [];
}

/** The folder the agent's logs lie under. */
export function sessionsDir(format: FormatAdapter, env: NodeJS.ProcessEnv = process.env): string {
  return join(agentRoot(format, env), format.session?.location?.logs ?? '');
}

/** A log found by `listJsonlFiles`: its path as shown, and the path's own bytes where a name on it is not UTF-8
 * (a Latin-1 "café" from an old archive: decoded, each invalid byte becomes U+FFFD and names another file). */
export interface JsonlFile {
  path: string;
  bytes?: Buffer;
}

/** Every *.jsonl under `dir`, folders to `depth` levels; symbolic links to folders are not followed (no cycles).
 * `links`: symbolic links named *.jsonl are listed too (a dangling one is then the reader's to report).
 * `deeper`: told of each folder not entered because it lies deeper than `depth`. Walked with a list, not by
 * recursion, and never spread into a call: a history of 140,000 files is one list. */
export async function listJsonlFiles(
  dir: string | Buffer,
  depth: number,
  options: {
    links?: boolean;
    deeper?: (folder: string) => void;
    /** The one file name of a session that is a folder (a Cline task's api_conversation_history.json). */
    names?: readonly string[];
    /** The name prefix of an agent's older sessions kept as JSON documents (Gemini CLI's `session-*.json`). */
    documents?: string;
    /** The end of the name of an agent's sessions that are not *.jsonl (Cline's `<id>.messages.json`). */
    suffix?: string;
  } = {},
): Promise<JsonlFile[]> {
  const { documents, suffix } = options;
  const listed = (p: JsonlFile, name: Buffer) =>
    p.path.endsWith('.jsonl') ||
    (suffix !== undefined && p.path.endsWith(suffix)) ||
    (options.names?.some((n) => basename(p.path) === n) ?? false) ||
    (documents !== undefined && p.path.endsWith('.json') && name.toString('utf8').startsWith(documents));
  const out: JsonlFile[] = [];
  const folders: [JsonlFile, number][] = [[named(dir), depth]];
  for (let next = folders.pop(); next; next = folders.pop()) {
    const [folder, left] = next;
    let entries: import('node:fs').Dirent<Buffer>[];
    try {
      entries = await readdir(folder.bytes ?? folder.path, { withFileTypes: true, encoding: 'buffer' });
    } catch {
      continue;
    }
    for (const e of entries) {
      const p = child(folder, e.name);
      if (e.isDirectory()) {
        if (left > 0) folders.push([p, left - 1]);
        else options.deeper?.(p.path);
      } else if ((e.isFile() || (options.links === true && e.isSymbolicLink())) && listed(p, e.name))
        out.push(p);
    }
  }
  return out;
}

/** The paths of `listJsonlFiles`, as shown. */
export async function listJsonl(
  dir: string,
  depth: number,
  options: {
    links?: boolean;
    deeper?: (folder: string) => void;
    names?: readonly string[];
    documents?: string;
    suffix?: string;
  } = {},
): Promise<string[]> {
  return (await listJsonlFiles(dir, depth, options)).map((f) => f.path);
}

/** Decoding is exact unless it made a U+FFFD (or the name holds one itself, which the bytes then tell). */
function decodes(bytes: Buffer, shown: string): boolean {
  return !shown.includes('\uFFFD') || Buffer.from(shown, 'utf8').equals(bytes);
}

function named(path: string | Buffer): JsonlFile {
  if (typeof path === 'string') return { path };
  const shown = path.toString('utf8');
  return decodes(path, shown) ? { path: shown } : { path: shown, bytes: path };
}

function child(folder: JsonlFile, name: Buffer): JsonlFile {
  const shown = name.toString('utf8');
  if (!folder.bytes && decodes(name, shown)) return { path: join(folder.path, shown) };
  const parent = folder.bytes ?? Buffer.from(folder.path, 'utf8');
  return { path: join(folder.path, shown), bytes: Buffer.concat([parent, Buffer.from(sep), name]) };
}

// Without blocking on a FIFO put in a file's place since it was listed (O_NONBLOCK), checked to be a file.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

async function head(path: string, bytes = HEAD_BYTES): Promise<string[]> {
  const fh = await open(path, OPEN_FLAGS);
  try {
    if (!(await fh.stat()).isFile()) throw new Error('not a regular file');
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    const lines = buf.subarray(0, bytesRead).toString('utf8').split('\n');
    if (bytesRead === bytes) lines.pop(); // the last line may be cut
    return lines;
  } finally {
    await fh.close();
  }
}

/** The records of a file's first lines: its JSONL records, or, for a JSON document (`*.json`), the document as far
 * as the lines go (read tolerantly: the head may end mid-document). */
/** `fn` of every item, at most `limit` at a time, in order. */
async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return out;
}

function readError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  return `cannot read${code ? ` (${code})` : e instanceof Error ? ` (${e.message})` : ''}`;
}

async function describeAll(
  paths: string[],
  read: (recs: Record<string, unknown>[], lines: string[]) => SessionHeadFacts,
  projectOf: (path: string, cwd?: string) => string,
  options: ListingOptions = {},
  cwdBeside?: (path: string) => Promise<string | undefined>,
): Promise<SessionFile[]> {
  const files = await mapBounded(paths, options.concurrency ?? LISTING_CONCURRENCY, async (path) => {
    let s: Awaited<ReturnType<typeof stat>> | null = null;
    try {
      s = await stat(path);
      let lines = await head(path, FIRST_BYTES);
      let found = read(headRecords(path, lines), lines);
      if (!found.prompt && s.size > FIRST_BYTES) {
        lines = await head(path);
        found = read(headRecords(path, lines), lines);
      }
      const { prompt, sessionId, subAgent } = found;
      const cwd = found.cwd ?? (await cwdBeside?.(path));
      const file: SessionFile = {
        path,
        project: projectOf(path, cwd),
        modified: s.mtime,
        size: s.size,
        firstPrompt: prompt,
      };
      if (sessionId) file.sessionId = sessionId;
      if (subAgent) file.subAgent = true;
      return file;
    } catch (e) {
      // Listed all the same, with why: a session missing from the list is worse than one that says it failed.
      return {
        path,
        project: projectOf(path),
        modified: s?.mtime ?? new Date(0),
        size: s?.size ?? 0,
        firstPrompt: '',
        error: readError(e),
      } satisfies SessionFile;
    }
  });
  return files.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

/** The sessions of one agent, newest first; sub-agents' files under their session. */
export async function sessionsOf(
  format: FormatAdapter,
  env: NodeJS.ProcessEnv = process.env,
  options: ListingOptions = {},
): Promise<SessionFile[]> {
  const session = format.session;
  const location = session?.location;
  if (!session || !location) return [];
  const names = location.fileName ? [location.fileName] : [];
  const only = (p: string) =>
    (!location.fileName || basename(p) === location.fileName) &&
    (!location.fileSuffix || p.endsWith(location.fileSuffix));
  const stores = storesOf(format, env);
  if (options.mirrorStore) for (const store of stores) await options.mirrorStore(env, store);
  const roots: { dir: string; agent?: string; project?: string }[] =
    location.editorExtensions || location.editorWorkspaces
      ? editorAgentRoots(format, env)
      : location.mirror
        ? stores.map((s) => ({ dir: openCodeMirrorDir(s.data, env, s.name), agent: s.agent }))
        : sessionRoots(format, env).map((dir) => ({ dir }));
  const agentOf = new Map<string, string>();
  const projectAt = new Map<string, string>();
  const paths: string[] = [];
  for (const root of roots)
    for (const p of (
      await listJsonl(root.dir, location.depth, {
        names,
        documents: location.documents,
        suffix: location.fileSuffix,
      })
    ).filter(only)) {
      paths.push(p);
      if (root.agent) agentOf.set(p, root.agent);
      if (root.project) projectAt.set(p, root.project);
    }
  const headText = session.headText;
  const files = await describeAll(
    paths,
    headText ? (_recs, lines) => headText(lines.join('\n')) : session.head,
    (p, cwd) => projectOf(format.id, p, cwd ?? projectAt.get(p)),
    options,
    session.cwdBeside && cwdFromFileBeside(session.cwdBeside),
  );
  for (const f of files) {
    const agent = agentOf.get(f.path);
    if (agent) f.agent = agent;
  }
  return groupSubAgents(files);
}

/** The working directory a file beside each session names (`SessionDescriptor.cwdBeside`); none when it cannot be
 * read. */
function cwdFromFileBeside(beside: NonNullable<SessionDescriptor['cwdBeside']>) {
  return async (path: string): Promise<string | undefined> => {
    const file = beside.path(path);
    try {
      if (file === path || (await stat(file)).size > MANIFEST_MAX_BYTES) return undefined;
      return beside.cwd(await readFile(file, 'utf8'));
    } catch {
      return undefined;
    }
  };
}

/** A manifest is a few hundred bytes: a larger file beside a session is not read whole for its project. */
const MANIFEST_MAX_BYTES = 256 * 1024;

/** Every agent's sessions that the registry knows where to find, in the registry's order. */
export function discoverSessions(
  env: NodeJS.ProcessEnv = process.env,
  options: ListingOptions = {},
): Promise<{ format: FormatAdapter; files: SessionFile[] }[]> {
  return Promise.all(
    discoverableFormats().map(async (format) => ({ format, files: await sessionsOf(format, env, options) })),
  );
}

export function claudeSessions(env: NodeJS.ProcessEnv = process.env, options: ListingOptions = {}) {
  return sessionsOf(adapterFor('claude-code'), env, options);
}

export function codexSessions(env: NodeJS.ProcessEnv = process.env, options: ListingOptions = {}) {
  return sessionsOf(adapterFor('codex'), env, options);
}

/** Sub-agents' files go under the session they belong to (same sessionId), newest first; one whose session is not
 * among the files stays in the list, marked as a sub-agent. */
export function groupSubAgents(files: SessionFile[]): SessionFile[] {
  const sessions = new Map<string, SessionFile>();
  for (const f of files)
    if (!f.subAgent && f.sessionId && !sessions.has(f.sessionId)) sessions.set(f.sessionId, f);
  const out: SessionFile[] = [];
  for (const f of files) {
    const parent = f.subAgent && f.sessionId ? sessions.get(f.sessionId) : undefined;
    if (!parent) out.push(f);
    else if (parent.subAgents) parent.subAgents.push(f);
    else parent.subAgents = [f];
  }
  return out;
}

/** A session's sub-agent files, where its agent writes them beside `<session>.jsonl` (`place`, e.g. Claude Code's
 * `<session>/subagents/agent-*.jsonl`) and the Sessions view files them under it: sorted, none without the folder. */
export function subAgentFilesOf(sessionPath: string, place: SubAgentFilesPlace): string[] {
  if (!sessionPath.endsWith('.jsonl')) return [];
  const dir = join(dirname(sessionPath), basename(sessionPath, '.jsonl'), place.folder);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith(place.prefix) && n.length > place.prefix.length + 6 && n.endsWith('.jsonl'))
    .sort()
    .map((n) => join(dir, n));
}
