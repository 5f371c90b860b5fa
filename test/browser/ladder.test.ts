// The ladder in Chromium, driven with the pointer and the keyboard: edges follow the pointer to the distance under
// it (the axis holds still during a drag), no two texts of the figure overlap at any width, and strokes are
// linked to the list both ways.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { generateClaudeCodeSession } from '../bench/generate';
import {
  closeBrowser,
  launch,
  openLens,
  outputDir,
  repoRoot,
  twoFrames,
  waitForChange,
  waitForSeq,
} from './harness';

const FIXTURE = 'test/fixtures/real/claude-code/drmaciver-coverage-test-fix.jsonl';
const bytes = readFileSync(join(repoRoot, FIXTURE));

before(launch);
after(closeBrowser);

/** The x (page pixels) of an edge's line. */
async function edgeX(page: Page, key: string): Promise<number> {
  const box = await page.getByTestId(`ladder-edge-${key}`).locator('line').boundingBox();
  assert.ok(box, `${key} edge`);
  return box.x + box.width / 2;
}

/** How far the pointer moves at each step of a drag: a few pixels, as a hand moves it (a distance step is ~30 px). */
const DRAG_STEP_PX = 3;

/**
 * Drags an edge step by step until the value shown beside the pointer reads `target`, checking at every step
 * that the edge is under the pointer; releases there.
 */
async function dragEdgeTo(page: Page, key: string, target: number, direction: 1 | -1): Promise<number[]> {
  const grip = await page.getByTestId(`ladder-edge-${key}`).locator('rect').boundingBox();
  assert.ok(grip);
  const y = grip.y + grip.height / 2;
  let x = grip.x + grip.width / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  const misses: number[] = [];
  for (let i = 0; i < 400; i++) {
    x += direction * DRAG_STEP_PX;
    await page.mouse.move(x, y);
    const shown = await page.locator('[data-label="drag-value"]').textContent();
    // The edge is drawn at the value under the pointer: within half a distance step of it, never far away.
    misses.push(Math.abs((await edgeX(page, key)) - x));
    if (shown === `${key} ${target}`) break;
  }
  await page.mouse.up();
  return misses;
}

test('dragging an edge sets the distance under the pointer: keepRecent to 5, tier1Distance to 15', async () => {
  const lens = await openLens('coverage-test-fix.jsonl', bytes, { width: 1400 });
  try {
    await waitForSeq(lens.page, 0);
    const kr = await dragEdgeTo(lens.page, 'keepRecent', 5, 1);
    const edge = lens.page.getByTestId('ladder-edge-keepRecent');
    assert.equal(await edge.getAttribute('aria-valuenow'), '5');
    await lens.page.waitForFunction(() => document.querySelector('[data-label="drag-value"]') === null);
    const saved = () => lens.host.saved.filter((s) => s.key === 'tiered.keepRecent').at(-1)?.value;
    for (let i = 0; i < 50 && saved() !== 5; i++) await lens.page.waitForTimeout(100);
    assert.equal(saved(), 5);
    // tier1Distance: the axis used to rescale with it during the drag, so the edge ran away from the pointer.
    const t1 = await dragEdgeTo(lens.page, 'tier1Distance', 15, 1);
    assert.equal(
      await lens.page.getByTestId('ladder-edge-tier1Distance').getAttribute('aria-valuenow'),
      '15',
    );
    const savedT1 = () => lens.host.saved.filter((s) => s.key === 'tiered.tier1Distance').at(-1)?.value;
    for (let i = 0; i < 50 && savedT1() !== 15; i++) await lens.page.waitForTimeout(100);
    assert.equal(savedT1(), 15);
    // Every step: the edge within a distance step of the pointer (no result of this session is at Tier 1, so the
    // axis ends just past tier1Distance and a step near keepRecent is about 30 px at 1400 px).
    assert.ok(Math.max(...kr, ...t1) < 35, `edge-pointer gaps ${Math.max(...kr)} / ${Math.max(...t1)} px`);
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});

/** Bounding boxes of every text the ladder shows, and the pairs that overlap. */
async function overlaps(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const boxes = [...document.querySelectorAll('.ladder-svg text[data-label]')].map((t) => {
      const r = t.getBoundingClientRect();
      return { id: `${t.getAttribute('data-label')} "${t.textContent}"`, r };
    });
    const out: string[] = [];
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const a = boxes[i].r;
        const b = boxes[j].r;
        if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
          out.push(`${boxes[i].id} × ${boxes[j].id}`);
      }
    return out;
  });
}

