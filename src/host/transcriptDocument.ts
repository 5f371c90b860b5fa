// One transcript open in the Context Lens editor: its session (in a thread of its own, remoteSession.ts), the
// settings in force, the panels showing it, the file it follows on disk. Every panel showing it gets the same
// messages; what they ask is answered by the controller (transcriptController.ts), which holds no editor API. This
// module is the editor's side of it: the progress notification, the file watcher, settings.json, and the commands
// a view may run.
import * as vscode from 'vscode';
import type { Problem } from '../core/problems';
import type { HostMessage } from '../protocol';
import { EXPORT_COMMAND } from './commands';
import { untrusted } from './escape';
import { BEGINNING_BYTES, FileSource } from './fileSource';
import { KeptView } from './keptView';
import type { RemoteSession } from './remoteSession';
import {
  applyChanges,
  type EffectiveSettings,
  explicitSettings,
  modelSummaries,
  readSettings,
  resetSettings,
  SECTION,
  saveTarget,
  writeChanges,
} from './settings';
import { Throttle } from './throttle';
import { TranscriptController } from './transcriptController';
import type { ViewSnapshots } from './viewSnapshots';
import { DocumentPanels } from './webviewPanels';

/** workspaceState key of the view's layout (controls panel open, list/details split). */
const LAYOUT_KEY = 'contextLens.layout';

/** Following the file on disk (an agent appends a line every few hundred ms): a change is read after this settle
 * delay, and at most once per interval, so the view follows a growing session within about a second plus one
 * parse; never a debounce, which would wait for the agent to stop. */
const FOLLOW = { settleMs: 100, intervalMs: 500 };

const basename = (uri: vscode.Uri) => uri.path.slice(uri.path.lastIndexOf('/') + 1);
const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Starts the session of a file in its worker thread; `broadcast` receives the messages it makes for the views. */
export type SessionStarter = (
  fileName: string,
  path: string,
  broadcast: (message: HostMessage) => void,
) => RemoteSession;

export class TranscriptDocument implements vscode.CustomDocument {
  readonly session: RemoteSession;
  settings: EffectiveSettings = readSettings(null);
  readonly panels = new DocumentPanels();
  readonly controller: TranscriptController<vscode.WebviewPanel>;
  private loadError: string | null = null;
  private readonly source: FileSource;
  private readonly kept: KeptView;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly follow = new Throttle(() => this.reload(), FOLLOW);
  /** The first load; reloads wait for it (a change during the open is read after it). */
  private loaded: Promise<void> = Promise.resolve();

