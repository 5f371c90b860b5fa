// An OpenCode session as `opencode export` writes it, shaped as the agent's MessageV2 schema defines its messages
// and parts (made for tests: no real OpenCode session is in the repository yet).
const SID = 'ses_test0001';
const T0 = Date.parse('2026-03-01T10:00:00.000Z');

type Json = Record<string, unknown>;

const part = (messageID: string, n: number, fields: Json): Json => ({
  id: `prt_${messageID}_${n}`,
  sessionID: SID,
  messageID,
  ...fields,
});

function user(id: string, text: string, at: number, extra: Json[] = []): Json {
  return {
    info: {
      id,
      sessionID: SID,
      role: 'user',
      time: { created: at },
      agent: 'build',
      model: { providerID: 'anthropic', modelID: 'claude-sonnet-4-5' },
    },
    parts: [part(id, 1, { type: 'text', text }), ...extra],
  };
}

const tokens = (input: number, output: number, reasoning: number, read: number, write: number) => ({
  input,
  output,
  reasoning,
  cache: { read, write },
});

function assistant(id: string, at: number, parts: Json[], tok: Json, cost: number, extra: Json = {}): Json {
  return {
    info: {
      id,
      sessionID: SID,
      role: 'assistant',
      time: { created: at, completed: at + 2000 },
      parentID: 'msg_001',
      modelID: 'claude-sonnet-4-5',
      providerID: 'anthropic',
      mode: 'build',
      agent: 'build',
      path: { cwd: '/home/me/app', root: '/home/me/app' },
      cost,
      tokens: tok,
      finish: 'stop',
      ...extra,
    },
    parts: [
      part(id, 0, { type: 'step-start' }),
      ...parts,
      part(id, 9, { type: 'step-finish', reason: 'stop', cost, tokens: tok }),
    ],
  };
}

/** A read, its answer, then a compaction: the summary call and its summary. */
export function openCodeExport(): Json {
  return {
    info: {
      id: SID,
      projectID: 'proj1',
      directory: '/home/me/app',
      title: 'Read the readme',
      version: '1.1.0',
      time: { created: T0, updated: T0 + 60000 },
    },
    messages: [
      user('msg_001', 'read README.md', T0),
      assistant(
        'msg_002',
        T0 + 1000,
        [
          part('msg_002', 1, { type: 'reasoning', text: 'I should read it.', time: { start: T0 + 1000 } }),
          part('msg_002', 2, {
            type: 'tool',
            callID: 'toolu_1',
            tool: 'read',
            state: {
              status: 'completed',
              input: { filePath: 'README.md' },
              output: 'README CONTENT '.repeat(50),
              title: 'README.md',
              metadata: {},
              time: { start: T0 + 1500, end: T0 + 1600 },
            },
          }),
        ],
        tokens(12000, 40, 20, 0, 11990),
        0.0458,
        { finish: 'tool-calls' },
      ),
      assistant(
        'msg_003',
        T0 + 3000,
        [part('msg_003', 1, { type: 'text', text: 'It describes the app.' })],
        tokens(5, 12, 0, 11990, 800),
        0.0069,
      ),
      user('msg_004', 'summarize', T0 + 10000, [part('msg_004', 2, { type: 'compaction', auto: false })]),
      assistant(
        'msg_005',
        T0 + 11000,
        [part('msg_005', 1, { type: 'text', text: 'We read the README.' })],
        tokens(3, 30, 0, 12790, 50),
        0.0047,
        { summary: true },
      ),
    ],
    todos: [],
  };
}
