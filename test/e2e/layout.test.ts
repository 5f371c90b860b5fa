// End-to-end: the layout in the real editor at 1024×700 with the explorer and the Problems panel open (the view
// gets about 720×350 px): the list shows at least 12 rows with its text column; the controls panel collapses
// and expands, and the choice survives a reload of the window and a reopen of the view. Screenshots go to
// test-output/e2e/layout/.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { eventually } from './expect';
import { EditorSession, workspaceFiles } from './session';

describe('Context Lens layout in a small editor', { timeout: 300_000 }, () => {
  let session: EditorSession;
  before(async () => {
    session = await EditorSession.start('source', {
      shots: 'layout',
      viewport: { width: 1024, height: 700 },
    });
  });
  after(async () => {
    await session?.stop();
  });

  test('with the Problems panel open the list shows ≥ 12 rows and its text; the status bar has a plain name', async () => {
    const { workbench } = session;
    await workbench.step('layout-1024x700-problems', async () => {
      await workbench.openWith(workspaceFiles.session, EditorSession.editorName());
      const webview = workbench.webview();
      await webview.locator('[data-testid="message-row"]').first().waitFor({ timeout: 60_000 });
      await workbench.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
      await workbench.page.locator('.markers-panel').waitFor();
      // Measured with the analysis shown (the headline, the ladder and the badges take their room).
      await webview.locator('[data-testid="ladder"]').waitFor({ timeout: 60_000 });
      await webview.locator('[data-testid="tier-badge"]').first().waitFor();
      await eventually(async () => {
        const seen = await webview.locator('[data-testid="message-list"]').evaluate((list) => {
          const box = list.getBoundingClientRect();
          const rows = [...list.querySelectorAll('[role="option"]')].filter((r) => {
            const b = r.getBoundingClientRect();
            return b.top >= box.top - 0.5 && b.bottom <= box.bottom + 0.5;
          });
          const texts = rows
            .map((r) => r.querySelector('.col-preview'))
            .filter((c): c is Element => c !== null)
            .map((c) => ({ width: c.getBoundingClientRect().width, text: c.textContent ?? '' }));
          return { rows: rows.length, texts, view: [window.innerWidth, window.innerHeight] };
        });
        assert.ok(seen.rows >= 12, `${seen.rows} rows in a ${seen.view.join('×')} view`);
        assert.ok(seen.texts.length > 0, 'message rows with a text column');
        for (const t of seen.texts) assert.ok(t.width >= 60, `text column ${t.width} px wide`);
        assert.ok(seen.texts.some((t) => t.text.length > 0));
      });
    });
    // The status bar item of the view in front: read as a sentence, not as escaped Markdown.
    const item = workbench.page.locator('.statusbar-item[aria-label*="tokens before"]').first();
    await item.waitFor({ timeout: 30_000 });
    const name = (await item.getAttribute('aria-label')) ?? '';
    assert.match(
      name,
      /^Context Lens: coverage-test-fix\.jsonl under policy \w+, transcript size [\d,]+ tokens before, [\d,]+ after/,
    );
    assert.doesNotMatch(name, /&nbsp;|\\-|\$\(/);
  });

  test('the controls panel collapses and expands, and the choice survives a reload and a reopen', async () => {
    const { workbench } = session;
    const webview = () => workbench.webview();
    const toggle = () => webview().locator('[data-testid="controls-toggle"]');
    const expanded = async () =>
      (await toggle().getAttribute('aria-expanded', { timeout: 60_000 })) === 'true';
    const reload = async () => {
      // The workbench writes its state (the open editors, extension state) to the browser's storage shortly after
      // a change (a reload within moments of a click can lose it, as it would in any extension); a person is
      // slower than this. On a loaded machine 1.5 s was once not enough for the open editors.
      await workbench.page.waitForTimeout(3000);
      await workbench.page.reload();
      await workbench.page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      // The editor restores Context Lens on the same file, when it kept its open editors (its own state, which a
      // loaded machine once lost even 3 s after the click): otherwise the file is opened again. The choice under
      // test is the extension's, kept per workspace, and must survive either way.
      const row = () => webview().locator('[data-testid="message-row"]').first();
      const restored = await row()
        .waitFor({ timeout: 20_000 })
        .then(() => true)
        .catch(() => false);
      if (!restored) {
        await workbench.openWith(workspaceFiles.session, EditorSession.editorName());
        await row().waitFor({ timeout: 60_000 });
      }
    };
    // In a view this narrow the panel starts closed, with the main settings in the header.
    assert.equal(await expanded(), false);
    assert.equal(await webview().locator('[data-testid="setting-keepRecent"]').count(), 1);
    await workbench.step('controls-open', async () => {
      await toggle().click();
      await webview()
        .locator('[data-testid="controls-panel"] [data-testid="setting-maxResultChars"]')
        .waitFor();
      assert.equal(await expanded(), true);
    });
    await workbench.step('controls-open-after-reload', async () => {
      await reload();
      await eventually(async () => assert.equal(await expanded(), true));
      await webview()
        .locator('[data-testid="controls-panel"] [data-testid="setting-maxResultChars"]')
        .waitFor();
    });
    // Closed again, it stays closed in the view opened next (the same kept choice; the reload above showed that it
    // outlives the window).
    await workbench.step('controls-closed-after-reopen', async () => {
      await toggle().click();
      await webview().locator('[data-testid="controls-panel"]').waitFor({ state: 'hidden' });
      await workbench.runCommand('View: Close All Editors');
      await workbench.openWith(workspaceFiles.session, EditorSession.editorName());
      await webview().locator('[data-testid="message-row"]').first().waitFor({ timeout: 60_000 });
      await eventually(async () => assert.equal(await expanded(), false));
      assert.equal(await webview().locator('[data-testid="controls-panel"]').isVisible(), false);
    });
  });
});
