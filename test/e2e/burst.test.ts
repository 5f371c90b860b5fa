// End-to-end: a burst of changes in the real editor (code-server driven by headless Debian Chromium, the
// extension loaded from source) ends with the view showing the last one: the field, the badges, the saved
// setting, written to settings.json once rather than per step. Not timed: the keys come at a key-repeat pace,
// faster than the host answers, and only the end state is checked. Screenshots go to test-output/e2e/editor-source/.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'jsonc-parser';
import { parseTranscript } from '../../src/core/formats';
import { defaultsFor } from '../../src/host/policySettings';
import { claudeCodeSessionLines } from '../bench/generate';
import { engineTiers, eventually, webviewTiers } from './expect';
import { EditorSession } from './session';

describe('a burst of changes in the real editor', { timeout: 300_000 }, () => {
  let session: EditorSession;
  before(async () => {
    session = await EditorSession.start('source');
  });
  after(async () => {
    await session?.stop();
  });

  test('20 keepRecent steps at key-repeat pace end with the view showing the last one', async (t) => {
    const { workbench } = session;
    const relative = 'burst/session.jsonl';
    const path = join(session.workspace, relative);
    const lines = claudeCodeSessionLines(5);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${Array.from({ length: 500 }, () => lines.next().value as string).join('\n')}\n`);
    // tier1Distance set above keepRecent's range (keepRecent may not pass it), in the workspace settings.
    const tier1Distance = 60;
    const settingsPath = join(session.workspace, '.vscode', 'settings.json');
    mkdirSync(dirname(settingsPath), { recursive: true });
    writeFileSync(settingsPath, `${JSON.stringify({ 'contextLens.tiered.tier1Distance': tier1Distance })}\n`);
    const start = defaultsFor(parseTranscript(readFileSync(path), path)).tiered.keepRecent;
    const last = start + 20;
    const expected = engineTiers(path, { keepRecent: last, tier1Distance });
    assert.notDeepEqual(
      expected,
      engineTiers(path, { keepRecent: start, tier1Distance }),
      'the burst must move some badge',
    );

    await workbench.step('burst-open', async () => {
      await workbench.runCommand('Refresh Explorer');
      await workbench.openWith(relative, EditorSession.editorName());
      await workbench.webview().locator('[data-testid="summary"]').waitFor({ timeout: 60_000 });
    });
    const field = workbench.webview().locator('[data-testid="setting-keepRecent"]');
    // The view's last change sent and the change its analysis answers (webview/probes.ts).
    const body = () => workbench.webview().locator('body');
    const sentSeq = async () => (await body().getAttribute('data-sent-seq')) ?? '';
    const answeredSeq = async () => (await body().getAttribute('data-analysis-seq')) ?? '';
    assert.equal(await field.inputValue(), String(start));
    // Every keepRecent value settings.json holds during the burst: written once the changes pause, not per step
    // (each write sets the editor's own extensions to work on the extension host's thread).
    const written = new Set<unknown>();
    // Stopped however the test ends: a failed assertion must not leave it keeping the test process alive.
    const watch = setInterval(() => {
      try {
        const v = parse(readFileSync(settingsPath, 'utf8'))?.['contextLens.tiered.keepRecent'];
        if (v !== undefined) written.add(v);
      } catch {
        // Read mid-write: the next poll sees it.
      }
    }, 10);
    t.after(() => clearInterval(watch));
    await field.focus();
    // When the field took each step: a write is due only after a pause of the changes, and a loaded machine makes
    // pauses of its own (each step waits for the field).
    const steppedAt: number[] = [];
    for (let i = 1; i <= 20; i++) {
      // A key can be lost while the page paints: pressed again until the field takes the step, so the burst is
      // exactly 20 changes (still far faster than the host answers them). After three lost keys the page is
      // given a moment and the field its focus back (the workbench can take it while it is busy).
      for (let press = 0; press < 6 && (await field.inputValue()) !== String(start + i); press++) {
        if (press === 3) {
          await workbench.page.waitForTimeout(500);
          if ((await field.inputValue()) === String(start + i)) break;
          await field.focus();
        }
        await field.press('ArrowUp');
        await workbench.page.waitForTimeout(30);
      }
      assert.equal(await field.inputValue(), String(start + i));
      steppedAt.push(Date.now());
    }
    // A gap the host may see as a pause of 2 s (what it waits before a write), less the delivery's jitter.
    const PAUSE_MS = 1900;
    await workbench.step('burst-settled', async () => {
      // The answer to the last change arrives; then the settings writes settle and nothing may move anything back.
      await eventually(async () => assert.equal(await answeredSeq(), await sentSeq()));
      const lastChange = await sentSeq();
      // The host received every change between the first step and this answer. On a loaded machine it may see
      // pauses the keys did not make (a change delivered late), but no more than that span holds.
      const span = Date.now() - steppedAt[0];
      await eventually(async () =>
        assert.deepEqual(parse(readFileSync(settingsPath, 'utf8')), {
          'contextLens.tiered.tier1Distance': tier1Distance,
          'contextLens.tiered.keepRecent': last,
        }),
      );
      await workbench.page.waitForTimeout(1500);
      clearInterval(watch);
      // The last value, and at most one per pause the host could have seen (with one to spare for the jitter).
      const pauses = Math.floor(span / PAUSE_MS);
      assert.ok(
        written.size <= pauses + 2,
        `settings.json written with ${[...written].join(', ')} in a burst answered within ${span} ms`,
      );
      assert.equal(await field.inputValue(), String(last));
      assert.deepEqual(await webviewTiers(workbench.webview()), expected);
      assert.equal(await answeredSeq(), lastChange);
      assert.equal(await sentSeq(), lastChange);
    });
  });
});
