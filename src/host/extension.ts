// Activation: the Context Lens custom editor, its commands and the settings sync. The other host features
// (export, Problems-panel diagnostics, status bar, language-model summarizer) register themselves in the marked
// place below, each from its own module, with the editor provider they may need.
import type * as vscode from 'vscode';
import { setOwnGlobalStorage } from '../node/editorStorage';
import { registerCommands } from './commands';
import { registerDiagnostics } from './diagnostics';
import { registerExport } from './export';
import { registerLmSummarizer } from './lmSummarizer';
import { registerRecommend } from './recommend';
import { registerSessionsView } from './sessionsView';
import { flushSettingWrites } from './settings';
import { registerStatusBar } from './statusBar';
import { TranscriptEditorProvider } from './transcriptEditor';

export function activate(context: vscode.ExtensionContext): void {
  // The editor's own storage, beside which editor agents (Cline, Roo Code, Kilo Code) keep their tasks.
  setOwnGlobalStorage(context.globalStorageUri.fsPath);
  const editor = TranscriptEditorProvider.register(context);
  context.subscriptions.push(editor.disposable, registerCommands(context.asAbsolutePath('dist')));

  // Further features register here, each from its own module.
  context.subscriptions.push(registerExport(context, editor.provider));
  context.subscriptions.push(registerDiagnostics(context, editor.provider));
  context.subscriptions.push(registerStatusBar(context, editor.provider));
  context.subscriptions.push(registerLmSummarizer(context));
  context.subscriptions.push(registerSessionsView(context));
  context.subscriptions.push(registerRecommend());
}

/** A setting changed in the view is written once the changes pause: one that was waiting is written now. */
export function deactivate(): Promise<void> {
  return flushSettingWrites();
}
