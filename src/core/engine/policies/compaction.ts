// Compaction (compaction.ts): Claude Code's auto-compact, OpenAI Responses `compaction`.
import { int, type StrategyDescriptor } from './descriptor';

export interface CompactionSettings {
  /** Share of the model's context window at which the conversation is summarized (OpenAI: `compact_threshold` =
   * this × the window). */
  threshold: number;
  /** Output tokens of a summary, when the log holds none at that point. */
  summaryTokens: number;
  /** Newest messages kept after the summary (a tool call is never parted from its result). */
  keepRecentMessages: number;
}

export const compaction: StrategyDescriptor<'compaction', CompactionSettings> = {
  key: 'compaction',
  settings: {
    // Claude Code's auto-compact point on a 200k window: the window less 20,000 tokens kept for the summary's
    // output and a 13,000-token buffer = 167,000 (every compact_boundary of the real logs we hold says 167,731 to
    // 175,199 tokens before it). The summary's size and the kept messages: see compaction.ts.
    threshold: {
      kind: 'fraction',
      default: 0.835,
      description:
        "Compaction: the share of the model's context window at which the conversation is summarized (Claude Code: 167,000 of 200,000 = 0.835; OpenAI `compact_threshold` = this × the window).",
    },
    summaryTokens: {
      ...int(1),
      default: 3000,
      description:
        "Compaction: the summary's size in tokens where the log holds no summary of its own at that point.",
    },
    keepRecentMessages: {
      ...int(0),
      default: 0,
      description:
        'Compaction: the newest messages kept after the summary (a tool call is never parted from its result; Claude Code keeps none).',
    },
  },
  compacts: (s, window) => ({
    triggerTokens: s.threshold * window,
    count: 'agent',
    summaryTokens: s.summaryTokens,
    keepRecentMessages: s.keepRecentMessages,
  }),
  strategy: {
    providers: ['anthropic', 'openai'],
    simulatedFromDocs: true,
    // Compaction replaces the conversation and combines with no other pass, so it has no combined form of its own.
    words: {
      alone: () => 'a summary near the context limit, simulated from documented behaviour',
      combined: 'and a summary near the context limit, simulated from documented behaviour',
    },
  },
};
