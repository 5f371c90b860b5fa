// End-to-end: hostile files in the real editor. Transcript text and file names never become a live
// `command:` link in a notification (item 1): each vector is a hostile file exported through the command
// palette, as a user does it, and the toasts the editor then shows are searched for links. A FIFO with no
// writer and a link to /dev/zero are refused by the view and by the export, which say what they are (item 9).
// Screenshots go to test-output/e2e/editor-source/ (named hostile-…).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { eventually } from './expect';
import { EditorSession } from './session';

/** Runs `workbench.action.openSettings` with its argument when clicked, if a notification renders it as a link. */
const HOSTILE = '[x](command:workbench.action.openSettings?%5B%22PWNED%22%5D)';
/** For a file name: the save dialog of the browser editor decodes `%xx`, so the name holds a command link without
 * arguments (still a link that runs a command). */
const HOSTILE_NAME = '[x](command:workbench.action.openSettings)';
const DIR = 'hostile';

const files: Record<string, unknown> = {
  // Not a transcript: the export fails, and its message quotes the first record's keys (written on one line, as
  // the JSONL formats read records).
  'keys.json': { [HOSTILE]: 1 },
  // An Anthropic body whose tool_use is not answered: the request notes name its id.
  'unanswered.json': {
    model: 'claude-sonnet-4-20250514',
    messages: [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: HOSTILE, name: 'Bash', input: {} }] },
      { role: 'user', content: 'next' },
    ],
  },
  // An OpenAI Chat body with a content part of an unknown type: the request notes name the type.
  'parts.json': {
    model: 'gpt-4o',
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: HOSTILE }] },
      { role: 'assistant', content: 'ok' },
    ],
  },
  // A plain transcript whose file name is the link.
  [`${HOSTILE_NAME}.json`]: {
    model: 'claude-sonnet-4-20250514',
    messages: [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi' },
    ],
  },
};

const visible = (text: string) => text.replaceAll('\u200B', '');

describe('hostile transcripts in the real editor: no command link in any notification', {
  timeout: 300_000,
}, () => {
  let session: EditorSession;
  before(async () => {
    session = await EditorSession.start('source');
    mkdirSync(join(session.workspace, DIR), { recursive: true });
    for (const [name, body] of Object.entries(files))
      writeFileSync(join(session.workspace, DIR, name), `${JSON.stringify(body)}\n`);
    assert.equal(spawnSync('mkfifo', [join(session.workspace, DIR, 'pipe.jsonl')]).status, 0, 'mkfifo');
    symlinkSync('/dev/zero', join(session.workspace, DIR, 'zero.jsonl'));
    await session.workbench.runCommand('Refresh Explorer');
  });
  after(async () => {
    // Its pipe, its link to /dev/zero and its hostile names leave the workspace, which the next suite may share.
    if (session) rmSync(join(session.workspace, DIR), { recursive: true, force: true });
    await session?.stop();
  });

  /** Every link in every toast (a `<a href>`: the editor renders a notification's links so; its buttons have
   * none), and the toasts' text. */
  async function toasts(): Promise<{ links: string[]; text: string }> {
    const page = session.workbench.page;
    const links = await page
      .locator('.notifications-toasts a[href], .notifications-toasts .monaco-link')
      .evaluateAll((els) => els.map((el) => el.getAttribute('href') ?? el.textContent ?? ''));
    const text = (await page.locator('.notifications-toasts').allTextContents()).join('\n');
    return { links, text };
  }

  /** Opens a workspace file in the text editor through Quick Open (clicks in the explorer can land on the wrong
   * row while the exported files appear in it). */
  async function openFile(relative: string) {
    const { page } = session.workbench;
    const name = relative.split('/').pop()!;
    await page.keyboard.press('Escape');
    await page.keyboard.press('F1');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor();
    await input.fill(relative);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.tabs-container .tab.active', { hasText: name }).waitFor();
  }

  /** Exports the file in front through the palette; `choice` picks the quick pick's entry, then the save dialog
   * is accepted as proposed. Resolves with the toasts once one holds `expect`. */
  async function exportInFront(expect: string, choice?: string) {
    const { workbench } = session;
    await workbench.runCommand('Notifications: Clear All Notifications');
    await workbench.runCommand('Context Lens: Export Compacted Transcript');
    if (choice) {
      await workbench.pickQuickInput(choice);
      await workbench.acceptSaveDialog('.compacted.json');
    }
    await workbench.notification(expect);
    return toasts();
  }

  function assertInert(t: { links: string[]; text: string }, vector: string) {
    assert.deepEqual(t.links, [], `links in the notifications: ${t.links.join(' | ')}`);
    assert.ok(visible(t.text).includes(vector), `the value is shown as text: ${t.text}`);
  }

  test('export failed: the JSON key of an unrecognised file', async () => {
    const { workbench } = session;
    await workbench.step('hostile-keys', async () => {
      await openFile(`${DIR}/keys.json`);
      assertInert(await exportInFront('export failed'), HOSTILE);
    });
  });

  test('exported: an unanswered tool_use id in the request notes', async () => {
    const { workbench } = session;
    await workbench.step('hostile-tool-use-id', async () => {
      await openFile(`${DIR}/unanswered.json`);
      assertInert(await exportInFront('note(s) on the request', 'Anthropic Messages request'), HOSTILE);
    });
  });

  test('exported: an OpenAI content-part type in the request notes', async () => {
    const { workbench } = session;
    await workbench.step('hostile-content-part', async () => {
      await openFile(`${DIR}/parts.json`);
      assertInert(await exportInFront('note(s) on the request', 'Anthropic Messages request'), HOSTILE);
    });
  });

  test('exported: the file name', async () => {
    const { workbench } = session;
    await workbench.step('hostile-file-name', async () => {
      await openFile(`${DIR}/${HOSTILE_NAME}.json`);
      const t = await exportInFront('exported', 'Same format');
      await eventually(async () =>
        assert.ok(existsSync(join(session.workspace, DIR, `${HOSTILE_NAME}.compacted.json`))),
      );
      assertInert(t, `exported ${HOSTILE_NAME}.compacted.json`);
    });
  });

  for (const [name, kind] of [
    ['pipe.jsonl', 'a FIFO (named pipe)'],
    ['zero.jsonl', 'a character device'],
  ]) {
    test(`${name}, ${kind}: the view and the export refuse it, saying what it is`, async () => {
      const { workbench } = session;
      await workbench.step(`hostile-${name}`, async () => {
        await workbench.openWith(`${DIR}/${name}`, EditorSession.editorName());
        const error = workbench.webview().locator('[data-testid="error"]');
        await eventually(async () => assert.match((await error.textContent()) ?? '', /not a regular file/));
        // The Context Lens tab of the file is in front: the export takes it.
        const t = await exportInFront('export failed');
        assert.ok(
          visible(t.text).includes(`${name} is ${kind}, not a regular file`),
          `the refusal names the kind: ${t.text}`,
        );
      });
    });
  }
});
