// Drives the editor's workbench in Debian's headless Chromium through playwright-core: the command palette,
// the explorer's "Open With…", the Problems panel, and the Context Lens webview (two iframes deep).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type FrameLocator, type Locator, type Page } from 'playwright-core';
import { repoRoot } from '../../scripts/lib/editor';

export const screenshotRoot = join(repoRoot, 'test-output', 'e2e');

/** Launches Debian's Chromium at `executablePath` (scripts/lib/editor.ts names the two the repository uses). */
export async function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    // Without the background-networking flags Chromium keeps dialling hosts this closed network refuses.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export class Workbench {
  private shots = 0;

  constructor(
    readonly page: Page,
    private readonly shotDir: string,
  ) {
    mkdirSync(shotDir, { recursive: true });
  }

  static async open(
    browser: Browser,
    url: string,
    shotDir: string,
    viewport = { width: 1400, height: 900 },
  ): Promise<Workbench> {
    const page = await browser.newPage({ viewport });
    // As long as the waits after it: the page's load is most of a window's start, and a loaded machine slows it.
    await page.goto(url, { timeout: 60_000 });
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    const workbench = new Workbench(page, shotDir);
    // The explorer shows the folder once the remote file system answers: the workbench is usable then.
    await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });
    return workbench;
  }

  /** Saves a numbered screenshot of the whole workbench in the suite's output folder. */
  async screenshot(step: string): Promise<string> {
    this.shots += 1;
    const path = join(this.shotDir, `${String(this.shots).padStart(2, '0')}-${step}.png`);
    await this.page.screenshot({ path });
    return path;
  }

  /**
   * One step of a test: runs `fn`, then keeps a screenshot named after the step; on failure the screenshot is
   * kept too (marked FAILED) before the error goes on.
   */
  async step<T>(name: string, fn: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await fn();
    } catch (error) {
      await this.screenshot(`FAILED-${name}`).catch(() => undefined);
      throw error;
    }
    await this.screenshot(name);
    return result;
  }

  /** Runs a command by its title from the command palette (F1). */
  async runCommand(title: string): Promise<void> {
    const { page } = this;
    const input = page.locator('.quick-input-widget input');
    // A key pressed while a webview's frame is being replaced can be lost, and a palette that opened can close
    // again when a view that was opening takes the focus: ask again, the other way, until the command is picked.
    const keys = ['F1', 'Control+Shift+P', 'F1'];
    for (let i = 0; i < keys.length; i++) {
      try {
        await page.keyboard.press('Escape');
        await page.keyboard.press(keys[i]);
        await input.waitFor({ timeout: 10_000 });
        await input.fill(`>${title}`, { timeout: 10_000 });
        await page
          .locator('.quick-input-list .monaco-list-row', { hasText: title })
          .first()
          .waitFor({ timeout: 10_000 });
        break;
      } catch (error) {
        if (i === keys.length - 1) throw error;
      }
    }
    await page.keyboard.press('Enter');
  }

  /** Reveals a file of the workspace in the explorer, by its path relative to the workspace folder. Tried again
   * with the explorer's folders collapsed and refreshed: once, a file at the top of the workspace was not among
   * its rows within 30 s after a suite had created and expanded folders of its own. */
  async revealInExplorer(relativePath: string): Promise<void> {
    const { page } = this;
    const parts = relativePath.split('/');
    for (let attempt = 1; ; attempt++) {
      try {
        for (let i = 0; i < parts.length; i++) {
          const row = page
            .locator(`.explorer-folders-view .monaco-list-row[aria-label="${parts[i]}"]`)
            .first();
          await row.waitFor({ timeout: 15_000 });
          if (i < parts.length - 1 && (await row.getAttribute('aria-expanded')) === 'false')
            await row.click();
        }
        return;
      } catch (error) {
        if (attempt === 3) throw error;
        await this.runCommand('Collapse Folders in Explorer');
        await this.runCommand('Refresh Explorer');
      }
    }
  }

  /**
   * Explorer → right-click the file → "Open With…" → pick the editor by its display name. Retried: while the
   * extension host is still registering contributions, the menu re-renders under the pointer and the list of
   * editors may not hold the extension's yet.
   */
  async openWith(relativePath: string, editorName: string): Promise<void> {
    await (await this.openWithChoices(relativePath, editorName)).click();
  }

  /** `openWith` up to the list of editors: resolves with the editor's entry, not clicked yet (a benchmark times
   * from the click). */
  async openWithChoices(relativePath: string, editorName: string): Promise<Locator> {
    const { page } = this;
    await this.revealInExplorer(relativePath);
    const name = relativePath.split('/').pop()!;
    const row = page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${name}"]`).first();
    const option = page.locator('.quick-input-list .monaco-list-row', { hasText: editorName }).first();
    for (let attempt = 1; ; attempt++) {
      try {
        await row.click({ button: 'right' });
        // Hover focuses the menu item, Enter runs it: a plain click right after the menu opens is sometimes
        // swallowed by the menu (seen here), the keyboard never is.
        const item = page.locator('.context-view .action-item', { hasText: 'Open With...' }).first();
        await item.hover();
        await page.locator('.context-view .action-item.focused', { hasText: 'Open With...' }).waitFor();
        await page.keyboard.press('Enter');
        await option.waitFor({ timeout: 5000 });
        break;
      } catch (error) {
        if (attempt === 4) throw error;
        await page.keyboard.press('Escape');
        await page.waitForTimeout(1000);
      }
    }
    return option;
  }

  /** Opens a workspace file the plain way (a click in the explorer): the text editor, the default. */
  async openInTextEditor(relativePath: string): Promise<void> {
    const { page } = this;
    await this.revealInExplorer(relativePath);
    const name = relativePath.split('/').pop()!;
    await page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${name}"]`).first().click();
    await page.locator('.tabs-container .tab.active', { hasText: name }).waitFor();
    await page.locator('.editor-instance .monaco-editor').first().waitFor();
  }

  /** Picks an entry of the open quick pick by its text. */
  async pickQuickInput(text: string): Promise<void> {
    const option = this.page.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
    await option.waitFor();
    await option.click();
  }

  /**
   * Accepts the save dialog as proposed, after checking the proposed file name. In the browser the editor's
   * dialog is its own quick input holding the path.
   */
  async acceptSaveDialog(expectedName: string): Promise<string> {
    const input = this.page.locator('.quick-input-widget input');
    await input.waitFor();
    let proposed = '';
    for (let i = 0; i < 50 && !proposed.endsWith(expectedName); i++) {
      proposed = await input.inputValue();
      if (!proposed.endsWith(expectedName)) await this.page.waitForTimeout(100);
    }
    if (!proposed.endsWith(expectedName)) {
      throw new Error(`the save dialog proposes "${proposed}", not a path ending in ${expectedName}`);
    }
    await this.page.keyboard.press('Enter');
    return proposed;
  }

  /** The text of the first notification toast that holds `text`. */
  async notification(text: string): Promise<string> {
    const toast = this.page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
    await toast.waitFor({ timeout: 30_000 });
    return (await toast.textContent()) ?? '';
  }

  /**
   * The document of the visible webview: the workbench nests it two iframes deep, and keeps the frames of
   * webviews in background tabs, hidden.
   */
  webview(): FrameLocator {
    return this.page.frameLocator('iframe.webview.ready >> visible=true').frameLocator('iframe#active-frame');
  }

  /** The rows of the Problems panel (opened by its command), as their accessible labels. */
  async problems(): Promise<string[]> {
    await this.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
    const rows = this.page.locator('.markers-panel .monaco-list-row');
    await rows.first().waitFor({ timeout: 20_000 });
    return rows.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label') ?? el.textContent ?? ''));
  }
}
