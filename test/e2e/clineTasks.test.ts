// End-to-end: a Cline task in the editor's own global storage (`<user dir>/globalStorage/saoudrizwan.claude-dev/
// tasks/<id>/`), as Cline lays it out, is listed in the Sessions view under its project with its figures, and opens
// in Context Lens on click. Screenshots go to test-output/e2e/cline-tasks/.
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { clineTask, writeTask } from '../agentTasks';
import { eventually } from './expect';
import { EditorSession } from './session';

describe('Cline tasks in the real editor', { timeout: 300_000 }, () => {
  let session: EditorSession;
  /** Cline's folder in the editor's global storage: only what this suite puts there (no Cline runs here). */
  let cline: string;
  before(async () => {
    session = await EditorSession.start('source', { shots: 'cline-tasks' });
    // The editor's user folder holds its settings file and its extensions' global storage. The task is there
    // before the Sessions view is first shown, which lists the agents' sessions then.
    cline = join(dirname(session.server.userSettingsPath), 'globalStorage', 'saoudrizwan.claude-dev');
    writeTask(join(cline, 'tasks', '1770000000000'), clineTask());
  });
  after(async () => {
    // Left as found for the suites after this one in the same window: the explorer in the side bar, no task.
    await session?.workbench.runCommand('View: Show Explorer').catch(() => {});
    if (cline) rmSync(cline, { recursive: true, force: true });
    await session?.stop();
  });

  test('lists the task under its project, with its figures, and opens it on click', async () => {
    const { workbench } = session;
    const { page } = workbench;
    const rows = page.locator('[id="workbench.view.extension.contextLens"] .monaco-list-row');
    const row = (text: string) => rows.filter({ hasText: text }).first();
    await workbench.step('cline-listed', async () => {
      await eventually(() => workbench.runCommand('Context Lens: Focus on Sessions View'), 150_000);
      await row('Cline, Roo Code, Kilo Code').waitFor({ timeout: 60_000 });
      // The project is the working directory the task's first message names (shown shortened).
      await eventually(async () => {
        if (!(await row('fix the tests').isVisible())) await row('/u/proj').click();
        await row('fix the tests').waitFor({ timeout: 10_000 });
      }, 90_000);
      // Three requests, priced from the usage its ui_messages.json recorded.
      await eventually(async () => {
        const text = (await row('fix the tests').textContent()) ?? '';
        assert.match(text, /3 req · \$0\.\d{4}/);
      });
    });
    await workbench.step('cline-open', async () => {
      await eventually(async () => {
        await row('fix the tests').click();
        await workbench.webview().locator('[data-testid="summary"]').waitFor({ timeout: 15_000 });
      }, 90_000);
      await page
        .locator('.tabs-container .tab.active', { hasText: 'api_conversation_history.json' })
        .waitFor();
      assert.match((await workbench.webview().locator('h1').first().textContent()) ?? '', /fix the tests/);
    });
  });
});
