// End-to-end: Context Lens in the real editor (code-server driven by headless Debian Chromium), once loaded
// from source and once installed from a freshly packaged .vsix. Screenshots of every step go to
// test-output/e2e/editor-<source>/. A missing prerequisite fails the suite with the command that installs it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'jsonc-parser';
import { engineTiers, eventually, webviewTiers } from './expect';
import { EditorSession, type ExtensionSource, workspaceFiles } from './session';

const suites: [ExtensionSource, string][] = [
  ['source', 'loaded from source (extensionDevelopmentPath)'],
  ['vsix', 'installed from the packaged .vsix'],
];

for (const [source, how] of suites) {
  describe(`Context Lens in the real editor, ${how}`, { timeout: 300_000 }, () => {
    let session: EditorSession;
    before(async () => {
      session = await EditorSession.start(source);
    });
    after(async () => {
      await session?.stop();
    });

    test('Open With… → Context Lens shows the tier badges the engine computes', async () => {
      const { workbench } = session;
      const path = join(session.workspace, workspaceFiles.session);
      const expected = engineTiers(path);
      // The sample must exercise more than one tier, or the comparison proves little.
      assert.ok(new Set(expected.filter((t) => t !== null)).size >= 2, `engine tiers: ${expected.join(',')}`);
      await workbench.step('open-with-context-lens', async () => {
        await workbench.openWith(workspaceFiles.session, EditorSession.editorName());
        await eventually(async () => assert.deepEqual(await webviewTiers(workbench.webview()), expected));
      });
    });

    test('keepRecent typed in the webview changes the badges and the workspace settings file', async () => {
      const { workbench } = session;
      const path = join(session.workspace, workspaceFiles.session);
      const keepRecent = 3;
      const expected = engineTiers(path, { keepRecent });
      assert.notDeepEqual(expected, engineTiers(path), 'the new keepRecent must move some badge');
      await workbench.step('keepRecent-3', async () => {
        await workbench.webview().locator('[data-testid="setting-keepRecent"]').fill(String(keepRecent));
        await eventually(async () => assert.deepEqual(await webviewTiers(workbench.webview()), expected));
      });
      // A folder is open, so the host saves to the workspace settings, and only the key that changed.
      const settingsPath = join(session.workspace, '.vscode', 'settings.json');
      await eventually(async () => {
        const settings = parse(readFileSync(settingsPath, 'utf8')) as Record<string, unknown>;
        assert.deepEqual(settings, { 'contextLens.tiered.keepRecent': keepRecent });
      });
    });
  });
}
