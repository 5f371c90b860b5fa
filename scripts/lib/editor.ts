// Starts the real editor (code-server: the editor's own workbench served over HTTP) for `npm start` and the
// end-to-end tests. Everything it writes (user data, extensions, HOME, XDG folders, TMPDIR) lives in one scratch
// folder, so nothing leaks into the user's home. See scripts/install-editor.sh for the install.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const editorToolsDir = join(repoRoot, '.tools', 'code-server');
const codeServerEntry = join(editorToolsDir, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
/** The browser a user opens the editor in: the editor benchmark measures in it. */
export const chromiumPath = '/usr/bin/chromium';
/** The same engine without the browser around it: the end-to-end tests drive the editor in it, for less CPU. */
export const headlessShellPath = '/usr/bin/chromium-headless-shell';

/** The commands that install what the editor needs, for messages that must say how to fix a missing piece. */
export const installEditorCommand = 'bash scripts/install-editor.sh';
export const installSystemCommand = 'bash scripts/install-system-deps.sh';

/** Fails, never skips, when a prerequisite of the real editor is missing, naming the command that installs it;
 * `browser`: the Chromium the caller drives the editor in, if any. */
export function assertEditorPrerequisites(browser?: string): void {
  const missing: string[] = [];
  if (!existsSync(codeServerEntry)) missing.push(`the editor (code-server): run \`${installEditorCommand}\``);
  if (browser !== undefined && !existsSync(browser))
    missing.push(`${browser}: run \`${installSystemCommand}\``);
  if (!existsSync(join(repoRoot, 'dist', 'extension.js')))
    missing.push('the extension bundle: run `npm run build`');
  if (missing.length > 0)
    throw new Error(`cannot run the real editor; missing:\n  - ${missing.join('\n  - ')}`);
}

export interface EditorOptions {
  /** Scratch folder for everything the editor writes; created if missing. */
  scratch: string;
  /** Folder the workbench opens. */
  workspace: string;
  /** User settings written before start (`workbench.startupEditor: none` is always set). */
  settings?: Record<string, unknown>;
  /** Where installed extensions live (a .vsix installed with `installVsix` goes here). */
  extensionsDir?: string;
}

export interface EditorServer {
  readonly port: number;
  readonly origin: string;
  readonly scratch: string;
  readonly workspace: string;
  readonly userSettingsPath: string;
  readonly logPath: string;
  /**
   * The workbench URL for `workspace`, optionally loading an extension from source and opening a file. A file
   * opened this way gets the default editor: the workbench opens it before any extension's custom editor is
   * registered, so associations with a custom editor do not apply to it.
   */
  workbenchUrl(opts?: { extensionDevelopmentPath?: string; openFile?: string }): string;
  /**
   * The command-line sockets of the browser windows connected now, one per window's extension host (the
   * editor's integrated terminals open files in their window through them).
   */
  windowSockets(): string[];
  /**
   * Opens a file in the window behind `socket`, as `code <file>` from its terminal would: through the editor
   * resolver, so that editor associations (a custom editor) apply, unlike an `openFile` URL.
   */
  openInWindow(socket: string, file: string): Promise<void>;
  /** Settles when the editor process exits, with its exit code (or signal name). */
  readonly exited: Promise<number | string>;
  /** Kills the editor's whole process group (its extension host would outlive it otherwise). */
  stop(): Promise<void>;
}

export function codeServerVersion(): string {
  const manifest = join(editorToolsDir, 'node_modules', 'code-server', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

function scratchEnv(scratch: string): NodeJS.ProcessEnv {
  const dirs = {
    HOME: join(scratch, 'home'),
    XDG_CONFIG_HOME: join(scratch, 'home', '.config'),
    XDG_DATA_HOME: join(scratch, 'home', '.local', 'share'),
    XDG_CACHE_HOME: join(scratch, 'home', '.cache'),
    XDG_STATE_HOME: join(scratch, 'home', '.local', 'state'),
    TMPDIR: join(scratch, 'tmp'),
  };
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...process.env, ...dirs };
  // Variables of an editor this process may itself run in would confuse the one it starts.
  for (const key of Object.keys(env)) if (key.startsWith('VSCODE_')) delete env[key];
  return env;
}

function dirsOf(scratch: string, extensionsDir?: string) {
  return {
    userDataDir: join(scratch, 'user-data'),
    extensionsDir: extensionsDir ?? join(scratch, 'extensions'),
  };
}

/** Installs a packaged extension into the extensions folder an editor started with the same options uses. */
export async function installVsix(opts: EditorOptions, vsixPath: string): Promise<void> {
  const { userDataDir, extensionsDir } = dirsOf(opts.scratch, opts.extensionsDir);
  const out = await run(
    process.execPath,
    [
      codeServerEntry,
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
      '--install-extension',
      vsixPath,
      '--force',
    ],
    scratchEnv(opts.scratch),
  );
  if (out.code !== 0) throw new Error(`installing ${vsixPath} failed (exit ${out.code}):\n${out.output}`);
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; output: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => {
      output += d;
    });
    child.stderr.on('data', (d) => {
      output += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code: code ?? 1, output }));
  });
}

