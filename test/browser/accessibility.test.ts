// Accessibility in Chromium: axe-core (the rule set of the common checkers) over the whole view in the light,
// dark and high-contrast themes, with a row selected and the controls panel open and closed; the keyboard:
// the skip button, the tab order header → list → details → ladder → controls, "?" for the keyboard map, and
// focus kept on a tab switch.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { closeBrowser, launch, openLens, outputDir, repoRoot, setTheme, waitForSeq } from './harness';

const FIXTURE = 'test/fixtures/real/claude-code/drmaciver-coverage-test-fix.jsonl';
const bytes = readFileSync(join(repoRoot, FIXTURE));
/** A real session whose log shows cache breaks: the Cache tab's table and marks are drawn. */
const BREAKS = 'test/fixtures/real/claude-code/session-share-images-rewritten-chain.jsonl';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

before(launch);
after(closeBrowser);

interface Finding {
  id: string;
  impact: string;
  help: string;
  nodes: string[];
}

/** axe-core's serious and critical findings for the page as it stands. */
async function axeFindings(page: Page): Promise<Finding[]> {
  // Evaluated through the debugging protocol, which the page's CSP does not govern (no script tag is added).
  await page.evaluate(axeSource);
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<unknown> } })
      .axe;
    return (await axe.run(document, { resultTypes: ['violations'] })) as {
      violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[];
    };
  });
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(' ')),
    }));
}

const THEMES = ['light', 'dark', 'high-contrast'] as const;

// One view per test, its theme switched as the editor switches it: each theme is checked over the same views
// (the views style themselves by CSS variables only), and the session is analysed, and the Tuning tab's sweep
// run, once rather than once per theme.
test(`axe-core: no serious or critical findings in the ${THEMES.join(', ')} themes`, async () => {
  const lens = await openLens('coverage-test-fix.jsonl', bytes, {
    theme: THEMES[0],
    width: 1400,
    height: 900,
  });
  try {
    await waitForSeq(lens.page, 0);
    const analysis = lens.host.session.analysis;
    const tier2 = analysis?.messages.find((m) => m.tier === 2);
    assert.ok(tier2);
    // A selected row with its badges, its details, the ladder's mark; the controls panel open (1400 px).
    await lens.page.locator(`[data-testid="message-row"][data-index="${tier2.index}"]`).click();
    for (const theme of THEMES) {
      await setTheme(lens.page, theme);
      if (theme !== THEMES[0]) {
        // Back to where the first theme began: the row's details, the controls panel open.
        await lens.page.getByRole('tab', { name: 'Details' }).click();
        await lens.page.getByTestId('controls-toggle').click();
      }
      await lens.page
        .getByTestId('details')
        .locator('h2', { hasText: `#${tier2.index}` })
        .waitFor();
      assert.equal(await lens.page.getByTestId('controls-panel').isVisible(), true);
      assert.deepEqual(await axeFindings(lens.page), [], `${theme}: controls panel open, a row selected`);
      // The panel closed (the header's settings instead), and the Requests tab.
      await lens.page.getByTestId('controls-toggle').click();
      await lens.page.getByRole('tab', { name: 'Requests' }).click();
      await lens.page.getByTestId('requests-chart').waitFor();
      assert.deepEqual(await axeFindings(lens.page), [], `${theme}: controls panel closed, Requests tab`);
      await lens.page.screenshot({ path: join(outputDir, `axe-${theme}.png`) });
      // The Tuning tab's heatmap (a real sweep by the stand-in host).
      await lens.page.getByRole('tab', { name: 'Tuning' }).click();
      await lens.page.getByTestId('heatmap').waitFor();
      assert.deepEqual(await axeFindings(lens.page), [], `${theme}: Tuning tab`);
      await lens.page.screenshot({ path: join(outputDir, `axe-tuning-${theme}.png`) });
    }
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});

test(`axe-core: the Cache tab with its breaks, one picked, in the ${THEMES.join(', ')} themes`, async () => {
  const lens = await openLens('breaks.jsonl', readFileSync(join(repoRoot, BREAKS)), {
    theme: THEMES[0],
    width: 1400,
    height: 900,
  });
  try {
    await waitForSeq(lens.page, 0);
    await lens.page.getByRole('tab', { name: 'Cache' }).click();
    await lens.page.getByTestId('cache-breaks').waitFor();
    await lens.page.getByTestId('cache-break').first().getByRole('button').click();
    await lens.page.getByTestId('cache-break-marker').waitFor();
    for (const theme of THEMES) {
      await setTheme(lens.page, theme);
      assert.deepEqual(await axeFindings(lens.page), [], `${theme}: Cache tab`);
      await lens.page.screenshot({ path: join(outputDir, `axe-cache-${theme}.png`) });
    }
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});

test('keyboard: skip to the list, tab order header → list → details → ladder → controls, "?" shows the map', async () => {
  const lens = await openLens('coverage-test-fix.jsonl', bytes, { width: 1400, height: 900 });
  try {
    await waitForSeq(lens.page, 0);
    const { page } = lens;
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        const region = el?.closest('.topbar, .list-pane, .side-panel, .ladder-pane, .controls-panel');
        return {
          testId: el?.getAttribute('data-testid') ?? el?.getAttribute('role') ?? el?.tagName,
          region: region?.className.split(' ')[0] ?? 'none',
        };
      });
    // The first Tab stop is the skip button; it puts focus on the list.
    await page.keyboard.press('Tab');
    assert.match(
      (await page.evaluate(() => document.activeElement?.textContent)) ?? '',
      /Skip to the message list/,
    );
    await page.keyboard.press('Enter');
    assert.equal((await focused()).testId, 'message-list');
    // From the top, Tab visits the regions in order and never leaves the page.
    await page.getByTestId('controls-toggle').focus();
    const regions: string[] = ['topbar'];
    for (let i = 0; i < 60; i++) {
      await page.keyboard.press('Tab');
      const f = await focused();
      assert.notEqual(f.testId, 'BODY', `focus fell to the page after ${regions.join(' → ')}`);
      if (regions.at(-1) !== f.region) regions.push(f.region);
      if (f.region === 'controls-panel') break;
    }
    assert.deepEqual(
      regions.filter((r) => r !== 'none'),
      ['topbar', 'list-pane', 'side-panel', 'ladder-pane', 'controls-panel'],
    );
    // A tab switch by the keyboard keeps focus on the tabs.
    await page.getByRole('tab', { name: 'Details' }).focus();
    await page.keyboard.press('ArrowRight');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Requests');
    // "?" opens the keyboard map; Escape closes it and focus comes back.
    await page.getByTestId('message-list').focus();
    await page.keyboard.press('?');
    const map = page.getByTestId('keyboard-map');
    await map.waitFor();
    assert.match((await map.textContent()) ?? '', /focus the message list/);
    await page.keyboard.press('Escape');
    await map.waitFor({ state: 'detached' });
    assert.equal((await focused()).testId, 'message-list');
    // C closes and opens the controls panel.
    await page.keyboard.press('c');
    await page.getByTestId('controls-panel').waitFor({ state: 'hidden' });
    assert.equal(await page.getByTestId('controls-toggle').getAttribute('aria-expanded'), 'false');
    assert.deepEqual(lens.host.layout, { controlsOpen: false, split: 0.55, bookkeeping: false });
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});
