// Where OpenCode's own stores lie (and its forks', Kilo's CLI: the same tables): its database (`opencode.db`, tables
// session / message / part, since early 2026) and the older `storage/` folders. Each session is copied
// (openCodeMirror.ts) as the document `opencode export` writes into a folder of this product's cache ("the mirror"):
// the session pickers, the Sessions view, `report` and `inspect` read those files, and an export writes beside them,
// never into the agent's folders.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { discoverableFormats } from '../core/formats/registry';
import type { SessionLocation } from '../core/formats/types';

/** OpenCode's data folder: `$XDG_DATA_HOME/opencode`, else `~/.local/share/opencode` (on every platform: the agent
 * uses the XDG folders everywhere). */
export function openCodeDataDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_DATA_HOME || join(homedir(), '.local', 'share'), 'opencode');
}

/** One agent's store: its data folder, its database file, the name of its mirrors' folder, and the agent named on
 * its sessions (a fork's; OpenCode's own name none). A preview build's database (`channel`) holds only its own
 * sessions: the data folder's `storage/` is the main store's. */
export interface AgentStore {
  data: string;
  database: string;
  name: string;
  agent?: string;
  channel?: string;
}

/** OpenCode's store in the data folder `data`. */
export function openCodeStore(data: string): AgentStore {
  return { data, database: join(data, 'opencode.db'), name: 'opencode' };
}

/** The stores of a mirrored format whose own data folder is `data`: its own, then each fork's whose data folder
 * (beside it) or database exists; each followed by the preview builds' databases found in its folder. */
export function agentStores(
  location: SessionLocation,
  data: string,
  env: NodeJS.ProcessEnv = process.env,
): AgentStore[] {
  const out = storesIn(
    data,
    location.logs,
    location.database ?? 'opencode.db',
    location.databaseEnv ? env[location.databaseEnv] : undefined,
  );
  for (const fork of location.forks ?? []) {
    const dir = join(dirname(data), fork.logs);
    const stores = storesIn(
      dir,
      fork.logs,
      fork.database,
      fork.databaseEnv ? env[fork.databaseEnv] : undefined,
    );
    if (existsSync(dir) || existsSync(stores[0].database))
      for (const store of stores) out.push({ ...store, agent: fork.agent });
  }
  return out;
}

/** The stores of one data folder: the database the variable names (`set`: absolute or inside the folder), else its
 * own and each preview build's, `<stem>-<channel>.db` (the agent names it after the build's channel). A fork of
 * OpenCode may have found OpenCode's name for it there first (`opencode-<channel>.db`) and kept it. */
function storesIn(dir: string, name: string, database: string, set: string | undefined): AgentStore[] {
  if (set && set !== ':memory:')
    return [{ data: dir, database: isAbsolute(set) ? set : join(dir, set), name }];
  const own = { data: dir, database: join(dir, database), name };
  const channels = new Map<string, string>();
  const stem = database.replace(/\.db$/, '');
  for (const file of safeList(dir)) {
    const m = /^(.+?)-([A-Za-z0-9._-]+)\.db$/.exec(file);
    if (!m || (m[1] !== stem && m[1] !== 'opencode')) continue;
    if (m[1] === stem || !channels.has(m[2])) channels.set(m[2], file);
  }
  return [
    own,
    ...[...channels]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([channel, file]) => ({
        data: dir,
        database: join(dir, file),
        name: `${name}-${channel}`,
        channel,
      })),
  ];
}

function safeList(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Where the sessions of the data folder `dataDir` are mirrored: the platform's cache folder, one folder per data
 * folder (a test's fake home is not the user's), under the store's name. */
export function openCodeMirrorDir(
  dataDir: string,
  env: NodeJS.ProcessEnv = process.env,
  name = 'opencode',
): string {
  const base =
    process.platform === 'win32' && env.LOCALAPPDATA
      ? env.LOCALAPPDATA
      : process.platform === 'darwin'
        ? join(homedir(), 'Library', 'Caches')
        : env.XDG_CACHE_HOME || join(homedir(), '.cache');
  const id = createHash('sha256').update(dataDir).digest('hex').slice(0, 12);
  return join(base, 'context-lens', name, id);
}

/** The files of a store, as folders and globs: what changes when a session does. */
export function storeWatches(store: AgentStore): [folder: string, pattern: string][] {
  const db = basename(store.database);
  if (store.channel) return [[dirname(store.database), `{${db},${db}-wal}`]];
  if (dirname(store.database) === store.data) return [[store.data, `{${db},${db}-wal,storage/**/*.json}`]];
  return [
    [store.data, 'storage/**/*.json'],
    [dirname(store.database), `{${db},${db}-wal}`],
  ];
}

/** The store a session file was copied from, in words, when `path` is one of a mirror's own files
 * (`<cache>/context-lens/<store>/<data folder>/ses_….json`); undefined for any other file. */
export function mirroredStore(path: string): string | undefined {
  const parts = path.split(/[\\/]/);
  const n = parts.length;
  if (n < 4 || !/^ses_[A-Za-z0-9]+\.json$/.test(parts[n - 1]) || parts[n - 4] !== 'context-lens')
    return undefined;
  const name = parts[n - 3];
  for (const f of discoverableFormats()) {
    const location = f.session?.location;
    if (!location?.mirror) continue;
    for (const { logs, agent } of [
      { logs: location.logs, agent: f.session?.agent },
      ...(location.forks ?? []),
    ]) {
      if (name === logs) return `${agent}'s database (or its storage/ folders)`;
      if (name.startsWith(`${logs}-`))
        return `${agent}'s database of its ${name.slice(logs.length + 1)} build`;
    }
  }
  return undefined;
}

/** What a copy of a store into its mirror did (openCodeMirror.ts). */
export interface MirrorResult {
  dir: string;
  /** Sessions written (new or changed since the last mirroring). */
  written: number;
  sessions: number;
  /** What could not be read, in words. */
  problems: string[];
}
