// Codex's auto-compaction (codex-rs, `auto_compact_token_limit`): before a request whose count reaches the limit,
// Codex asks the model for a summary and carries on from it (mid-turn when the model asked for a tool's follow-up,
// else before the next user turn). As its source has it:
//   - the limit is `model_auto_compact_token_limit` (config.toml) where set, else 90% of the model's context
//     window; since 0.100 a configured limit can only lower it (min with 90% of the window);
//   - the window is Codex's catalogue window for the model (272,000 for the GPT-5 family; `model_context_window`
//     overrides it), not the API's; the log's `model_context_window` is that window × 95%;
//   - the count is the total tokens the last response reported, plus Codex's estimate of what was added since
//     (the tool results) and of the reasoning items of earlier turns, which the API no longer counts
//     (`get_total_token_usage`). The replay counts those items in its own tokens rather than Codex's bytes ÷ 4.
// Our reading where the source is silent: the summary's size (the replacement history: the user's messages, up to
// 20,000 tokens, and the summary) is the log's where the log compacted at the same point, else `summaryTokens`.
import { type CompactionRule, int, type StrategyDescriptor, type TurnOnSnippet } from './descriptor';

export interface CodexAutoCompactSettings {
  /** `model_auto_compact_token_limit`; 0: not set (90% of the window). */
  tokenLimit: number;
  /** `model_context_window`: the window Codex assumes for the model. */
  contextWindow: number;
  /** Tokens of the replacement history where the log holds none at that point. */
  summaryTokens: number;
}

/** The limit Codex compacts at: the configured one, never above 90% of the window. */
export function codexCompactLimit(s: CodexAutoCompactSettings): number {
  const ninety = Math.floor((s.contextWindow * 9) / 10);
  return s.tokenLimit > 0 ? Math.min(s.tokenLimit, ninety) : ninety;
}

/** Codex's catalogue window for the GPT-5 family (the log's `model_context_window` 258,400 is 95% of it). */
export const CODEX_CONTEXT_WINDOW = 272_000;

export const codexAutoCompact: StrategyDescriptor<'codexAutoCompact', CodexAutoCompactSettings> = {
  key: 'codexAutoCompact',
  settings: {
    tokenLimit: {
      ...int(0),
      default: 0,
      description:
        'Codex auto-compaction, `model_auto_compact_token_limit`: the count at which Codex summarizes the conversation; `0`: not set (90% of `codexAutoCompact.contextWindow`; a larger limit is lowered to that, as Codex does since 0.100).',
    },
    contextWindow: {
      ...int(1),
      default: CODEX_CONTEXT_WINDOW,
      description:
        "Codex auto-compaction, `model_context_window`: the window Codex assumes for the model (its catalogue's 272,000 for the GPT-5 family, not the API's).",
    },
    summaryTokens: {
      ...int(1),
      default: 9000,
      description:
        "Codex auto-compaction: the tokens of what replaces the conversation (the user's messages and the summary) where the log holds none at that point.",
    },
  },
  compacts: (s): CompactionRule => ({
    triggerTokens: codexCompactLimit(s),
    count: 'agentWithReasoning',
    summaryTokens: s.summaryTokens,
    keepRecentMessages: 0,
  }),
  turnOn: (s): TurnOnSnippet[] => {
    const lines = [`model_auto_compact_token_limit = ${codexCompactLimit(s)}`];
    if (s.contextWindow !== CODEX_CONTEXT_WINDOW) lines.push(`model_context_window = ${s.contextWindow}`);
    return [
      {
        target: 'codex-config',
        language: 'toml',
        title: 'Codex: ~/.codex/config.toml (top level)',
        text: `${lines.join('\n')}\n`,
        note: 'Codex compacts at 90% of the window when the limit is not set; a limit above that is lowered to it.',
      },
    ];
  },
  strategy: {
    providers: ['openai'],
    agents: ['codex'],
    simulatedFromDocs: false,
    words: {
      alone: () => "Codex's auto-compaction at its token limit, from Codex's source",
      combined: "and Codex's auto-compaction, from Codex's source",
    },
  },
};
