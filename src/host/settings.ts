// The contextLens.* settings ↔ the Policy. Only values the user actually set (user, workspace or folder scope)
// override the defaults, and the defaults depend on the transcript's format (tool-name presets, the model it
// recorded), so a Claude Code session gets Claude Code's tool names unless the user chose others.
import * as vscode from 'vscode';
import { MODEL_PRESETS, presetForRecordedModel } from '../core/engine/models';
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

export const SECTION = 'contextLens';
const SUMMARIZERS: readonly SummarizerName[] = ['none', 'extractive', 'vscode-lm'];

export interface EffectiveSettings {
  policy: Policy;
  summarizer: SummarizerName;
  /** Settings that were refused (each names the key and what it allows); the defaults stand in for them. */
  problems: string[];
}

export function modelSummaries(): ModelPresetSummary[] {
  return MODEL_PRESETS.map((m) => ({ id: m.id, label: m.label }));
}

/** The defaults for this transcript: SPEC constants, its format's tool presets, the model it recorded. */
export function defaultsFor(transcript: Transcript | null): Policy {
  const policy = defaultPolicyFor(transcript?.format);
  const recorded = presetForRecordedModel(transcript?.model);
  return recorded ? { ...policy, model: recorded.id } : policy;
}

/** A one-key patch in the shape validatePolicy takes. */
function patchFor(key: PolicySettingKey, value: unknown): Record<string, unknown> {
  if (key === 'policy') return { name: value };
  if (key === 'model') return { model: value };
  const [section, field] = key.split('.');
  return { [section]: { [field]: value } };
}

function explicitValue(config: vscode.WorkspaceConfiguration, key: string): unknown {
  const i = config.inspect(key);
  return i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
}

export function readSettings(transcript: Transcript | null): EffectiveSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  let policy = defaultsFor(transcript);
  const problems: string[] = [];
  // Key by key, so that one bad value does not throw away the others.
  for (const key of SETTING_KEYS) {
    if (key === 'summarizer') continue;
    const value = explicitValue(config, key);
    if (value === undefined) continue;
    const r = validatePolicy(patchFor(key, value), { base: policy });
    if ('errors' in r) problems.push(...r.errors.map((e) => `settings.json ${SECTION}.${key}: ${e}`));
    else policy = r.policy;
  }
  const s = explicitValue(config, 'summarizer');
  let summarizer: SummarizerName = 'none';
  if (s !== undefined) {
    if (SUMMARIZERS.includes(s as SummarizerName)) summarizer = s as SummarizerName;
    else
      problems.push(
        `settings.json ${SECTION}.summarizer: must be one of ${SUMMARIZERS.join(', ')}, got ${JSON.stringify(s)}`,
      );
  }
  return { policy, summarizer, problems };
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
    if ('errors' in r) errors.push(...r.errors);
    else policy = r.policy;
  }
  return errors.length ? { errors } : { settings: { policy, summarizer, problems: [] } };
}

/** Workspace settings when a folder is open (the thresholds belong to a project), else the user's. */
export function saveTarget(): vscode.ConfigurationTarget {
  return vscode.workspace.workspaceFolders?.length
    ? vscode.ConfigurationTarget.Workspace
    : vscode.ConfigurationTarget.Global;
}

export async function writeChanges(changes: { key: SettingKey; value: SettingValue }[]): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const target = saveTarget();
  for (const { key, value } of changes) await config.update(key, value, target);
}

/** "Reset to defaults": removes every contextLens.* value from the user and workspace settings. */
export async function resetSettings(): Promise<void> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const targets = [vscode.ConfigurationTarget.Global];
  if (vscode.workspace.workspaceFolders?.length) targets.push(vscode.ConfigurationTarget.Workspace);
  for (const key of SETTING_KEYS) {
    const i = config.inspect(key);
    for (const t of targets) {
      const set = t === vscode.ConfigurationTarget.Global ? i?.globalValue : i?.workspaceValue;
      if (set !== undefined) await config.update(key, undefined, t);
    }
  }
}
