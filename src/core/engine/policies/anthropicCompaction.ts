// Anthropic's server-side compaction (beta header `compact-2026-01-12`, edit `compact_20260112` in
// `context_management.edits`), simulated from its documentation:
//   - `trigger` (input tokens; default 150,000, at least 50,000): when a request's input exceeds it, the server
//     first summarizes the conversation (a sampling pass of its own, billed in `usage.iterations`), then answers
//     from the summary; the reply carries a `compaction` block and the API drops what precedes it in later requests;
//   - `pause_after_compaction` (default false): the reply stops after the `compaction` block, and the client sends
//     the next request itself;
//   - `instructions`: a prompt of one's own for the summary, in place of the default.
// Our reading where the documentation is silent: the summary's size is `summaryTokens`; the summarizing pass reads
// the previous request's cache and writes the rest; with `pause_after_compaction` the same tokens are billed over
// two requests in place of one, so the figures do not change.
import { type CompactionRule, int, type StrategyDescriptor, type TurnOnSnippet } from './descriptor';

export const COMPACTION_BETA = 'compact-2026-01-12';
export const COMPACT_EDIT = 'compact_20260112';

export interface AnthropicCompactionSettings {
  /** `trigger.value` (input tokens). */
  trigger: number;
  /** `pause_after_compaction`. */
  pauseAfterCompaction: boolean;
  /** Output tokens of a summary. */
  summaryTokens: number;
}

export const anthropicCompaction: StrategyDescriptor<'anthropicCompaction', AnthropicCompactionSettings> = {
  key: 'anthropicCompaction',
  settings: {
    trigger: {
      ...int(50_000),
      default: 150_000,
      description:
        'Anthropic compaction, `compact_20260112` `trigger.value`: the input tokens beyond which the server summarizes the conversation (API default 150,000, minimum 50,000).',
    },
    pauseAfterCompaction: {
      kind: 'bool',
      default: false,
      description:
        '`pause_after_compaction`: the reply stops after its `compaction` block and the client sends the next request (the same tokens are billed either way).',
    },
    summaryTokens: {
      ...int(1),
      default: 3000,
      description: "Anthropic compaction: the summary's size in tokens (the documentation gives none).",
    },
  },
  compacts: (s): CompactionRule => ({
    triggerTokens: s.trigger,
    count: 'input',
    summaryTokens: s.summaryTokens,
    keepRecentMessages: 0,
  }),
  turnOn: (s): TurnOnSnippet[] => [
    {
      target: 'anthropic-request',
      language: 'json',
      title: `Anthropic Messages API: the request's body, with the header "anthropic-beta: ${COMPACTION_BETA}"`,
      text: `${JSON.stringify(
        {
          context_management: {
            edits: [
              {
                type: COMPACT_EDIT,
                trigger: { type: 'input_tokens', value: s.trigger },
                pause_after_compaction: s.pauseAfterCompaction,
              },
            ],
          },
        },
        null,
        2,
      )}\n`,
      note: 'Send each reply\'s content back as it came (its `compaction` block included); add `"instructions"` to the edit for a summary prompt of your own.',
    },
  ],
  strategy: {
    providers: ['anthropic'],
    simulatedFromDocs: true,
    words: {
      alone: () => "a summary on Anthropic's server past its trigger, simulated from its documentation",
      combined: "and a summary on Anthropic's server past its trigger, simulated from its documentation",
    },
  },
};
