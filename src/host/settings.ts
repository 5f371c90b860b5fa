// The contextLens.* settings ↔ the Policy. Only values the user actually set (user, workspace or folder scope)
// override the defaults, and the defaults depend on the transcript's format (tool-name presets, the model it
// recorded), so a Claude Code session gets Claude Code's tool names unless the user chose others.
import * as vscode from 'vscode';
import type { Transcript } from '../core/model';
import { SETTING_KEYS, type SettingKey, type SettingValue, type SummarizerName } from '../protocol';
import { type EffectiveSettings, policyFromSettings, SUMMARIZERS } from './policySettings';

export const SECTION = 'contextLens';

export { applyChanges, defaultsFor, type EffectiveSettings, modelSummaries } from './policySettings';

function explicitValue(config: vscode.WorkspaceConfiguration, key: string): unknown {
  const i = config.inspect(key);
  return i?.workspaceFolderValue ?? i?.workspaceValue ?? i?.globalValue;
}

/** Every contextLens.* value the user set, by key (for a worker thread that makes the policy of a transcript it
 * parses itself: policySettings.ts `policyFromSettings`). */
export function explicitSettings(): Partial<Record<SettingKey, unknown>> {
  const config = vscode.workspace.getConfiguration(SECTION);
  const out: Partial<Record<SettingKey, unknown>> = {};
  for (const key of SETTING_KEYS) {
    const value = explicitValue(config, key);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

export function readSettings(transcript: Transcript | null): EffectiveSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  const { policy, problems } = policyFromSettings(transcript, (key) => explicitValue(config, key));
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

/** Workspace settings when a folder is open (the thresholds belong to a project), else the user's. */
export function saveTarget(): vscode.ConfigurationTarget {
  return vscode.workspace.workspaceFolders?.length
    ? vscode.ConfigurationTarget.Workspace
    : vscode.ConfigurationTarget.Global;
}

/** Our own writes in flight. While there are any, the change events they cause are not news (a fast typist's
 * older value would otherwise come back from settings.json and be re-analysed); when the last one lands, the
 * documents compare once with what settings.json now says. */
let writesInFlight = 0;
const settled = new vscode.EventEmitter<void>();
export const onOwnWritesSettled = settled.event;
export const ownWritesInFlight = () => writesInFlight > 0;

async function ownWrite(write: () => Promise<void>): Promise<void> {
  writesInFlight++;
  try {
    await write();
  } finally {
    if (--writesInFlight === 0) settled.fire();
  }
}

/** Changes waiting for the write in flight to end; they are written together, each key at its last value. */
let queued: { changes: Map<SettingKey, SettingValue>; written: Promise<void> } | null = null;
let lastWrite: Promise<void> = Promise.resolve();

/**
 * Saves changes to settings.json. One write at a time: changes that arrive meanwhile are merged (the last value
 * of a key wins) and written after it, so a held arrow key costs a few writes, not one per step (each write
 * makes the editor reload the configuration and tell every listener). Resolves when the changes are written.
 */
export function writeChanges(changes: { key: SettingKey; value: SettingValue }[]): Promise<void> {
  if (!queued) {
    const batch = new Map<SettingKey, SettingValue>();
    const previous = lastWrite;
    const written = ownWrite(async () => {
      await previous.catch(() => undefined);
      if (queued?.changes === batch) queued = null;
      const config = vscode.workspace.getConfiguration(SECTION);
      const target = saveTarget();
      for (const [key, value] of batch) await config.update(key, value, target);
    });
    queued = { changes: batch, written };
    lastWrite = written;
  }
  for (const { key, value } of changes) queued.changes.set(key, value);
  return queued.written;
}

/** "Reset to defaults": removes every contextLens.* value from the user and workspace settings. */
export function resetSettings(): Promise<void> {
  return ownWrite(clearSettings);
}

async function clearSettings(): Promise<void> {
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
