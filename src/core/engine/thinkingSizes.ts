// The size of a reply's thinking where the log does not give its text: from the reply's recorded output, from what
// it added to the next prompt, or from its recorded reasoning tokens (the preparation counts each message with it).
import type { Message } from '../model';

/** Thinking the log keeps without its text (Claude Code writes `thinking: ""` and the signature, or a
 * `redacted_thinking` block) is sent back at the size the model generated it: the reply's recorded output less its
 * visible blocks. Spread over those blocks in `perBlock`; the tokens added. Undefined when the recorded output is
 * far less than the visible blocks (some runtimes log the output count of the stream's first event, 4–5 tokens): it
 * cannot be the reply's, and the next prompt's growth sizes the thinking instead (thinkingFromGrowth). */
export function unloggedThinking(message: Message, perBlock: number[]): number | undefined {
  if (message.role !== 'assistant' || !message.usage) return 0;
  const blank = blankThinking(message);
  if (blank.length === 0) return 0;
  const visible = message.blocks.reduce((a, b, i) => a + (b.type === 'thinking' ? 0 : perBlock[i]), 0);
  // Below half the visible blocks (a tokenizer apart from ours counts no less than that), the count is not the reply's.
  if (message.usage.outputTokens * 2 < visible) return undefined;
  return spread(perBlock, blank, Math.max(0, message.usage.outputTokens - visible));
}

function blankThinking(message: Message): number[] {
  return message.blocks.flatMap((b, i) => (b.type === 'thinking' && b.text === '' ? [i] : []));
}

/** Sets the blocks `blank` of `perBlock` to `size` tokens together; the tokens added. */
function spread(perBlock: number[], blank: number[], size: number): number {
  const before = blank.reduce((a, i) => a + perBlock[i], 0);
  blank.forEach((i, n) => {
    perBlock[i] = Math.floor(size / blank.length) + (n === 0 ? size % blank.length : 0);
  });
  return size - before;
}

/** Hidden thinking of reply `m` sized by what it added to the next prompt: the next recorded prompt less this
 * one's, less the messages counted in between (the reply's visible blocks, the tool results). No growth to read
 * (no next reply with usage, a compaction or a smaller prompt between): none. The tokens added to the message. */
export function thinkingFromGrowth(
  messages: readonly Message[],
  m: number,
  perBlock: number[],
  messageTok: readonly number[],
): number {
  const usage = messages[m].usage;
  let n = m + 1;
  while (n < messages.length && !(messages[n].role === 'assistant' && messages[n].usage)) n++;
  const next = messages[n]?.usage;
  if (!usage || !next) return 0;
  const prompt = (u: NonNullable<Message['usage']>) =>
    u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens;
  const blank = blankThinking(messages[m]);
  // The messages in between as counted, less the thinking's own placeholder count (it is what is sized here).
  let between = -blank.reduce((a, i) => a + perBlock[i], 0);
  for (let j = m; j < n; j++) between += messageTok[j];
  return spread(perBlock, blank, Math.max(0, prompt(next) - prompt(usage) - between));
}

/** A reply's reasoning at the size the model produced it (its recorded reasoning tokens), spread over its thinking
 * blocks in `perBlock`; the total. Without a recorded size, the text's own count stands. */
export function recordedReasoning(message: Message, perBlock: number[]): number {
  const thinking = message.blocks.flatMap((b, i) => (b.type === 'thinking' ? [i] : []));
  if (thinking.length === 0) return 0;
  const recorded = message.usage?.reasoningOutputTokens;
  if (recorded === undefined) return thinking.reduce((a, i) => a + perBlock[i], 0);
  thinking.forEach((i, n) => {
    perBlock[i] = Math.floor(recorded / thinking.length) + (n === 0 ? recorded % thinking.length : 0);
  });
  return recorded;
}
