// Every constant of SPEC §2–§5, under the SPEC's names. Defaults are the SPEC's defaults.
import { adapterFor } from '../formats/registry';
import type { FormatId } from '../model';
import { AUTO_MODEL, MODEL_PRESETS, type ModelPreset } from './models';
import { patternProblem } from './patterns';

export interface TieredSettings {
  keepRecent: number;
  tier1Distance: number;
  maxResultChars: number;
  summaryMinChars: number;
  summariesPerPass: number;
  floorTools: string[];
  noSummaryTools: string[];
  argsChars: number;
}

export interface ObservationSettings {
  keep: number;
  tools: string[];
}

export interface LiveZoneSettings {
  keepTurns: number;
  minChars: number;
  outputBufferTokens: number;
  ccr: boolean;
}

/** SPEC §5. `auto`: `everyRequest` for a session that holds sent requests (Claude Code, Codex), `once` for a single
 * request body; the other three are what a replay runs (`resolveTrigger`). */
export type ReplayTrigger = 'auto' | 'once' | 'everyRequest' | 'pressure';
export type ResolvedTrigger = Exclude<ReplayTrigger, 'auto'>;
export const REPLAY_TRIGGERS: readonly ReplayTrigger[] = ['auto', 'once', 'everyRequest', 'pressure'];

/** What `auto` means for one transcript: a session with sent requests is replayed over them; a single request body
 * (or a session with no reply yet) is one pass, on the next request. */
export function resolveTrigger(
  trigger: ReplayTrigger,
  format: FormatId,
  sentRequests: number,
): ResolvedTrigger {
  if (trigger !== 'auto') return trigger;
  return adapterFor(format).session && sentRequests > 0 ? 'everyRequest' : 'once';
}

/** `auto`: what the log's usage says (1-hour writes, else 5 minutes). */
export type CacheTtlSetting = 'auto' | '5m' | '1h';

export interface ReplaySettings {
  trigger: ReplayTrigger;
  pressureFraction: number;
  cacheTtl: CacheTtlSetting;
}

/** What `contextEditing.trigger` counts (the API's `trigger.type`). */
export type ContextEditingTriggerType = 'input_tokens' | 'tool_uses';

/** Anthropic context editing (contextEditing.ts): the parameters of `clear_tool_uses_20250919` and
 * `clear_thinking_20251015`, under the API's own names in camel case. */
export interface ContextEditingSettings {
  /** `trigger.type`: the prompt's input tokens, or the number of tool uses in it. */
  triggerType: ContextEditingTriggerType;
  /** `trigger.value`: clearing starts once the prompt exceeds it. */
  trigger: number;
  /** `keep` (tool uses): the newest tool uses never cleared. */
  keep: number;
  /** `clear_at_least` (input tokens): a clearing that would free fewer is not applied; 0: not sent. */
  clearAtLeast: number;
  /** `exclude_tools`: tool names whose uses and results are never cleared (exact names, as the API takes them). */
  excludeTools: string[];
  /** `clear_tool_inputs`: also clear the inputs of the cleared calls. */
  clearToolInputs: boolean;
  /** `clear_thinking_20251015` `keep` (thinking turns): the newest assistant turns whose thinking is kept, or
   * `all` (nothing cleared). */
  clearThinkingKeep: number | 'all';
}

/** Compaction (compaction.ts): Claude Code's auto-compact, OpenAI Responses `compaction`. */
export interface CompactionSettings {
  /** Share of the model's context window at which the conversation is summarized (OpenAI: `compact_threshold` =
   * this × the window). */
  threshold: number;
  /** Output tokens of a summary, when the log holds none at that point. */
  summaryTokens: number;
  /** Newest messages kept after the summary (a tool call is never parted from its result). */
  keepRecentMessages: number;
}

/** Which policies run. `observation` is the window of SPEC §3, combinable with the others. */
export type PolicyName =
  | 'none'
  | 'tiered'
  | 'live-zone'
  | 'tiered+live-zone'
  | 'observation'
  | 'anthropic-context-editing'
  | 'tiered+anthropic-context-editing'
  | 'live-zone+anthropic-context-editing'
  | 'compaction';

/** The passes of each policy, as data: a combination is one more row. The observation window belongs to the
 * tiered runtime (SPEC §3 comes from the same agent runtime as §2), so it runs with `tiered` and alone as
 * `observation`; `live-zone` is the proxy's rule alone. Context editing runs on the provider's server, after the
 * client's passes, so it combines with either client-side design, as deployments do; compaction replaces the
 * conversation itself and combines with none of them. `observation.keep = 0` turns the window off everywhere. */
export interface PolicyPasses {
  tiered: boolean;
  observation: boolean;
  liveZone: boolean;
  contextEditing: boolean;
  compaction: boolean;
}

