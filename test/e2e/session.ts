// One editor session for an end-to-end suite: a scratch workspace with copies of real transcripts, one
// code-server, one headless Chromium, the extension loaded from source or installed from a freshly packaged
// .vsix. Shared by every test of a suite to keep the suite's runtime small.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import {
  assertEditorPrerequisites,
  type EditorServer,
  installVsix,
  repoRoot,
  startEditor,
} from '../../scripts/lib/editor';
import { customEditor } from '../../scripts/lib/samples';
import { packageVsix } from '../../scripts/lib/vsix';
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

export class EditorSession {
  private constructor(
    readonly server: EditorServer,
    readonly browser: Browser,
    readonly workbench: Workbench,
    readonly workspace: string,
    readonly scratch: string,
    /** The package the suite installed (vsix suites only). */
    readonly vsixPath?: string,
  ) {}

  /** `shots`: the screenshot folder under test-output/e2e/ (default `editor-<source>`); `viewport`: the
   * browser window's size (the workbench lays itself out for it at start, as a window of that size would). */
  static async start(
    source: ExtensionSource,
    shots = `editor-${source}`,
    viewport?: { width: number; height: number },
  ): Promise<EditorSession> {
    assertEditorPrerequisites();
    // A scratch folder of its own (two test runs in one tree must not share a workspace); the screenshots go
    // to test-output/e2e/editor-<source>/.
    const scratch = mkdtempSync(join(tmpdir(), `context-lens-e2e-${source}-`));
    const shotDir = join(screenshotRoot, shots);
    rmSync(shotDir, { recursive: true, force: true });
    const workspace = join(scratch, 'workspace');
    writeWorkspace(workspace);
    const options = { scratch: join(scratch, 'editor'), workspace };
    let vsix: string | undefined;
    if (source === 'vsix') {
      // Package what is built now: a file missing from the package (WASM, webview bundle) fails the suite.
      vsix = join(scratch, 'context-lens.vsix');
      packageVsix(vsix, { quiet: true });
      await installVsix(options, vsix);
    }
    const server = await startEditor(options);
    let browser: Browser | undefined;
    try {
      browser = await launchChromium();
      const url = server.workbenchUrl(source === 'source' ? { extensionDevelopmentPath: repoRoot } : {});
      const workbench = await Workbench.open(browser, url, shotDir, viewport);
      return new EditorSession(server, browser, workbench, workspace, scratch, vsix);
    } catch (error) {
      await browser?.close();
      await server.stop();
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
    await this.browser.close();
    await this.server.stop();
    rmSync(this.scratch, { recursive: true, force: true });
  }
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
