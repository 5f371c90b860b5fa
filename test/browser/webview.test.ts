// The built webview in Debian's Chromium, driven like a user would, with a stand-in host that posts the real
// engine's analyses. Screenshots go to test-output/browser/.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { analyze } from '../../src/core/analysis';
import type { Policy } from '../../src/core/engine/policy';
import { parseTranscript } from '../../src/core/formats';
import { defaultsFor } from '../../src/host/policySettings';
import {
  closeBrowser,
  launch,
  listedTiers,
  openLens,
  outputDir,
  repoRoot,
  setTheme,
  twoFrames,
  waitForChange,
  waitForSeq,
} from './harness';

const FIXTURE = 'test/fixtures/real/claude-code/drmaciver-coverage-test-fix.jsonl';
const bytes = readFileSync(join(repoRoot, FIXTURE));

/** The tiers the engine computes for the fixture under the editor's defaults plus `change`. */
async function engineTiers(change: (p: Policy) => Policy = (p) => p): Promise<Map<number, string | null>> {
  const transcript = parseTranscript(bytes, FIXTURE);
  const { analysis } = await analyze(transcript, change(defaultsFor(transcript)));
  return new Map(analysis.messages.map((m) => [m.index, m.tier === null ? null : String(m.tier)]));
}

/** Waits (up to 10 s) for `done`, which names what is awaited. */
async function until(done: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    assert.ok(Date.now() < deadline, `waited 10 s for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

before(async () => {
  mkdirSync(outputDir, { recursive: true });
  await launch();
});
after(closeBrowser);

test('tier badges match the analysis of a real Claude Code session', async () => {
  const lens = await openLens('coverage-test-fix.jsonl', bytes);
  try {
    await waitForSeq(lens.page, 0);
    const expected = await engineTiers();
    assert.ok(
      [...expected.values()].some((t) => t === '2' || t === '1'),
      'the fixture must have compressed results',
    );
    assert.deepEqual(await listedTiers(lens.page), expected);
    await lens.page.screenshot({ path: join(outputDir, 'tiers-dark.png') });
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});

test('typing keepRecent re-analyses: the badges follow and the setting is saved', async () => {
  const lens = await openLens('coverage-test-fix.jsonl', bytes);
  try {
    await waitForSeq(lens.page, 0);
    const input = lens.page.getByLabel('keepRecent', { exact: true });
    assert.equal(await input.inputValue(), '8');
    await input.fill('2');
    await input.press('Enter');
    await waitForChange(lens, 1);
    const expected = await engineTiers((p) => ({ ...p, tiered: { ...p.tiered, keepRecent: 2 } }));
    assert.deepEqual(await listedTiers(lens.page), expected);
    assert.deepEqual(lens.host.saved, [{ key: 'tiered.keepRecent', value: 2 }]);
    assert.equal(await lens.page.getByTestId('ladder-edge-keepRecent').getAttribute('aria-valuenow'), '2');
    await lens.page.screenshot({ path: join(outputDir, 'keepRecent-2.png') });

    // A value below keepRecent stays in the field with the reason, and nothing is sent or saved.
    const t1 = lens.page.getByLabel('tier1Distance', { exact: true });
    await t1.fill('1');
    await t1.press('Enter');
    await lens.page.getByTestId('field-problem').waitFor();
    assert.match((await lens.page.getByTestId('field-problem').textContent()) ?? '', /keepRecent \(2\)/);
    assert.equal(await t1.inputValue(), '1');
    assert.equal(lens.host.settings.policy.tiered.tier1Distance, 20);
    assert.deepEqual(lens.host.saved, [{ key: 'tiered.keepRecent', value: 2 }]);
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});

test('typing "15" into tier1Distance with keepRecent 4 saves 15, never 205; a refused value is not saved and its message clears when fixed', async () => {
  const lens = await openLens('coverage-test-fix.jsonl', bytes, { width: 1400 });
  try {
    await waitForSeq(lens.page, 0);
    const keepRecent = lens.page.getByLabel('keepRecent', { exact: true });
    await keepRecent.fill('4');
    await keepRecent.press('Enter');
    await waitForChange(lens, 1);
    const field = lens.page.getByLabel('tier1Distance', { exact: true });
    // As a user types: select all, then the keys "1" and "5", then Enter.
    await field.click();
    await lens.page.keyboard.press('ControlOrMeta+A');
    await lens.page.keyboard.type('15', { delay: 50 });
    await lens.page.keyboard.press('Enter');
    await waitForChange(lens, 2);
    assert.deepEqual(lens.host.saved, [
      { key: 'tiered.keepRecent', value: 4 },
      { key: 'tiered.tier1Distance', value: 15 },
    ]);
    assert.equal(await field.inputValue(), '15');
    assert.equal(await lens.page.getByTestId('field-problem').count(), 0);
    assert.equal(await lens.page.getByTestId('settings-problem').count(), 0);

    // 3 is below keepRecent: kept in the field, marked, explained, not saved; Tab leaves the field without saving.
    await lens.page.keyboard.press('ControlOrMeta+A');
    await lens.page.keyboard.type('3');
    await lens.page.keyboard.press('Tab');
    const problem = lens.page.getByTestId('field-problem');
    await problem.waitFor();
    assert.match((await problem.textContent()) ?? '', /at least keepRecent \(4\).*4 or more/);
    assert.equal(await field.getAttribute('aria-invalid'), 'true');
    assert.equal(await field.inputValue(), '3');
    assert.equal(lens.host.saved.length, 2);
    // Fixed: the message goes as the valid value is typed, and Enter saves it.
    await field.click();
    await lens.page.keyboard.press('ControlOrMeta+A');
    await lens.page.keyboard.type('9');
    assert.equal(await problem.count(), 0);
    await lens.page.keyboard.press('Enter');
    await waitForChange(lens, 3);
    assert.deepEqual(lens.host.saved.at(-1), { key: 'tiered.tier1Distance', value: 9 });
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});

test('a step the host ran ahead is shown before the host answers it, and the host adopts it', async () => {
  const lens = await openLens('coverage-test-fix.jsonl', bytes);
  try {
    await waitForSeq(lens.page, 0);
    const input = lens.page.getByLabel('keepRecent', { exact: true });
    await input.focus();
    await input.press('ArrowUp');
    await waitForChange(lens, 1);
    // The step after it, in the same direction, is run ahead and offered to the view.
    await until(() => lens.host.offered.some((o) => o.analysis.policy.tiered.keepRecent === 10), 'the offer');
    const offer = lens.host.offered.find((o) => o.analysis.policy.tiered.keepRecent === 10)!;
    // Shown once the view has rendered it: a key pressed before would find no step ready.
    await lens.page.waitForFunction(
      (id) => (document.body.dataset.aheads ?? '').split(' ').includes(String(id)),
      offer.analysis.id,
    );
    // From now on the host answers nothing until the test lets it: only the offer can show the next step.
    let answer = () => {};
    lens.host.answersHeld = new Promise((r) => {
      answer = r;
    });
    await input.press('ArrowUp');
    await waitForChange(lens, 2);
    const expected = await engineTiers((p) => ({ ...p, tiered: { ...p.tiered, keepRecent: 10 } }));
    assert.deepEqual(await listedTiers(lens.page), expected);
    // The last change the view sent (the questions it asks after each analysis, the verdict's and the cache's, are
    // not changes).
    const change = lens.host.received.filter((m) => m.type === 'updateSettings').at(-1);
    assert.ok(change?.type === 'updateSettings' && change.holds !== undefined);
    // The host adopts it once it reads the change: the very analysis the view holds, no resync. (The change's
    // number is not 2 when the view asked the Cache tab's figures in between: they share the count.)
    answer();
    await until(() => lens.host.lastAnalysisMessage?.seq === change.seq, 'the host adopting it');
    assert.equal(lens.host.received.filter((m) => m.type === 'ready').length, 1);
    // And saves the step it adopted (the save follows the answer).
    await until(() => lens.host.saved.at(-1)?.value === 10, 'the step saved');
    assert.deepEqual(lens.host.saved.at(-1), { key: 'tiered.keepRecent', value: 10 });
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});

test('dragging the keepRecent edge of the ladder changes keepRecent and the badges', async () => {
  const lens = await openLens('coverage-test-fix.jsonl', bytes);
  try {
    await waitForSeq(lens.page, 0);
    const edge = lens.page.getByTestId('ladder-edge-keepRecent');
    const grip = edge.locator('rect');
    const box = await grip.boundingBox();
    assert.ok(box);
    const y = box.y + box.height / 2;
    await lens.page.mouse.move(box.x + box.width / 2, y);
    await lens.page.mouse.down();
    // Towards the newest message (right): smaller distances, so keepRecent shrinks.
    const band3 = await lens.page.getByTestId('ladder-band-3').locator('rect').boundingBox();
    assert.ok(band3);
    await lens.page.mouse.move(band3.x + band3.width * 0.75, y, { steps: 8 });
    await lens.page.mouse.up();
    const value = Number(await edge.getAttribute('aria-valuenow'));
    assert.ok(value < 8 && value >= 0, `keepRecent after the drag: ${value}`);
    await lens.page.waitForFunction(
      (v) =>
        (document.querySelector('[aria-label="keepRecent"]') as HTMLInputElement | null)?.value === String(v),
      value,
    );
    // The last change sent is the one the list shows.
    await waitForChange(lens, lens.host.received.filter((m) => m.type === 'updateSettings').length);
    const expected = await engineTiers((p) => ({ ...p, tiered: { ...p.tiered, keepRecent: value } }));
    assert.deepEqual(await listedTiers(lens.page), expected);

    // The keyboard moves the edge too: ArrowLeft = one more recent result kept.
    await edge.focus();
    await lens.page.keyboard.press('ArrowLeft');
    await lens.page.waitForFunction(
      (v) =>
        document.querySelector('[data-testid="ladder-edge-keepRecent"]')?.getAttribute('aria-valuenow') ===
        String(v),
      value + 1,
    );
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});

test('details: keyboard selection, original and compressed side by side, the paired call', async () => {
  const lens = await openLens('coverage-test-fix.jsonl', bytes);
  try {
    await waitForSeq(lens.page, 0);
    const analysis = lens.host.session.analysis;
    assert.ok(analysis);
    const target = analysis.messages.find((m) => m.rewritten);
    assert.ok(target, 'a rewritten message');
    await lens.page.getByTestId('message-list').focus();
    await lens.page.keyboard.press('Home');
    for (let i = 0; i < target.index; i++) await lens.page.keyboard.press('ArrowDown');
    const details = lens.page.getByTestId('details');
    await details.getByTestId('compressed-text').first().waitFor();
    assert.match((await details.locator('h2').textContent()) ?? '', new RegExp(`Message #${target.index}`));
    const compressed = (await details.getByTestId('compressed-text').first().textContent()) ?? '';
    assert.ok(compressed.length > 0);
    assert.match((await details.locator('.tool-args pre').first().textContent()) ?? '', /\{/);
    await lens.page.screenshot({ path: join(outputDir, 'details.png') });
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});

test('a transcript holding <script>, onerror images and javascript: links shows them as text and runs nothing', async () => {
  const evil = {
    model: 'claude-sonnet-4-20250514',
    max_tokens: 100,
    messages: [
      {
        role: 'user',
        content:
          '<script>window.__pwned="script"</script><img src=x onerror="window.__pwned=\'img\'"> <a href="javascript:window.__pwned=\'link\'">click</a> [md](javascript:alert(1))',
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: '<iframe src="javascript:alert(2)"></iframe>' },
          {
            type: 'tool_use',
            id: 'toolu_1',
            name: '<img src=x onerror=alert(3)>',
            input: { q: '<script>alert(4)</script>' },
          },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: `<svg onload="window.__pwned='svg'"></svg> javascript:alert(5) ${'x'.repeat(400)}`,
          },
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    ],
  };
  const lens = await openLens('evil.request.json', new TextEncoder().encode(JSON.stringify(evil)));
  try {
    await waitForSeq(lens.page, 0);
    const list = lens.page.getByTestId('message-list');
    assert.match(
      (await list.textContent()) ?? '',
      /<script>window\.__pwned="script"<\/script><img src=x onerror=/,
    );
    for (let i = 0; i < 3; i++) {
      await lens.page.locator(`[data-testid="message-row"][data-index="${i}"]`).click();
      await lens.page.getByTestId('details').waitFor();
      await lens.page.waitForFunction(
        (n) => document.querySelector('[data-testid="details"] h2')?.textContent?.includes(`#${n}`),
        i,
      );
    }
    // A handler the text would have carried runs as the page paints what it was given.
    await twoFrames(lens.page);
    assert.equal(await lens.page.evaluate(() => (window as { __pwned?: string }).__pwned), undefined);
    assert.equal(
      await lens.page.locator('#root img, #root iframe, #root svg[onload], #root a[href]').count(),
      0,
    );
    assert.match((await lens.page.getByTestId('details').textContent()) ?? '', /<svg onload=/);
    await lens.page.screenshot({ path: join(outputDir, 'xss-as-text.png') });
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});

test('light and high-contrast themes: colours come from the theme variables', async () => {
  // Opened in the light theme, then switched to high contrast as the editor switches themes in an open view.
  const lens = await openLens('coverage-test-fix.jsonl', bytes, { theme: 'light' });
  try {
    await waitForSeq(lens.page, 0);
    for (const theme of ['light', 'high-contrast'] as const) {
      await setTheme(lens.page, theme);
      const bg = await lens.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(bg, theme === 'light' ? 'rgb(255, 255, 255)' : 'rgb(0, 0, 0)');
      await lens.page.screenshot({ path: join(outputDir, `tiers-${theme}.png`) });
    }
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});

test('requests chart: bars per request, the policies side by side, the recorded usage beside them', async () => {
  const lens = await openLens('coverage-test-fix.jsonl', bytes);
  try {
    await waitForSeq(lens.page, 0);
    await lens.page.getByRole('tab', { name: 'Requests' }).click();
    const chart = lens.page.getByTestId('requests-chart');
    await chart.waitFor();
    const analysis = lens.host.session.analysis;
    assert.ok(analysis);
    assert.equal(await chart.locator('rect.bar-cached').count(), analysis.requests.length);
    const totals = chart.getByTestId('totals');
    // Shown, the chart asks for every policy the session can use under the current settings, side by side.
    await totals.locator('tbody th', { hasText: /^anthropic-compaction/ }).waitFor();
    const rowNames = await totals.locator('tbody th').allTextContents();
    // Always in one order, the current one marked, the strategies simulated from documentation marked.
    assert.deepEqual(rowNames.slice(0, 8), [
      'none',
      'tiered (current)',
      'live-zone',
      'tiered+live-zone',
      'anthropic-context-editing †',
      'compaction †',
      'claude-code-microcompact †',
      'anthropic-compaction †',
    ]);
    assert.match((await chart.getByTestId('simulated-note').textContent()) ?? '', /documented behaviour/);
    if (analysis.requests.some((r) => r.recorded)) assert.match(rowNames[8] ?? '', /^recorded/);
    await lens.page.screenshot({ path: join(outputDir, 'requests.png') });
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});

test('a session that grows on disk: the new messages appear, the selection stays', async () => {
  const lines = bytes.toString('utf8').trimEnd().split('\n');
  const firstHalf = Buffer.from(`${lines.slice(0, Math.floor(lines.length / 2)).join('\n')}\n`);
  const lens = await openLens('coverage-test-fix.jsonl', firstHalf);
  try {
    await waitForSeq(lens.page, 0);
    const before = (await listedTiers(lens.page)).size;
    await lens.page.locator('[data-testid="message-row"][data-index="2"]').click();
    await lens.page.getByTestId('details').waitFor();
    await lens.page.evaluate(() => {
      document.body.dataset.analysisSeq = '-1';
    });
    await lens.host.fileChanged(bytes);
    await waitForSeq(lens.page, 0);
    const after = await listedTiers(lens.page);
    assert.ok(after.size > before, `${before} → ${after.size} messages`);
    assert.deepEqual(after, await engineTiers());
    assert.equal(
      await lens.page.locator('[data-testid="message-row"][data-index="2"]').getAttribute('aria-selected'),
      'true',
    );
    assert.match((await lens.page.getByTestId('details').locator('h2').textContent()) ?? '', /Message #2/);
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});
