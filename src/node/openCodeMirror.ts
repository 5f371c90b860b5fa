// The copy of an agent's own store (OpenCode's database and `storage/` folders, and its forks') into its mirror:
// the sessions read as the documents `opencode export` writes. A module of its own, apart from where the stores lie
// (openCodeStore.ts): sql.js, its WebAssembly inlined, is most of its weight, and only the CLI and the editor's store
// worker run the copy. The database is read from a copy of its bytes (with its write-ahead log applied) opened in
// memory: no lock is taken and nothing is written to it.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { type ParseError, parse, printParseErrorCode } from 'jsonc-parser';
import type { SqlJsStatic } from 'sql.js';
import { pushAll } from '../core/arrays';
import { discoverableFormats } from '../core/formats/registry';
import { writeFileAtomic } from './atomicWrite';
import {
  type AgentStore,
  type MirrorResult,
  openCodeDataDir,
  openCodeMirrorDir,
  openCodeStore,
} from './openCodeStore';
import { storesOf } from './sessionFiles';
import { applyWal } from './sqliteWal';

type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A session as `opencode export` writes it; a row or file that is not JSON stays in its place as `{unreadable}`. */
export interface OpenCodeDocument {
  info: Json;
  messages: ({ info: Json; parts: unknown[] } | { unreadable: string })[];
}

/** `text` as JSON, or why not with its line and column (1-based). */
function readJson(text: string): { value: unknown } | { problem: string } {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length === 0) return { value };
  const at = errors[0].offset;
  const before = text.slice(0, at).split('\n');
  return {
    problem: `${before.length}:${before[before.length - 1].length + 1}: ${printParseErrorCode(errors[0].error)}`,
  };
}

/** The sessions of the older `storage/` folders. */
export function storageSessions(storage: string): OpenCodeDocument[] {
  const list = (dir: string) => {
    try {
      return readdirSync(dir)
        .filter((n) => n.endsWith('.json'))
        .sort();
    } catch {
      return [];
    }
  };
  const read = (path: string, shown: string): { value: Json } | { unreadable: string } => {
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      return { unreadable: `${shown}: cannot read (${(e as NodeJS.ErrnoException).code ?? e})` };
    }
    const r = readJson(text);
    if ('problem' in r) return { unreadable: `${shown}:${r.problem}` };
    return isJson(r.value) ? { value: r.value } : { unreadable: `${shown}: not a JSON object` };
  };
  const out: OpenCodeDocument[] = [];
  const sessions = join(storage, 'session');
  let projects: string[] = [];
  try {
    projects = readdirSync(sessions).sort();
  } catch {
    return out;
  }
  for (const project of projects)
    for (const name of list(join(sessions, project))) {
      const info = read(join(sessions, project, name), `storage/session/${project}/${name}`);
      if (!('value' in info) || typeof info.value.id !== 'string') continue;
      const sid = info.value.id;
      const messages: OpenCodeDocument['messages'] = [];
      for (const m of list(join(storage, 'message', sid))) {
        const msg = read(join(storage, 'message', sid, m), `storage/message/${sid}/${m}`);
        if (!('value' in msg)) {
          messages.push(msg);
          continue;
        }
        const mid = String(msg.value.id ?? basename(m, '.json'));
        const parts: unknown[] = [];
        for (const p of list(join(storage, 'part', mid))) {
          const part = read(join(storage, 'part', mid, p), `storage/part/${mid}/${p}`);
          parts.push('value' in part ? part.value : part);
        }
        messages.push({ info: msg.value, parts });
      }
      out.push({ info: info.value, messages });
    }
  return out;
}

let sqlJs: Promise<SqlJsStatic> | undefined;

/** sql.js, its WebAssembly inlined in the JavaScript (nothing to ship beside the bundle, nothing to build). */
function loadSqlJs(): Promise<SqlJsStatic> {
  sqlJs ??= (require('sql.js/dist/sql-wasm-inline.js') as () => Promise<SqlJsStatic>)();
  return sqlJs;
}

/** The sessions of the database at `path` (and its `-wal` beside it). */
export async function databaseSessions(path: string): Promise<OpenCodeDocument[]> {
  const db = await readFile(path);
  const wal = await readFile(`${path}-wal`).catch(() => undefined);
  const SQL = await loadSqlJs();
  const conn = new SQL.Database(applyWal(db, wal).bytes);
  const file = basename(path);
  try {
    const rows = (sql: string): Json[] => {
      const r = conn.exec(sql)[0];
      return r ? r.values.map((v) => Object.fromEntries(r.columns.map((c, i) => [c, v[i]]))) : [];
    };
    const data = (row: Json, shown: string): { value: Json } | { unreadable: string } => {
      const r = readJson(String(row.data ?? ''));
      if ('problem' in r) return { unreadable: `${file} ${shown} data:${r.problem}` };
      return isJson(r.value)
        ? { value: r.value }
        : { unreadable: `${file} ${shown}: data is not a JSON object` };
    };
    const parts = new Map<string, unknown[]>();
    for (const p of rows('SELECT id, message_id, session_id, data FROM part ORDER BY message_id, id')) {
      const d = data(p, `part ${p.id}`);
      const part =
        'value' in d ? { id: p.id, sessionID: p.session_id, messageID: p.message_id, ...d.value } : d;
      const list = parts.get(String(p.message_id));
      if (list) list.push(part);
      else parts.set(String(p.message_id), [part]);
    }
    const messages = new Map<string, OpenCodeDocument['messages']>();
    for (const m of rows('SELECT id, session_id, data FROM message ORDER BY session_id, time_created, id')) {
      const d = data(m, `message ${m.id}`);
      const entry =
        'value' in d
          ? { info: { id: m.id, sessionID: m.session_id, ...d.value }, parts: parts.get(String(m.id)) ?? [] }
          : d;
      const list = messages.get(String(m.session_id));
      if (list) list.push(entry);
      else messages.set(String(m.session_id), [entry]);
    }
    return rows(
      'SELECT id, project_id, parent_id, directory, title, version, time_created, time_updated FROM session ORDER BY id',
    ).map((s) => {
      const info: Json = {
        id: s.id,
        projectID: s.project_id,
        directory: s.directory,
        title: s.title,
        version: s.version,
        time: { created: s.time_created, updated: s.time_updated },
      };
      if (s.parent_id) info.parentID = s.parent_id;
      return { info, messages: messages.get(String(s.id)) ?? [] };
    });
  } finally {
    conn.close();
  }
}