const passes = (...on: (keyof PolicyPasses)[]): PolicyPasses => ({
  tiered: on.includes('tiered'),
  observation: on.includes('observation'),
  liveZone: on.includes('liveZone'),
  contextEditing: on.includes('contextEditing'),
  compaction: on.includes('compaction'),
});

export const POLICY_PASSES: Readonly<Record<PolicyName, PolicyPasses>> = {
  none: passes(),
  tiered: passes('tiered', 'observation'),
  'live-zone': passes('liveZone'),
  'tiered+live-zone': passes('tiered', 'observation', 'liveZone'),
  observation: passes('observation'),
  'anthropic-context-editing': passes('contextEditing'),
  'tiered+anthropic-context-editing': passes('tiered', 'observation', 'contextEditing'),
  'live-zone+anthropic-context-editing': passes('liveZone', 'contextEditing'),
  compaction: passes('compaction'),
};

export const POLICY_NAMES: readonly PolicyName[] = Object.keys(POLICY_PASSES) as PolicyName[];

/** The policies the views and `simulate` put side by side by default: "none", the SPEC's two designs and both,
 * and the providers' strategies people switch on. */
export const COMPARED_POLICIES: readonly PolicyName[] = [
  'none',
  'tiered',
  'live-zone',
  'tiered+live-zone',
  'anthropic-context-editing',
  'compaction',
];

export interface Policy {
  name: PolicyName;
  tiered: TieredSettings;
  observation: ObservationSettings;
  liveZone: LiveZoneSettings;
  replay: ReplaySettings;
  contextEditing: ContextEditingSettings;
  compaction: CompactionSettings;
  /** `auto` (each request at the model that answered it), or a preset id (see models.ts): every request at it. */
  model: string;
}

export const DEFAULT_POLICY: Policy = {
  name: 'tiered',
  tiered: {
    keepRecent: 8,
    tier1Distance: 20,
    maxResultChars: 300,
    summaryMinChars: 2000,
    summariesPerPass: 2,
    floorTools: ['file_read', 'grep', 'glob', 'directory_list', 'browser_*'],
    noSummaryTools: ['think', 'cloud_delegate', 'file_read', 'grep', 'glob', 'directory_list', 'browser_*'],
    argsChars: 100,
  },
  observation: {
    keep: 3,
    tools: ['screenshot', 'computer', 'computer_use', 'applescript', 'browser', 'accessibility', 'browser_*'],
  },
  liveZone: {
    keepTurns: 2,
    minChars: 512,
    outputBufferTokens: 4000,
    ccr: true,
  },
  replay: {
    trigger: 'auto',
    pressureFraction: 0.95,
    cacheTtl: 'auto',
  },
  // The API's defaults (a request naming only the strategy's type); thinking is kept, as "none" sends it.
  contextEditing: {
    triggerType: 'input_tokens',
    trigger: 100_000,
    keep: 3,
    clearAtLeast: 0,
    excludeTools: [],
    clearToolInputs: false,
    clearThinkingKeep: 'all',
  },
  // Claude Code's auto-compact point on a 200k window: the window less 20,000 tokens kept for the summary's output
  // and a 13,000-token buffer = 167,000 (every compact_boundary of the real logs we hold says 167,731 to 175,199
  // tokens before it). The summary's size and the kept messages: see compaction.ts.
  compaction: {
    threshold: 0.835,
    summaryTokens: 3000,
    keepRecentMessages: 0,
  },
  model: AUTO_MODEL,
};

/** Which passes a policy name runs (POLICY_PASSES). */
export function policyPasses(name: PolicyName): PolicyPasses {
  return POLICY_PASSES[name];
}

// ---- Presets of tool names per format --------------------------------------------------------------------------

// Each format's adapter carries its agent's tool names (registry.ts); re-exported so callers keep one import.
export type { ToolPreset } from '../formats/types';

function union(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])];
}

/** SPEC defaults plus the tool names of the format's agent. */
export function defaultPolicyFor(format: FormatId | undefined, base: Policy = DEFAULT_POLICY): Policy {
  const policy = clonePolicy(base);
  if (!format) return policy;
  const preset = adapterFor(format).tools;
  policy.tiered.floorTools = union(base.tiered.floorTools, preset.floorTools);
  policy.tiered.noSummaryTools = union(base.tiered.noSummaryTools, preset.noSummaryTools);
  policy.observation.tools = union(base.observation.tools, preset.observationTools);
  return policy;
}

