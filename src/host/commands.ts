// The commands: open a transcript in Context Lens, or pick an agent's session to open.
import * as vscode from 'vscode';
import { discoverableFormats } from '../core/formats/registry';
import type { FormatId } from '../core/model';
import { type SessionFile, sessionRoots, sessionsOf } from '../node/sessionFiles';
import { type AgentSessions, agentName, noSessionsMessage, sessionPickRows } from './sessionPick';
import { mirrorInWorker } from './storeMirror';

export const COMMANDS = {
  openTranscript: 'contextLens.openTranscript',
  openSession: 'contextLens.openSession',
} as const;

/** Registered by the export module (issue "export"): the webview's Export button routes here. */
export const EXPORT_COMMAND = 'contextLens.exportCompacted';

export const VIEW_TYPE = 'contextLens.transcript';

export function openInLens(uri: vscode.Uri): Thenable<unknown> {
  return vscode.commands.executeCommand('vscode.openWith', uri, VIEW_TYPE);
}

/** "Open Transcript": the file given (explorer menu), else the active .jsonl/.json editor, else a file dialog. */
export async function openTranscript(uri?: vscode.Uri): Promise<void> {
  let target = uri instanceof vscode.Uri ? uri : undefined;
  const active = vscode.window.activeTextEditor?.document.uri;
  if (!target && active && /\.jsonl?$/i.test(active.path)) target = active;
  if (!target) {
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: false,
      openLabel: 'Open in Context Lens',
      filters: { Transcripts: ['jsonl', 'json'], 'All files': ['*'] },
    });
    target = picked?.[0];
  }
  if (target) await openInLens(target);
}

/** "Open Agent Session…": the sessions of every agent the registry knows where to find, in one pick; `only` narrows
 * it to one agent (the commands each agent had before the pick offered them all). */
async function pickSession(dist: string, only?: FormatId): Promise<void> {
  const formats = discoverableFormats().filter((f) => only === undefined || f.id === only);
  const agents = formats.length === 1 ? agentName(formats[0]) : 'agent';
  const found: AgentSessions[] = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `Context Lens: finding ${agents} sessions` },
    () =>
      Promise.all(
        formats.map(async (format) => ({
          format,
          root: sessionRoots(format).join(', ') || '(no editor storage found)',
          files: await sessionsOf(format, process.env, { mirrorStore: mirrorInWorker(dist) }),
        })),
      ),
  );
  const rows = sessionPickRows(found);
  if (rows.length === 0) {
    void vscode.window.showInformationMessage(noSessionsMessage(found));
    return;
  }
  const items: SessionItem[] = rows.map((row) =>
    row.kind === 'agent'
      ? { label: row.label, kind: vscode.QuickPickItemKind.Separator }
      : { label: row.label, description: row.description, detail: row.detail, file: row.file },
  );
  const picked = await vscode.window.showQuickPick(items, {
    title: `Open ${formats.length === 1 ? agents : 'Agent'} Session (newest first)`,
    placeHolder: 'Type to filter by first prompt, project or date',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (picked?.file) await openInLens(vscode.Uri.file(picked.file.path));
}

interface SessionItem extends vscode.QuickPickItem {
  file?: SessionFile;
}

/** The commands that opened one agent's sessions before the pick offered every agent's: kept, so that a keybinding
 * or a script that runs them still works; each opens the pick for its agent. */
const AGENT_COMMANDS: Readonly<Record<string, FormatId>> = {
  'contextLens.openClaudeSession': 'claude-code',
  'contextLens.openCodexSession': 'codex',
};

/** `dist`: the folder of the extension's bundles. */
export function registerCommands(dist: string): vscode.Disposable {
  const registered = [
    vscode.commands.registerCommand(COMMANDS.openTranscript, openTranscript),
    vscode.commands.registerCommand(COMMANDS.openSession, () => pickSession(dist)),
    ...Object.entries(AGENT_COMMANDS).map(([command, format]) =>
      vscode.commands.registerCommand(command, () => pickSession(dist, format)),
    ),
  ];
  return new vscode.Disposable(() => {
    for (const d of registered) d.dispose();
  });
}
