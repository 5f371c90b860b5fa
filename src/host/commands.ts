// The commands: open a transcript in Context Lens, or pick a Claude Code / Codex session to open.
import * as vscode from 'vscode';
import { adapterFor } from '../core/formats/registry';
import type { FormatId } from '../core/model';
import { type SessionFile, sessionsDir, sessionsOf } from '../node/sessionFiles';
import { untrusted } from './escape';

export const COMMANDS = {
  openTranscript: 'contextLens.openTranscript',
  openClaudeSession: 'contextLens.openClaudeSession',
  openCodexSession: 'contextLens.openCodexSession',
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

function formatSize(bytes: number): string {
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${(bytes / 1e3).toFixed(0)} KB`;
  return `${bytes} B`;
}

interface SessionItem extends vscode.QuickPickItem {
  file: SessionFile;
}

async function pickSession(id: FormatId): Promise<void> {
  const format = adapterFor(id);
  const agent = format.session?.agent ?? id;
  const root = sessionsDir(format);
  const files = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: `Context Lens: finding ${agent} sessions` },
    () => sessionsOf(format),
  );
  if (files.length === 0) {
    void vscode.window.showInformationMessage(
      `Context Lens: no ${agent} sessions found under ${untrusted(root)}.`,
    );
    return;
  }
  const item = (f: SessionFile, under: boolean): SessionItem => ({
    // The first prompt, the project and the path come from the session files: inert text (no icons).
    label: `${under ? '↳ sub-agent: ' : f.subAgent ? 'sub-agent: ' : ''}${untrusted(f.firstPrompt || f.path.slice(f.path.lastIndexOf('/') + 1))}`,
    description: untrusted(f.project),
    detail: `${f.modified.toLocaleString()} · ${formatSize(f.size)} · ${untrusted(f.path)}${f.error ? ` · ${f.error}` : ''}`,
    file: f,
  });
  // A session's sub-agents follow it, indented: they are parts of it, not sessions of their own.
  const items: SessionItem[] = files.flatMap((f) => [
    item(f, false),
    ...(f.subAgents ?? []).map((s) => item(s, true)),
  ]);
  const picked = await vscode.window.showQuickPick(items, {
    title: `Open ${agent} Session (newest first)`,
    placeHolder: 'Type to filter by first prompt, project or date',
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (picked) await openInLens(vscode.Uri.file(picked.file.path));
}

export function registerCommands(): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.commands.registerCommand(COMMANDS.openTranscript, openTranscript),
    vscode.commands.registerCommand(COMMANDS.openClaudeSession, () => pickSession('claude-code')),
    vscode.commands.registerCommand(COMMANDS.openCodexSession, () => pickSession('codex')),
  );
}
