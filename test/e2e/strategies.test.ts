// End-to-end, in the real editor: the view switched to Anthropic context editing (its trigger set in the workspace
// settings to one the session's prompts pass) shows its cost against none in the header, by the figure `simulate`
// prints for the same settings, marks the cleared results in the list and on the ladder, and says why in the row's
// tooltip. Screenshots go to test-output/e2e/strategies/.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cliArgs } from '../unit/cliProcess';
import { eventually } from './expect';
import { EditorSession, workspaceFiles } from './session';

/** The session's prompts run from about 18,500 to 22,700 tokens: from the fourth request on they pass this. */
const TRIGGER = 20_000;

describe('the providers’ strategies in the real editor', { timeout: 300_000 }, () => {
  let session: EditorSession;
  before(async () => {
    session = await EditorSession.start('source', { shots: 'strategies' });
  });
  after(async () => {
    await session?.stop();
  });

  test('switching the view to context editing: cleared results in the list, its cost against none in the header', async () => {
    const { workbench } = session;
    const path = join(session.workspace, workspaceFiles.session);
    const sim = spawnSync(
      process.execPath,
      [
        ...cliArgs,
        'simulate',
        path,
        '--policy',
        'none',
        '--policy',
        'anthropic-context-editing',
        '--set',
        `contextEditing.trigger=${TRIGGER}`,
      ],
      { encoding: 'utf8' },
    );
    assert.equal(sim.status, 0, sim.stderr);
    const line = sim.stdout
      .split('\n')
      .find((l) => l.trimStart().startsWith('anthropic-context-editing') && l.includes('against'));
    const delta = /\(([+−]\$\d+\.\d{4})\)/.exec(line ?? '')?.[1];
    assert.ok(delta, sim.stdout);
    mkdirSync(join(session.workspace, '.vscode'), { recursive: true });
    writeFileSync(
      join(session.workspace, '.vscode', 'settings.json'),
      JSON.stringify({ 'contextLens.contextEditing.trigger': TRIGGER }),
    );
    await workbench.step('context-editing', async () => {
      await workbench.openWith(workspaceFiles.session, EditorSession.editorName());
      const frame = workbench.webview();
      await eventually(async () => {
        const text = (await frame.getByTestId('headline').textContent({ timeout: 5000 })) ?? '';
        assert.match(text, /^tiered /);
      }, 120_000);
      // The policy picker (the header's while the controls panel is closed, else the panel's).
      await frame.locator('[data-testid="setting-policy"]:visible').first().click();
      await frame.locator('vscode-option:visible', { hasText: 'Anthropic context editing' }).first().click();
      await eventually(async () => {
        const text = (await frame.getByTestId('headline').textContent({ timeout: 5000 })) ?? '';
        assert.match(
          text,
          /^anthropic-context-editing \(on Anthropic's server before every request, simulated from its documented behaviour\) costs [\d.]+% more than "as logged"/,
        );
        assert.ok(text.includes(`(${delta})`), `${text} / simulate: ${line}`);
      }, 120_000);
      await eventually(async () => {
        const badges = frame.locator('[data-testid="cleared-badge"]');
        assert.ok((await badges.count()) > 0, 'cleared results are marked in the list');
        assert.match(
          (await badges.first().getAttribute('title')) ?? '',
          /^cleared by context editing \(clear_tool_uses_20250919\) before request \d+: prompt [\d,]+ input tokens > trigger 20,000, and this call is older than the newest keep 3 tool uses → result replaced by "\[cleared\]" on the server/,
        );
      });
      assert.match(
        (await frame.getByTestId('cleared-note').textContent()) ?? '',
        /cleared by context editing on the server: \d+ results?/,
      );
    });
  });
  test('Recommend a Strategy opens the view on its verdict card', async () => {
    const { workbench } = session;
    await workbench.step('recommend', async () => {
      await workbench.runCommand('Context Lens: Recommend a Strategy for This Session');
      await eventually(async () => {
        const best = workbench.webview().getByTestId('verdict-best');
        assert.match((await best.textContent({ timeout: 5000 })) ?? '', /^Best here: /);
      }, 120_000);
    });
  });
});
