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

/** A section that is also a pass of its own (the registry derives the passes from these). */
export interface StrategyDescriptor<K extends string, S> extends SectionDescriptor<K, S> {
  strategy: StrategySpec;
  /** The lines that turn this strategy on with these settings, in each place a user can (none for a design that
   * no agent or provider ships). */
  turnOn?: (settings: S) => readonly TurnOnSnippet[];
}
