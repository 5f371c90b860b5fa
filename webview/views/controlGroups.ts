// The Controls' groups of numeric settings and the policy list, with the words each shows (Controls.tsx).
import type { PolicyName } from '../../src/core/engine/policy';
import type { PolicySettingKey } from '../../src/protocol/settingValues';
import type { DropdownOption } from '../ui/toolkit';

export interface NumberSpec {
  key: PolicySettingKey;
  step?: number;
  description: string;
}

export const GROUPS: {
  title: string;
  /** Said under the group's title. */
  note?: string;
  numbers: NumberSpec[];
  lists: { key: PolicySettingKey; description: string }[];
}[] = [
  {
    title: 'Tiered compression',
    numbers: [
      { key: 'tiered.keepRecent', description: 'distance below this: Tier 3, untouched' },
      {
        key: 'tiered.tier1Distance',
        description: 'distance at or above this: Tier 1, unless floored',
      },
      { key: 'tiered.maxResultChars', description: 'head-and-tail budget of a Tier-2 block' },
      {
        key: 'tiered.summaryMinChars',
        description: 'only longer results are offered to the summarizer',
      },
      {
        key: 'tiered.summariesPerPass',
        description: 'summarizer attempts per pass (failures count)',
      },
      {
        key: 'tiered.argsChars',
        description: 'how much of the call’s JSON input a Tier-1 stub keeps',
      },
    ],
    lists: [
      {
        key: 'tiered.floorTools',
        description: 'tools never stubbed to Tier 1 (name, or prefix ending in *)',
      },
      { key: 'tiered.noSummaryTools', description: 'tools never summarized (still truncated)' },
    ],
  },
  {
    title: 'Observation window',
    numbers: [{ key: 'observation.keep', description: 'newest observations kept; 0 turns the window off' }],
    lists: [{ key: 'observation.tools', description: 'which tools are observations' }],
  },
  {
    title: 'Live zone',
    numbers: [
      { key: 'liveZone.keepTurns', description: 'last turns shown as protected' },
      { key: 'liveZone.minChars', description: 'blocks shorter than this are not compressed' },
      { key: 'liveZone.outputBufferTokens', description: 'carved off the context window first' },
    ],
    lists: [],
  },
  {
    title: 'Anthropic context editing',
    note: 'On Anthropic’s server (beta context-management-2025-06-27); simulated from its documented behaviour.',
    numbers: [
      { key: 'contextEditing.trigger', description: 'clearing starts once the prompt exceeds it' },
      { key: 'contextEditing.keep', description: 'newest tool uses never cleared' },
      {
        key: 'contextEditing.clearAtLeast',
        description: 'an edit that frees fewer tokens is not applied (0: not sent)',
      },
    ],
    lists: [{ key: 'contextEditing.excludeTools', description: 'tools never cleared (exact names)' }],
  },
  {
    title: 'Compaction',
    note: 'Claude Code’s auto-compact, OpenAI Responses compaction; simulated from their documented behaviour.',
    numbers: [
      {
        key: 'compaction.threshold',
        step: 0.005,
        description: 'share of the context window at which the conversation is summarized',
      },
      {
        key: 'compaction.summaryTokens',
        description: 'summary size where the log holds none of its own',
      },
      {
        key: 'compaction.keepRecentMessages',
        description: 'newest messages kept after the summary',
      },
    ],
    lists: [],
  },
  {
    title: 'Codex auto-compaction',
    note: 'Codex’s own (config.toml), from its source.',
    numbers: [
      {
        key: 'codexAutoCompact.tokenLimit',
        description: 'model_auto_compact_token_limit (0: 90% of the window)',
      },
      {
        key: 'codexAutoCompact.contextWindow',
        description: 'model_context_window: the window Codex assumes',
      },
      {
        key: 'codexAutoCompact.summaryTokens',
        description: 'what replaces the conversation, where the log has none',
      },
    ],
    lists: [],
  },
  {
    title: 'Claude Code',
    note: 'Claude Code’s auto-compact and microcompaction; simulated from reported behaviour.',
    numbers: [
      {
        key: 'claudeCode.autocompactPctOverride',
        description:
          'CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: % of the effective window (0: not set; only lowers it)',
      },
      {
        key: 'claudeCode.microcompactIdleMinutes',
        description: 'idle gap after which old tool results are cleared',
      },
      { key: 'claudeCode.microcompactKeepRecent', description: 'newest tool results kept' },
      { key: 'claudeCode.summaryTokens', description: 'summary size where the log holds none of its own' },
    ],
    lists: [],
  },
  {
    title: 'Anthropic compaction',
    note: 'On Anthropic’s server (beta compact-2026-01-12); simulated from its documentation.',
    numbers: [
      { key: 'anthropicCompaction.trigger', description: 'input tokens beyond which the server summarizes' },
      { key: 'anthropicCompaction.summaryTokens', description: 'summary size (not documented)' },
    ],
    lists: [],
  },
  {
    title: 'Replay and cache',
    numbers: [
      {
        key: 'replay.pressureFraction',
        step: 0.01,
        description: 'pressure trigger: share of the context window that starts a pass',
      },
    ],
    lists: [],
  },
];

export const POLICIES = [
  { value: 'none', label: 'none' },
  { value: 'tiered', label: 'tiered' },
  { value: 'live-zone', label: 'live zone' },
  { value: 'tiered+live-zone', label: 'tiered + live zone' },
  { value: 'observation', label: 'observation window' },
  { value: 'anthropic-context-editing', label: 'Anthropic context editing' },
  { value: 'tiered+anthropic-context-editing', label: 'tiered + context editing' },
  { value: 'live-zone+anthropic-context-editing', label: 'live zone + context editing' },
  { value: 'compaction', label: 'compaction (auto-compact)' },
  { value: 'codex-auto-compact', label: 'Codex auto-compaction' },
  { value: 'claude-code-microcompact', label: 'Claude Code auto-compact + microcompaction' },
  { value: 'anthropic-compaction', label: 'Anthropic compaction (server)' },
] satisfies { value: PolicyName; label: string }[];

/** The policies a session can use (`offered`, the host's answer), and the current one whatever it is. */
export function policyOptions(current: string, offered: readonly string[] | undefined): DropdownOption[] {
  return offered ? POLICIES.filter((p) => p.value === current || offered.includes(p.value)) : POLICIES;
}
