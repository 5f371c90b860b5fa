// Finding messages by their text: what the list's search field matches, over everything a message holds (its text,
// tool calls' names and arguments, tool results, thinking), not only the short preview the view has.
import { contentText } from './engine/content';
import type { Message, Transcript } from './model';

/** Lower-cased searchable text per message, built once per transcript (a 40 MB session: once, not per key). */
const haystacks = new WeakMap<Transcript, string[]>();

function messageText(m: Message): string {
  const parts: string[] = [];
  for (const b of m.blocks) {
    if (b.type === 'text') parts.push(b.text);
    else if (b.type === 'thinking') parts.push(b.text);
    else if (b.type === 'tool_use') parts.push(b.name, JSON.stringify(b.input) ?? '');
    else if (b.type === 'tool_result') parts.push(contentText(b.content));
  }
  return parts.join('\n').toLowerCase();
}

/** The messages whose text contains `query` (case-insensitive), in order; empty for an empty query. */
export function findMessages(transcript: Transcript, query: string): number[] {
  const needle = query.trim().toLowerCase();
  if (needle === '') return [];
  let texts = haystacks.get(transcript);
  if (!texts) {
    texts = transcript.messages.map(messageText);
    haystacks.set(transcript, texts);
  }
  const out: number[] = [];
  texts.forEach((t, i) => {
    if (t.includes(needle)) out.push(i);
  });
  return out;
}
