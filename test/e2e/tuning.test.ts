// End-to-end: the Tuning tab in the real editor (code-server driven by headless Debian Chromium, the extension from
// source) sweeps the session shown and draws the heatmap; a click on a cell writes its two constants to the
// contextLens.* settings and the view follows. Screenshots go to test-output/e2e/tuning/.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'jsonc-parser';
import { eventually } from './expect';
import { EditorSession, workspaceFiles } from './session';

describe('the Tuning tab in the real editor', { timeout: 300_000 }, () => {
  let session: EditorSession;
  before(async () => {
    session = await EditorSession.start('source', { shots: 'tuning' });
  });
  after(async () => {
    await session?.stop();
  });

  test('the heatmap of the open session applies a clicked cell to contextLens.* settings', async () => {
    const { workbench } = session;
    const view = () => workbench.webview();
    await workbench.step('tuning-open', async () => {
      await workbench.openWith(workspaceFiles.session, EditorSession.editorName());
      await view().locator('[data-testid="summary"]').waitFor({ timeout: 60_000 });
    });
    await workbench.step('tuning-heatmap', async () => {
      await view().getByRole('tab', { name: 'Tuning' }).click();
      await view().locator('[data-testid="heatmap"]').waitFor({ timeout: 60_000 });
      // The defaults (keepRecent 8, tier1Distance 20) are the framed cell; the best is named.
      assert.match(
        (await view().locator('.heatmap-cell.current').getAttribute('aria-label')) ?? '',
        /keepRecent 8, tier1Distance 20/,
      );
      assert.match(
        (await view().locator('[data-testid="tuning-best"]').textContent()) ?? '',
        /^Best: keepRecent \d+, tier1Distance \d+/,
      );
    });
    const settingsPath = join(session.workspace, '.vscode', 'settings.json');
    await workbench.step('tuning-applied', async () => {
      await view().locator('[data-testid="heatmap-5-15"]').click();
      await eventually(async () => {
        assert.ok(existsSync(settingsPath));
        const settings = parse(readFileSync(settingsPath, 'utf8'));
        assert.equal(settings['contextLens.tiered.keepRecent'], 5);
        assert.equal(settings['contextLens.tiered.tier1Distance'], 15);
      });
      await eventually(async () => {
        assert.equal(await view().locator('[data-testid="setting-keepRecent"]').inputValue(), '5');
        assert.equal(await view().locator('[data-testid="setting-tier1Distance"]').inputValue(), '15');
        assert.match(
          (await view().locator('.heatmap-cell.current').getAttribute('aria-label')) ?? '',
          /keepRecent 5, tier1Distance 15/,
        );
      });
    });
  });
});
