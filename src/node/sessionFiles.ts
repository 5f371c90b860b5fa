// Finds the agents' session logs for the "Open Claude Code Session…" / "Open Codex Session…" pickers:
// ~/.claude/projects/<project>/<session>.jsonl (or $CLAUDE_CONFIG_DIR) and ~/.codex/sessions/YYYY/MM/DD/*.jsonl
// (or $CODEX_HOME). Only the first bytes of each file are read, for the project and the first prompt.
import { constants, readdirSync } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { isRealPrompt } from '../core/sessionTitle';

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
}

/** Files read at once while listing: a history of thousands of sessions opened all together ran out of file
 * descriptors (EMFILE at 1,024 on Linux, 256 on macOS) and lost the files that hit the limit. */
export const LISTING_CONCURRENCY = 16;

export interface ListingOptions {
  /** Files read at once (default LISTING_CONCURRENCY). */
  concurrency?: number;
}

/** The first prompt is nearly always in the first few records: they are read first, and up to HEAD_BYTES only when
 * they hold none (a session that starts with large snapshots or pasted text). 500 sessions list in a fraction of
 * the time 256 KB each would take. */
const FIRST_BYTES = 32 * 1024;
const HEAD_BYTES = 256 * 1024;

export function claudeRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.CLAUDE_CONFIG_DIR || join(homedir(), '.claude');
}

export function codexRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.CODEX_HOME || join(homedir(), '.codex');
}

/** Every *.jsonl under `dir`, folders to `depth` levels; symbolic links to folders are not followed (no cycles).
 * `links`: symbolic links named *.jsonl are listed too (a dangling one is then the reader's to report).
 * `deeper`: told of each folder not entered because it lies deeper than `depth`. Walked with a list, not by
 * recursion, and never spread into a call: a history of 140,000 files is one list. */
export async function listJsonl(
  dir: string,
  depth: number,
  options: { links?: boolean; deeper?: (folder: string) => void } = {},
): Promise<string[]> {
  const out: string[] = [];
  const folders: [string, number][] = [[dir, depth]];
  for (let next = folders.pop(); next; next = folders.pop()) {
    const [folder, left] = next;
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      const p = join(folder, e.name);
      if (e.isDirectory()) {
        if (left > 0) folders.push([p, left - 1]);
        else options.deeper?.(p);
      } else if ((e.isFile() || (options.links === true && e.isSymbolicLink())) && e.name.endsWith('.jsonl'))
        out.push(p);
    }
  }
  return out;
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

export function records(lines: string[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const l of lines) {
    if (!l.trim()) continue;
    try {
      const r = JSON.parse(l);
      if (r && typeof r === 'object') out.push(r);
    } catch {
      // A broken line does not stop the picker; the editor reports it when the file is opened.
    }
  }
  return out;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((c) => (c && typeof c === 'object' && typeof c.text === 'string' ? c.text : ''))
      .filter(Boolean)
      .join(' ');
  return '';
}

const flat = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 200);

export function claudeFirstPrompt(recs: Record<string, unknown>[]): FileHead {
  let cwd: string | undefined;
  let sessionId: string | undefined;
  // A sub-agent's file holds only sidechain records; its "prompt" is the task its parent gave it.
  const subAgent = recs.some((r) => r.type === 'user' || r.type === 'assistant')
    ? recs.filter((r) => r.type === 'user' || r.type === 'assistant').every((r) => r.isSidechain === true)
    : false;
  for (const r of recs) {
    if (typeof r.cwd === 'string') cwd ??= r.cwd;
    if (typeof r.sessionId === 'string') sessionId ??= r.sessionId;
    if (r.type !== 'user' || r.isMeta || (r.isSidechain && !subAgent) || r.isCompactSummary) continue;
    const text = textOf((r.message as { content?: unknown } | undefined)?.content);
    if (isRealPrompt(text)) return { prompt: flat(text), cwd, sessionId, subAgent };
  }
  return { prompt: '', cwd, sessionId, subAgent };
}

export interface FileHead {
  prompt: string;
  cwd?: string;
  sessionId?: string;
  subAgent?: boolean;
}

export function codexFirstPrompt(recs: Record<string, unknown>[]): { prompt: string; cwd?: string } {
  let cwd: string | undefined;
  for (const r of recs) {
    const p = r.payload as Record<string, unknown> | undefined;
    if (!p) continue;
    if (r.type === 'session_meta' && typeof p.cwd === 'string') cwd ??= p.cwd;
    if (r.type === 'response_item' && p.type === 'message' && p.role === 'user') {
      const text = textOf(p.content);
      if (isRealPrompt(text)) return { prompt: flat(text), cwd };
    }
  }
  return { prompt: '', cwd };
}

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
  read: (recs: Record<string, unknown>[]) => FileHead,
  projectOf: (path: string, cwd?: string) => string,
  options: ListingOptions = {},
): Promise<SessionFile[]> {
  const files = await mapBounded(paths, options.concurrency ?? LISTING_CONCURRENCY, async (path) => {
    let s: Awaited<ReturnType<typeof stat>> | null = null;
    try {
      s = await stat(path);
      let found = read(records(await head(path, FIRST_BYTES)));
      if (!found.prompt && s.size > FIRST_BYTES) found = read(records(await head(path)));
      const { prompt, cwd, sessionId, subAgent } = found;
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

export async function claudeSessions(
  env: NodeJS.ProcessEnv = process.env,
  options: ListingOptions = {},
): Promise<SessionFile[]> {
  // <project>/<session>.jsonl, and the sub-agents' files: <project>/agent-*.jsonl (older) or
  // <project>/<session>/subagents/agent-*.jsonl.
  const paths = await listJsonl(join(claudeRoot(env), 'projects'), 3);
  // The project folder name is the working directory with "/" turned into "-"; the records' cwd is exact.
  const files = await describeAll(
    paths,
    claudeFirstPrompt,
    (p, cwd) => cwd ?? basename(join(p, '..')),
    options,
  );
  return groupSubAgents(files);
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

export async function codexSessions(
  env: NodeJS.ProcessEnv = process.env,
  options: ListingOptions = {},
): Promise<SessionFile[]> {
  const paths = await listJsonl(join(codexRoot(env), 'sessions'), 4);
  return describeAll(paths, codexFirstPrompt, (_p, cwd) => cwd ?? '(unknown project)', options);
}

/** A Claude Code session's sub-agent files, where the runtime writes them beside `<session>.jsonl`
 * (`<session>/subagents/agent-*.jsonl`) and the Sessions view files them under it: sorted, none without the folder. */
export function subAgentFilesOf(sessionPath: string): string[] {
  if (!sessionPath.endsWith('.jsonl')) return [];
  const dir = join(dirname(sessionPath), basename(sessionPath, '.jsonl'), 'subagents');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((n) => /^agent-.+\.jsonl$/.test(n))
    .sort()
    .map((n) => join(dir, n));
}
