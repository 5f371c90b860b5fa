// End-to-end, in the real editor (code-server + Debian Chromium): the headline against none is the figure
// `simulate` prints; Details says why a block got its tier; filtering by tool shows only that tool; a crafted file
// whose requests exceed the model window is flagged. Screenshots go to test-output/e2e/costs/.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cliArgs } from '../unit/cliProcess';
import { eventually } from './expect';
import { EditorSession, workspaceFiles } from './session';

describe('the policy against none, why-lines, filters and flags in the real editor', {
  timeout: 300_000,
}, () => {
  let session: EditorSession;
  before(async () => {
    session = await EditorSession.start('source', { shots: 'costs' });
  });
  after(async () => {
    await session?.stop();
  });

  test('the header says what tiered costs against none, by the figure simulate prints', async () => {
    const { workbench } = session;
    const path = join(session.workspace, workspaceFiles.session);
    const sim = spawnSync(
      process.execPath,
      [...cliArgs, 'simulate', path, '--policy', 'none', '--policy', 'tiered'],
      { encoding: 'utf8' },
    );
    assert.equal(sim.status, 0, sim.stderr);
    const line = sim.stdout
      .split('\n')
      .find((l) => l.trimStart().startsWith('tiered') && l.includes('against'));
    const delta = /\(([+−]\$\d+\.\d{4})\)/.exec(line ?? '')?.[1];
    assert.ok(delta, sim.stdout);
    await workbench.step('headline', async () => {
      await workbench.openWith(workspaceFiles.session, EditorSession.editorName());
      await eventually(async () => {
        const text = (await workbench.webview().getByTestId('headline').textContent({ timeout: 5000 })) ?? '';
        assert.ok(text.includes(`(${delta})`), `${text} / simulate: ${line}`);
        assert.match(text, /^tiered \(a pass before every request\) costs/);
      });
    });
  });

  test('Details says why a block was first met at Tier 2 (first touch), and the row tooltip says it too', async () => {
    const { workbench } = session;
    await workbench.step('why-line', async () => {
      const row = workbench.webview().locator('[data-testid="message-row"][data-index="4"]');
      assert.match(
        (await row.getAttribute('title')) ?? '',
        /keepRecent 8 ≤ distance 8 < tier1Distance 20 → Tier 2/,
      );
      await row.click();
      await eventually(async () => {
        const lines = await workbench.webview().getByTestId('why-line').allTextContents();
        assert.match(
          lines[0] ?? '',
          /^keepRecent 8 ≤ distance 8 < tier1Distance 20 → Tier 2: head and tail, \d+ → \d+ chars/,
        );
        assert.match(lines[1] ?? '', /^first met at Tier 2 in request \d+ \(first touch\): kept at Tier 2/);
      });
    });
  });

  test('filtering by tool shows only that tool’s messages', async () => {
    const { workbench } = session;
    await workbench.step('filter-glob', async () => {
      await workbench.webview().getByTestId('filter-tool').selectOption('Glob');
      await eventually(async () => {
        const tools = await workbench
          .webview()
          .locator('[data-testid="message-row"] .col-tools')
          .allTextContents();
        assert.ok(tools.length > 0);
        for (const t of tools) assert.ok(t.split(', ').includes('Glob'), t);
      });
      await workbench.webview().getByTestId('filter-tool').selectOption('');
    });
  });

  test('a crafted file whose requests exceed the model window is flagged where the requests are', async () => {
    const { workbench } = session;
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
    writeFileSync(join(session.workspace, 'beyond-window.request.json'), JSON.stringify(body));
    await workbench.step('beyond-window', async () => {
      await eventually(async () =>
        workbench.openWith('beyond-window.request.json', EditorSession.editorName()),
      );
      await eventually(async () => {
        const flag = workbench.webview().locator('.topbar [data-testid="flag-beyond-window"]');
        assert.match(
          (await flag.textContent({ timeout: 5000 })) ?? '',
          /exceeds the 200,000-token context window/,
        );
      }, 120_000);
    });
  });

  test('one pass with tighter tiers and the live zone: the why-lines of a floored Tier-2 block, a Tier-1 stub and a live-zone block', async () => {
    const { workbench } = session;
    // Settings edited in the workspace's settings.json reach the open view at once, written by their whole key or
    // as an object (the editor reads both as one).
    mkdirSync(join(session.workspace, '.vscode'), { recursive: true });
    writeFileSync(
      join(session.workspace, '.vscode', 'settings.json'),
      JSON.stringify({
        'contextLens.policy': 'tiered+live-zone',
        'contextLens.replay.trigger': 'once',
        'contextLens.tiered': { keepRecent: 2, tier1Distance: 5 },
        'contextLens.liveZone.minChars': 10,
      }),
    );
    await workbench.step('why-lines-once', async () => {
      await workbench.openWith(workspaceFiles.session, EditorSession.editorName());
      const frame = workbench.webview();
      const why = async (index: number) => {
        await frame.locator(`[data-testid="message-row"][data-index="${index}"]`).click();
        let lines: string[] = [];
        await eventually(async () => {
          lines = await frame.getByTestId('why-line').allTextContents();
          assert.ok(lines.length > 0);
          assert.match(
            (await frame.getByTestId('details').getAttribute('aria-label')) ?? '',
            new RegExp(`message ${index}$`),
          );
        });
        return lines;
      };
      await eventually(async () => {
        const title =
          (await frame.locator('[data-testid="message-row"][data-index="6"]').getAttribute('title')) ?? '';
        assert.match(title, /^distance \d+ ≥ tier1Distance 5 and no floor tool → Tier 1/);
      }, 120_000);
      assert.match(
        (await why(2))[0],
        /^distance \d+ ≥ tier1Distance 5, but Glob is a floor tool → Tier 2: within maxResultChars 300: kept as it is/,
      );
      assert.match(
        (await why(4))[0],
        /^distance \d+ ≥ tier1Distance 5, but Read is a floor tool → Tier 2: head and tail, \d+ → \d+ chars/,
      );
      assert.match(
        (await why(6))[0],
        /^distance \d+ ≥ tier1Distance 5 and no floor tool → Tier 1: stubbed: stub, \d+ → \d+ chars/,
      );
      assert.match((await why(26)).at(-1) ?? '', /^live zone in request \d+, block 0: detected as /);
    });
  });
});
