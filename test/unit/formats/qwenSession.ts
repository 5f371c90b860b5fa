// A Qwen Code session as the agent's recording service writes it (`ChatRecord` lines chained by parentUuid, Gemini API
// Content messages, usageMetadata on each reply, telemetry repeating it); made for tests, from the agent's source.
export const CWD = '/home/dev/my-app';
let n = 0;
export const rec = (type: string, parent: string | null, extra: Record<string, unknown>) => ({
  uuid: `r${++n}`,
  parentUuid: parent,
  sessionId: 'q-1',
  timestamp: `2026-05-05T11:08:${String(10 + n).padStart(2, '0')}.000Z`,
  type,
  cwd: CWD,
  version: '0.15.6',
  ...extra,
});

/** A session as the agent writes it: a prompt, a reply calling a tool (with its telemetry), the result, the answer. */
export function qwenSession(): Record<string, unknown>[] {
  n = 0;
  const u1 = rec('user', null, { message: { role: 'user', parts: [{ text: 'read a.txt please' }] } });
  const t1 = rec('system', u1.uuid, {
    subtype: 'ui_telemetry',
    systemPayload: {
      uiEvent: {
        'event.name': 'qwen-code.api_response',
        model: 'qwen3-coder-plus',
        input_token_count: 18009,
        output_token_count: 47,
        cached_content_token_count: 12000,
        thoughts_token_count: 36,
        total_token_count: 18056,
      },
    },
  });
  const a1 = rec('assistant', t1.uuid, {
    model: 'qwen3-coder-plus',
    message: {
      role: 'model',
      parts: [
        { text: 'The user wants a.txt.', thought: true },
        { text: 'Reading it.' },
        { functionCall: { id: 'call_1', name: 'read_file', args: { absolute_path: `${CWD}/a.txt` } } },
      ],
    },
    usageMetadata: {
      promptTokenCount: 18009,
      candidatesTokenCount: 47,
      thoughtsTokenCount: 36,
      totalTokenCount: 18056,
      cachedContentTokenCount: 12000,
    },
  });
  const r1 = rec('tool_result', a1.uuid, {
    message: {
      role: 'user',
      parts: [
        { functionResponse: { id: 'call_1', name: 'read_file', response: { output: 'CONTENT OF A' } } },
      ],
    },
    toolCallResult: { callId: 'call_1', status: 'success', resultDisplay: 'CONTENT OF A' },
  });
  const a2 = rec('assistant', r1.uuid, {
    model: 'qwen3-coder-plus',
    message: { role: 'model', parts: [{ text: 'a.txt says CONTENT OF A.' }] },
    usageMetadata: {
      promptTokenCount: 18100,
      candidatesTokenCount: 9,
      totalTokenCount: 18109,
      cachedContentTokenCount: 18000,
    },
  });
  return [u1, t1, a1, r1, a2];
}
