// The Tuning tab in Chromium at the editor's two sizes: the heatmap fits its pane (no cell cut off on the right,
// its rows reachable in the pane), and under the default trigger the view says why every tier1Distance column is
// the same and warns of a best cell on the grid's edge or near keepRecent 0.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { closeBrowser, launch, openLens, outputDir, repoRoot, twoFrames, waitForSeq } from './harness';

const FIXTURE = 'test/fixtures/real/claude-code/drmaciver-coverage-test-fix.jsonl';
const bytes = readFileSync(join(repoRoot, FIXTURE));

before(launch);
after(closeBrowser);

const SIZES = [
  [1400, 900],
  [1024, 700],
] as const;

test(`the heatmap fits its pane at ${SIZES.map(([w, h]) => `${w}×${h}`).join(' and ')}, and the view says what its figures do not`, async () => {
  // One view, resized as a user resizes the panel: the stand-in host runs the session's sweep once.
  const [[width0, height0]] = SIZES;
  const lens = await openLens('coverage-test-fix.jsonl', bytes, { width: width0, height: height0 });
  try {
    await waitForSeq(lens.page, 0);
    await lens.page.getByRole('tab', { name: 'Tuning' }).click();
    await lens.page.getByTestId('heatmap').waitFor();
    for (const [width, height] of SIZES) {
      await lens.page.setViewportSize({ width, height });
      // Laid out for this size: the pane ends inside the page.
      await lens.page.waitForFunction(
        ([w, h]) => {
          const pane = document.querySelector('.side-panel')?.getBoundingClientRect();
          return !!pane && pane.right <= w && pane.bottom <= h;
        },
        [width, height],
      );
      await twoFrames(lens.page);
      const paneBox = await lens.page.locator('.side-panel').boundingBox();
      const tableBox = await lens.page.getByTestId('heatmap').boundingBox();
      assert.ok(paneBox && tableBox);
      const box = {
        pane: { right: paneBox.x + paneBox.width, top: paneBox.y, bottom: paneBox.y + paneBox.height },
        table: { right: tableBox.x + tableBox.width },
      };
      await lens.page.screenshot({ path: join(outputDir, `tuning-${width}x${height}.png`) });
      assert.ok(
        box.table.right <= box.pane.right + 0.5,
        `the heatmap ends at ${box.table.right}, its pane at ${box.pane.right}`,
      );
      // Every row is reachable: scrolled into view, its cells lie inside the pane.
      const last = lens.page.locator('[data-testid="heatmap"] tbody tr').last();
      await last.scrollIntoViewIfNeeded();
      const lastBox = await last.boundingBox();
      assert.ok(lastBox && lastBox.y + lastBox.height <= box.pane.bottom + 0.5 && lastBox.y >= box.pane.top);
      // The default trigger replays every request: tier1Distance changes nothing, and the view says why.
      const advice = await lens.page.getByTestId('tuning-advice').innerText();
      assert.match(advice, /every tier1Distance value gives the same figures here: a pass at every request/);
    }
  } finally {
    await lens.close();
  }
});
