// End-to-end, in the real editor: on a real long session (six compactions, /model switches between opus and
// sonnet, 1-hour cache writes), the view's header under its defaults gives the figures `simulate` prints with no
// option: the same policy cost and the same session cost. The CLI once priced every request at one preset and
// said $19.79 where the view said $26.47. Screenshots go to test-output/e2e/defaults/.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { formatCost } from '../../webview/views/format';
import { REAL_LONG_DIR } from '../sharedFixtures';
import { cliArgs } from '../unit/cliProcess';
import { eventually } from './expect';
import { EditorSession } from './session';

const NAME = 'laf-us-05541cb5-six-compactions-v2.1.92.jsonl';
const SOURCE = join(REAL_LONG_DIR, 'claude-code', NAME);
const RELATIVE = `long/${NAME}`;

describe('the view and simulate agree on a real long session under the defaults', {
  timeout: 300_000,
  skip: existsSync(SOURCE) ? false : 'the shared real-long fixtures are not beside the repository',
}, () => {
  let session: EditorSession;
  before(async () => {
    session = await EditorSession.start('source', { shots: 'defaults' });
    mkdirSync(join(session.workspace, 'long'), { recursive: true });
    copyFileSync(SOURCE, join(session.workspace, RELATIVE));
  });
  after(async () => {
    await session?.stop();
  });

  test('the header’s policy cost and session cost are simulate’s, with no --model', async () => {
    const { workbench } = session;
    const path = join(session.workspace, RELATIVE);
    // The view's default policy is tiered, its model auto: simulate is given the policy and nothing else.
    const sim = spawnSync(process.execPath, [...cliArgs, 'simulate', path, '--policy', 'tiered', '--json'], {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    assert.equal(sim.status, 0, sim.stderr);
    const tiered = JSON.parse(sim.stdout).tiered;
    const cost = `cost ${formatCost(tiered.totals.cost)}`;
    const sessionCost = `the session cost ${formatCost(tiered.recorded.sessionCost)}`;
    const requests = tiered.requests.filter((r: { pending?: boolean }) => !r.pending).length;
    await workbench.step('header', async () => {
      await workbench.runCommand('Refresh Explorer');
      await eventually(async () => workbench.openWith(RELATIVE, EditorSession.editorName()));
      await eventually(async () => {
        const summary = workbench.webview().locator('[data-testid="summary"]');
        const text = (await summary.textContent({ timeout: 5000 })) ?? '';
        assert.ok(!text.includes('provisional'), text);
        // The policy's cost, then what it costs against none, signed.
        assert.ok(text.includes(`${cost} (`) || text.includes(`${cost} ·`), `${text} / simulate: ${cost}`);
        assert.ok(text.includes(sessionCost), `${text} / simulate: ${sessionCost}`);
        assert.ok(text.includes(`; ${requests} replayed)`), `${text} / simulate: ${requests} requests`);
      }, 180_000);
    });
  });
});
