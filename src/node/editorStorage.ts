// Where editor extensions' agents keep their sessions: `<user dir>/globalStorage/<extension id>/…`, in the user
// folder of the editor running us (its own profile) and of every other editor found on this machine (VS Code,
// Insiders, VSCodium, Cursor, Windsurf, code-server, a remote server's), each a folder of its own.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FormatAdapter } from '../core/formats/types';

/** The editors' names for their folder under the platform's configuration folder. */
const EDITORS = ['Code', 'Code - Insiders', 'VSCodium', 'Cursor', 'Windsurf', 'Code - OSS'];

let ownUserDir: string | undefined;

/** The running editor's user folder, from its global storage of this extension (`<user dir>/globalStorage/<id>`). */
export function setOwnGlobalStorage(globalStorage: string): void {
  ownUserDir = dirname(dirname(globalStorage));
}

/** Every editor user folder to look in, the running editor's first, each once. */
export function editorUserDirs(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string[] {
  const home = env.HOME || env.USERPROFILE || homedir();
  const config =
    platform === 'win32'
      ? env.APPDATA || join(home, 'AppData', 'Roaming')
      : platform === 'darwin'
        ? join(home, 'Library', 'Application Support')
        : env.XDG_CONFIG_HOME || join(home, '.config');
  const dirs = [
    ...(ownUserDir ? [ownUserDir] : []),
    ...EDITORS.map((e) => join(config, e, 'User')),
    join(home, '.vscode-server', 'data', 'User'),
    join(home, '.vscode-server-insiders', 'data', 'User'),
    join(home, '.vscode-remote', 'data', 'User'),
    join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'code-server', 'User'),
  ];
  return [...new Set(dirs)];
}

/** One folder an editor extension's agent keeps sessions in, and which agent it is. */
export interface StorageRoot {
  dir: string;
  agent: string;
  /** The folder the editor had open, for a workspace's storage (its `workspace.json`). */
  project?: string;
}

/** The folder (or workspace file) a workspace storage belongs to, from its `workspace.json`. */
function workspaceFolder(storage: string): string | undefined {
  try {
    const v = JSON.parse(readFileSync(join(storage, 'workspace.json'), 'utf8')) as Record<string, unknown>;
    const uri =
      typeof v.folder === 'string' ? v.folder : typeof v.workspace === 'string' ? v.workspace : undefined;
    if (!uri) return undefined;
    return uri.startsWith('file:') ? fileURLToPath(uri) : decodeURIComponent(uri);
  } catch {
    return undefined;
  }
}

/** The folder the editor had open for a session kept in a workspace's storage (`<workspace>/<logs>/<session>`). */
export function workspaceFolderOf(sessionPath: string): string | undefined {
  return workspaceFolder(dirname(dirname(sessionPath)));
}

/** Each workspace's `<logs>` folder under the user folder's workspace storage, those that exist. */
function workspaceRoots(user: string, logs: string, agent: string): StorageRoot[] {
  const base = join(user, 'workspaceStorage');
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return [];
  }
  const out: StorageRoot[] = [];
  for (const name of names.sort()) {
    const dir = join(base, name, logs);
    if (!existsSync(dir)) continue;
    const project = workspaceFolder(join(base, name));
    out.push(project ? { dir, agent, project } : { dir, agent });
  }
  return out;
}

/** The session folders of a format whose agent is an editor extension, those that exist (the running editor's,
 * even when empty, so that a view can watch it). */
export function editorSessionRoots(
  format: FormatAdapter,
  env: NodeJS.ProcessEnv = process.env,
): StorageRoot[] {
  const location = format.session?.location;
  const workspaces = location?.editorWorkspaces;
  if (location && workspaces)
    return editorUserDirs(env).flatMap((user) => {
      const roots = workspaceRoots(user, location.logs, workspaces);
      // The sessions of windows opened without a folder: no project (the editor's own, even when absent, so that a
      // view can watch it).
      const empty = location.emptyWindow ? join(user, 'globalStorage', location.emptyWindow) : undefined;
      if (empty && (user === ownUserDir || existsSync(empty))) roots.push({ dir: empty, agent: workspaces });
      return roots;
    });
  if (!location?.editorExtensions) return [];
  const out: StorageRoot[] = [];
  for (const user of editorUserDirs(env))
    for (const ext of location.editorExtensions) {
      const dir = join(user, 'globalStorage', ext.id, location.logs);
      if (user === ownUserDir || existsSync(dir)) out.push({ dir, agent: ext.agent });
    }
  return out;
}
