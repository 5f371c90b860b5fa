// The headline and the Requests tab in Debian's Chromium, with the stand-in host running the real engine: the
// policy against none (SPEC §5) in the words and figures simulate prints, and the comparison of every policy.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { analyzeSync } from '../../src/core/analysis';
import { parseTranscript } from '../../src/core/formats';
import { findMessages } from '../../src/core/search';
import { nonePolicy, oncePolicy, paybackOf, vsNoneSync } from '../../src/core/vsNone';
import { defaultsFor } from '../../src/host/policySettings';
import { costWords, paybackWords } from '../../src/vsNoneWords';
import { closeBrowser, launch, openLens, outputDir, repoRoot, waitForSeq } from './harness';

const FIXTURE = 'test/fixtures/real/claude-code/drmaciver-coverage-test-fix.jsonl';
const bytes = readFileSync(join(repoRoot, FIXTURE));

before(async () => {
  mkdirSync(outputDir, { recursive: true });
  await launch();
});
after(closeBrowser);

test('the header says what tiered costs against none, and the Requests tab compares every policy with none', async () => {
  const transcript = parseTranscript(bytes, FIXTURE);
  const policy = defaultsFor(transcript);
  const v = vsNoneSync(transcript, policy, analyzeSync(transcript, policy).analysis)!;
  const lens = await openLens('coverage-test-fix.jsonl', bytes);
  try {
    await waitForSeq(lens.page, 0);
    const headline = lens.page.getByTestId('headline');
    const text = (await headline.textContent()) ?? '';
    assert.ok(text.includes(costWords(v)), text);
    assert.match(text, /tiered \(a pass before every request\) costs 14\.\d% more than "as logged"/);
    await lens.page.screenshot({
      path: join(outputDir, 'headline.png'),
      clip: { x: 0, y: 0, width: 1400, height: 120 },
    });

    await lens.page.getByRole('tab', { name: 'Requests' }).click();
    const rows = lens.page.getByTestId('totals-row');
    await lens.page.waitForFunction(
      () =>
        !document.querySelector('.totals .pending-cell') &&
        document.querySelectorAll('[data-testid="totals-row"]').length === 8,
    );
    assert.deepEqual(await rows.evaluateAll((rs) => rs.map((r) => r.getAttribute('data-policy'))), [
      'none',
      'tiered',
      'live-zone',
      'tiered+live-zone',
      'anthropic-context-editing',
      'compaction',
      'claude-code-microcompact',
      'anthropic-compaction',
    ]);
    assert.equal(
      await lens.page.locator('[data-testid="totals-row"][aria-current="true"]').getAttribute('data-policy'),
      'tiered',
    );
    // One pass now, against none: the figures of a once run, in the CLI's words.
    const now = analyzeSync(transcript, oncePolicy(policy)).analysis;
    const none = analyzeSync(transcript, nonePolicy(policy)).analysis;
    const words = paybackWords(paybackOf(now.requests, none.requests)!);
    await lens.page.waitForFunction(
      (w) => document.querySelector('[data-testid="compacted-now"]')?.textContent?.toLowerCase().includes(w),
      words.toLowerCase(),
    );
    await lens.page.screenshot({ path: join(outputDir, 'requests-vs-none.png') });

    // Switching policy keeps the rows of every strategy a Claude Code session can use, each once, the new one current.
    await lens.page.evaluate(() =>
      (window as unknown as { __contextLensToHost(m: unknown): void }).__contextLensToHost({
        type: 'updateSettings',
        seq: 1,
        changes: [{ key: 'policy', value: 'live-zone' }],
      }),
    );
    await waitForSeq(lens.page, 1);
    await lens.page.waitForFunction(
      () =>
        document
          .querySelector('[data-testid="totals-row"][aria-current="true"]')
          ?.getAttribute('data-policy') === 'live-zone' && !document.querySelector('.totals .pending-cell'),
    );
    assert.deepEqual(await rows.evaluateAll((rs) => rs.map((r) => r.getAttribute('data-policy'))), [
      'none',
      'tiered',
      'live-zone',
      'tiered+live-zone',
      'anthropic-context-editing',
      'compaction',
      'claude-code-microcompact',
      'anthropic-compaction',
    ]);
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});

test('Details says why a floored block is Tier 2, and the row tooltip says it in one line', async () => {
  const lens = await openLens('coverage-test-fix.jsonl', bytes);
  try {
    await waitForSeq(lens.page, 0);
    // Message 4 of the fixture: two Read results, first met at distance 8 (keepRecent) by the replay.
    const row = lens.page.locator('[data-testid="message-row"][data-index="4"]');
    const title = (await row.getAttribute('title')) ?? '';
    assert.match(
      title,
      /^keepRecent 8 ≤ distance 8 < tier1Distance 20 → Tier 2: rewritten, \d+ → \d+ tokens \(first met in request \d+\)/,
    );
    await row.click();
    const why = lens.page.getByTestId('why-line');
    await why.first().waitFor();
    const lines = await why.allTextContents();
    assert.match(
      lines[0],
      /^keepRecent 8 ≤ distance 8 < tier1Distance 20 → Tier 2: head and tail, \d+ → \d+ chars; head and tail, \d+ → \d+ chars \(first met in request \d+\)$/,
    );
    assert.match(
      lines[1],
      /^first met at Tier 2 in request \d+ \(first touch\): kept at Tier 2, though its distance is now \d+$/,
    );
    // The README's picture: the details header and its why-lines.
    const top = await lens.page.getByTestId('details').boundingBox();
    const bottom = await lens.page.getByTestId('why').boundingBox();
    if (top && bottom)
      await lens.page.screenshot({
        path: join(outputDir, 'why-line.png'),
        clip: {
          x: top.x - 8,
          y: top.y - 8,
          width: top.width + 16,
          height: bottom.y + bottom.height - top.y + 16,
        },
      });
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});

test('filtering by tool shows only that tool, search finds text in results and arguments, Enter steps through matches', async () => {
  const transcript = parseTranscript(bytes, FIXTURE);
  const lens = await openLens('coverage-test-fix.jsonl', bytes);
  try {
    await waitForSeq(lens.page, 0);
    const shownIndices = () =>
      lens.page
        .locator('[data-testid="message-row"]')
        .evaluateAll((rs) => rs.map((r) => Number(r.getAttribute('data-index'))));
    const uses = (i: number, name: string) =>
      transcript.messages[i].blocks.some(
        (b) =>
          (b.type === 'tool_use' && b.name === name) ||
          (b.type === 'tool_result' &&
            transcript.messages.some((m) =>
              m.blocks.some((u) => u.type === 'tool_use' && u.id === b.toolUseId && u.name === name),
            )),
      );
    const withGlob = transcript.messages.map((_, i) => i).filter((i) => uses(i, 'Glob'));
    await lens.page.getByTestId('filter-tool').selectOption('Glob');
    await lens.page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid="message-row"]').length === n,
      withGlob.length,
    );
    assert.deepEqual(await shownIndices(), withGlob);
    assert.equal(
      await lens.page.getByTestId('filter-count').textContent(),
      `${withGlob.length} of ${transcript.messages.length}`,
    );
    await lens.page.getByTestId('filter-tool').selectOption('');

    // "multiply_numbers" is in the user's prompt, in Edit arguments and in tool results: the host searches them all.
    const hits = findMessages(transcript, 'multiply_numbers');
    assert.ok(hits.length > 3);
    const field = lens.page.getByTestId('filter-query');
    await field.fill('multiply_numbers');
    await lens.page.waitForFunction(
      (n) => document.querySelector('[data-testid="filter-count"]')?.textContent === `${n} of 28`,
      hits.length,
    );
    assert.deepEqual(await shownIndices(), hits);
    await field.press('Enter');
    await lens.page.waitForSelector(
      `[data-testid="message-row"][data-index="${hits[0]}"][aria-selected="true"]`,
    );
    await field.press('Enter');
    await lens.page.waitForSelector(
      `[data-testid="message-row"][data-index="${hits[1]}"][aria-selected="true"]`,
    );
    await field.press('Shift+Enter');
    await lens.page.waitForSelector(
      `[data-testid="message-row"][data-index="${hits[0]}"][aria-selected="true"]`,
    );
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});

test('a request beyond the model window is flagged where the requests are: the header and the Requests tab', async () => {
  const big = 'alpha beta gamma delta '.repeat(75_000);
  const body = {
    model: 'claude-sonnet-4-5',
    messages: [
      { role: 'user', content: 'Read the log.' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'cat log' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: big }] },
      { role: 'assistant', content: 'It is long.' },
      { role: 'user', content: 'Summarize it.' },
    ],
  };
  const lens = await openLens('huge.request.json', new TextEncoder().encode(JSON.stringify(body)));
  try {
    await waitForSeq(lens.page, 0, 120_000);
    const flag = lens.page.locator('.topbar [data-testid="flag-beyond-window"]');
    assert.match(
      (await flag.textContent()) ?? '',
      /1 request \(the first: request 2\) exceeds the 200,000-token context window/,
    );
    await lens.page.getByRole('tab', { name: 'Requests' }).click();
    await lens.page.locator('[data-testid="requests-chart"] [data-testid="flag-beyond-window"]').waitFor();
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});
