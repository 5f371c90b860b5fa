// The policy registry: every settings section and strategy, in the order the settings, the errors and the
// manifest list them, and the policies as rows of passes. Types, defaults, validation keys and the words about a
// strategy are derived from here (policy.ts); this file holds data only, so the webview may import it.
import { anthropicCompaction } from './anthropicCompaction';
import { claudeCode } from './claudeCode';
import { codexAutoCompact } from './codexAutoCompact';
import { compaction } from './compaction';
import { contextEditing } from './contextEditing';
import type {
  ClearingRule,
  CompactionRule,
  SettingSpec,
  StrategySpec,
  TurnOnSession,
  TurnOnSnippet,
} from './descriptor';
import { liveZone } from './liveZone';
import { observation } from './observation';
import { replay } from './replay';
import { tiered } from './tiered';

export const SECTIONS = [
  tiered,
  observation,
  liveZone,
  replay,
  contextEditing,
  compaction,
  codexAutoCompact,
  claudeCode,
  anthropicCompaction,
] as const;

type Section = (typeof SECTIONS)[number];
export type SectionKey = Section['key'];
export const SECTION_KEYS: readonly SectionKey[] = SECTIONS.map((s) => s.key);

/** The sections that run a pass of their own. */
export type PassKey = Extract<Section, { strategy: StrategySpec }>['key'];

/** The passes of each policy, as data: a combination is one more row. The observation window belongs to the
 * tiered runtime (SPEC §3 comes from the same agent runtime as §2), so it runs with `tiered` and alone as
 * `observation`; `live-zone` is the proxy's rule alone. Context editing runs on the provider's server, after the
 * client's passes, so it combines with either client-side design, as deployments do; compaction replaces the
 * conversation itself and combines with none of them. `observation.keep = 0` turns the window off everywhere. */
export const POLICY_ROWS = {
  none: [],
  tiered: ['tiered', 'observation'],
  'live-zone': ['liveZone'],
  'tiered+live-zone': ['tiered', 'observation', 'liveZone'],
  observation: ['observation'],
  'anthropic-context-editing': ['contextEditing'],
  'tiered+anthropic-context-editing': ['tiered', 'observation', 'contextEditing'],
  'live-zone+anthropic-context-editing': ['liveZone', 'contextEditing'],
  compaction: ['compaction'],
  'codex-auto-compact': ['codexAutoCompact'],
  'claude-code-microcompact': ['claudeCode'],
  'anthropic-compaction': ['anthropicCompaction'],
} as const satisfies Record<string, readonly PassKey[]>;

export type PolicyName = keyof typeof POLICY_ROWS;
export type PolicyPasses = Record<PassKey, boolean>;

export const POLICY_NAMES = Object.keys(POLICY_ROWS) as PolicyName[];

/** The policies the views and `simulate` put side by side by default: "none", the SPEC's two designs and both,
 * and the providers' strategies people switch on. */
export const COMPARED_POLICIES: readonly PolicyName[] = [
  'none',
  'tiered',
  'live-zone',
  'tiered+live-zone',
  'anthropic-context-editing',
  'compaction',
  'codex-auto-compact',
  'claude-code-microcompact',
  'anthropic-compaction',
];

const STRATEGIES = SECTIONS.filter((s): s is Extract<Section, { strategy: StrategySpec }> => 'strategy' in s);

export const POLICY_PASSES = Object.fromEntries(
  POLICY_NAMES.map((name) => {
    const on: readonly PassKey[] = POLICY_ROWS[name];
    return [name, Object.fromEntries(STRATEGIES.map((s) => [s.key, on.includes(s.key)])) as PolicyPasses];
  }),
) as Readonly<Record<PolicyName, PolicyPasses>>;

/** The sections of the providers' strategies: their keys are the API's and keep their section when shown
 * (`contextEditing.keep` is not `observation.keep`). */
export const PROVIDER_SECTIONS: ReadonlySet<string> = new Set(
  STRATEGIES.filter((s) => s.strategy.providers.length > 0).map((s) => s.key),
);

/** The strategies a policy runs, or none for a name that is not a policy. */
function strategiesOf(name: string): StrategySpec[] {
  if (!Object.hasOwn(POLICY_ROWS, name)) return [];
  const on: readonly PassKey[] = POLICY_ROWS[name as PolicyName];
  return STRATEGIES.filter((s) => on.includes(s.key)).map((s) => s.strategy);
}

/** The session a strategy is offered for: the provider of its model and the agent (format) that wrote it. */
export interface SessionKind {
  provider: string | undefined;
  agent: string | undefined;
}

/** Whether a strategy applies to a session: its provider's (none listed: any) and its agent's (none listed: any). */
function appliesTo(spec: StrategySpec, session: SessionKind): boolean {
  const provider =
    spec.providers.length === 0 ||
    (session.provider !== undefined && spec.providers.includes(session.provider));
  const agent =
    spec.agents === undefined || (session.agent !== undefined && spec.agents.includes(session.agent));
  return provider && agent;
}