/** Copies every session of OpenCode's stores in `data` into the mirror (`mirrorStore`). */
export function mirrorOpenCode(
  env: NodeJS.ProcessEnv = process.env,
  data: string = openCodeDataDir(env),
): Promise<MirrorResult> {
  return mirrorStore(env, openCodeStore(data));
}

/** Copies every session of an agent's store (its database and `storage/` folders; a preview build's database alone)
 * into its mirror, as `<session id>.json`: a file whose text is already the same is left as it is (its time too); a
 * session no store holds any more is removed. The database's sessions win over the same sessions in `storage/` (the
 * agent moved them over). */
export async function mirrorStore(env: NodeJS.ProcessEnv, store: AgentStore): Promise<MirrorResult> {
  const { data, database: dbPath } = store;
  const dir = openCodeMirrorDir(data, env, store.name);
  const problems: string[] = [];
  // The stores as they look from outside unchanged since the last copy: nothing is read again (the Sessions view
  // lists again each time the database changes, and reading it whole is the costly part).
  const storage = store.channel ? undefined : join(data, 'storage');
  const stamp = storeStamp(dbPath, storage);
  const stampFile = join(dir, '.stores');
  if ((await readFile(stampFile, 'utf8').catch(() => undefined)) === stamp) {
    const names = (await readdir(dir)).filter((n) => /^ses_[A-Za-z0-9]+\.json$/.test(n));
    return { dir, written: 0, sessions: names.length, problems };
  }
  const docs = new Map<string, OpenCodeDocument>();
  if (storage && existsSync(storage))
    for (const d of storageSessions(storage)) docs.set(String(d.info.id), d);
  if (existsSync(dbPath))
    try {
      for (const d of await databaseSessions(dbPath)) docs.set(String(d.info.id), d);
    } catch (e) {
      problems.push(`${dbPath}: cannot read (${e instanceof Error ? e.message : String(e)})`);
    }
  const result: MirrorResult = { dir, written: 0, sessions: 0, problems };
  if (docs.size === 0 && !existsSync(dir)) return result;
  await mkdir(dir, { recursive: true });
  const kept = new Set<string>();
  for (const [id, doc] of docs) {
    if (!/^ses_[A-Za-z0-9]+$/.test(id)) continue;
    const name = `${id}.json`;
    kept.add(name);
    const text = `${JSON.stringify(doc, null, 2)}\n`;
    const old = await readFile(join(dir, name), 'utf8').catch(() => undefined);
    if (old !== text) {
      await writeFileAtomic(join(dir, name), text);
      result.written++;
    }
  }
  result.sessions = kept.size;
  // Only the mirror's own files go: an export written beside them (`<id>.compacted.json`) stays.
  for (const name of await readdir(dir))
    if (/^ses_[A-Za-z0-9]+\.json$/.test(name) && !kept.has(name)) await rm(join(dir, name), { force: true });
  if (problems.length === 0) await writeFileAtomic(stampFile, stamp);
  return result;
}

/** The sizes and times of the database, its log and the storage folders (a folder's time changes when a file is
 * added to it or taken from it). */
function storeStamp(database: string, storage: string | undefined): string {
  const lines: string[] = [];
  const stat = (p: string) => {
    try {
      const s = statSync(p);
      lines.push(`${p}\t${s.size}\t${s.mtimeMs}`);
    } catch {
      // Absent: nothing to say.
    }
  };
  stat(database);
  stat(`${database}-wal`);
  const folders = storage ? ['session', 'message', 'part'].map((top) => join(storage, top)) : [];
  for (const folder of folders) {
    stat(folder);
    let names: string[] = [];
    try {
      names = readdirSync(folder).sort();
    } catch {
      // No such folder.
    }
    for (const n of names) stat(join(folder, n));
  }
  return createHash('sha256').update(lines.join('\n')).digest('hex');
}

/** Copies the sessions of the agents that keep them in a store of their own (OpenCode's database) into their
 * mirrors, here, for listing; what could not be read, in words. */
export async function mirrorStores(env: NodeJS.ProcessEnv = process.env): Promise<string[]> {
  const problems: string[] = [];
  for (const format of discoverableFormats())
    for (const store of storesOf(format, env)) {
      const r = await mirrorStore(env, store);
      pushAll(problems, r.problems);
    }
  return problems;
}
