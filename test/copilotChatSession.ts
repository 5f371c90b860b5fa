// A GitHub Copilot Chat session as the editor keeps it in `chatSessions/`: the JSON document (`ISerializableChatData`
// v3) and the mutation log the editor now writes instead (`ObjectMutationLog`: `{kind: 0, v}` then `{kind: 1|2|3, k,
// v?, i?}`), shaped as the editor's `chatModel.ts`/`chatSessionOperationLog.ts` and Copilot Chat's tool-calling loop
// (`toolCallRounds`, `toolCallResults`) define them (made for tests, with what the real sessions in
// test/fixtures/real/copilot-chat*/ lack: a log of several requests with tool calls, a summarized round).
type Json = Record<string, unknown>;

const T0 = Date.parse('2026-04-02T09:00:00.000Z');
const text = (value: string) => ({ $mid: 20, content: [{ $mid: 21, value }] });

/** The first request: an agent turn of two rounds (a read, then the answer). */
export function agentRequest(): Json {
  return {
    requestId: 'request_1',
    timestamp: T0,
    message: {
      text: 'why does the build fail?',
      parts: [{ kind: 'text', text: 'why does the build fail?' }],
    },
    variableData: { variables: [] },
    modelId: 'copilot/claude-sonnet-4',
    response: [
      { value: 'Let me read the config.' },
      {
        kind: 'toolInvocationSerialized',
        toolCallId: 'toolu_1',
        toolId: 'copilot_readFile',
        isComplete: true,
      },
      { value: 'The target is wrong.' },
    ],
    result: {
      timings: { firstProgress: 900, totalElapsed: 5200 },
      details: 'Claude Sonnet 4 • 1x',
      metadata: {
        toolCallRounds: [
          {
            id: 'round-1',
            response: 'Let me read the config.',
            toolCalls: [{ id: 'toolu_1', name: 'read_file', arguments: '{"filePath":"/w/tsconfig.json"}' }],
            toolInputRetry: 0,
          },
          { id: 'round-2', response: 'The target is wrong.', toolCalls: [], toolInputRetry: 0 },
        ],
        toolCallResults: { toolu_1: text('{ "compilerOptions": { "target": "es3" } }') },
        modelMessageId: 'msg-1',
        responseId: 'resp-1',
      },
    },
  };
}

/** The second request: an ask without tools, answered in one call. */
export function askRequest(): Json {
  return {
    requestId: 'request_2',
    timestamp: T0 + 60_000,
    message: { text: 'and how do I fix it?', parts: [] },
    variableData: { variables: [] },
    modelId: 'copilot/gpt-4.1',
    response: [{ value: 'Set "target" to "es2022".' }],
    result: { timings: { totalElapsed: 2000 }, details: 'GPT-4.1 • 0x' },
  };
}

export function chatDocument(): Json {
  return {
    version: 3,
    requesterUsername: 'dev',
    responderUsername: 'GitHub Copilot',
    initialLocation: 'panel',
    sessionId: '5d1c2d8e-chat',
    creationDate: T0,
    lastMessageDate: T0 + 60_000,
    requests: [agentRequest(), askRequest()],
  };
}

/** The same session as the editor's log: the empty session, the first request pushed while it streams, its response
 * and result set when it ends, then the second request pushed whole. */
export function chatLog(): Json[] {
  const first = agentRequest();
  const streaming = { ...first, response: [], result: undefined };
  const empty = { ...chatDocument(), requests: [] };
  return [
    { kind: 0, v: empty },
    { kind: 2, k: ['requests'], v: [streaming] },
    { kind: 2, k: ['requests', 0, 'response'], v: first.response },
    { kind: 1, k: ['requests', 0, 'result'], v: first.result },
    { kind: 2, k: ['requests'], v: [askRequest()] },
    { kind: 1, k: ['customTitle'], v: 'Build failure' },
  ];
}