export function clonePolicy(policy: Policy): Policy {
  return {
    name: policy.name,
    tiered: {
      ...policy.tiered,
      floorTools: [...policy.tiered.floorTools],
      noSummaryTools: [...policy.tiered.noSummaryTools],
    },
    observation: { ...policy.observation, tools: [...policy.observation.tools] },
    liveZone: { ...policy.liveZone },
    replay: { ...policy.replay },
    contextEditing: { ...policy.contextEditing, excludeTools: [...policy.contextEditing.excludeTools] },
    compaction: { ...policy.compaction },
    model: policy.model,
  };
}

// ---- Validation ------------------------------------------------------------------------------------------------

type FieldKind =
  | { kind: 'int'; min: number; max: number }
  | { kind: 'fraction' }
  | { kind: 'bool' }
  | { kind: 'patterns' }
  | { kind: 'names' }
  | { kind: 'intOrAll'; min: number; max: number }
  | { kind: 'enum'; values: readonly string[] };

const MAX_INT = 1_000_000_000;

/** Every settable key, with the values it allows. The keys are the SPEC's (and the settings' / CLI's). */
export const POLICY_FIELDS: Record<string, FieldKind> = {
  'tiered.keepRecent': { kind: 'int', min: 0, max: MAX_INT },
  'tiered.tier1Distance': { kind: 'int', min: 0, max: MAX_INT },
  'tiered.maxResultChars': { kind: 'int', min: 1, max: MAX_INT },
  'tiered.summaryMinChars': { kind: 'int', min: 0, max: MAX_INT },
  'tiered.summariesPerPass': { kind: 'int', min: 0, max: MAX_INT },
  'tiered.floorTools': { kind: 'patterns' },
  'tiered.noSummaryTools': { kind: 'patterns' },
  'tiered.argsChars': { kind: 'int', min: 0, max: MAX_INT },
  'observation.keep': { kind: 'int', min: 0, max: MAX_INT },
  'observation.tools': { kind: 'patterns' },
  'liveZone.keepTurns': { kind: 'int', min: 0, max: MAX_INT },
  'liveZone.minChars': { kind: 'int', min: 0, max: MAX_INT },
  'liveZone.outputBufferTokens': { kind: 'int', min: 0, max: MAX_INT },
  'liveZone.ccr': { kind: 'bool' },
  'replay.trigger': { kind: 'enum', values: REPLAY_TRIGGERS },
  'replay.pressureFraction': { kind: 'fraction' },
  'replay.cacheTtl': { kind: 'enum', values: ['auto', '5m', '1h'] },
  'contextEditing.triggerType': { kind: 'enum', values: ['input_tokens', 'tool_uses'] },
  'contextEditing.trigger': { kind: 'int', min: 1, max: MAX_INT },
  'contextEditing.keep': { kind: 'int', min: 0, max: MAX_INT },
  'contextEditing.clearAtLeast': { kind: 'int', min: 0, max: MAX_INT },
  'contextEditing.excludeTools': { kind: 'names' },
  'contextEditing.clearToolInputs': { kind: 'bool' },
  'contextEditing.clearThinkingKeep': { kind: 'intOrAll', min: 1, max: MAX_INT },
  'compaction.threshold': { kind: 'fraction' },
  'compaction.summaryTokens': { kind: 'int', min: 1, max: MAX_INT },
  'compaction.keepRecentMessages': { kind: 'int', min: 0, max: MAX_INT },
};

function describe(field: FieldKind): string {
  switch (field.kind) {
    case 'int':
      return `an integer from ${field.min} to ${field.max}`;
    case 'fraction':
      return 'a number greater than 0 and at most 1';
    case 'bool':
      return 'true or false';
    case 'patterns':
      return 'a list of tool names (a trailing "*" matches by prefix)';
    case 'names':
      return 'a list of exact tool names';
    case 'intOrAll':
      return `"all" or an integer from ${field.min} to ${field.max}`;
    case 'enum':
      return `one of ${field.values.map((v) => `"${v}"`).join(', ')}`;
  }
}

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function checkField(key: string, field: FieldKind, value: unknown, errors: string[]): void {
  const bad = (why?: string) =>
    errors.push(`${key}: must be ${describe(field)}${why ? ` (${why})` : ''}, got ${show(value)}`);
  switch (field.kind) {
    case 'int':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < field.min || value > field.max)
        bad();
      return;
    case 'fraction':
      if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || value > 1) bad();
      return;
    case 'bool':
      if (typeof value !== 'boolean') bad();
      return;
    case 'enum':
      if (typeof value !== 'string' || !field.values.includes(value)) bad();
      return;
    case 'patterns': {
      if (!Array.isArray(value)) return void bad();
      value.forEach((p, i) => {
        const problem = patternProblem(p);
        if (problem) errors.push(`${key}[${i}]: ${problem}, got ${show(p)}`);
      });
      return;
    }
    case 'names': {
      if (!Array.isArray(value)) return void bad();
      value.forEach((p, i) => {
        if (typeof p !== 'string' || p.length === 0 || p.trim() !== p)
          errors.push(`${key}[${i}]: must be a tool name (not empty, no spaces around it), got ${show(p)}`);
      });
      return;
    }
    case 'intOrAll':
      if (
        value !== 'all' &&
        (typeof value !== 'number' || !Number.isInteger(value) || value < field.min || value > field.max)
      )
        bad();
      return;
  }
}

