// End-to-end: the Sessions view in the real editor (code-server driven by headless Debian Chromium, the extension
// from source) over a fake CLAUDE_CONFIG_DIR and CODEX_HOME: it lists every session under its project or day,
// fills in the figures (the same the engine computes for the policy the settings make), lists a session that
// appears meanwhile, and opens a session in Context Lens on click. Screenshots go to test-output/e2e/sessions-view/.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseTranscript } from '../../src/core/formats';
import { sessionFigures } from '../../src/core/history';
import { offeredPolicies, verdictSession } from '../../src/core/verdict';
import { defaultsFor } from '../../src/host/policySettings';
import { sessionVerdict, verdictFigure, verdictName } from '../../src/host/sessionsTree';
import { eventually } from './expect';
import { EditorSession } from './session';
import { screenshotRoot } from './workbench';

const REAL = join(import.meta.dirname, '..', 'fixtures', 'real');

describe('the Sessions view in the real editor', { timeout: 300_000 }, () => {
  let session: EditorSession;
  const home = mkdtempSync(join(tmpdir(), 'context-lens-sessions-view-'));
  const project = join(home, 'claude', 'projects', '-tmp-demo-app');
  const codexDay = join(home, 'codex', 'sessions', '2026', '01', '15');
  const saved = { claude: process.env.CLAUDE_CONFIG_DIR, codex: process.env.CODEX_HOME };
  before(async () => {
    mkdirSync(project, { recursive: true });
    mkdirSync(codexDay, { recursive: true });
    copyFileSync(
      join(REAL, 'claude-code', 'drmaciver-coverage-test-fix.jsonl'),
      join(project, 'coverage.jsonl'),
    );
    copyFileSync(
      join(REAL, 'codex', 'simonw-sample-codex-session-0.77.jsonl'),
      join(codexDay, 'rollout-a.jsonl'),
    );
    // The editor's extension host inherits the environment of the editor this process starts: an editor of the
    // suite's own, started with it.
    process.env.CLAUDE_CONFIG_DIR = join(home, 'claude');
    process.env.CODEX_HOME = join(home, 'codex');
    session = await EditorSession.start('source', { shots: 'sessions-view', ownEditor: true });
  });
  after(async () => {
    await session?.stop();
    for (const [k, v] of [
      ['CLAUDE_CONFIG_DIR', saved.claude],
      ['CODEX_HOME', saved.codex],
    ] as const)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    rmSync(home, { recursive: true, force: true });
  });

  test('lists the fake folders sessions by project and day, with their figures, and opens one on click', async () => {
    const { workbench } = session;
    const { page } = workbench;
    const rows = page.locator('[id="workbench.view.extension.contextLens"] .monaco-list-row');
    const row = (text: string) => rows.filter({ hasText: text }).first();
    await workbench.step('sessions-listed', async () => {
      // Right after the editor starts, under load, the palette may be opened before the extension's views are
      // registered: opened again until the command is there.
      await eventually(() => workbench.runCommand('Context Lens: Focus on Sessions View'), 150_000);
      await row('Claude Code').waitFor({ timeout: 60_000 });
      await row('Codex').waitFor();
      // The project is the working directory the log records.
      await row('/tmp/tmpw6sk2trg').click();
      await row('2026-01-15').click();
      await row('Add a function called multiply_numbers').waitFor();
    });

    // The verdict shown is the engine's: every strategy the session is offered under the default settings, ranked
    // against the baseline, as the view's worker replays them.
    const file = join(project, 'coverage.jsonl');
    const t = parseTranscript(readFileSync(file), file);
    const policy = defaultsFor(t);
    const { provider } = verdictSession(t, policy, undefined);
    const others = offeredPolicies(provider).filter((name) => name !== policy.name);
    const figures = sessionFigures(t, [policy, ...others.map((name) => ({ ...policy, name }))], {
      path: file,
      project: '',
      firstPrompt: '',
      bytes: 0,
      modified: new Date(),
      inForce: policy.name,
    });
    const verdict = sessionVerdict(figures);
    assert.ok(verdict);
    const figure = verdictFigure(verdict);
    const expected = verdictName(verdict);
    await workbench.step('sessions-figures', async () => {
      // A wider side bar, so that the rows' figures show whole in the screenshot.
      const bar = await page.locator('.part.sidebar').boundingBox();
      if (bar) {
        await page.mouse.move(bar.x + bar.width + 1, bar.y + 200);
        await page.mouse.down();
        await page.mouse.move(bar.x + 760, bar.y + 200, { steps: 5 });
        await page.mouse.up();
      }
      await eventually(async () => {
        const text = (await row('Add a function called multiply_numbers').textContent()) ?? '';
        assert.ok(text.includes(expected), `${text} holds ${expected}`);
        assert.match(text, /\d+ req · \$0\.\d{4}/);
        // The verdict's figure leads the row: the part a narrow side bar still shows.
        assert.ok(text.includes(`${figure}  Add a function`), text);
      });
    });

    await workbench.step('sessions-grown', async () => {
      // A session that appears is listed a moment later.
      const later = join(project, 'hello.jsonl');
      copyFileSync(join(REAL, 'claude-code', 'drmaciver-hello-world-script.jsonl'), later);
      utimesSync(later, new Date(), new Date());
      // It ran in another working directory: a project of its own. Under load the tree may be refreshed between
      // the click that opens the project and its sessions' arrival: opened again until they are there.
      await row('/tmp/tmp74wiyiny').waitFor({ timeout: 60_000 });
      await eventually(async () => {
        const session = row('Write a shell script called hello.sh');
        if (!(await session.isVisible())) await row('/tmp/tmp74wiyiny').click();
        await session.waitFor({ timeout: 10_000 });
      }, 120_000);
      // The view alone, as README's picture (media/sessions-view.png is a copy of it).
      await eventually(async () =>
        assert.doesNotMatch((await row('/tmp/tmp74wiyiny').textContent()) ?? '', /…/),
      );
      await page.screenshot({
        path: join(screenshotRoot, 'sessions-view', 'sessions-view.png'),
        clip: { x: 0, y: 34, width: 830, height: 230 },
      });
    });

    await workbench.step('sessions-open', async () => {
      // A click while the tree is being relisted (the session added above) can land on a row being replaced:
      // clicked again until the session opens.
      await eventually(async () => {
        await row('Add a function called multiply_numbers').click();
        await workbench.webview().locator('[data-testid="summary"]').waitFor({ timeout: 15_000 });
      }, 90_000);
      await page.locator('.tabs-container .tab.active', { hasText: 'coverage.jsonl' }).waitFor();
      assert.match((await workbench.webview().locator('h1').first().textContent()) ?? '', /multiply_numbers/);
    });
  });
});
