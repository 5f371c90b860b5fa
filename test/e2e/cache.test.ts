// End-to-end, in the real editor: on a real long session (a model switch, expiries after pauses of hours), the
// Cache tab's totals by cause are those `context-lens cache --json` prints for the file, and a click on a break
// selects its message, marked in the list. Screenshots go to test-output/e2e/cache/.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { repoRoot } from '../../scripts/lib/editor';
import { REAL_LONG_DIR } from '../sharedFixtures';
import { eventually } from './expect';
import { EditorSession } from './session';

const NAME = 'hannibal-719f12f0-opus-4-8-to-opus-5-v2.1.220.jsonl';
const SOURCE = join(REAL_LONG_DIR, 'claude-code', NAME);
const RELATIVE = `long/${NAME}`;

interface Total {
  cause: string;
  breaks: number;
  cost: number;
}

describe('the Cache tab on a real long session', {
  timeout: 300_000,
  skip: existsSync(SOURCE) ? false : 'the shared real-long fixtures are not beside the repository',
}, () => {
  let session: EditorSession;
  before(async () => {
    session = await EditorSession.start('source', { shots: 'cache' });
    mkdirSync(join(session.workspace, 'long'), { recursive: true });
    copyFileSync(SOURCE, join(session.workspace, RELATIVE));
  });
  after(async () => {
    await session?.stop();
  });

  test('its totals by cause are those of `context-lens cache --json`, and a click selects a break', async () => {
    const { workbench } = session;
    const cli = spawnSync(
      process.execPath,
      [join(repoRoot, 'dist', 'cli.js'), 'cache', join(session.workspace, RELATIVE), '--json'],
      { encoding: 'utf8', maxBuffer: 1 << 28 },
    );
    assert.equal(cli.status, 0, cli.stderr);
    const log = JSON.parse(cli.stdout).log as {
      totals: Total[];
      breaks: { request: number; cause: string }[];
    };
    const expected = log.totals.filter((t) => t.breaks > 0);
    assert.ok(expected.length >= 2, cli.stdout);
    await workbench.step('cache-tab', async () => {
      await workbench.runCommand('Refresh Explorer');
      await eventually(async () => workbench.openWith(RELATIVE, EditorSession.editorName()));
      const view = workbench.webview();
      await eventually(
        async () => view.getByRole('tab', { name: 'Cache' }).click({ timeout: 5000 }),
        180_000,
      );
      await eventually(async () => {
        const rows = view.locator('[data-testid="cause-total"]');
        const shown: Total[] = [];
        for (const row of await rows.all())
          shown.push({
            cause: (await row.getAttribute('data-cause')) ?? '',
            breaks: Number(await row.getAttribute('data-breaks')),
            cost: Number(await row.getAttribute('data-cost')),
          });
        assert.deepEqual(
          shown,
          expected.map((t) => ({ cause: t.cause, breaks: t.breaks, cost: t.cost })),
        );
      }, 180_000);
      // What would have avoided them arrives once the host replayed both lifetimes; the step's screenshot then is
      // README's picture (media/cache-tab.png is a copy of 01-cache-tab.png).
      await view.getByTestId('avoided-ttl').waitFor({ timeout: 120_000 });
    });
    const switched = log.breaks.find((b) => b.cause === 'model-switch');
    assert.ok(switched, 'the log shows a model switch');
    await workbench.step('cache-break-picked', async () => {
      const view = workbench.webview();
      const row = view.locator(`[data-testid="cache-break"][data-request="${switched.request}"]`);
      await row.getByRole('button').click();
      await eventually(async () => {
        assert.equal(await row.getAttribute('class'), 'current');
        const marker = view.getByTestId('cache-break-marker');
        assert.match(
          (await marker.getAttribute('aria-label', { timeout: 5000 })) ?? '',
          new RegExp(`^Cache break at request ${switched.request} \\(model-switch\\)`),
        );
        const selected = view.locator('[data-testid="message-row"][aria-selected="true"]');
        assert.equal(await selected.locator('[data-testid="cache-break-marker"]').count(), 1);
      });
    });
  });
});
