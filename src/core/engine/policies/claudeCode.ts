// Claude Code's own context management, as its behaviour is reported (its source is not public: the issues that
// read its bundle, and the logs we hold):
//   - auto-compact: the effective window is the model's window less 20,000 tokens kept for the summary's output;
//     Claude Code summarizes the conversation once its count (the last usage plus the messages since) reaches the
//     effective window less a 13,000-token buffer (167,000 on a 200k window, 967,000 on 1M).
//     `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` (a percentage) sets the point at that share of the effective window, and
//     can only lower it (min with the default);
//   - microcompaction (time-based): when a request comes after an idle gap longer than the prompt cache's
//     lifetime (one hour), the cache is gone anyway, so the results of all but the newest few calls of the
//     tools whose output is bulky (Read, Bash, Grep, Glob, Edit, Write, WebFetch, WebSearch) are sent as
//     "[Old tool result content cleared]" from then on.
// Our reading where the reports are silent or disagree: five results are kept (the default the reports cite); the
// gap runs from the previous reply to this request's reply; the summary's size is the log's where the log compacted
// at the same point, else `summaryTokens`. Older versions (2.1.19 in the logs we hold) also microcompacted under
// token pressure, with no idle gap; that rule is not modelled.
import {
  type ClearingRule,
  type CompactionRule,
  int,
  type StrategyDescriptor,
  type TurnOnSnippet,
} from './descriptor';

export interface ClaudeCodeSettings {
  /** `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`; 0: not set. */
  autocompactPctOverride: number;
  /** Minutes of idle gap after which old tool results are cleared (the prompt cache's lifetime). */
  microcompactIdleMinutes: number;
  /** The newest results of the cleared tools that stay. */
  microcompactKeepRecent: number;
  /** Output tokens of a summary, where the log holds none at that point. */
  summaryTokens: number;
}

/** Tokens kept free for the summary's output, and the buffer below the effective window. */
export const CLAUDE_CODE_SUMMARY_RESERVE = 20_000;
export const CLAUDE_CODE_AUTOCOMPACT_BUFFER = 13_000;
export const MICROCOMPACT_PLACEHOLDER = '[Old tool result content cleared]';
export const MICROCOMPACT_TOOLS = ['Read', 'Bash', 'Grep', 'Glob', 'Edit', 'Write', 'WebFetch', 'WebSearch'];

/** Where Claude Code auto-compacts on a model of this window. */
export function claudeCodeCompactAt(s: ClaudeCodeSettings, window: number): number {
  const effective = window - CLAUDE_CODE_SUMMARY_RESERVE;
  const fallback = effective - CLAUDE_CODE_AUTOCOMPACT_BUFFER;
  const pct = s.autocompactPctOverride;
  return pct > 0 ? Math.min(Math.floor(effective * (pct / 100)), fallback) : fallback;
}

export const claudeCode: StrategyDescriptor<'claudeCode', ClaudeCodeSettings> = {
  key: 'claudeCode',
  settings: {
    autocompactPctOverride: {
      kind: 'int',
      min: 0,
      max: 100,
      default: 0,
      description:
        'Claude Code, `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`: auto-compact at this percentage of the effective window (the window less 20,000), never later than the default (the effective window less 13,000); `0`: not set.',
    },
    microcompactIdleMinutes: {
      ...int(1),
      default: 60,
      description:
        "Claude Code microcompaction: a request this many minutes after the previous reply clears old tool results (reported as the prompt cache's lifetime, one hour).",
    },
    microcompactKeepRecent: {
      ...int(0),
      default: 5,
      description:
        'Claude Code microcompaction: the newest results of Read, Bash, Grep, Glob, Edit, Write, WebFetch and WebSearch that are kept.',
    },
    summaryTokens: {
      ...int(1),
      default: 3000,
      description:
        "Claude Code auto-compact: the summary's size in tokens where the log holds no summary of its own at that point.",
    },
  },
  compacts: (s, window): CompactionRule => ({
    triggerTokens: claudeCodeCompactAt(s, window),
    count: 'agent',
    summaryTokens: s.summaryTokens,
    keepRecentMessages: 0,
  }),
  clears: (s): ClearingRule => ({
    idleMs: s.microcompactIdleMinutes * 60_000,
    keepRecent: s.microcompactKeepRecent,
    tools: MICROCOMPACT_TOOLS,
    placeholder: MICROCOMPACT_PLACEHOLDER,
  }),
  turnOn: (s): TurnOnSnippet[] => {
    if (s.autocompactPctOverride === 0) return [];
    const pct = String(s.autocompactPctOverride);
    const note =
      'Microcompaction has no setting: Claude Code runs it by itself. Some versions read this variable only from the environment.';
    return [
      {
        target: 'claude-code-settings',
        language: 'json',
        title: 'Claude Code: ~/.claude/settings.json',
        text: `${JSON.stringify({ env: { CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: pct } }, null, 2)}\n`,
        note,
      },
      {
        target: 'claude-code-env',
        language: 'shell',
        title: 'Claude Code: the shell that starts it',
        text: `export CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=${pct}\n`,
        note,
      },
    ];
  },
  strategy: {
    providers: ['anthropic'],
    agents: ['claude-code'],
    simulatedFromDocs: true,
    words: {
      alone: () => "Claude Code's auto-compact and microcompaction, simulated from reported behaviour",
      combined: "and Claude Code's auto-compact and microcompaction, simulated from reported behaviour",
    },
  },
};
