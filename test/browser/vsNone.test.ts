// The headline and the Requests tab in Debian's Chromium, with the stand-in host running the real engine: the
// policy against none (SPEC §5) in the words and figures simulate prints, and the comparison of every policy.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { analyzeSync } from '../../src/core/analysis';
import { parseTranscript } from '../../src/core/formats';
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
    assert.match(text, /tiered \(a pass before every request\) costs 14\.\d% more than none/);
    await lens.page.screenshot({
      path: join(outputDir, 'headline.png'),
      clip: { x: 0, y: 0, width: 1400, height: 120 },
    });

    await lens.page.getByRole('tab', { name: 'Requests' }).click();
    const rows = lens.page.getByTestId('totals-row');
    await lens.page.waitForFunction(
      () =>
        !document.querySelector('.totals .pending-cell') &&
        document.querySelectorAll('[data-testid="totals-row"]').length === 4,
    );
    assert.deepEqual(await rows.evaluateAll((rs) => rs.map((r) => r.getAttribute('data-policy'))), [
      'none',
      'tiered',
      'live-zone',
      'tiered+live-zone',
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

    // Switching policy keeps four rows, each once, the new one current.
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
    ]);
    assert.deepEqual(lens.problems, []);
  } finally {
    await lens.close();
  }
});
