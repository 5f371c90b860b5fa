// Activation: the Context Lens custom editor, its commands and the settings sync. The other host features
// (export, Problems-panel diagnostics, status bar, language-model summarizer) register themselves in the marked
// place below, each from its own module, with the editor provider they may need.
import type * as vscode from 'vscode';
import { registerCommands } from './commands';
import { TranscriptEditorProvider } from './transcriptEditor';

export function activate(context: vscode.ExtensionContext): void {
  const editor = TranscriptEditorProvider.register(context);
  context.subscriptions.push(editor.disposable, registerCommands());

  // Further features register here, e.g.:
  //   context.subscriptions.push(registerExport(context, editor.provider));       // src/host/export.ts
  //   context.subscriptions.push(registerDiagnostics(context));                    // src/host/diagnostics.ts
  //   context.subscriptions.push(registerStatusBar(context, editor.provider));     // src/host/statusBar.ts
  //   context.subscriptions.push(registerLmSummarizer(context));                   // src/host/lmSummarizer.ts
}

export function deactivate(): void {}
