// Every constant of SPEC §2–§5, under the SPEC's names. Defaults are the SPEC's defaults. Each section is declared
// once, in its descriptor (policies/); this module derives the policy, its defaults and its validation from them.
import { adapterFor } from '../formats/registry';
import type { FormatId } from '../model';
import { AUTO_MODEL, MODEL_PRESETS, type ModelPreset, sessionPreset } from './models';
import { patternProblem } from './patterns';
import type { CompactionSettings } from './policies/compaction';
import type { ContextEditingSettings, ContextEditingTriggerType } from './policies/contextEditing';
import type { SettingKind } from './policies/descriptor';
import type { LiveZoneSettings } from './policies/liveZone';
import type { ObservationSettings } from './policies/observation';
import {
  COMPARED_POLICIES,
  defaultSections,
  offeredPolicies,
  POLICY_NAMES,
  POLICY_PASSES,
  type PolicyName,
  type PolicyPasses,
  SECTION_KEYS,
  type SECTIONS,
  SETTINGS,
  type SectionKey,
  type SessionKind,
  simulatedFromDocs,
} from './policies/registry';
import {
  type CacheTtlSetting,
  REPLAY_TRIGGERS,
  type ReplaySettings,
  type ReplayTrigger,
} from './policies/replay';
import type { TieredSettings } from './policies/tiered';

export type {
  CacheTtlSetting,
  CompactionSettings,
  ContextEditingSettings,
  ContextEditingTriggerType,
  LiveZoneSettings,
  ObservationSettings,
  PolicyName,
  PolicyPasses,
  ReplaySettings,
  ReplayTrigger,
  TieredSettings,
};
export { COMPARED_POLICIES, POLICY_NAMES, POLICY_PASSES, REPLAY_TRIGGERS, simulatedFromDocs };

export type ResolvedTrigger = Exclude<ReplayTrigger, 'auto'>;

/** What a strategy is offered by: the provider of the model the session is replayed at (`model`: the setting) and
 * the agent that wrote it. */
export function sessionKindOf(
  transcript: { format: FormatId; model?: string },
  model: string = AUTO_MODEL,
): SessionKind {
  return {
    provider: sessionPreset(model, transcript.format, transcript.model)?.provider,
    agent: transcript.format,
  };
}

/** The policies of `names` (by default the compared ones) that a session can use. */
export function policiesOfferedFor(
  transcript: { format: FormatId; model?: string },
  model: string = AUTO_MODEL,
  names: readonly PolicyName[] = COMPARED_POLICIES,
): PolicyName[] {
  return offeredPolicies(names, sessionKindOf(transcript, model));
}

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

/** The values of a section's settings, read off its descriptor. */
type SettingsOf<D> = D extends { settings: infer T }
  ? { -readonly [F in keyof T]: T[F] extends { default: infer V } ? V : never }
  : never;

/** A policy: its name, every section of the registry (a section added there is a field here), and the model. */
export type Policy = { name: PolicyName } & {
  [D in (typeof SECTIONS)[number] as D['key']]: SettingsOf<D>;
} & {
  /** `auto` (each request at the model that answered it), or a preset id (see models.ts): every request at it. */
  model: string;
};

export const DEFAULT_POLICY: Policy = {
  name: 'tiered',
  ...(defaultSections() as unknown as Omit<Policy, 'name' | 'model'>),
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
  const out = { name: policy.name } as Policy;
  const sections = out as unknown as Record<SectionKey, Record<string, unknown>>;
  for (const key of SECTION_KEYS) {
    const section: Record<string, unknown> = { ...policy[key] };
    for (const [k, v] of Object.entries(section)) if (Array.isArray(v)) section[k] = [...v];
    sections[key] = section;
  }
  out.model = policy.model;
  return out;
}

// ---- Validation ------------------------------------------------------------------------------------------------

type FieldKind = SettingKind;

/** Every settable key, with the values it allows. The keys are the SPEC's (and the settings' / CLI's). */
export const POLICY_FIELDS: Record<string, FieldKind> = Object.fromEntries(
  SETTINGS.map(({ key, spec }) => [key, spec]),
);

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
    } else if ((SECTION_KEYS as readonly string[]).includes(key)) {
      if (!isRecord(value)) {
        errors.push(`${key}: must be an object, got ${show(value)}`);
        continue;
      }
      const section = policy[key as SectionKey] as unknown as Record<string, unknown>;
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
      errors.push(`${key}: unknown key (known: name, model, ${SECTION_KEYS.join(', ')})`);
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
