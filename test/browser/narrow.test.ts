// The view at the size the editor gives it in a 1024×700 window with the explorer and the Problems panel open
// (676 px wide: measured in the real editor, test/e2e/verdict.test.ts): the search count shows beside the field,
// the messages' text keeps at least 40 characters, so do the header's headline and cache line under tiered (on a
// row of their own), and the compactions table fits the side panel. Screenshots go to
// test-output/browser/narrow-*.png.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { REAL_LONG_DIR } from '../sharedFixtures';
import { closeBrowser, launch, openLens, outputDir, twoFrames, waitForSeq } from './harness';

// A Codex session with three compactions in its log, whose previews are mostly Latin text.
const FIXTURE = join(REAL_LONG_DIR, 'codex', 'doudouqie66-019f6dc3-gpt-5.5-three-compactions-0.144.5.jsonl');

before(launch);
after(closeBrowser);

test('at 676 px wide: the search count, 40 characters of text and of the header lines, the compactions table in its pane', {
  skip: !existsSync(FIXTURE),
}, async () => {
  const lens = await openLens('rollout.jsonl', readFileSync(FIXTURE), { width: 676, height: 560 });
  try {
    await waitForSeq(lens.page, 0, 120_000);
    await lens.page.getByTestId('tier-badge').first().waitFor();
    await lens.page.getByTestId('cache-headline').waitFor({ timeout: 120_000 });
    await lens.page.getByTestId('filter-query').fill('Exit code');
    await lens.page
      .getByTestId('filter-count')
      .filter({ hasText: / of \d+/ })
      .waitFor({ timeout: 30_000 });
    await twoFrames(lens.page);
    await lens.page.screenshot({ path: join(outputDir, 'narrow-search.png') });
    const seen = await lens.page.evaluate(() => {
      const pane = (document.querySelector('.list-pane') as HTMLElement).getBoundingClientRect();
      const count = (
        document.querySelector('[data-testid="filter-count"]') as HTMLElement
      ).getBoundingClientRect();
      // How many characters of each preview are drawn: the longest start of its text (and the ellipsis) that fits.
      const ctx = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
      const lines = '.topbar [data-testid="headline"], .topbar [data-testid="cache-headline"]';
      const shown = [...document.querySelectorAll(`[data-testid="message-row"] .col-preview, ${lines}`)].map(
        (c) => {
          const style = getComputedStyle(c);
          ctx.font = `${style.fontSize} ${style.fontFamily}`;
          const text = c.textContent ?? '';
          const width = c.getBoundingClientRect().width;
          let n = 0;
          while (n < text.length && ctx.measureText(`${text.slice(0, n + 1)}…`).width <= width) n++;
          return { n, text, header: c.matches(lines) };
        },
      );
      return { pane: [pane.left, pane.right], count: [count.left, count.right, count.width], shown };
    });
    assert.ok(
      seen.count[2] > 0 && seen.count[1] <= seen.pane[1],
      `the count ${seen.count} in the list ${seen.pane}`,
    );
    // The policy's headline and the cache's line, on their row beside each other: 40 characters each (the settings
    // on the row above once left them a few).
    const header = seen.shown.filter((s) => s.header);
    assert.equal(header.length, 2, 'the headline and the cache line');
    for (const s of header) assert.ok(s.n >= 40, `${s.n} characters of "${s.text.slice(0, 60)}"`);
    const latin = seen.shown.filter((s) => !s.header && s.text.startsWith('Exit code') && s.text.length > 40);
    assert.ok(latin.length > 0, 'rows of the search');
    for (const s of latin) assert.ok(s.n >= 40, `${s.n} characters of "${s.text.slice(0, 60)}"`);

    // A policy that compacts: its table in the Requests tab, within the side panel's width.
    await lens.page.getByTestId('filter-query').fill('');
    await lens.page.getByLabel('policy', { exact: true }).first().click();
    await lens.page
      .locator('vscode-option', { hasText: /codex.auto.compact/i })
      .first()
      .click();
    await lens.page.getByRole('tab', { name: 'Requests' }).click();
    const table = lens.page.getByTestId('compactions');
    await table.waitFor({ timeout: 120_000 });
    await table.scrollIntoViewIfNeeded();
    await twoFrames(lens.page);
    await lens.page.screenshot({ path: join(outputDir, 'narrow-compactions.png') });
    const box = await table.boundingBox();
    const pane = await lens.page.locator('.side-panel').boundingBox();
    assert.ok(box && pane);
    assert.ok(
      box.x + box.width <= pane.x + pane.width + 0.5,
      `table ends at ${box.x + box.width}, pane at ${pane.x + pane.width}`,
    );
    // Each figure keeps its name beside it, on a line of its own.
    const cost = lens.page.getByTestId('summarization-cost').first();
    const drawn = await cost.evaluate((el) => ({
      name: getComputedStyle(el, '::before').content,
      display: getComputedStyle(el).display,
    }));
    assert.deepEqual(drawn, { name: '"its cost: "', display: 'block' });
  } finally {
    await lens.close();
  }
});