test('no two ladder labels overlap at 600, 1024 and 1400 px, with the edges far apart or close together', async () => {
  for (const width of [600, 1024, 1400]) {
    const lens = await openLens('coverage-test-fix.jsonl', bytes, { width, height: 800 });
    try {
      await waitForSeq(lens.page, 0);
      await lens.page.waitForTimeout(100);
      const labels = await lens.page.locator('.ladder-svg text[data-label]').count();
      assert.ok(labels >= 6, `${labels} labels at ${width} px`);
      assert.deepEqual(await overlaps(lens.page), [], `overlaps at ${width} px, defaults`);
      // Where there is room, a band keeps its full figures (the shorter forms are for narrow bands).
      if (width === 1400)
        assert.match(
          (await lens.page.locator('[data-label="band-stats-2"]').textContent()) ?? '',
          /^\d+ · .+ saved$/,
        );
      // Edges one apart: their labels must still not collide.
      const edge = lens.page.getByTestId('ladder-edge-tier1Distance');
      await edge.focus();
      for (let v = 19; v >= 9; v--) await lens.page.keyboard.press('ArrowRight');
      await lens.page.waitForFunction(
        () =>
          document
            .querySelector('[data-testid="ladder-edge-tier1Distance"]')
            ?.getAttribute('aria-valuenow') === '9',
      );
      await lens.page.waitForTimeout(100);
      assert.deepEqual(await overlaps(lens.page), [], `overlaps at ${width} px, edges at 8 and 9`);
      await lens.page.getByTestId('ladder').screenshot({ path: join(outputDir, `ladder-${width}.png`) });
      assert.deepEqual(lens.problems, []);
    } finally {
      await lens.close();
    }
  }
});

