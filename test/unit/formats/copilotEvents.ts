// A GitHub Copilot CLI session as the agent writes its `events.jsonl`, shaped as the event schema of
// `@github/copilot-sdk` (`nodejs/src/generated/session-events.ts`) defines the persisted events (made for tests, with
// what the two real runs in test/fixtures/real/copilot-cli/ lack: a compaction, a truncation, several models).
type Json = Record<string, unknown>;

const T0 = Date.parse('2026-05-06T08:41:00.000Z');
let last: string | null = null;
let n = 0;

function event(type: string, data: Json, extra: Json = {}): Json {
  const id = `evt-${++n}`;
  const e = { type, data, id, timestamp: new Date(T0 + n * 1000).toISOString(), parentId: last, ...extra };
  last = id;
  return e;
}

/** One session: a prompt, a reply with two calls (one fails), their results, a compaction, a second prompt and a
 * chunked reply, a sub-agent's reply, and the run's shutdown with its per-model totals. */
export function copilotSession(): Json[] {
  n = 0;
  last = null;
  return [
    event('session.start', {
      sessionId: '0cb916db-26aa-40f2-86b5-1ba81b225fd2',
      version: 1,
      producer: 'copilot-agent',
      copilotVersion: '1.0.59',
      startTime: new Date(T0).toISOString(),
      selectedModel: 'claude-sonnet-4.5',
      context: { cwd: '/home/dev/shop', gitRoot: '/home/dev/shop', branch: 'main', repository: 'dev/shop' },
    }),
    event('system.message', { role: 'system', content: 'You are the GitHub Copilot CLI.' }),
    event('user.message', {
      content: 'fix the failing test',
      transformedContent: '<current_datetime>2026-05-06</current_datetime>\n\nfix the failing test',
      attachments: [],
      interactionId: 'int-1',
    }),
    event('assistant.turn_start', { turnId: '0', interactionId: 'int-1' }),
    event('assistant.message', {
      messageId: 'm-1',
      content: 'Let me look at the test.',
      reasoningText: 'The user wants the test fixed.',
      toolRequests: [
        { toolCallId: 'toolu_1', name: 'view', arguments: { path: 'test/cart.test.ts' }, type: 'function' },
        { toolCallId: 'toolu_2', name: 'bash', arguments: { command: 'npm test' }, type: 'function' },
      ],
      interactionId: 'int-1',
      outputTokens: 120,
    }),
    event('tool.execution_start', {
      toolCallId: 'toolu_1',
      toolName: 'view',
      arguments: { path: 'test/cart.test.ts' },
    }),
    event('tool.execution_complete', {
      toolCallId: 'toolu_1',
      model: 'claude-sonnet-4.5',
      interactionId: 'int-1',
      success: true,
      result: {
        content: '1. import { cart } from "../cart";',
        detailedContent: '1. import { cart } from "../cart";\n',
      },
    }),
    event('tool.execution_complete', {
      toolCallId: 'toolu_2',
      model: 'claude-sonnet-4.5',
      success: false,
      error: { message: 'npm test exited with code 1', code: 'failure' },
    }),
    event('assistant.turn_end', { turnId: '0' }),
    event('session.compaction_start', {
      conversationTokens: 90000,
      systemTokens: 8000,
      toolDefinitionsTokens: 12000,
    }),
    event('session.compaction_complete', {
      success: true,
      preCompactionTokens: 110000,
      summaryContent: 'The user asked to fix a failing cart test; the test file was read.',
      checkpointNumber: 1,
      compactionTokensUsed: { inputTokens: 100000, outputTokens: 900, cacheReadTokens: 0 },
    }),
    event('session.model_change', { previousModel: 'claude-sonnet-4.5', newModel: 'gpt-5.2' }),
    event('user.message', { content: 'now run it again' }),
    event('assistant.message', {
      messageId: 'm-2',
      content: 'Running ',
      apiCallId: 'resp_9',
      chunkIndex: 0,
      chunkCount: 2,
    }),
    event('assistant.message', {
      messageId: 'm-3',
      content: 'the tests.',
      apiCallId: 'resp_9',
      chunkIndex: 1,
      chunkCount: 2,
      toolRequests: [{ toolCallId: 'call_3', name: 'task', arguments: { prompt: 'run the tests' } }],
    }),
    event('subagent.started', { toolCallId: 'call_3', agentName: 'task', agentDisplayName: 'run the tests' }),
    event(
      'assistant.message',
      { messageId: 'm-4', content: 'All 12 tests pass.', model: 'claude-haiku-4.5' },
      { agentId: 'call_3' },
    ),
    event('tool.execution_complete', {
      toolCallId: 'call_3',
      model: 'gpt-5.2',
      success: true,
      result: { content: 'All 12 tests pass.' },
    }),
    event('assistant.message', { messageId: 'm-5', content: 'Done: the tests pass.', model: 'gpt-5.2' }),
    event('session.shutdown', {
      shutdownType: 'routine',
      totalPremiumRequests: 3,
      totalApiDurationMs: 12000,
      sessionStartTime: T0,
      codeChanges: { linesAdded: 0, linesRemoved: 0, filesModified: [] },
      currentModel: 'gpt-5.2',
      modelMetrics: {
        'claude-sonnet-4.5': {
          requests: { count: 2, cost: 2 },
          usage: { inputTokens: 210000, outputTokens: 1020, cacheReadTokens: 80000, cacheWriteTokens: 20000 },
        },
        'gpt-5.2': {
          requests: { count: 2, cost: 2 },
          usage: { inputTokens: 30000, outputTokens: 300, cacheReadTokens: 10000, cacheWriteTokens: 0 },
        },
        'claude-haiku-4.5': {
          requests: { count: 1, cost: 0.33 },
          usage: { inputTokens: 5000, outputTokens: 40, cacheReadTokens: 0, cacheWriteTokens: 0 },
        },
      },
    }),
  ];
}
