// End-to-end, in the real editor, on a real long session: the verdict card at the top of the view names the same
// best strategy and figure as `simulate`'s first lines, at 1400×900 and at 1024×700 with the Problems panel open
// (where the verdict and the headline take two lines); the lines to paste are copied and parse for their target;
// Apply switches the policy; the view's Problems tab counts what the editor's Problems panel lists. Screenshots go to
// test-output/e2e/verdict/.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { REAL_LONG_DIR } from '../sharedFixtures';
import { cliArgs } from '../unit/cliProcess';
import { eventually } from './expect';
import { EditorSession } from './session';

const NAME = 'laf-us-05541cb5-six-compactions-v2.1.92.jsonl';
const SOURCE = join(REAL_LONG_DIR, 'claude-code', NAME);
const RELATIVE = `long/${NAME}`;

describe('the verdict card on a real long session', {
  timeout: 600_000,
  skip: existsSync(SOURCE) ? false : 'the shared real-long fixtures are not beside the repository',
}, () => {
  let session: EditorSession;
  before(async () => {
    session = await EditorSession.start('source', { shots: 'verdict' });
    mkdirSync(join(session.workspace, 'long'), { recursive: true });
    copyFileSync(SOURCE, join(session.workspace, RELATIVE));
  });
  after(async () => {
    await session?.stop();
  });

  test('the card is simulate’s verdict; its lines are copied and parse; Apply switches the policy; it fits at 1024×700', async () => {
    const { workbench } = session;
    const sim = spawnSync(process.execPath, [...cliArgs, 'simulate', join(session.workspace, RELATIVE)], {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    assert.equal(sim.status, 0, sim.stderr);
    // 'Best here: Anthropic context editing, −14.5%, $3.66 over 260 requests against "as logged".'
    const first = sim.stdout.split('\n')[0];
    const best = /^(Best here: .+?)(?: against "as logged"\.)?$/.exec(first)?.[1];
    assert.ok(best?.includes(', −'), `simulate names a strategy cheaper than the baseline: ${first}`);
    const frame = () => workbench.webview();

    await workbench.step('verdict-1400x900', async () => {
      await workbench.runCommand('Refresh Explorer');
      await eventually(async () => workbench.openWith(RELATIVE, EditorSession.editorName()));
      await eventually(async () => {
        const text = (await frame().getByTestId('verdict-best').textContent({ timeout: 5000 })) ?? '';
        assert.equal(text, best);
      }, 300_000);
      assert.match((await frame().getByTestId('verdict-current').textContent()) ?? '', /^Now: Tiered, /);
    });

    await workbench.step('verdict-lines', async () => {
      const page = workbench.page;
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], {
        origin: new URL(page.url()).origin,
      });
      await frame().getByTestId('verdict-how').click();
      const snippets = frame().getByTestId('verdict-snippet');
      assert.ok((await snippets.count()) > 0, 'the best has lines to paste');
      const snippet = snippets.first();
      const language = await snippet.locator('pre').getAttribute('data-language');
      const shown = (await snippet.locator('pre').textContent()) ?? '';
      await snippet.getByTestId('verdict-copy').click();
      const copied = await eventually(async () => {
        const text = await page.evaluate(() => navigator.clipboard.readText());
        assert.equal(text, shown);
        return text;
      });
      if (language === 'json') assert.ok(JSON.parse(copied));
      else if (language === 'toml') assert.ok(parseToml(copied));
      else assert.match(copied, /^export [A-Z_]+=\S+$/);
    });

    await workbench.step('verdict-applied', async () => {
      const policy = await frame().getByTestId('verdict').getAttribute('data-best');
      assert.ok(policy);
      await frame().getByTestId('verdict-apply').click();
      await eventually(async () => {
        const headline = (await frame().getByTestId('headline').textContent({ timeout: 5000 })) ?? '';
        assert.ok(headline.startsWith(`${policy} `), headline);
      }, 300_000);
      await frame().getByTestId('verdict-in-force').waitFor();
    });

    await workbench.step('verdict-1024x700-problems', async () => {
      await workbench.page.setViewportSize({ width: 1024, height: 700 });
      await workbench.runCommand('View: Focus Problems (Errors, Warnings, Infos)');
      await workbench.page.locator('.markers-panel').waitFor();
      await eventually(async () => {
        const text = (await frame().getByTestId('verdict-best').textContent({ timeout: 5000 })) ?? '';
        assert.equal(text, best);
        const seen = await frame()
          .locator('body')
          .evaluate(() => {
            // Lines each shows: its height over its line height (no named helper: the page runs this as is).
            const lines = ['.verdict-line', '[data-testid="headline"]'].map((selector) => {
              const el = document.querySelector(selector) as HTMLElement;
              const style = getComputedStyle(el);
              const line = Number.parseFloat(style.lineHeight) || 1.4 * Number.parseFloat(style.fontSize);
              return Math.round(el.getBoundingClientRect().height / line);
            });
            const strong = document.querySelector('.headline strong');
            return {
              verdict: lines[0],
              headline: lines[1],
              wavy: strong ? getComputedStyle(strong).textDecorationStyle === 'wavy' : false,
              view: [window.innerWidth, window.innerHeight],
            };
          });
        assert.equal(seen.verdict, 1, `verdict in a ${seen.view.join('×')} view`);
        assert.equal(seen.headline, 1, `headline in a ${seen.view.join('×')} view`);
        assert.equal(seen.wavy, false, 'no wavy underline to run into the next line');
      }, 60_000);
    });

    // One list of problems: the view's Problems tab counts what the editor's Problems panel lists for the file.
    await workbench.step('problems-one-list', async () => {
      await eventually(async () => {
        const tab =
          (await frame()
            .getByRole('tab', { name: /^Problems/ })
            .textContent()) ?? '';
        const inView = Number(/\((\d+)\)/.exec(tab)?.[1]);
        const rows = await workbench.problems();
        const fileRow = rows.find((r) => r.includes(NAME)) ?? '';
        const inPanel = Number(/(\d+) problems?/.exec(fileRow)?.[1] ?? 0);
        assert.ok(inView > 0, `the view's tab: ${tab}`);
        assert.equal(inPanel, inView, `the panel's row: ${fileRow}; the view's tab: ${tab}`);
      }, 60_000);
    });
  });
});