test('no two ladder labels overlap on a long generated session at 600 and 1400 px', async () => {
  const long = new TextEncoder().encode(generateClaudeCodeSession(1_500_000, 7, { compactEvery: 0 }));
  // One view of the session, opened at 600 px and widened to 1400 as a user widens the panel: the session is
  // parsed and analysed once. At each width the ladder is laid out anew for its own width before it is looked at.
  const lens = await openLens('long-session.jsonl', long, { width: 600, height: 800 });
  try {
    await waitForSeq(lens.page, 0, 120_000);
    const results = lens.host.session.analysis?.messages.filter((m) => m.distance !== null).length ?? 0;
    assert.ok(results > 50, `${results} tool results`);
    for (const width of [600, 1400]) {
      await lens.page.setViewportSize({ width, height: 800 });
      await lens.page.waitForFunction((w) => {
        const svg = document.querySelector<SVGSVGElement>('.ladder-svg');
        const drawn = svg?.getBoundingClientRect().width ?? 0;
        return svg && drawn <= w && Math.abs(svg.viewBox.baseVal.width - drawn) < 1;
      }, width);
      await twoFrames(lens.page);
      assert.deepEqual(await overlaps(lens.page), [], `overlaps at ${width} px`);
      await lens.page.getByTestId('ladder').screenshot({ path: join(outputDir, `ladder-long-${width}.png`) });
    }
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});

test('a stroke names its message and tool on hover and selects its row on click; the selected row marks its stroke', async () => {
  const lens = await openLens('coverage-test-fix.jsonl', bytes, { width: 1400 });
  try {
    await waitForSeq(lens.page, 0);
    const analysis = lens.host.session.analysis;
    assert.ok(analysis);
    const target = analysis.messages.find((m) => m.tier === 2);
    assert.ok(target, 'a Tier-2 result');
    // Select its row in the list: the ladder marks its stroke.
    await lens.page.locator(`[data-testid="message-row"][data-index="${target.index}"]`).click();
    const mark = lens.page.getByTestId('ladder-selected');
    await mark.waitFor();
    assert.equal(await mark.getAttribute('data-index'), String(target.index));
    const box = await mark.boundingBox();
    assert.ok(box);
    // Hover the stroke: its message, tool and tier; click another stroke: its row is selected.
    await lens.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const tip = lens.page.getByTestId('ladder-tip');
    await tip.waitFor();
    const text = (await tip.textContent()) ?? '';
    assert.match(text, new RegExp(`^#${target.index} ${target.toolNames[0]}.*Tier 2`));
    const other = analysis.messages.find((m) => m.tier === 3 && m.distance !== null);
    assert.ok(other);
    await lens.page.locator(`[data-testid="message-row"][data-index="${other.index}"]`).click();
    const otherBox = await mark.boundingBox();
    assert.ok(otherBox);
    await lens.page
      .locator(`[data-testid="message-row"][data-index="${target.index}"]`)
      .scrollIntoViewIfNeeded();
    await lens.page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await lens.page.waitForFunction(
      (i) =>
        document
          .querySelector(`[data-testid="message-row"][data-index="${i}"]`)
          ?.getAttribute('aria-selected') === 'true',
      target.index,
    );
    assert.match(
      (await lens.page.getByTestId('details').locator('h2').textContent()) ?? '',
      new RegExp(`#${target.index}\\b`),
    );
    // Legend and axis ticks are there.
    const legend = (await lens.page.locator('.ladder-legend').textContent()) ?? '';
    for (const words of ['tokens before', 'Tier 1 stub', 'Tier 2 cut', 'Tier 3 kept', 'floor tool'])
      assert.ok(legend.includes(words), `legend: ${words}`);
    assert.ok((await lens.page.locator('.ladder-svg .tick').count()) >= 4);
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});

test('under everyRequest a result that kept its first tier is drawn where that pass met it, with a note', async () => {
  const lens = await openLens('coverage-test-fix.jsonl', bytes, { width: 1400 });
  try {
    await waitForSeq(lens.page, 0);
    // keepRecent 2, tier1Distance 4: results pass through Tier 2 before reaching distance 4.
    for (const [key, value] of [
      ['keepRecent', '2'],
      ['tier1Distance', '4'],
    ] as const) {
      const field = lens.page.getByLabel(key, { exact: true });
      await field.fill(value);
      await field.press('Enter');
    }
    await lens.page.getByLabel('replay.trigger').click();
    await lens.page.locator('vscode-option', { hasText: 'every request' }).first().click();
    await lens.page.waitForFunction(
      () => document.querySelector('[data-testid="first-touch-note"]') !== null,
      null,
      {
        timeout: 30_000,
      },
    );
    const analysis = lens.host.session.analysis;
    assert.ok(analysis);
    const kept = analysis.messages.filter((m) => m.tier === 2 && !m.floored && (m.distance ?? 0) >= 4);
    assert.ok(kept.length > 0, 'some results kept Tier 2 past tier1Distance');
    const note = (await lens.page.getByTestId('first-touch-note').textContent()) ?? '';
    assert.match(note, new RegExp(`first touch: ${kept.length} results? keeps? the Tier 2`));
    // Selected, such a result's stroke stands in the Tier 2 band (where the pass that classified it met it), not
    // at its distance now.
    await lens.page.locator(`[data-testid="message-row"][data-index="${kept[0].index}"]`).click();
    const mark = await lens.page.getByTestId('ladder-selected').boundingBox();
    const band2 = await lens.page.getByTestId('ladder-band-2').locator('rect').boundingBox();
    assert.ok(mark && band2);
    const cx = mark.x + mark.width / 2;
    assert.ok(
      cx >= band2.x && cx <= band2.x + band2.width,
      `stroke at ${cx}, Tier 2 band ${band2.x}–${band2.x + band2.width}`,
    );
    await lens.page.getByTestId('ladder').screenshot({ path: join(outputDir, 'ladder-first-touch.png') });
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});

test('keys pressed quickly on an edge all count: the host answering an older change does not undo a newer one', async () => {
  const lens = await openLens('coverage-test-fix.jsonl', bytes, { width: 1024 });
  try {
    await waitForSeq(lens.page, 0);
    // A host slower than the keys: each answer arrives after the next few presses.
    lens.host.answerDelayMs = 40;
    const edge = lens.page.getByTestId('ladder-edge-tier1Distance');
    await edge.focus();
    for (let i = 0; i < 11; i++) await lens.page.keyboard.press('ArrowRight', { delay: 10 });
    await lens.page.waitForFunction(
      () =>
        document.querySelector('[data-testid="ladder-edge-tier1Distance"]')?.getAttribute('aria-valuenow') ===
        '9',
    );
    const last = lens.host.received.filter((m) => m.type === 'updateSettings').length;
    assert.equal(last, 11, 'one change per key');
    await waitForChange(lens, last);
    assert.equal(lens.host.settings.policy.tiered.tier1Distance, 9);
    assert.equal(await edge.getAttribute('aria-valuenow'), '9');
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});
