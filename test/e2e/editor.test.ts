// End-to-end: Context Lens in the real editor (code-server driven by headless Debian Chromium), once loaded
// from source and once installed from a freshly packaged .vsix. Screenshots of every step go to
// test-output/e2e/editor-<source>/. A missing prerequisite fails the suite with the command that installs it.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
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
      await workbench.openWith(workspaceFiles.session, EditorSession.editorName());
      const expected = engineTiers(join(session.workspace, workspaceFiles.session));
      const shown = await eventually(async () => {
        const tiers = await webviewTiers(workbench.webview());
        assert.deepEqual(tiers, expected);
        return tiers;
      });
      await workbench.screenshot('opened-with-context-lens');
      // The sample must exercise more than one tier, or the comparison above proves little.
      assert.ok(new Set(shown.filter((t) => t !== null)).size >= 2, `tiers shown: ${shown.join(',')}`);
    });
  });
}
