// The policy side of the contextLens.* settings, without the editor API: the defaults for a transcript, and
// the validation of the webview's changes (validatePolicy names the key and its allowed range on refusal).
// The browser tests' stand-in host uses these as the editor does.

import { pushAll } from '../core/arrays';
import { AUTO_MODEL, MODEL_PRESETS } from '../core/engine/models';
import { defaultPolicyFor, type Policy, validatePolicy } from '../core/engine/policy';
import type { Transcript } from '../core/model';
import {
  type ModelPresetSummary,
  type PolicySettingKey,
  SETTING_KEYS,
  type SettingKey,
  type SettingValue,
  type SummarizerName,
} from '../protocol';

export const SUMMARIZERS: readonly SummarizerName[] = ['none', 'extractive', 'vscode-lm'];

export interface EffectiveSettings {
  policy: Policy;
  summarizer: SummarizerName;
  /** Settings that were refused (each names the key and what it allows); the defaults stand in for them. */
  problems: string[];
}

export function modelSummaries(): ModelPresetSummary[] {
  return [
    { id: AUTO_MODEL, label: 'Auto: each request at the model that answered it' },
    ...MODEL_PRESETS.map((m) => ({ id: m.id, label: m.label })),
  ];
}

/** The defaults for this transcript: SPEC constants and its format's tool presets; the model is `auto`, each
 * request priced at the model the log says answered it. */
export function defaultsFor(transcript: Pick<Transcript, 'format'> | null): Policy {
  return defaultPolicyFor(transcript?.format);
}

/** A one-key patch in the shape validatePolicy takes. */
export function patchFor(key: PolicySettingKey, value: unknown): Record<string, unknown> {
  if (key === 'policy') return { name: value };
  if (key === 'model') return { model: value };
  const [section, field] = key.split('.');
  return { [section]: { [field]: value } };
}

/** Applies the webview's changes to `current`; refuses the lot when one is invalid (nothing is written then). */
export function applyChanges(
  current: EffectiveSettings,
  changes: { key: SettingKey; value: SettingValue }[],
): { settings: EffectiveSettings } | { errors: string[] } {
  let policy = current.policy;
  let summarizer = current.summarizer;
  const errors: string[] = [];
  for (const { key, value } of changes) {
    if (key === 'summarizer') {
      if (SUMMARIZERS.includes(value as SummarizerName)) summarizer = value as SummarizerName;
      else errors.push(`summarizer: must be one of ${SUMMARIZERS.join(', ')}, got ${JSON.stringify(value)}`);
      continue;
    }
    const r = validatePolicy(patchFor(key, value), { base: policy });
    if ('errors' in r) pushAll(errors, r.errors);
    else policy = r.policy;
  }
  return errors.length ? { errors } : { settings: { policy, summarizer, problems: [] } };
}

/** The policy the user's settings make for this transcript: `explicit` gives each key's explicit value (undefined
 * when unset). Key by key, so that one bad value does not throw away the others; a key refused against the
 * defaults is tried again once the others are in (keepRecent 28 is valid beside a tier1Distance of 60 read after
 * it, not beside the default 20). */
export function policyFromSettings(
  transcript: Pick<Transcript, 'format'> | null,
  explicit: (key: PolicySettingKey) => unknown,
): { policy: Policy; problems: string[] } {
  let policy = defaultsFor(transcript);
  const problems: string[] = [];
  let refused: PolicySettingKey[] = [];
  for (const round of [0, 1]) {
    const keys =
      round === 0 ? SETTING_KEYS.filter((k): k is PolicySettingKey => k !== 'summarizer') : refused;
    refused = [];
    for (const key of keys) {
      const value = explicit(key);
      if (value === undefined) continue;
      const r = validatePolicy(patchFor(key, value), { base: policy });
      if (!('errors' in r)) policy = r.policy;
      else if (round === 0) refused.push(key);
      else
        pushAll(
          problems,
          r.errors.map((e) => `settings.json contextLens.${key}: ${e}`),
        );
    }
  }
  return { policy, problems };
}
