// End-to-end: `npm start`'s script as a user runs it (after the build): it prints a URL, the workbench at that
// URL opens a sample in Context Lens with the engine's badges, and Ctrl-C (SIGINT) ends the editor's whole
// process group. Screenshots go to test-output/e2e/start/.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { assertEditorPrerequisites, headlessShellPath, repoRoot } from '../../scripts/lib/editor';
import { startSample } from '../../scripts/lib/samples';
import { parseTranscript } from '../../src/core/formats';
import { engineTiers, eventually, webviewTiers } from './expect';
import { childrenOf } from './hostProcess';
import { closeBrowser, endSharedEditor, suiteBrowser } from './session';
import { screenshotRoot, Workbench } from './workbench';

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

const shots = join(screenshotRoot, 'start');
/** A small sample of another agent than the one the start opens. */
const codexSample = 'codex/simonw-sample-codex-session-0.77.jsonl';

describe('npm start', { timeout: 240_000 }, () => {
  let start: ChildProcess;
  let output = '';
  let browser: Browser | undefined;
  /** The window opened on the URL, closed after the test (the Chromium may be the process's, which goes on). */
  let opened: Workbench | undefined;
  let editorPid: number | undefined;

  before(async () => {
    assertEditorPrerequisites(headlessShellPath);
    // The script starts an editor of its own.
    await endSharedEditor();
    rmSync(shots, { recursive: true, force: true });
    start = spawn(process.execPath, [join(repoRoot, 'scripts', 'start.mjs')], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    start.stdout?.on('data', (d) => {
      output += d;
    });
    start.stderr?.on('data', (d) => {
      output += d;
    });
  });

  after(async () => {
    await opened?.page.context().close();
    if (browser) await closeBrowser(browser);
    // On failure: end the start script and the editor's group, which a killed script cannot stop itself.
    if (start.exitCode === null) start.kill('SIGKILL');
    if (editorPid !== undefined && groupAlive(editorPid)) process.kill(-editorPid, 'SIGKILL');
  });

  test('prints a URL where Context Lens is open on a sample, another opens with a click; Ctrl-C ends the editor', async () => {
    const url = await eventually(async () => {
      const found = /http:\/\/127\.0\.0\.1:\d+\/\S+/.exec(output);
      assert.ok(found, `no URL printed yet; output so far:\n${output}`);
      return found[0];
    }, 120_000);
    [editorPid] = childrenOf(start.pid!);
    assert.ok(editorPid, 'the editor runs as a child of the start script');

    browser = await suiteBrowser();
    const workbench = await Workbench.open(browser, url, shots);
    opened = workbench;
    // Nothing clicked: the start script opens its sample in Context Lens in every window that connects. The
    // sample shows the product: Tier 3 and Tier 2 results under the defaults (test/unit/formats/showcase.test.ts
    // checks the rest), and a header titled by the project (as the Sessions view names it: its last two folders) and
    // the first prompt.
    await workbench.step('sample-in-context-lens', async () => {
      const name = startSample.split('/').pop()!;
      const title = workbench.webview().locator('h1', { hasText: name });
      await title.waitFor({ timeout: 60_000 });
      assert.match(
        (await title.textContent()) ?? '',
        /^…\/dev\/storefront · Customers who apply a coupon and qualify for free shipping/,
      );
      const expected = engineTiers(join(repoRoot, 'samples', startSample));
      const tiers = new Set(expected.filter((t) => t !== null));
      assert.ok(tiers.has('2') && tiers.has('3'), `engine tiers: ${[...tiers].join(', ')}`);
      assert.ok(expected.filter((t) => t === '2').length >= 100, 'Tier 2 results');
      // The segments before the two compactions start collapsed: open them, then every row shows its tier. The
      // list is virtual: the later segment first (an opened one pushes the rows after it out of the page), each
      // click with the list at its top, where the segment rows are.
      const list = workbench.webview().locator('[data-testid="message-list"]');
      const closed = list.locator('[data-testid="segment-row"][data-open="false"]');
      const top = () =>
        list.evaluate((el) => {
          el.scrollTop = 0;
        });
      await top();
      assert.equal(await closed.count(), 2);
      await closed.last().click();
      await top();
      await closed.first().click();
      await top();
      assert.equal(await list.locator('[data-testid="segment-row"][data-open="true"]').count(), 1);
      assert.equal(await closed.count(), 0);
      await eventually(
        async () => assert.deepEqual(await webviewTiers(workbench.webview()), expected),
        60_000,
      );
    });
    // Another sample, of another agent, opens in Context Lens with a click: its summary counts the messages the
    // reader finds in it. (Opening the large generated one is the open suite's.)
    await workbench.step('codex-sample-in-context-lens', async () => {
      await workbench.revealInExplorer(codexSample);
      const name = codexSample.split('/').pop()!;
      const path = join(repoRoot, 'samples', codexSample);
      const messages = parseTranscript(readFileSync(path), path).messages.length;
      await workbench.page.locator(`.explorer-folders-view .monaco-list-row[aria-label="${name}"]`).click();
      await workbench.webview().locator('h1', { hasText: name }).waitFor({ timeout: 60_000 });
      const summary = workbench.webview().locator('[data-testid="summary"]');
      await eventually(async () => {
        const text = (await summary.textContent({ timeout: 5000 })) ?? '';
        const shown = /([\d,.\s]+) messages/.exec(text)?.[1].replace(/\D/g, '');
        assert.equal(Number(shown), messages, text);
      }, 60_000);
    });
    await workbench.page.context().close();
    await closeBrowser(browser);
    browser = undefined;
    opened = undefined;

    const exited = new Promise<number | null>((resolve) => start.once('exit', (code) => resolve(code)));
    start.kill('SIGINT');
    assert.equal(await exited, 0, output);
    assert.ok(!groupAlive(editorPid), `the editor's process group ${editorPid} outlived Ctrl-C`);
  });
});
