// The panels showing one transcript: their webview (options, HTML with its CSP), which of them said they are
// ready, which show the Requests tab, and the messages for all of them. Plumbing only: what the messages say is
// the session's and the controller's.
import * as vscode from 'vscode';
import type { HostMessage } from '../protocol';
import { REAL_CLOCK, type SessionClock, waitAtMost } from './clock';
import { ListsSent } from './listsSent';
import type { ViewsPort } from './transcriptController';
import { webviewHtml } from './webviewHtml';

/** The longest `delivered` waits for the panels to take a message. */
const DELIVERY_WAIT_MS = 1_000;

/** Sets up `panel`'s webview to run the view: scripts on, resources from `dist` and `media` only. */
export function showViewIn(panel: vscode.WebviewPanel, extensionUri: vscode.Uri): void {
  panel.webview.options = {
    enableScripts: true,
    localResourceRoots: [
      vscode.Uri.joinPath(extensionUri, 'dist'),
      vscode.Uri.joinPath(extensionUri, 'media'),
    ],
  };
  panel.webview.html = webviewHtml({
    cspSource: panel.webview.cspSource,
    scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js')).toString(),
    styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'main.css')).toString(),
  });
}

export class DocumentPanels implements ViewsPort<vscode.WebviewPanel> {
  private readonly panels = new Set<vscode.WebviewPanel>();
  /** The panels whose view said it is ready: one that is not yet is sent everything when it is ('ready'). */
  private readonly readyPanels = new Set<vscode.WebviewPanel>();
  /** The panels whose Requests tab is shown (analyses carry the request columns while there is one). */
  private readonly showingRequests = new Set<vscode.WebviewPanel>();
  /** The transcript each panel's view holds (its revision): a long session's list is megabytes, posted once. */
  private readonly lists = new ListsSent<vscode.WebviewPanel>();

  constructor(private readonly clock: SessionClock = REAL_CLOCK) {}

  attach(panel: vscode.WebviewPanel): void {
    this.panels.add(panel);
    panel.onDidDispose(() => {
      this.panels.delete(panel);
      this.readyPanels.delete(panel);
      this.showingRequests.delete(panel);
      this.lists.forget(panel);
    });
  }

  get anyReady(): boolean {
    return this.readyPanels.size > 0;
  }

  post(panel: vscode.WebviewPanel, message: HostMessage): PromiseLike<boolean> {
    if (!this.lists.due(panel, message)) return Promise.resolve(true);
    return panel.webview.postMessage(message);
  }

  broadcast(message: HostMessage): void {
    for (const p of this.receivers(message)) void this.post(p, message);
  }

  readyViews(): readonly vscode.WebviewPanel[] {
    return [...this.readyPanels];
  }

  ready(panel: vscode.WebviewPanel): void {
    this.readyPanels.add(panel);
    // A view that (re)starts holds nothing yet.
    this.lists.forget(panel);
  }

  showsRequests(panel: vscode.WebviewPanel, shown: boolean): boolean {
    if (shown) this.showingRequests.add(panel);
    else this.showingRequests.delete(panel);
    return this.showingRequests.size > 0;
  }

  /** `broadcast`, resolved once every panel took the message (or after `DELIVERY_WAIT_MS`). A large message leaves
   * the extension host only while its thread is free: sent before an analysis of seconds, the list of a long
   * session reached the view after the analysis, not before it. */
  delivered(message: HostMessage): Promise<void> {
    const posts = Promise.all(this.receivers(message).map((p) => this.post(p, message)));
    return waitAtMost(this.clock, DELIVERY_WAIT_MS, posts);
  }

  /** The panels `message` is for: a view that is not ready yet would be sent the transcript twice (now, and with
   * everything else when it is ready); only the progress and the errors it shows meanwhile are sent before. */
  private receivers(message: HostMessage): vscode.WebviewPanel[] {
    const early = message.type === 'loading' || message.type === 'error';
    return [...(early ? this.panels : this.readyPanels)];
  }
}
