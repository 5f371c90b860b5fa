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
}

/** The main conversation first, then each sub-agent, with their sizes. */
export function threadsOf(t: Transcript): ThreadInfo[] {
  const replies = (id: string, messages: readonly Message[]) =>
    t.replies
      ? t.replies.filter((r) => r.thread === id && r.onBranch && !r.compaction).length
      : messages.filter((m) => m.usage).length;
  return [
    { id: MAIN_THREAD, messages: t.messages.length, replies: replies(MAIN_THREAD, t.messages) },
    ...t.sidechains
      .filter((c) => c.messages !== t.messages)
      .map((c) => ({ id: c.id, messages: c.messages.length, replies: replies(c.id, c.messages) })),
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