const SECTIONS = ['tiered', 'observation', 'liveZone', 'replay', 'contextEditing', 'compaction'] as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Checks a policy that came from settings, the UI or the CLI. Missing keys take the SPEC defaults (so a partial
 * object is fine); unknown keys, wrong types, out-of-range values, `tier1Distance < keepRecent` and malformed
 * tool patterns are refused, each with a message naming the key and what it allows.
 */
export function validatePolicy(
  input: unknown,
  options: { base?: Policy; models?: readonly ModelPreset[] } = {},
): { policy: Policy } | { errors: string[] } {
  const base = options.base ?? DEFAULT_POLICY;
  const models = options.models ?? MODEL_PRESETS;
  const errors: string[] = [];
  if (!isRecord(input)) return { errors: [`policy: must be an object, got ${show(input)}`] };
  const policy = clonePolicy(base);
  for (const [key, value] of Object.entries(input)) {
    if (key === 'name') {
      if (typeof value !== 'string' || !POLICY_NAMES.includes(value as PolicyName))
        errors.push(
          `name: must be one of ${POLICY_NAMES.map((n) => `"${n}"`).join(', ')}, got ${show(value)}`,
        );
      else policy.name = value as PolicyName;
    } else if (key === 'model') {
      if (typeof value !== 'string' || (value !== AUTO_MODEL && !models.some((m) => m.id === value)))
        errors.push(
          `model: must be "${AUTO_MODEL}" or one of ${models.map((m) => `"${m.id}"`).join(', ')}, got ${show(value)}`,
        );
      else policy.model = value;
    } else if ((SECTIONS as readonly string[]).includes(key)) {
      if (!isRecord(value)) {
        errors.push(`${key}: must be an object, got ${show(value)}`);
        continue;
      }
      const section = policy[key as (typeof SECTIONS)[number]] as unknown as Record<string, unknown>;
      for (const [sub, subValue] of Object.entries(value)) {
        const full = `${key}.${sub}`;
        const field = policyField(full);
        if (!field) {
          errors.push(`${full}: unknown key (known: ${Object.keys(section).join(', ')})`);
          continue;
        }
        const before = errors.length;
        checkField(full, field, subValue, errors);
        if (errors.length === before) section[sub] = Array.isArray(subValue) ? [...subValue] : subValue;
      }
    } else {
      errors.push(`${key}: unknown key (known: name, model, ${SECTIONS.join(', ')})`);
    }
  }
  if (errors.length === 0 && policy.tiered.tier1Distance < policy.tiered.keepRecent)
    errors.push(
      `tiered.tier1Distance: must be at least tiered.keepRecent (${policy.tiered.keepRecent}), got ${policy.tiered.tier1Distance}`,
    );
  return errors.length > 0 ? { errors } : { policy };
}

/** The field a `section.key` names; only the table's own keys (`__proto__` or `constructor` name nothing). */
function policyField(key: string): FieldKind | undefined {
  return Object.hasOwn(POLICY_FIELDS, key) ? POLICY_FIELDS[key] : undefined;
}

/** Applies one `key=value` (CLI `--set`, settings) to a policy, parsing the value by the key's kind; the result
 * still goes through `validatePolicy`. Lists are comma-separated. */
export function setPolicyValue(
  policy: Policy,
  key: string,
  raw: string,
): { policy: Policy } | { errors: string[] } {
  const patch: Record<string, unknown> = {};
  if (key === 'name' || key === 'model') patch[key] = raw;
  else {
    const field = policyField(key);
    if (!field)
      return {
        errors: [`${key}: unknown key (known: name, model, ${Object.keys(POLICY_FIELDS).join(', ')})`],
      };
    let value: unknown = raw;
    if (field.kind === 'int' || field.kind === 'fraction')
      value = raw.trim() === '' ? Number.NaN : Number(raw);
    else if (field.kind === 'bool') value = raw === 'true' ? true : raw === 'false' ? false : raw;
    else if (field.kind === 'patterns' || field.kind === 'names')
      value = raw === '' ? [] : raw.split(',').map((s) => s.trim());
    else if (field.kind === 'intOrAll')
      value = raw === 'all' ? raw : raw.trim() === '' ? Number.NaN : Number(raw);
    const [section, sub] = key.split('.');
    patch[section] = { [sub]: value };
  }
  return validatePolicy(patch, { base: policy });
}