/** Whether a policy can be used on a session: each of its strategies applies to it ("none" always). */
export function isOffered(name: string, session: SessionKind): boolean {
  return Object.hasOwn(POLICY_ROWS, name) && strategiesOf(name).every((s) => appliesTo(s, session));
}

/** The names of `names` a session can use, in their order. */
export function offeredPolicies<N extends string>(names: readonly N[], session: SessionKind): N[] {
  return names.filter((name) => isOffered(name, session));
}

type RuleOwner = { key: string; compacts?: unknown; clears?: unknown; turnOn?: unknown };
const ruleOwners = (name: string): RuleOwner[] =>
  Object.hasOwn(POLICY_ROWS, name)
    ? (STRATEGIES as readonly RuleOwner[]).filter((s) =>
        (POLICY_ROWS[name as PolicyName] as readonly string[]).includes(s.key),
      )
    : [];

/** The compaction a policy runs on a model of this window (its strategy's own rule), if it compacts. */
export function compactionRuleOf(
  policy: { name: string } & Partial<Record<SectionKey, unknown>>,
  window: number,
): CompactionRule | undefined {
  const owner = ruleOwners(policy.name).find((s) => s.compacts);
  const compacts = owner?.compacts as ((settings: unknown, window: number) => CompactionRule) | undefined;
  return compacts && owner ? compacts(policy[owner.key as SectionKey], window) : undefined;
}

/** The clearing of old tool results a policy's strategy runs on the client, if any. */
export function clearingRuleOf(
  policy: { name: string } & Partial<Record<SectionKey, unknown>>,
): ClearingRule | undefined {
  const owner = ruleOwners(policy.name).find((s) => s.clears);
  const clears = owner?.clears as ((settings: unknown) => ClearingRule) | undefined;
  return clears && owner ? clears(policy[owner.key as SectionKey]) : undefined;
}

/** The lines that turn a policy's strategies on in the user's own agent or request, with its settings; `except`:
 * the sections whose lines the caller writes itself. */
export function turnOnOf(
  policy: { name: string } & Partial<Record<SectionKey, unknown>>,
  session: TurnOnSession = { thinking: false },
  except: readonly SectionKey[] = [],
): TurnOnSnippet[] {
  return ruleOwners(policy.name).flatMap((owner) => {
    if (except.includes(owner.key as SectionKey)) return [];
    const turnOn = owner.turnOn as
      | ((settings: unknown, session: TurnOnSession) => readonly TurnOnSnippet[])
      | undefined;
    return turnOn ? [...turnOn(policy[owner.key as SectionKey], session)] : [];
  });
}

/** Whether a policy's figures come from a provider's documented behaviour rather than a rule we hold the code of. */
export function simulatedFromDocs(name: string): boolean {
  return strategiesOf(name).some((s) => s.simulatedFromDocs);
}

/** Whether a policy is one provider strategy alone: its own words say when it runs, in place of the trigger's. */
export function isStrategyAlone(name: string): boolean {
  const strategies = strategiesOf(name);
  return strategies.length === 1 && strategies[0].words !== undefined;
}

/** How a policy's provider strategy runs, for the words beside its name ('' for the SPEC's designs). */
export function strategyWords(name: string, once = false): string {
  const strategies = strategiesOf(name);
  const worded = strategies.find((s) => s.words);
  if (!worded?.words) return '';
  return strategies.length === 1 ? worded.words.alone(once) : worded.words.combined;
}

/** Every settable `section.key` with what it allows, its default and its description, in registry order. */
export const SETTINGS: readonly {
  key: string;
  section: SectionKey;
  field: string;
  spec: SettingSpec<unknown>;
}[] = SECTIONS.flatMap((s) =>
  Object.entries(s.settings as Record<string, SettingSpec<unknown>>).map(([field, spec]) => ({
    key: `${s.key}.${field}`,
    section: s.key,
    field,
    spec,
  })),
);

type SettingPathOf<D> = D extends { key: infer K extends string; settings: infer S }
  ? `${K}.${keyof S & string}`
  : never;
/** A `section.key` of the registry (`tiered.keepRecent`), as the settings and the CLI's `--set` name it. */
export type SettingPath = SettingPathOf<Section>;
export const SETTING_PATHS = SETTINGS.map((s) => s.key) as SettingPath[];

/** A fresh copy of each section's defaults (lists copied, so a caller may change them). */
export function defaultSections(): Record<SectionKey, Record<string, unknown>> {
  const out = {} as Record<SectionKey, Record<string, unknown>>;
  for (const { section, field, spec } of SETTINGS) {
    out[section] ??= {};
    out[section][field] = Array.isArray(spec.default) ? [...spec.default] : spec.default;
  }
  return out;
}
