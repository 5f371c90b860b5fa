// Compaction (compaction.ts): Claude Code's auto-compact, OpenAI Responses `compaction`.
import { int, type StrategyDescriptor, type TurnOnSession, type TurnOnSnippet } from './descriptor';

export interface CompactionSettings {
  /** Share of the model's context window at which the conversation is summarized (OpenAI: `compact_threshold` =
   * this × the window). */
  threshold: number;
  /** Output tokens of a summary, when the log holds none at that point. */
  summaryTokens: number;
  /** Newest messages kept after the summary (a tool call is never parted from its result). */
  keepRecentMessages: number;
}

/** Anthropic's server compaction: its beta header, and the least trigger it takes. */
export const COMPACTION_BETA = 'compact-2026-01-12';
const ANTHROPIC_MIN_TRIGGER = 50_000;

/** The lines that compact at this share of the window: Claude Code's environment variable (a percentage), and
 * with the window known, Codex's limit and both APIs' server-side compaction (a number of tokens). */
function turnOnCompaction(s: CompactionSettings, session: TurnOnSession): TurnOnSnippet[] {
  const percent = Math.round(100 * s.threshold);
  const out: TurnOnSnippet[] = [
    {
      target: 'claude-code-env',
      language: 'shell',
      title: 'Claude Code: in the shell that starts it',
      text: `export CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=${percent}`,
      note:
        s.threshold >= compaction.settings.threshold.default
          ? 'Claude Code compacts at about this point by itself: the variable only ever lowers it.'
          : 'The variable only lowers the point where Claude Code compacts; set it in the shell, since the env block of settings.json has been reported not to reach it.',
    },
  ];
  if (!session.contextWindow) return out;
  const tokens = Math.round(s.threshold * session.contextWindow);
  const trigger = Math.max(tokens, ANTHROPIC_MIN_TRIGGER);
  out.push(
    {
      target: 'anthropic-request',
      language: 'json',
      title: `Anthropic Messages request body, sent with the header "anthropic-beta: ${COMPACTION_BETA}"`,
      text: JSON.stringify(
        {
          context_management: {
            edits: [{ type: 'compact_20260112', trigger: { type: 'input_tokens', value: trigger } }],
          },
        },
        null,
        2,
      ),
      ...(trigger !== tokens
        ? { note: `The API takes no trigger below ${ANTHROPIC_MIN_TRIGGER.toLocaleString('en-US')} tokens.` }
        : {}),
    },
    {
      target: 'codex-config',
      language: 'toml',
      title: 'Codex: ~/.codex/config.toml',
      text: `model_auto_compact_token_limit = ${tokens}`,
    },
    {
      target: 'openai-request',
      language: 'json',
      title: 'OpenAI Responses request body',
      text: JSON.stringify(
        { context_management: [{ type: 'compaction', compact_threshold: tokens }] },
        null,
        2,
      ),
    },
  );
  return out;
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
  turnOn: turnOnCompaction,
};
