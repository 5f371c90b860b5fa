// A hand-made Claude Code-shaped session that the agent compacted once: the tests of compaction, of the baselines
// and of the view's segments build it here.
import type { Message, Transcript } from '../../src/core/model';
import { assistant, msg, text, toolResult, toolUse, transcriptOf, user } from './transcripts';

/** The summary's text, as Claude Code starts it. */
export const COMPACT_SUMMARY = `This session is being continued. Summary: ${'facts '.repeat(200)}`;

/** `turns` tool turns (tools `a`, `b`, … with long outputs), then the log's compaction: the summary as a message of
 * its own (message `1 + 2 × turns`, the marker before it, of `preTokens`), one more short tool turn and a reply. */
export function compactedSession(turns: number, preTokens = 150_000): Transcript {
  const messages: Omit<Message, 'index'>[] = [user(text('start the work'))];
  for (let k = 0; k < turns; k++) {
    const id = String.fromCharCode(97 + k);
    messages.push(assistant(toolUse(id, 'bash')), user(toolResult(id, `output ${id} `.repeat(300))));
  }
  const summary = messages.length;
  const last = String.fromCharCode(97 + turns);
  messages.push(
    msg('user', [text(COMPACT_SUMMARY)], { flags: ['isCompactSummary'] }),
    assistant(toolUse(last, 'bash')),
    user(toolResult(last, `output ${last}`)),
    assistant(text('done')),
  );
  return transcriptOf(messages, {
    format: 'claude-code',
    markers: [{ kind: 'compaction', label: 'compact_boundary', beforeMessage: summary, preTokens }],
  });
}
