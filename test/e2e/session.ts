// One editor session for an end-to-end suite: a scratch workspace with copies of real transcripts, a window of
// its own (its own extension host) in a code-server driven by headless Chromium, the extension loaded from
// source or installed from a freshly packaged .vsix. Starting code-server and Chromium, then a window, is most of a
// suite's set-up (a window alone costs about half a minute of CPU): the suites of one process that load the extension
// from source share one editor, and those at the default size one window and its workspace, which each leaves as it
// found it (its editors closed, the panel and notifications hidden, the workspace's settings gone); a suite that
// needs a window to itself (another size, files it must not leave behind) or an editor to itself (an installed
// package, an environment of its own, a global storage nothing has written yet) asks for one. Every window of the
// process opens in one Chromium, each in a browser context of its own.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import {
  assertEditorPrerequisites,
  type EditorServer,
  headlessShellPath,
  installVsix,
  repoRoot,
  startEditor,
} from '../../scripts/lib/editor';
import { customEditor } from '../../scripts/lib/samples';
import { packageVsix } from '../../scripts/lib/vsix';
import { extensionHostPids } from './hostProcess';
import { launchChromium, screenshotRoot, Workbench } from './workbench';

export type ExtensionSource = 'source' | 'vsix';

/** Transcripts copied into the workspace, by their path in the workspace. */
export const workspaceFiles = {
  /** Real Claude Code session: 13 tool results, so keepRecent moves badges between Tier 3 and Tier 2. */
  session: 'claude-code/coverage-test-fix.jsonl',
  /** Where the export proposes to write the compacted session. */
  compacted: 'claude-code/coverage-test-fix.compacted.jsonl',
  /** The same kind of session cut off mid-record on line 4, as a crashed agent leaves it. */
  malformed: 'claude-code/malformed-session.jsonl',
} as const;

export const malformedLine = 4;

const realFixtures = join(repoRoot, 'test', 'fixtures', 'real');

export interface SessionOptions {
  /** The screenshot folder under test-output/e2e/ (default `editor-<source>`). */
  shots?: string;
  /** The browser window's size (the workbench lays itself out for it at start, as a window of that size would). */
  viewport?: { width: number; height: number };
  /** An editor of the suite's own rather than the one the process shares: for a suite that sets the editor's
   * environment, or that must meet the extension's global storage empty. A .vsix suite always has its own. */
  ownEditor?: boolean;
}

/** A code-server and a Chromium, with the scratch folder they write in. */
interface Editor {
  server: EditorServer;
  browser: Browser;
  scratch: string;
}

/** The Chromium of a process that runs several suites, launched by the first that asks: every window, of the
 * shared editor or of one a suite started for itself, opens in a browser context of its own in it. */
let sharedChromium: Promise<Browser> | undefined;

/** The Chromium a suite opens its windows in: the process's when it runs several suites, else one of its own
 * (`closeBrowser` ends it). */
export function suiteBrowser(): Promise<Browser> {
  if (!sharing) return launchChromium(headlessShellPath);
  sharedChromium ??= launchChromium(headlessShellPath);
  return sharedChromium;
}

/** Ends a Chromium from `suiteBrowser`, unless the process's suites share it (their last ends it). */
export async function closeBrowser(browser: Browser): Promise<void> {
  if (!sharing) await browser.close();
}