  constructor(
    readonly uri: vscode.Uri,
    startSession: SessionStarter,
    private readonly onDispose: () => void,
    /** Called with each transcript adopted (opened or changed on disk), for the Problems panel. */
    private readonly onTranscript: (doc: TranscriptDocument) => void = () => {},
    /** Where what the views were shown is kept for the next open (none: every open parses first). */
    snapshots: ViewSnapshots | null = null,
    /** Where the view's layout is kept (the workspace's state). */
    layouts?: vscode.Memento,
  ) {
    const name = basename(uri);
    this.session = startSession(name, uri.path, (message) => this.panels.broadcast(message));
    this.source = new FileSource(
      uri.path,
      uri.scheme === 'file' ? uri.fsPath : null,
      async () => vscode.workspace.fs.readFile(uri),
      this.session,
      snapshots,
    );
    this.kept = new KeptView({
      source: this.source,
      session: this.session,
      snapshots,
      settingsFor: (transcript) => readSettings(transcript),
      adopt: (settings) => {
        this.settings = settings;
      },
      settingsMessage: () => this.settingsMessage(),
      broadcast: (m) => this.panels.broadcast(m),
      anyViewReady: () => this.panels.anyReady,
      warn: (m) => console.warn(`Context Lens: ${m}`),
    });
    this.controller = new TranscriptController(
      this.session,
      this.panels,
      {
        current: () => this.settings,
        apply: (changes) => {
          const r = applyChanges(this.settings, changes);
          if ('settings' in r) this.settings = r.settings;
          return r;
        },
        // Analysed at once; the settings write (and its change event, which finds nothing new) follows.
        save: (changes) =>
          writeChanges(changes).catch((e) => {
            throw new Error(`Could not save ${SECTION} settings: ${errorText(e)}`);
          }),
        reset: async () => {
          await resetSettings();
          this.settings = readSettings(this.session.model);
        },
        message: (problem) => this.settingsMessage(problem),
      },
      {
        parsing: () => this.kept.parsing,
        loadError: () => this.loadError,
        viewTookAnalysis: () => this.kept.viewTook(),
        reveal: (at) => this.reveal(at),
        exportCompacted: async () => {
          await vscode.commands.executeCommand(EXPORT_COMMAND, this.uri);
        },
        copy: async (text) => {
          await vscode.env.clipboard.writeText(text);
          vscode.window.setStatusBarMessage('Context Lens: copied the lines to paste', 3000);
        },
        // The layout is the user's, per workspace, whatever the file: kept there rather than by the document.
        layout: () => layouts?.get(LAYOUT_KEY),
        saveLayout: async (layout) => {
          await layouts?.update(LAYOUT_KEY, layout);
        },
      },
    );
    // A live agent session appends lines while it is open: follow the file.
    const dir = vscode.Uri.joinPath(uri, '..');
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(dir, name));
    watcher.onDidChange(() => this.follow.trigger(), null, this.disposables);
    watcher.onDidCreate(() => this.follow.trigger(), null, this.disposables);
    this.disposables.push(watcher);
  }

  /** The file's problems under the settings in force (the Problems panel); none before it is parsed. */
  problems(): Promise<Problem[]> {
    if (!this.session.model) return Promise.resolve([]);
    return this.session.problems(readSettings(this.session.model).policy);
  }

  /** Reads and parses the file, then analyses it under the settings, with a progress notification. */
  load(token?: vscode.CancellationToken): Promise<void> {
    // However the load ended (cancelled, failed): the bytes go then at the latest, usually before the first analysis.
    this.loaded = this.firstLoad(token).then(() => this.source.letGoOfBytes());
    return this.loaded;
  }

  private async firstLoad(token?: vscode.CancellationToken): Promise<void> {
    const name = basename(this.uri);
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Context Lens: opening ${untrusted(name)}`,
        cancellable: false,
      },
      async (progress) => {
        const step = (phase: string, increment: number) => {
          progress.report({ message: phase, increment });
          this.panels.broadcast({ type: 'loading', fileName: name, phase });
        };
        try {
          const transcript = await this.readAndParse(step, token);
          if (!transcript) return; // closed meanwhile
          this.loadError = null;
          this.onTranscript(this);
          if (this.session.confirmsRestored(transcript)) {
            // The views show this file's exact figures already: the analysis made again is a patch on them. The
            // views' requests go after it (the last answer is to the last change).
            const analysed = this.session.request(this.settings.policy, this.settings.summarizer, 0);
            this.kept.parsed();
            void this.source.letGoOfBytes();
            await analysed;
            return;
          }
          this.settings = readSettings(this.session.model);
          const shownNow = this.panels.delivered(transcript);
          this.panels.broadcast(this.settingsMessage());
          await shownNow;
          // The first analysis takes seconds on a large session: the bytes are let go of before it.
          void this.source.letGoOfBytes();
          step(`counting tokens and analysing ${transcript.messages} messages`, 30);
          await this.session.request(this.settings.policy, this.settings.summarizer, 0);
          progress.report({ increment: 50 });
          await this.kept.keep();
        } catch (error) {
          this.loadError = `${name}: ${errorText(error)}`;
          this.panels.broadcast({ type: 'error', message: this.loadError });
        } finally {
          this.kept.parsed();
        }
      },
    );
  }

  /** Reads the file and parses it, its beginning shown first (or the snapshot kept of it); null when cancelled
   * or closed meanwhile. A call of its own, so that the frame of the whole load, which lasts through the first
   * analysis, holds no reference to the bytes that `letGoOfBytes` lets go of before it. */
  private async readAndParse(
    step: (phase: string, increment: number) => void,
    token?: vscode.CancellationToken,
  ): Promise<Extract<HostMessage, { type: 'list' }> | null> {
    step('reading the file', 5);
    const { source } = this;
    const show = (message: HostMessage) => this.panels.broadcast(message);
    // A large session's beginning is parsed and shown while the rest is read (reading a long session took a
    // while, before anything was shown), unless a view of the whole file may be kept from an earlier open.
    let beginning: Promise<number> | undefined;
    const kept = await this.kept.isKeptFor(this.uri.path);
    const read = await source.readChanges(
      !kept
        ? {
            bytes: BEGINNING_BYTES + 1,
            read: (start, size) => {
              beginning = source.showBeginning(start, size, show);
            },
          }
        : undefined,
    );
    const bytes = read?.bytes ?? source.bytes;
    source.bytesRead = bytes.length;
    if (token?.isCancellationRequested) return null;
    const restored = await this.kept.restore(bytes, kept && beginning === undefined);
    const shown = restored ? 0 : await (beginning ?? source.showBeginning(bytes, bytes.length, show));
    if (!shown && !restored) step(`parsing ${(bytes.length / 1e6).toFixed(1)} MB`, 15);
    // The file's last parse until it grows (when it is read again): the whole file, or the rest of one shown from
    // its beginning, its bytes moved to the session's thread when they can be.
    const moved = await source.handOver(bytes);
    return this.session.loadAsync(bytes, shown, undefined, false, moved);
  }

  /** One step of following the file: read what changed, parse it (only the new lines of a grown JSONL
   * session), show it, analyse it. The throttle runs one at a time. */
  private async reload() {
    await this.loaded;
    try {
      const read = await this.source.readChanges();
      if (!read) return;
      this.source.changed();
      // A file that grew keeps its view while the new lines are read; one rewritten says so.
      if (read.from === 0)
        this.panels.broadcast({
          type: 'loading',
          fileName: basename(this.uri),
          phase: 'the file changed on disk: reading it again',
        });
      const transcript = await this.session.loadAsync(read.bytes, read.from, undefined, true);
      if (!transcript) return; // closed meanwhile
      this.loadError = null;
      this.onTranscript(this);
      await this.panels.delivered(transcript);
      // Not awaited: the next read and parse (in the worker) run while this analysis runs here; the session
      // adopts the next transcript only after it.
      void this.session.request(this.settings.policy, this.settings.summarizer, 0);
    } catch (error) {
      this.panels.broadcast({
        type: 'error',
        message: `${basename(this.uri)}: could not read the changed file: ${errorText(error)}`,
      });
    }
  }

  settingsMessage(problem?: string): Extract<HostMessage, { type: 'settings' }> {
    const problems = [...this.settings.problems, ...(problem ? [problem] : [])];
    const m: Extract<HostMessage, { type: 'settings' }> = {
      type: 'settings',
      policy: this.settings.policy,
      summarizer: this.settings.summarizer,
      models: modelSummaries(),
      scope: saveTarget() === vscode.ConfigurationTarget.Workspace ? 'workspace' : 'global',
    };
    if (problems.length) m.problem = problems.join('\n');
    return m;
  }

  /** The settings changed outside the webview (settings.json, another panel): follow them. */
  async settingsChanged(): Promise<void> {
    const next = readSettings(this.session.model);
    const same =
      JSON.stringify([next.policy, next.summarizer]) ===
      JSON.stringify([this.settings.policy, this.settings.summarizer]);
    const sameProblems = next.problems.join('\n') === this.settings.problems.join('\n');
    this.settings = next;
    this.session.settingsChanged(explicitSettings());
    // Our own writes land here too, once they settle, and find what the views already show: no message (each
    // one re-renders every view), no analysis.
    if (same && sameProblems) return;
    this.panels.broadcast(this.settingsMessage());
    if (!same && this.session.model) await this.session.request(next.policy, next.summarizer, 0);
  }

  /** Opens the file as text beside the lens, at a position of it ('default' would choose this very editor for the
   * file again). */
  private async reveal(
    at: { line: number; column: number; endLine?: number; endColumn?: number } | null,
  ): Promise<void> {
    const start = new vscode.Position(Math.max(0, (at?.line ?? 1) - 1), Math.max(0, (at?.column ?? 1) - 1));
    const end =
      at?.endLine !== undefined && at.endColumn !== undefined
        ? new vscode.Position(at.endLine - 1, Math.max(0, at.endColumn - 1))
        : start;
    await vscode.commands.executeCommand('vscode.openWith', this.uri, 'default', {
      viewColumn: vscode.ViewColumn.Beside,
      selection: new vscode.Range(start, end),
    });
  }

  dispose(): void {
    // The view as it is left is the one shown at the next open (most often under the settings tuned here).
    void this.kept.keep();
    this.onDispose();
    this.follow.dispose();
    // (The texts whose keys its counters remember go with the session's thread.)
    this.session.dispose();
    for (const d of this.disposables) d.dispose();
  }
}
