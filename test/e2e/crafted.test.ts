// End-to-end, in the real editor: a crafted Claude Code session whose live segment holds a compaction summary, an
// approved plan and a long file read (the agent's memory), beside a build log. Under the live zone the build log is
// compressed and none of the others is; the Anthropic request exported beside the transcript is the live segment
// only, the summary first. Screenshots go to test-output/e2e/crafted/.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseTranscript } from '../../src/core/formats';
import { ClaudeSession } from '../unit/formats/helpers';
import { eventually } from './expect';
import { EditorSession } from './session';

const SUMMARY = [
  'This session is being continued from a previous conversation that ran out of context.',
  'Analysis:',
  '1. Primary Request and Intent:',
  '   The user asked to make the export atomic and to keep the public API as it is.',
  '2. Errors and fixes:',
  ...Array.from(
    { length: 60 },
    (_, i) => `   - Error ${i}: a rename failed on Windows; fixed by retrying once.`,
  ),
  '3. Pending Tasks:',
  '   - Run the full test suite again.',
].join('\n');
const PLAN = [
  '# Plan: make the export atomic',
  ...Array.from(
    { length: 80 },
    (_, i) =>
      `${i + 1}. Write file ${i} under a temporary name; on any error, remove them all and log a warning.`,
  ),
].join('\n');
const READ = Array.from(
  { length: 400 },
  (_, i) =>
    `${String(i + 1).padStart(6)}\u2192- 2026-03-${String((i % 28) + 1).padStart(2, '0')}: errors in step ${i} are reported per line, never fatal.`,
).join('\n');
const BUILD_LOG = Array.from(
  { length: 400 },
  (_, i) =>
    `2026-03-01T10:00:${String(i % 60).padStart(2, '0')}Z INFO [build] compiled module ${i} in ${i % 17} ms`,
).join('\n');

/** The session: a segment before a compaction, its summary, then a plan approved, a file read and a build. */
function crafted(): Uint8Array {
  const s = new ClaudeSession();
  s.user('start the work on the exporter');
  s.assistant('m1', [{ type: 'tool_use', id: 'toolu_old', name: 'Bash', input: { command: 'ls' } }]);
  s.result('toolu_old', 'OLD-SEGMENT-ONLY src test');
  s.assistant('m2', [{ type: 'text', text: 'Listed.' }]);
  const boundary = s.add(
    {
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      compactMetadata: { trigger: 'auto', preTokens: 90_000 },
    },
    null,
  );
  s.user(SUMMARY, { isCompactSummary: true }, boundary);
  s.user('go on');
  s.assistant('m3', [{ type: 'tool_use', id: 'toolu_plan', name: 'ExitPlanMode', input: { plan: PLAN } }]);
  s.result(
    'toolu_plan',
    `User has approved your plan. You can now start coding.\n\n## Approved Plan:\n${PLAN}`,
  );
  s.assistant('m4', [
    { type: 'tool_use', id: 'toolu_read', name: 'Read', input: { file_path: '/w/DECISIONS.md' } },
  ]);
  s.result('toolu_read', READ);
  s.assistant('m5', [
    { type: 'tool_use', id: 'toolu_build', name: 'Bash', input: { command: 'npm run build' } },
  ]);
  s.result('toolu_build', BUILD_LOG);
  s.assistant('m6', [{ type: 'text', text: 'Built.' }]);
  s.user('and now the tests');
  s.assistant('m7', [{ type: 'text', text: 'Running them.' }]);
  return s.bytes();
}

describe('a crafted session: the agent’s memory is not compressed as a log; the request export is the live segment', {
  timeout: 600_000,
}, () => {
  let session: EditorSession;
  const NAME = 'crafted.jsonl';
  before(async () => {
    session = await EditorSession.start('source', { shots: 'crafted' });
    writeFileSync(join(session.workspace, NAME), crafted());
    mkdirSync(join(session.workspace, '.vscode'), { recursive: true });
    writeFileSync(
      join(session.workspace, '.vscode', 'settings.json'),
      `${JSON.stringify({ 'contextLens.policy': 'live-zone' }, null, 2)}\n`,
    );
  });
  after(async () => {
    await session?.stop();
  });

  test('under the live zone only the build log is rewritten; the exported request starts at the summary', async () => {
    const { workbench } = session;
    const t = parseTranscript(crafted(), NAME);
    const at = (needle: string) =>
      t.messages.findIndex((m) =>
        m.blocks.some((b) =>
          b.type === 'text'
            ? b.text.startsWith(needle)
            : b.type === 'tool_result' && typeof b.content === 'string' && b.content.startsWith(needle),
        ),
      );
    const memory = [
      at('This session is being continued'),
      at('User has approved your plan'),
      at('     1\u2192'),
    ];
    const build = at('2026-03-01T10:00:00Z INFO');
    assert.ok(memory.every((i) => i > 0) && build > 0, `${memory} ${build}`);
    const row = (i: number) => workbench.webview().locator(`[data-testid="message-row"][data-index="${i}"]`);

    await workbench.step('crafted-live-zone', async () => {
      await workbench.runCommand('Refresh Explorer');
      await eventually(async () => workbench.openWith(NAME, EditorSession.editorName()));
      // The control: the build log is compressed, so the live zone ran over these messages.
      await eventually(async () => {
        assert.equal(await row(build).locator('[data-testid="rewritten-marker"]').count(), 1);
      }, 300_000);
      for (const i of memory) {
        await row(i).waitFor();
        assert.equal(await row(i).locator('[data-testid="rewritten-marker"]').count(), 0, `message #${i}`);
        assert.doesNotMatch((await row(i).getAttribute('title')) ?? '', /log output/, `message #${i}`);
      }
    });

    await workbench.step('crafted-request-export', async () => {
      await workbench.runCommand('Context Lens: Export Compacted Transcript');
      await workbench.pickQuickInput('Same format, and also as an Anthropic Messages request');
      await workbench.acceptSaveDialog('crafted.compacted.jsonl');
      const path = join(session.workspace, 'crafted.compacted.anthropic.json');
      const request = await eventually(
        async () =>
          JSON.parse(readFileSync(path, 'utf8')) as {
            system?: unknown;
            tools?: unknown[];
            messages: { role: string; content: { text: string }[] }[];
          },
      );
      await workbench.notification('exported');
      const texts = JSON.stringify(request.messages);
      assert.equal(request.messages[0].role, 'user');
      assert.ok(request.messages[0].content[0].text.startsWith('This session is being continued'));
      // Nothing of the segment the compaction removed.
      assert.ok(
        !texts.includes('OLD-SEGMENT-ONLY') && !texts.includes('start the work'),
        'an earlier segment',
      );
      // The log holds no system prompt and no tool definitions: the request carries none of its own making, but the
      // tool that retrieves what the live zone's markers point at.
      assert.equal(request.system, undefined);
      assert.deepEqual(
        (request.tools ?? []).map((tool) => (tool as { name?: string }).name),
        ['headroom_retrieve'],
      );
    });
  });
});