async function startEditorAndBrowser(scratch: string, vsix?: string): Promise<Editor> {
  const workspace = join(scratch, 'workspace');
  mkdirSync(workspace, { recursive: true });
  const options = { scratch: join(scratch, 'editor'), workspace };
  if (vsix) await installVsix(options, vsix);
  const server = await startEditor(options);
  try {
    return { server, browser: await suiteBrowser(), scratch };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

async function stopEditorAndBrowser(editor: Editor): Promise<void> {
  await closeBrowser(editor.browser);
  await editor.server.stop();
  rmSync(editor.scratch, { recursive: true, force: true });
}

/** The editor the suites of this process share, started by the first that asks; none unless the process runs
 * several suites (`shareOneEditor`). */
let sharing = false;
let shared: Promise<Editor> | undefined;

/** From now on the suites of this process share one editor, which `stopSharedEditor` stops: for a process that
 * runs several suites one after the other (test/e2e/oneProcess.ts), which calls it once all have run. */
export function shareOneEditor(): void {
  sharing = true;
}

export async function stopSharedEditor(): Promise<void> {
  await endSharedEditor();
  const browser = await sharedChromium?.catch(() => undefined);
  sharedChromium = undefined;
  await browser?.close();
}

/** Ends the shared window and editor, the process's Chromium aside: before a suite with an editor of its own, which
 * then has the machine to itself (the shared ones idle at a tenth of a core; a later suite that asks for them gets
 * new ones: test/e2e/oneProcess.ts runs the suites that share them first), and once every suite has run. */
export async function endSharedEditor(): Promise<void> {
  const window = await sharedWindow?.catch(() => undefined);
  sharedWindow = undefined;
  if (window) {
    await window.workbench.page.context().close();
    rmSync(window.scratch, { recursive: true, force: true });
  }
  const editor = await shared?.catch(() => undefined);
  shared = undefined;
  if (editor) await stopEditorAndBrowser(editor);
}

/** The window the suites of the shared editor at the default size share, with its workspace. */
interface SharedWindow {
  workbench: Workbench;
  workspace: string;
  scratch: string;
}
let sharedWindow: Promise<SharedWindow> | undefined;

async function openSharedWindow(editor: Editor, shotDir: string): Promise<SharedWindow> {
  const scratch = mkdtempSync(join(tmpdir(), 'context-lens-e2e-window-'));
  const workspace = join(scratch, 'workspace');
  writeWorkspace(workspace);
  const url = new URL(editor.server.workbenchUrl({ extensionDevelopmentPath: repoRoot }));
  url.searchParams.set('folder', workspace);
  try {
    return { workbench: await Workbench.open(editor.browser, url.toString(), shotDir), workspace, scratch };
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    throw error;
  }
}

/** Leaves the shared window as the next suite expects to find it: no editor open, no panel, no notification, the
 * explorer's folders collapsed, and no workspace settings (the view follows a change of settings as it comes). */
async function resetSharedWindow(window: SharedWindow): Promise<void> {
  const { workbench, workspace } = window;
  const { page } = workbench;
  await workbench.runCommand('View: Close All Editors');
  // A change made in a view is written to the settings once the changes pause (a moment after the last): they go
  // once the file has stayed away for longer than that, so that the next suite opens its views on the defaults.
  const settings = join(workspace, '.vscode', 'settings.json');
  for (let i = 0; i < 10; i++) {
    rmSync(settings, { force: true });
    await page.waitForTimeout(3000);
    if (!existsSync(settings)) break;
  }
  // (The palette offers these only while there is something to hide.)
  if (await page.locator('.part.panel').isVisible()) await workbench.runCommand('View: Hide Panel');
  if (await page.locator('.notification-toast').first().isVisible())
    await workbench.runCommand('Notifications: Clear All Notifications');
  await workbench.runCommand('Collapse Folders in Explorer');
}

export class EditorSession {
  private constructor(
    readonly server: EditorServer,
    readonly browser: Browser,
    readonly workbench: Workbench,
    /** The folder the suite's window has open. */
    readonly workspace: string,
    /** The suite's own scratch folder (its workspace is inside). */
    readonly scratch: string,
    /** The editor this suite started for itself, stopped with it; none when it shares the process's. */
    private readonly own: Editor | undefined,
    /** The package the suite installed (vsix suites only). */
    readonly vsixPath?: string,
    /** The window the suite shares with others, left as it found it when the suite stops. */
    private readonly window?: SharedWindow,
    /** The extension hosts of the shared editor that ran before this suite's own window opened (the shared
     * window's among them): the window has closed once none other runs. */
    private readonly hostsBefore: number[] = [],
  ) {}

  static async start(source: ExtensionSource, options: SessionOptions = {}): Promise<EditorSession> {
    assertEditorPrerequisites(headlessShellPath);
    // The screenshots go to test-output/e2e/<shots>/.
    const shotDir = join(screenshotRoot, options.shots ?? `editor-${source}`);
    rmSync(shotDir, { recursive: true, force: true });
    if (sharing && source === 'source' && !options.ownEditor && !options.viewport) {
      shared ??= startEditorAndBrowser(mkdtempSync(join(tmpdir(), 'context-lens-e2e-shared-')));
      const editor = await shared;
      sharedWindow ??= openSharedWindow(editor, shotDir);
      const window = await sharedWindow;
      // Its own screenshots, in the shared window.
      const workbench = new Workbench(window.workbench.page, shotDir);
      return new EditorSession(
        editor.server,
        editor.browser,
        workbench,
        window.workspace,
        window.scratch,
        undefined,
        undefined,
        window,
      );
    }
    // A scratch folder of its own (two test runs in one tree must not share a workspace).
    const scratch = mkdtempSync(join(tmpdir(), `context-lens-e2e-${source}-`));
    const workspace = join(scratch, 'workspace');
    writeWorkspace(workspace);
    let vsix: string | undefined;
    if (source === 'vsix') {
      // Package what is built now: a file missing from the package (WASM, webview bundle) fails the suite.
      vsix = join(scratch, 'context-lens.vsix');
      packageVsix(vsix, { quiet: true });
    }
    let own: Editor | undefined;
    let editor: Editor;
    try {
      if (vsix || options.ownEditor || !sharing) {
        await endSharedEditor();
        own = await startEditorAndBrowser(join(scratch, 'own'), vsix);
        editor = own;
      } else {
        shared ??= startEditorAndBrowser(mkdtempSync(join(tmpdir(), 'context-lens-e2e-shared-')));
        editor = await shared;
      }
    } catch (error) {
      rmSync(scratch, { recursive: true, force: true });
      throw error;
    }
    const url = new URL(
      editor.server.workbenchUrl(source === 'source' ? { extensionDevelopmentPath: repoRoot } : {}),
    );
    url.searchParams.set('folder', workspace);
    const hostsBefore = own ? [] : extensionHostPids(editor.server.scratch);
    try {
      // A browser context of its own (its own storage: the workbench keeps its layout there, and one suite's
      // must not shape another's window).
      const workbench = await Workbench.open(editor.browser, url.toString(), shotDir, options.viewport);
      return new EditorSession(
        editor.server,
        editor.browser,
        workbench,
        workspace,
        scratch,
        own,
        vsix,
        undefined,
        hostsBefore,
      );
    } catch (error) {
      if (own) await stopEditorAndBrowser(own);
      rmSync(scratch, { recursive: true, force: true });
      throw error;
    }
  }

  /** The custom editor's display name, as "Open With…" lists it. */
  static editorName(): string {
    const editor = customEditor();
    if (!editor) throw new Error('package.json contributes no custom editor (contributes.customEditors)');
    return editor.displayName ?? editor.viewType;
  }

  async stop(): Promise<void> {
    if (this.window) {
      await resetSharedWindow(this.window);
      return;
    }
    if (this.own) {
      // (Its window first: the Chromium may be the process's, which goes on.)
      await this.workbench.page.context().close();
      await stopEditorAndBrowser(this.own);
    } else {
      // Left first, so that the workbench says goodbye to the editor: a context closed under it leaves its
      // extension host waiting for the window to come back (Chromium's headless shell runs no unload then).
      await this.workbench.page.goto('about:blank').catch(() => undefined);
      await this.workbench.page.context().close();
      // The window's extension host ends once its window has gone: the next suite's window then has the only new
      // one (its memory is read by pid) and the machine to itself.
      await windowClosed(this.server.scratch, this.hostsBefore);
    }
    rmSync(this.scratch, { recursive: true, force: true });
  }
}

/** Resolves once no extension host of the editor runs but those that ran before the window opened; gives up (the
 * next suite may still run) after a minute. */
async function windowClosed(editorScratch: string, hostsBefore: number[]): Promise<void> {
  const others = () => extensionHostPids(editorScratch).filter((pid) => !hostsBefore.includes(pid));
  for (let i = 0; i < 600 && others().length > 0; i++) await new Promise((r) => setTimeout(r, 100));
}

function writeWorkspace(workspace: string): void {
  mkdirSync(join(workspace, 'claude-code'), { recursive: true });
  copyFileSync(
    join(realFixtures, 'claude-code', 'drmaciver-coverage-test-fix.jsonl'),
    join(workspace, workspaceFiles.session),
  );
  const lines = readFileSync(
    join(realFixtures, 'claude-code', 'drmaciver-hello-world-script.jsonl'),
    'utf8',
  ).split('\n');
  const broken = lines[malformedLine - 1];
  lines[malformedLine - 1] = broken.slice(0, Math.floor(broken.length / 2));
  writeFileSync(join(workspace, workspaceFiles.malformed), lines.join('\n'));
}
