// The contextLens.* settings ↔ the Policy. Only values the user actually set (user, workspace or folder scope)
// override the defaults, and the defaults depend on the transcript's format (tool-name presets, the model it
// recorded), so a Claude Code session gets Claude Code's tool names unless the user chose others.
import * as vscode from 'vscode';
import type { Transcript } from '../core/model';
import { SETTING_KEYS, type SettingKey, type SettingValue, type SummarizerName } from '../protocol';
import { type EffectiveSettings, policyFromSettings, SUMMARIZERS } from './policySettings';

export const SECTION = 'contextLens';

export { applyChanges, defaultsFor, type EffectiveSettings, modelSummaries } from './policySettings';

/** The value the user set for a contextLens.* key (folder over workspace over user), from one `inspect` of the
 * whole section: the editor's `inspect` of a key walks every scope's model, and one per key held the host's thread
 * at every open. A dotted key is a path in the section's object (settings.json may write
 * "contextLens.tiered.keepRecent" or nest it: the editor reads both as the same object). */
function explicitValues(): (key: string) => unknown {
  const i = vscode.workspace.getConfiguration().inspect<Record<string, unknown>>(SECTION);
  const scopes = [i?.workspaceFolderValue, i?.workspaceValue, i?.globalValue];
  return (key) => {
    for (const scope of scopes) {
      let value: unknown = scope;
      for (const part of key.split('.'))
        value =
          value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
      if (value !== undefined) return value;
    }
    return undefined;
  };
}

/** Every contextLens.* value the user set, by key (for a worker thread that makes the policy of a transcript it
 * parses itself: policySettings.ts `policyFromSettings`). */
export function explicitSettings(): Partial<Record<SettingKey, unknown>> {
  const explicit = explicitValues();
  const out: Partial<Record<SettingKey, unknown>> = {};
  for (const key of SETTING_KEYS) {
    const value = explicit(key);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

export function readSettings(transcript: Pick<Transcript, 'format'> | null): EffectiveSettings {
  const explicit = explicitValues();
  const { policy, problems } = policyFromSettings(transcript, explicit);
  const s = explicit('summarizer');
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

/** Changes not written yet; they are written together, each key at its last value. */
let queued: { changes: Map<SettingKey, SettingValue>; written: Promise<void>; start: () => void } | null =
  null;
let lastWrite: Promise<void> = Promise.resolve();
let writeTimer: ReturnType<typeof setTimeout> | undefined;

/** A write starts once the changes pause this long. Each write makes the editor reload the configuration and tell
 * every listener, in this extension host too: the editor's own JSON and git extensions react to settings.json
 * changing, and the first write of a window opens settings.json there, which starts the editor's JSON extension
 * and its language server, each costing the host's thread. A user stepping a constant at a reading pace presses a key every half second or
 * so: a shorter pause put that first write between two keys, and the next step waited for it. So a burst of steps
 * is written once, after the user stopped. */
const WRITE_AFTER_MS = 2000;

/**
 * Saves changes to settings.json once they pause (`WRITE_AFTER_MS`), one write at a time: changes that arrive
 * meanwhile are merged (the last value of a key wins), so a held arrow key costs one write, not one per step.
 * Resolves when the changes are written.
 */
export function writeChanges(changes: { key: SettingKey; value: SettingValue }[]): Promise<void> {
  if (!queued) {
    const batch = new Map<SettingKey, SettingValue>();
    const previous = lastWrite;
    let start = () => {};
    const begun = new Promise<void>((resolve) => {
      start = resolve;
    });
    const written = ownWrite(async () => {
      await begun;
      await previous.catch(() => undefined);
      if (queued?.changes === batch) queued = null;
      const config = vscode.workspace.getConfiguration(SECTION);
      const target = saveTarget();
      for (const [key, value] of batch) await config.update(key, value, target);
    });
    queued = { changes: batch, written, start };
    lastWrite = written;
  }
  for (const { key, value } of changes) queued.changes.set(key, value);
  clearTimeout(writeTimer);
  writeTimer = setTimeout(queued.start, WRITE_AFTER_MS);
  return queued.written;
}

/** Writes the changes waiting for a pause now (the extension is deactivated); resolves when all are written. */
export function flushSettingWrites(): Promise<void> {
  clearTimeout(writeTimer);
  queued?.start();
  return lastWrite.catch(() => undefined);
}

/** "Reset to defaults": removes every contextLens.* value from the user and workspace settings. */
export function resetSettings(): Promise<void> {
  // Changes still waiting for a pause would come back after the reset; those made after it are written after it.
  const pending = queued;
  queued = null;
  clearTimeout(writeTimer);
  pending?.changes.clear();
  pending?.start();
  const previous = lastWrite;
  const done = ownWrite(async () => {
    await previous.catch(() => undefined);
    await clearSettings();
  });
  lastWrite = done;
  return done;
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
