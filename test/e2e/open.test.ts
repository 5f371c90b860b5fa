// End-to-end: a large session opens to the whole file (on its beginning first when the view starts before the parse
// ends), in the real editor (code-server driven by headless Debian Chromium, the extension loaded from source). Not
// timed: the order of the figures is checked (estimated, then exact), and that what stays on screen is the whole
// file's. Screenshots go to test-output/e2e/editor-source/.
import assert from 'node:assert/strict';
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { repoRoot } from '../../scripts/lib/editor';
import { ensureGeneratedSample } from '../../scripts/lib/samples';
import { parseTranscript } from '../../src/core/formats';
import type { OpenProbe } from '../../webview/App';
import { eventually, lensFrame } from './expect';
import { EditorSession } from './session';

describe('opening a large session in the real editor', { timeout: 300_000 }, () => {
  let session: EditorSession;
  before(async () => {
    // An editor of its own: the view must meet the file's counts in no global storage yet (another suite may have
    // opened the same sample).
    session = await EditorSession.start('source', { ownEditor: true });
  });
  after(async () => {
    await session?.stop();
  });

  test('the list shows the whole file (its first megabyte before, when the view starts first); estimated figures, then exact ones', async () => {
    const { workbench } = session;
    // The 40 MB sample: its beginning is shown to a view that starts while the rest is parsed. Which comes first,
    // the view's start or the end of the parse (~1 s each here), is the machine's: a view that starts after the
    // parse is sent the whole list alone. That the beginning is answered at once while the parse runs is checked
    // in the host's own test ("a view that starts while a file's last parse holds the worker's thread…",
    // test/unit/host/remoteSession.test.ts); here, that the view ends on the whole file.
    const relative = 'large-session.jsonl';
    const path = join(session.workspace, relative);
    copyFileSync(ensureGeneratedSample(join(repoRoot, 'samples')), path);
    const whole = parseTranscript(readFileSync(path), path).messages.length;

    await workbench.step('large-open', async () => {
      await workbench.runCommand('Refresh Explorer');
      await workbench.openWith(relative, EditorSession.editorName());
    });
    const frame = await lensFrame(session, relative);
    const marks = await eventually(async () => {
      const m = await frame.evaluate(() => window.__contextLensOpen ?? ({} as OpenProbe));
      assert.ok(m.wholeListAt !== undefined && m.exactAt !== undefined, 'the whole list and exact figures');
      return m;
    }, 120_000);
    // Counting 40 MB for the first time takes seconds: an analysis with estimated counts came first.
    assert.ok(
      marks.analysisAt !== undefined && marks.analysisAt < marks.exactAt!,
      `a provisional analysis before the exact one: ${JSON.stringify(marks)}`,
    );
    await workbench.step('large-whole', async () => {
      await eventually(async () => {
        const summary = (await frame.locator('[data-testid="summary"]').textContent()) ?? '';
        assert.match(summary, new RegExp(`^${whole} messages`));
      });
      assert.equal(await frame.locator('[data-testid="beginning"]').count(), 0);
      assert.equal(await frame.locator('[data-testid="tokens-pending"]').count(), 0);
    });
    // The sample's compactions and recorded usage are as the provider records them: no flag, the earlier segments
    // collapsed, and the headline measured against what the log did.
    await workbench.step('large-requests', async () => {
      await eventually(async () => {
        const headline = (await frame.getByTestId('headline').textContent()) ?? '';
        assert.match(headline, /than "as logged"|the same as "as logged"|No policy/, headline);
      });
      await frame.getByRole('tab', { name: 'Requests' }).click();
      await frame.getByTestId('estimates').waitFor({ timeout: 60_000 });
      assert.equal(await frame.locator('[data-testid^="flag-"]').count(), 0);
      assert.ok(
        (await frame.locator('[data-testid="segment-row"]').count()) > 0,
        'earlier segments collapsed',
      );
    });
  });

  test('reopened, it shows the whole list and the exact figures it was left with at once, then parses the file again', async () => {
    const { workbench } = session;
    const relative = 'large-session.jsonl';
    const first = await lensFrame(session, relative);
    // The figures, without the time the analysis took.
    const summary = async (frame: typeof first) =>
      ((await frame.locator('[data-testid="summary"]').textContent()) ?? '').replace(/ · analysed in .*/, '');
    const shown = await summary(first);
    await workbench.runCommand('View: Close All Editors');
    // What the view was left with is kept in the extension's global storage.
    await eventually(async () => {
      const views = join(session.server.scratch, 'user-data', 'User', 'globalStorage');
      assert.ok(
        readdirSync(views, { recursive: true }).some((f) => String(f).endsWith('.view.json')),
        'a kept view',
      );
    });
    await workbench.step('large-reopen', async () => {
      await workbench.openWith(relative, EditorSession.editorName());
    });
    const frame = await lensFrame(session, relative);
    const marks = await eventually(async () => {
      const m = await frame.evaluate(() => window.__contextLensOpen ?? ({} as OpenProbe));
      assert.ok(m.exactAt !== undefined, 'exact figures');
      return m;
    }, 120_000);
    // No beginning, no estimate: the first list is the whole file's (marked in the same commit), the first analysis
    // the exact one.
    assert.ok(marks.wholeListAt! - marks.listAt! < 50, JSON.stringify(marks));
    // (Each mark is taken in its own callback of the same frame: a millisecond may pass between them.)
    assert.ok(marks.exactAt! - marks.analysisAt! < 50, JSON.stringify(marks));
    assert.equal(await summary(frame), shown);
    // Once parsed again, the view answers a change as before.
    await frame.locator('[data-testid="setting-keepRecent"]').press('ArrowUp');
    await eventually(async () => {
      const answered = await frame.evaluate(() => Number(document.body.dataset.analysisSeq ?? 0));
      assert.ok(answered > 0, 'the change answered');
    }, 60_000);
  });
});
