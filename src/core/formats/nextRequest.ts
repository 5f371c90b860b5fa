// What the agent's next request would carry (SPEC §5, "the next request"): after a compaction it sends the summary
// and what follows, never the messages the summary replaced; its system prompt and tool definitions only when the
// file holds them. The Anthropic request export builds from this, so that it is the request that would be sent.
import type { Transcript } from '../model';

export interface NextRequestSpan {
  /** The first message the next request sends: the last compaction's, else 0. */
  from: number;
  /** A summary the agent sends in place of the older messages that no message of the file holds (Codex's
   * `compacted` record), to be sent first, as the user's. */
  summary?: string;
  /** What the file leaves out of the request, and what was left out of it, in words. */
  notes: string[];
}

export function nextRequestSpan(transcript: Transcript): NextRequestSpan {
  const n = transcript.messages.length;
  let last: Transcript['markers'][number] | undefined;
  for (const m of transcript.markers)
    if (m.kind === 'compaction' && m.beforeMessage <= n && (!last || m.beforeMessage >= last.beforeMessage))
      last = m;
  const notes: string[] = [];
  const from = last?.beforeMessage ?? 0;
  if (last) {
    // A compaction may leave two markers at one place (Claude Code's boundary and its summary record).
    const compactions = new Set(
      transcript.markers.filter((m) => m.kind === 'compaction').map((m) => m.beforeMessage),
    ).size;
    notes.push(
      `the live segment only: messages ${from}–${n - 1}, from the last of ${compactions} compaction(s) on; the ${from} message(s) before it were compacted away and are not sent`,
    );
  }
  if (!transcript.system)
    notes.push(
      'system: the file does not hold the system prompt the agent sent; the request has none (the agent adds its own)',
    );
  if (!transcript.tools?.length)
    notes.push(
      'tools: the file does not hold the tool definitions the agent sent; the request declares none but the CCR tool when it needs it (the agent adds its own)',
    );
  if (transcript.reloads?.length)
    notes.push(
      'the agent reloaded or microcompacted the conversation: the messages it no longer sends are still in the request as the file holds them',
    );
  // A marker carries a summary only when no message holds it (a Claude Code summary is a message of its own).
  return last?.summary ? { from, summary: last.summary, notes } : { from, notes };
}
