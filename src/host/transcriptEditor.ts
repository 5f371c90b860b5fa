// The custom editor "Context Lens" for *.jsonl / *.json transcripts (priority "option": the text editor stays
// the default), registered with one store of kept views for all its documents. Each file open is a
// TranscriptDocument (transcriptDocument.ts) whose session runs in a thread of its own (remoteSession.ts); each
// panel showing it runs the view (webviewPanels.ts) and has its messages answered by the document's controller.
import { statSync } from 'node:fs';
import * as vscode from 'vscode';
import { VIEW_TYPE } from './commands';
import { RemoteSession } from './remoteSession';
import { explicitSettings, onOwnWritesSettled, ownWritesInFlight, SECTION } from './settings';
import { type SessionStarter, TranscriptDocument } from './transcriptDocument';
import { ViewSnapshots } from './viewSnapshots';
import { showViewIn } from './webviewPanels';

export { VIEW_TYPE } from './commands';
export { TranscriptDocument } from './transcriptDocument';

/** The identity of the engine's build: the version and the bundles' sizes and times (a rebuild may draw other
 * figures from the same file); null when a bundle is missing. */
function engineBuild(context: vscode.ExtensionContext, bundles: string[]): string | null {
  try {
    const stats = bundles.map((b) => statSync(b));
    return JSON.stringify([context.extension.packageJSON.version, ...stats.map((s) => [s.size, s.mtimeMs])]);
  } catch {
    return null;
  }
}

export class TranscriptEditorProvider implements vscode.CustomReadonlyEditorProvider<TranscriptDocument> {
  private readonly documents = new Set<TranscriptDocument>();
  private readonly transcriptAdopted = new vscode.EventEmitter<TranscriptDocument>();
  /** A document has a new transcript (opened, or changed on disk): the Problems panel follows it from here. */
  readonly onDidLoadTranscript = this.transcriptAdopted.event;
  private readonly analysisChanged = new vscode.EventEmitter<TranscriptDocument>();
  /** A document's analysis changed (the view's settings, the file grown, a step run ahead adopted): the status bar
   * follows the view from here instead of asking it every second. */
  readonly onDidChangeAnalysis = this.analysisChanged.event;

  static register(context: vscode.ExtensionContext): {
    provider: TranscriptEditorProvider;
    disposable: vscode.Disposable;
  } {
    const provider = new TranscriptEditorProvider(context);
    const disposable = vscode.Disposable.from(
      vscode.window.registerCustomEditorProvider(VIEW_TYPE, provider, {
        supportsMultipleEditorsPerDocument: true,
        webviewOptions: { retainContextWhenHidden: false },
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(SECTION) && !ownWritesInFlight())
          for (const d of provider.documents) void d.settingsChanged();
      }),
      onOwnWritesSettled(() => {
        for (const d of provider.documents) void d.settingsChanged();
      }),
    );
    return { provider, disposable };
  }

  private readonly startSession: SessionStarter;
  private readonly snapshots: ViewSnapshots | null;

  private constructor(private readonly context: vscode.ExtensionContext) {
    const dist = (file: string) => vscode.Uri.joinPath(context.extensionUri, 'dist', file).fsPath;
    const parseScript = dist('parseWorker.js');
    const sessionScript = dist('sessionWorker.js');
    // Each file's session runs in a thread of its own, with its own token processes (started with its first count,
    // ended once idle); counts are kept on disk, so reopening a session, or another sharing its content, counts
    // nothing twice.
    this.startSession = (fileName, path, broadcast) =>
      new RemoteSession(
        sessionScript,
        fileName,
        {
          path,
          parseScript,
          tokenScript: dist('tokenWorker.js'),
          tokenDir: vscode.Uri.joinPath(context.globalStorageUri, 'tokens').fsPath,
          settings: explicitSettings(),
        },
        broadcast,
      );
    const build = engineBuild(context, [dist('extension.js'), sessionScript, parseScript]);
    this.snapshots = build
      ? new ViewSnapshots(vscode.Uri.joinPath(context.globalStorageUri, 'views').fsPath, build)
      : null;
  }

  /** The documents open in Context Lens (for the commands that act on "the current transcript"). */
  openDocuments(): TranscriptDocument[] {
    return [...this.documents];
  }

  async openCustomDocument(
    uri: vscode.Uri,
    _context: vscode.CustomDocumentOpenContext,
    token: vscode.CancellationToken,
  ): Promise<TranscriptDocument> {
    const doc: TranscriptDocument = new TranscriptDocument(
      uri,
      this.startSession,
      () => this.documents.delete(doc),
      (d) => this.transcriptAdopted.fire(d),
      this.snapshots,
      this.context.workspaceState,
    );
    this.documents.add(doc);
    // The session lets go of its listeners when the document is disposed.
    doc.session.onDidChangeAnalysis(() => this.analysisChanged.fire(doc));
    // Not awaited: the panel opens at once and shows the progress; the notification shows it too.
    void doc.load(token);
    return doc;
  }

  async resolveCustomEditor(document: TranscriptDocument, panel: vscode.WebviewPanel): Promise<void> {
    showViewIn(panel, this.context.extensionUri);
    document.panels.attach(panel);
    panel.webview.onDidReceiveMessage(async (data: unknown) => {
      const refused = await document.controller.receive(panel, data);
      if (refused) console.error(`Context Lens: ${refused}`);
    });
  }
}
