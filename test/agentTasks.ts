// A Cline task as the agent lays it out, for the tests (the real ones carry no licence to ship: docs/testing.md).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const env = (cwd: string) =>
  `<environment_details>\n# Current Working Directory (${cwd}) Files\nsrc/\n</environment_details>`;

/** A Cline task of three requests: the third is sent after the agent dropped history messages 2–3. */
export function clineTask(): { api: unknown[]; ui: unknown[] } {
  const t0 = Date.UTC(2026, 1, 1);
  const api = [
    {
      role: 'user',
      ts: t0,
      content: [
        { type: 'text', text: '<task>\nfix the tests\n</task>' },
        { type: 'text', text: env('/home/u/proj') },
      ],
    },
    {
      role: 'assistant',
      ts: t0 + 1,
      modelInfo: { modelId: 'claude-sonnet-4-5', providerId: 'anthropic', mode: 'act' },
      content: [
        { type: 'text', text: 'Reading.' },
        { type: 'tool_use', id: 't1', name: 'read_file', input: { path: 'a.ts' } },
      ],
    },
    {
      role: 'user',
      ts: t0 + 2,
      content: [
        { type: 'text', text: "[read_file for 'a.ts'] Result:\nconst a = 1;\n".repeat(40) },
        { type: 'text', text: env('/home/u/proj') },
      ],
    },
    {
      role: 'assistant',
      ts: t0 + 3,
      content: [{ type: 'tool_use', id: 't2', name: 'read_file', input: { path: 'b.ts' } }],
    },
    {
      role: 'user',
      ts: t0 + 4,
      content: [
        { type: 'tool_result', tool_use_id: 't2', content: 'const b = 2;' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      ],
    },
    { role: 'assistant', ts: t0 + 5, content: [{ type: 'text', text: 'Done.' }] },
  ];
  const row = (ts: number, say: string, extra: Record<string, unknown> = {}) => ({
    ts,
    type: 'say',
    say,
    ...extra,
  });
  const req = (index: number, usage: Record<string, unknown>, range?: [number, number]) =>
    row(t0 + index, 'api_req_started', {
      text: JSON.stringify({ request: '…', ...usage }),
      modelInfo: { modelId: 'claude-sonnet-4-5', providerId: 'anthropic', mode: 'act' },
      conversationHistoryIndex: index,
      ...(range ? { conversationHistoryDeletedRange: range } : {}),
    });
  const ui = [
    row(t0, 'task', { text: 'fix the tests', conversationHistoryIndex: -1 }),
    req(-1, { tokensIn: 10, tokensOut: 20, cacheWrites: 3000, cacheReads: 0, cost: 0.012 }),
    row(t0 + 1, 'text', { text: 'Reading.', conversationHistoryIndex: 0 }),
    req(1, { tokensIn: 10, tokensOut: 30, cacheWrites: 500, cacheReads: 3000, cost: 0.005 }),
    row(t0 + 2, 'text', { text: '…', conversationHistoryIndex: 2 }),
    req(3, { tokensIn: 10, tokensOut: 5, cacheWrites: 200, cacheReads: 2900, cost: 0.002 }),
    // The range this request was sent with is set while it is prepared: the rows after its own carry it.
    row(t0 + 4, 'text', {
      text: 'Done.',
      conversationHistoryIndex: 4,
      conversationHistoryDeletedRange: [2, 3],
    }),
    req(5, {}, [2, 3]),
  ];
  return { api, ui };
}

export function writeTask(dir: string, task: { api: unknown[]; ui?: unknown[] }): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'api_conversation_history.json');
  writeFileSync(file, JSON.stringify(task.api));
  if (task.ui) writeFileSync(join(dir, 'ui_messages.json'), JSON.stringify(task.ui));
  return file;
}
