// The request streams of one file: the main conversation and each sub-agent's (sidechain), each replayed on its
// own. A sub-agent's stream is the file's transcript with that conversation's messages: the same bytes, so that
// write-back still splices into the right records.
import { mostFrequent } from './formats/mostFrequent';
import type { Message, Transcript } from './model';

export const MAIN_THREAD = 'main';

export interface ThreadInfo {
  id: string;
  messages: number;
  /** Replies with recorded usage in this thread. */
  replies: number;
  /** A sub-agent's name: the `description` of the call that started it (Claude Code's Task or Agent tool). */
  description?: string;
}

const flat = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The text of the first user message of `messages`: a sub-agent's is the prompt its caller gave it. */
export function firstPrompt(messages: readonly Message[]): string {
  const first = messages.find((m) => m.role === 'user');
  return first ? flat(first.blocks.map((b) => (b.type === 'text' ? b.text : '')).join(' ')) : '';
}

/** The calls that start a sub-agent (an input with a `prompt` and a `description`, as Claude Code's Task and Agent
 * tools take) in `messages`: their prompt, flattened, and their description. */
export function subAgentCalls(messages: readonly Message[]): { prompt: string; description: string }[] {
  const out: { prompt: string; description: string }[] = [];
  for (const m of messages)
    for (const b of m.blocks) {
      if (b.type !== 'tool_use' || !b.input || typeof b.input !== 'object') continue;
      const { prompt, description } = b.input as { prompt?: unknown; description?: unknown };
      if (typeof prompt === 'string' && typeof description === 'string' && description.trim())
        out.push({ prompt: flat(prompt), description: flat(description) });
    }
  return out;
}

/** The description of the call whose prompt `prompt` is (both flattened; a prompt cut short, as a listing's
 * first bytes give it, matches the call's beginning). */
export function describedBy(
  calls: readonly { prompt: string; description: string }[],
  prompt: string,
): string | undefined {
  const p = prompt.replace(/…$/, '');
  if (!p) return undefined;
  return (calls.find((c) => c.prompt === p) ?? calls.find((c) => c.prompt.startsWith(p)))?.description;
}

/** The main conversation first, then each sub-agent, with their sizes. */
export function threadsOf(t: Transcript): ThreadInfo[] {
  const replies = (id: string, messages: readonly Message[]) =>
    t.replies
      ? t.replies.filter((r) => r.thread === id && r.onBranch && !r.compaction).length
      : messages.filter((m) => m.usage).length;
  const calls = subAgentCalls(t.messages);
  return [
    { id: MAIN_THREAD, messages: t.messages.length, replies: replies(MAIN_THREAD, t.messages) },
    ...t.sidechains
      .filter((c) => c.messages !== t.messages)
      .map((c) => {
        const info: ThreadInfo = {
          id: c.id,
          messages: c.messages.length,
          replies: replies(c.id, c.messages),
        };
        const description = describedBy(calls, firstPrompt(c.messages));
        if (description) info.description = description;
        return info;
      }),
  ];
}

const byThread = new WeakMap<Transcript, Map<string, Transcript>>();

/** The transcript of one thread (`main`: the file's own); undefined for an id the file does not hold. Memoised, so
 * re-analyses of a thread reuse its preparation. */
export function threadTranscript(t: Transcript, id: string): Transcript | undefined {
  if (id === MAIN_THREAD) return t;
  const conversation = t.sidechains.find((c) => c.id === id);
  if (!conversation) return undefined;
  if (conversation.messages === t.messages) return t;
  let memo = byThread.get(t);
  if (!memo) {
    memo = new Map();
    byThread.set(t, memo);
  }
  let thread = memo.get(id);
  if (!thread) {
    thread = {
      ...t,
      messages: conversation.messages,
      markers: [],
      sidechains: [],
      replies: t.replies?.filter((r) => r.thread === id),
      reloads: undefined,
      model: mostFrequent(conversation.messages.flatMap((m) => (m.model ? [m.model] : []))) ?? t.model,
    };
    memo.set(id, thread);
  }
  return thread;
}
