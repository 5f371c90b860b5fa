// Builds canonical Transcripts in memory for engine tests (no format involved).
import type { Block, Message, RecordedUsage, Role, Transcript } from '../../src/core/model';

export function transcriptOf(
  messages: Omit<Message, 'index'>[],
  extra: Partial<Transcript> = {},
): Transcript {
  return {
    format: 'anthropic-messages',
    formatReason: 'built in a test',
    messages: messages.map((m, index) => ({ ...m, index })),
    markers: [],
    sidechains: [],
    diagnostics: [],
    raw: new Uint8Array(),
    ...extra,
  };
}

export const text = (t: string): Block => ({ type: 'text', text: t });
export const user = (...blocks: Block[]): Omit<Message, 'index'> => ({ role: 'user', blocks });
export const assistant = (...blocks: Block[]): Omit<Message, 'index'> => ({ role: 'assistant', blocks });
export const msg = (role: Role, blocks: Block[], more: Partial<Message> = {}): Omit<Message, 'index'> => ({
  role,
  blocks,
  ...more,
});
export const toolUse = (id: string, name: string, input: unknown = {}): Block => ({
  type: 'tool_use',
  id,
  name,
  input,
});
export const toolResult = (toolUseId: string, content: string | Block[], isError = false): Block => ({
  type: 'tool_result',
  toolUseId,
  content,
  isError,
});
export const usage = (input: number, read: number, creation: number, output = 10): RecordedUsage => ({
  inputTokens: input,
  cacheReadInputTokens: read,
  cacheCreationInputTokens: creation,
  outputTokens: output,
});

/** A tool loop: a user prompt, then `count` rounds of assistant tool_use + user tool_result, then a reply. */
export function toolLoop(
  count: number,
  options: {
    name?: (i: number) => string;
    result?: (i: number) => string | Block[];
    input?: (i: number) => unknown;
  } = {},
): Transcript {
  const messages: Omit<Message, 'index'>[] = [user(text('Please do the task.'))];
  for (let i = 0; i < count; i++) {
    const id = `toolu_${String(i).padStart(3, '0')}`;
    messages.push(
      assistant(toolUse(id, options.name?.(i) ?? 'bash', options.input?.(i) ?? { command: `echo ${i}` })),
    );
    messages.push(user(toolResult(id, options.result?.(i) ?? `result ${i} `.repeat(100))));
  }
  messages.push(assistant(text('Done.')));
  return transcriptOf(messages);
}
