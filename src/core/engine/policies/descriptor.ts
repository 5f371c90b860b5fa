// The shape of a policy descriptor: one settings section, and for a strategy the pass it runs and where it comes
// from. Pure data, so that the webview, the manifest check and the engine read the same declaration.

/** What a setting allows; validation (policy.ts), the Controls and package.json's configuration follow it. */
export type SettingKind =
  | { kind: 'int'; min: number; max: number }
  | { kind: 'fraction' }
  | { kind: 'bool' }
  | { kind: 'patterns' }
  | { kind: 'names' }
  | { kind: 'intOrAll'; min: number; max: number }
  | { kind: 'enum'; values: readonly string[] };

/** A value of a setting that drops what the agent may still need, whatever it saves: below `below`, `words` say
 * what is lost (shown beside the setting, the sweep's best cell and `report --sweep`). */
export interface SettingRisk {
  below: number;
  words: string;
}

/** One setting: what it allows, the SPEC default, and the words of the `contextLens.*` setting; `risk` when low
 * values lose something the cost does not count; `inertWhy` when a sweep may find it changes nothing, and why. */
export type SettingSpec<V> = SettingKind & {
  default: V;
  description: string;
  risk?: SettingRisk;
  inertWhy?: string;
};

/** The largest integer a setting takes (the manifest declares no maximum). */
export const MAX_INT = 1_000_000_000;

export const int = (min: number) => ({ kind: 'int', min, max: MAX_INT }) as const;

/** A strategy: a pass of its own, the providers whose behaviour it models (empty: a client-side design of the
 * SPEC, for any provider), and whether it is simulated from the provider's documentation rather than its code. */
export interface StrategySpec {
  providers: readonly string[];
  /** The agents (format ids) whose own behaviour it is, offered for their sessions only; absent: any agent. */
  agents?: readonly string[];
  simulatedFromDocs: boolean;
  /** How it runs, beside the policy's name in the headline: when it is the policy's only pass (`once`: the
   * trigger is one pass, on the next request), and when it runs with another design. */
  words?: { alone: (once: boolean) => string; combined: string };
}

export interface SectionDescriptor<K extends string, S> {
  key: K;
  /** Every field of the section, in the order settings, errors and the manifest list them. */
  settings: { [F in keyof S]-?: SettingSpec<S[F]> };
  strategy?: StrategySpec;
}

/** Where a user puts the lines that turn a strategy on in their own agent or request. */
export type TurnOnTarget =
  | 'claude-code-settings'
  | 'claude-code-env'
  | 'codex-config'
  | 'anthropic-request'
  | 'openai-request';

/** The provider whose models each target's lines reach: a session sees the lines of its own provider only. */
export const TURN_ON_PROVIDERS: Readonly<Record<TurnOnTarget, string>> = {
  'claude-code-settings': 'anthropic',
  'claude-code-env': 'anthropic',
  'codex-config': 'openai',
  'anthropic-request': 'anthropic',
  'openai-request': 'openai',
};

/** What the lines may depend on beyond the settings: the session's context window (a share of it becomes a
 * number of tokens) and whether its requests carry thinking (an edit that keeps it must then be named). */
export interface TurnOnSession {
  contextWindow?: number;
  thinking: boolean;
}

/** The lines to paste, in the language of their target, so that a view can show them and a test can parse them. */
export interface TurnOnSnippet {
  target: TurnOnTarget;
  language: 'json' | 'toml' | 'shell';
  /** Where they go, in a few words ("Claude Code: ~/.claude/settings.json"). */
  title: string;
  text: string;
  /** What the lines leave out or where our reading of the source is a choice, when it is. */
  note?: string;
}

/** What a compaction compares with its trigger before a request: the agent's count (the usage the API returned for
 * the previous request plus the messages since: Claude Code), the same plus the reasoning of earlier turns that the
 * API no longer counts (Codex adds back its estimate of those items), or the request's own input tokens (a server
 * that compacts the request it receives). */
export type CompactionCount = 'agent' | 'agentWithReasoning' | 'input';

/** A strategy's compaction, for a model of a given window: the engine runs it (compaction.ts) whatever its name. */
export interface CompactionRule {
  /** Tokens at which the conversation is summarized before the next request. */
  triggerTokens: number;
  count: CompactionCount;
  /** Output tokens of a summary, where the log holds none at that point. */
  summaryTokens: number;
  /** Newest messages kept after the summary. */
  keepRecentMessages: number;
}

/** A strategy's clearing of old tool results by the client after an idle gap (microcompact.ts). */
export interface ClearingRule {
  /** A request this long after the previous reply clears the results. */
  idleMs: number;
  /** The newest results of those tools that stay. */
  keepRecent: number;
  /** The tools whose results are cleared (exact names). */
  tools: readonly string[];
  /** The text a cleared result is sent as. */
  placeholder: string;
}

/** A section that is also a pass of its own (the registry derives the passes from these). */
export interface StrategyDescriptor<K extends string, S> extends SectionDescriptor<K, S> {
  strategy: StrategySpec;
  /** Its compaction, for a model whose context window is `window`, when it compacts. */
  compacts?: (settings: S, window: number) => CompactionRule;
  /** Its clearing of old tool results, when it clears. */
  clears?: (settings: S) => ClearingRule;
  /** The lines that turn this strategy on with these settings, in each place a user can (none for a design that
   * no agent or provider ships). */
  turnOn?: (settings: S, session: TurnOnSession) => readonly TurnOnSnippet[];
}