export async function startEditor(opts: EditorOptions): Promise<EditorServer> {
  assertEditorPrerequisites();
  const scratch = resolve(opts.scratch);
  const workspace = resolve(opts.workspace);
  mkdirSync(scratch, { recursive: true });
  const env = scratchEnv(scratch);
  const { userDataDir, extensionsDir } = dirsOf(scratch, opts.extensionsDir);
  const userSettingsPath = join(userDataDir, 'User', 'settings.json');
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  mkdirSync(extensionsDir, { recursive: true });
  writeFileSync(
    userSettingsPath,
    `${JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        // The samples live inside the project's git repository: no prompt to open it.
        'git.openRepositoryInParentFolders': 'never',
        ...opts.settings,
      },
      null,
      2,
    )}\n`,
  );

  const port = await freePort();
  const logPath = join(scratch, 'code-server.log');
  const log = openSync(logPath, 'a');
  // detached: the editor runs in a process group of its own, so stop() can end its extension host and watchers
  // too. A small shell leads the group as a watchdog: it holds a pipe from this process, and when the pipe
  // closes (this process ended, even by SIGKILL, without stop()) it ends the whole group, so no editor is left
  // behind. It exits with the editor's own exit code otherwise.
  // (A background list reads /dev/null unless told otherwise: hence the pipe kept as descriptor 3.)
  const watchdog = 'exec 3<&0; "$@" </dev/null & editor=$!; (read -r _ <&3; kill -TERM 0) & wait "$editor"';
  const child = spawn(
    'sh',
    [
      '-c',
      watchdog,
      'editor-watchdog',
      process.execPath,
      codeServerEntry,
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--auth',
      'none',
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--user-data-dir',
      userDataDir,
      '--extensions-dir',
      extensionsDir,
      workspace,
    ],
    { env, detached: true, stdio: ['pipe', log, log] },
  );
  // The pipe must not keep this process alive by itself.
  (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  const origin = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | string>((resolveExit) =>
    child.once('exit', (code, signal) => resolveExit(code ?? signal ?? 'unknown')),
  );
  const server: EditorServer = {
    port,
    origin,
    scratch,
    workspace,
    userSettingsPath,
    logPath,
    exited,
    windowSockets() {
      const tmp = env.TMPDIR!;
      return readdirSync(tmp)
        .filter((name) => name.startsWith('vscode-ipc-') && name.endsWith('.sock'))
        .map((name) => join(tmp, name));
    },
    async openInWindow(socket, file) {
      const out = await run(process.execPath, [codeServerEntry, '--reuse-window', resolve(file)], {
        ...env,
        VSCODE_IPC_HOOK_CLI: socket,
      });
      if (out.code !== 0) throw new Error(`opening ${file} failed (exit ${out.code}):\n${out.output}`);
    },
    workbenchUrl({ extensionDevelopmentPath, openFile } = {}) {
      const remote = (path: string) => `vscode-remote://127.0.0.1:${port}${resolve(path)}`;
      const payload: [string, string][] = [];
      if (extensionDevelopmentPath)
        payload.push(['extensionDevelopmentPath', remote(extensionDevelopmentPath)]);
      if (openFile) payload.push(['openFile', remote(openFile)]);
      const query = new URLSearchParams({ folder: workspace });
      if (payload.length > 0) query.set('payload', JSON.stringify(payload));
      return `${origin}/?${query}`;
    },
    stop: () => stopGroup(child),
  };
  try {
    await waitForHttp(`${origin}/healthz`, child, logPath);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

async function waitForHttp(url: string, child: ChildProcess, logPath: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(
        `the editor exited with code ${child.exitCode} before answering; its log:\n${tail(logPath)}`,
      );
    }
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the editor did not answer ${url} within 30 s; its log:\n${tail(logPath)}`);
}

function tail(path: string): string {
  try {
    return readFileSync(path, 'utf8').split('\n').slice(-30).join('\n');
  } catch {
    return '(no log)';
  }
}

function stopGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined || child.exitCode !== null || child.signalCode !== null)
    return killGroup(pid, 'SIGKILL');
  return new Promise((resolveStop) => {
    const force = setTimeout(() => {
      void killGroup(pid, 'SIGKILL').then(resolveStop);
    }, 5000);
    child.once('exit', () => {
      clearTimeout(force);
      // The leader is gone; whatever it started in its group goes with it.
      void killGroup(pid, 'SIGKILL').then(resolveStop);
    });
    void killGroup(pid, 'SIGTERM');
  });
}

async function killGroup(pid: number | undefined, signal: NodeJS.Signals): Promise<void> {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}
