// End-to-end: the sessions of the agents that run inside the editor, laid out as they lay them out in the editor's own
// storage, are listed in the Sessions view under their projects with their figures, and open in Context Lens on
// click: a Cline task (`<user dir>/globalStorage/saoudrizwan.claude-dev/tasks/<id>/`) and a GitHub Copilot Chat
// session (`<user dir>/workspaceStorage/<workspace>/chatSessions/<id>.jsonl`). Screenshots go to
// test-output/e2e/editor-agents/.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { clineTask, writeTask } from '../agentTasks';
import { chatLog } from '../copilotChatSession';
import { eventually } from './expect';
import { EditorSession } from './session';

/** A real session of Cline's SDK (test/fixtures/real/PROVENANCE.md). */
const CLINE_SESSION = join(
  import.meta.dirname,
  '..',
  'fixtures',
  'real',
  'cline-session',
  'cline-sdk-fixture-session.messages.json',
);

describe("the editor's agents' sessions in the real editor", { timeout: 300_000 }, () => {
  let session: EditorSession;
  /** What this suite puts in the editor's storage (no agent runs here): Cline's folder and a workspace's. */
  let cline: string;
  let workspace: string;
  /** Cline's data folder in the editor's home (its SDK's sessions). */
  let clineData: string;
  let clineFile: string;
  before(async () => {
    session = await EditorSession.start('source', { shots: 'editor-agents' });
    // The editor's user folder holds its settings file and its extensions' storage. The sessions are there before
    // the Sessions view is first shown, which lists the agents' sessions then.
    const user = dirname(session.server.userSettingsPath);
    clineData = join(session.server.scratch, 'home', '.cline', 'data');
    const { sessionId } = JSON.parse(readFileSync(CLINE_SESSION, 'utf8')) as { sessionId: string };
    clineFile = join(clineData, 'sessions', sessionId, `${sessionId}.messages.json`);
    mkdirSync(dirname(clineFile), { recursive: true });
    copyFileSync(CLINE_SESSION, clineFile);
    // Its manifest beside it names the working directory: the session's project.
    writeFileSync(
      clineFile.replace(/\.messages\.json$/, '.json'),
      JSON.stringify({ version: 1, session_id: sessionId, cwd: '/Users/example/dev/cline' }),
    );
    cline = join(user, 'globalStorage', 'saoudrizwan.claude-dev');
    writeTask(join(cline, 'tasks', '1770000000000'), clineTask());
    workspace = join(user, 'workspaceStorage', 'context-lens-e2e-chat');
    mkdirSync(join(workspace, 'chatSessions'), { recursive: true });
    writeFileSync(join(workspace, 'workspace.json'), JSON.stringify({ folder: 'file:///home/u/chatproj' }));
    writeFileSync(
      join(workspace, 'chatSessions', '5d1c2d8e-chat.jsonl'),
      `${chatLog()
        .map((r) => JSON.stringify(r))
        .join('\n')}\n`,
    );
  });
  after(async () => {
    // Left as found for the suites after this one in the same window: the explorer in the side bar, no session.
    await session?.workbench.runCommand('View: Show Explorer').catch(() => {});
    for (const dir of [cline, workspace, clineData]) if (dir) rmSync(dir, { recursive: true, force: true });
    await session?.stop();
  });

  const rows = () =>
    session.workbench.page.locator('[id="workbench.view.extension.contextLens"] .monaco-list-row');
  const row = (text: string | RegExp) => rows().filter({ hasText: text }).first();

  /** Shows the session `title` of `agent` under `project`, checks its row's figures, and opens it. */
  async function listedAndOpened(
    name: string,
    agent: string | RegExp,
    project: string,
    title: string,
    figures: RegExp,
    tab: string,
  ) {
    const { workbench } = session;
    await workbench.step(`${name}-listed`, async () => {
      await eventually(() => workbench.runCommand('Context Lens: Focus on Sessions View'), 150_000);
      await row(agent).waitFor({ timeout: 60_000 });
      await eventually(async () => {
        if (!(await row(title).isVisible())) {
          if (!(await row(project).isVisible())) await row(agent).click();
          await row(project).click();
        }
        await row(title).waitFor({ timeout: 10_000 });
      }, 90_000);
      await eventually(async () => assert.match((await row(title).textContent()) ?? '', figures));
    });
    await workbench.step(`${name}-open`, async () => {
      await eventually(async () => {
        await row(title).click();
        await workbench.webview().locator('[data-testid="summary"]').waitFor({ timeout: 15_000 });
      }, 90_000);
      await workbench.page.locator('.tabs-container .tab.active', { hasText: tab }).waitFor();
      assert.ok(((await workbench.webview().locator('h1').first().textContent()) ?? '').includes(title));
    });
  }

  test('a Cline task: under its project, three requests priced from the usage it recorded, opened on click', async () => {
    // The project is the working directory the task's first message names (shown shortened).
    await listedAndOpened(
      'cline',
      'Cline, Roo Code, Kilo Code',
      '/u/proj',
      'fix the tests',
      /3 req · \$0\.\d{4}/,
      'api_conversation_history.json',
    );
  });

  test("a Cline session of its SDK (~/.cline/data/sessions): under its manifest's folder, opened on click", async () => {
    await listedAndOpened(
      'cline-sdk',
      /^Cline(?!,)/,
      '/dev/cline',
      'can you update @apps/examples',
      /16 req · \$\d+\.\d{4}/,
      basename(clineFile),
    );
  });

  test("a Copilot Chat session: under its workspace's folder, its model calls, opened on click", async () => {
    await listedAndOpened(
      'copilot',
      'GitHub Copilot Chat',
      '/u/chatproj',
      'why does the build fail?',
      /3 req/,
      '5d1c2d8e-chat.jsonl',
    );
  });
});
