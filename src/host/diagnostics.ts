// Problems panel entries on transcript files (rules in core/problems): for every .jsonl/.json text document that
// is a transcript, and every file open in Context Lens. They follow edits (debounced), the view's transcript as
// it follows the file on disk, and the contextLens.* settings (the floor rule depends on the policy).
// A text document is parsed in a worker thread (a one-line JSON body of a few MB can take seconds); a file open in
// Context Lens is not read nor parsed again (nor is its text, while saved): the view's own transcript is checked.
import * as vscode from 'vscode';
import { UnrecognizedTranscriptError } from '../core/formats';
import { SLICE_MS } from '../core/giveWay';
import type { Transcript } from '../core/model';
import { type Problem, readResults, transcriptProblems } from '../core/problems';
import { VIEW_TYPE } from './commands';
import { ERROR_MAX_CHARS, untrusted } from './escape';
import { LatestParse } from './latestParse';
import { readSettings, SECTION } from './settings';
import { Throttle } from './throttle';
import type { TranscriptDocument, TranscriptEditorProvider } from './transcriptEditor';

/** Wait this long after the last keystroke or change on disk before reading again. */
const DEBOUNCE_MS = 400;
/** At most this often, the problems of a file in Context Lens follow its view as the file grows. */
const LENS_PROBLEMS_INTERVAL_MS = 2000;
/** Larger text documents are checked when opened and saved, not on every edit. */
const LIVE_EDIT_LIMIT = 20 * 1024 * 1024;

const SEVERITY: Record<Problem['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

export function toDiagnostic(p: Problem): vscode.Diagnostic {
  const line = Math.max(0, p.line - 1);
  const column = Math.max(0, p.column - 1);
  // To the end of the line: the editor clamps the range to the line's real length.
  const d = new vscode.Diagnostic(
    new vscode.Range(line, column, line, Number.MAX_SAFE_INTEGER),
    // Problems quote the transcript (keys, ids, names): inert text, like every message we show.
    untrusted(p.message, ERROR_MAX_CHARS),
    SEVERITY[p.severity],
  );
  d.source = 'Context Lens';
  d.code = p.code;
  return d;
}

/** Files on disk only: the same path under `git:` (a diff's old side) or an output channel is not the file. */
const isCandidate = (uri: vscode.Uri) => uri.scheme === 'file' && /\.jsonl?$/i.test(uri.path);

export class TranscriptDiagnostics implements vscode.Disposable {
  readonly collection = vscode.languages.createDiagnosticCollection('contextLens');
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly disposables: vscode.Disposable[] = [this.collection];
  /** One parse per text document at a time: a newer edit ends the older parse's thread. */
  private readonly parses: LatestParse;

  constructor(
    parseScript: string,
    /** The Context Lens documents, whose transcripts are checked as they are (re)loaded. */
    private readonly provider?: TranscriptEditorProvider,
  ) {
    this.parses = new LatestParse(parseScript);
    this.disposables.push(this.parses);
    provider?.onDidLoadTranscript((doc) => this.lensLoaded(doc), null, this.disposables);
    const w = vscode.workspace;
    w.onDidOpenTextDocument((d) => this.schedule(d.uri, 0), null, this.disposables);
    w.onDidChangeTextDocument((e) => this.textChanged(e.document), null, this.disposables);
    w.onDidSaveTextDocument((d) => this.schedule(d.uri), null, this.disposables);
    w.onDidCloseTextDocument(() => this.forgetClosed(), null, this.disposables);
    vscode.window.tabGroups.onDidChangeTabs(() => this.syncTabs(), null, this.disposables);
    w.onDidChangeConfiguration(
      (e) => {
        if (e.affectsConfiguration(SECTION))
          for (const key of this.tracked()) this.schedule(vscode.Uri.parse(key));
      },
      null,
      this.disposables,
    );
    for (const d of w.textDocuments) this.schedule(d.uri, 0);
    this.syncTabs();
  }

  /** Files open in Context Lens (not text documents, so no text events: a watcher follows them on disk). */
  private lensUris(): vscode.Uri[] {
    const out: vscode.Uri[] = [];
    for (const g of vscode.window.tabGroups.all)
      for (const t of g.tabs)
        if (t.input instanceof vscode.TabInputCustom && t.input.viewType === VIEW_TYPE) out.push(t.input.uri);
    return out;
  }

  private tracked(): string[] {
    const keys = new Set<string>();
    for (const d of vscode.workspace.textDocuments) if (isCandidate(d.uri)) keys.add(d.uri.toString());
    for (const u of this.lensUris()) keys.add(u.toString());
    return [...keys];
  }

  /** Files in Context Lens tabs at the last look: a new one gets its problems at once. */
  private lensKeys = new Set<string>();
  /** Per file in Context Lens: its problems follow the view's transcript at a bounded pace. */
  private readonly lensFollow = new Map<string, Throttle>();

  private syncTabs(): void {
    const now = new Map(this.lensUris().map((u) => [u.toString(), u]));
    for (const [key, uri] of now) if (!this.lensKeys.has(key)) this.schedule(uri, 0);
    this.lensKeys = new Set(now.keys());
    for (const [key, follow] of this.lensFollow)
      if (!now.has(key)) {
        follow.dispose();
        this.lensFollow.delete(key);
      }
    this.forgetClosed();
  }

  /** A Context Lens view has a new transcript (opened, or grown on disk): its problems, unless the file is open
   * as text with unsaved changes, or the view shows less than the whole file (then the text is what is checked). */
  private lensLoaded(doc: TranscriptDocument): void {
    if (!isCandidate(doc.uri)) return;
    const key = doc.uri.toString();
    let follow = this.lensFollow.get(key);
    if (!follow) {
      // A live session is adopted every second or so; its problems (tens of ms on 100 MB) need not be as often.
      follow = new Throttle(
        async () => {
          const text = this.textDocument(doc.uri);
          if (doc.session.model && (!text || (!text.isDirty && doc.session.showsWholeFile)))
            this.show(doc.uri, await doc.problems());
        },
        { settleMs: 0, intervalMs: LENS_PROBLEMS_INTERVAL_MS },
      );
      this.lensFollow.set(key, follow);
    }
    follow.trigger();
  }

  private textDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
    const key = uri.toString();
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
  }

  private textChanged(doc: vscode.TextDocument): void {
    if (!isCandidate(doc.uri)) return;
    const length = doc.offsetAt(doc.lineAt(doc.lineCount - 1).range.end);
    if (length > LIVE_EDIT_LIMIT) return;
    this.schedule(doc.uri);
  }

  /** A file neither open as text nor in Context Lens leaves the Problems panel. */
  private forgetClosed(): void {
    const open = new Set(this.tracked());
    this.collection.forEach((uri) => {
      if (!open.has(uri.toString())) this.collection.delete(uri);
    });
  }

  schedule(uri: vscode.Uri, delay = DEBOUNCE_MS): void {
    if (!isCandidate(uri)) return;
    const key = uri.toString();
    clearTimeout(this.timers.get(key));
    this.timers.set(
      key,
      setTimeout(() => {
        this.timers.delete(key);
        void this.refresh(uri);
      }, delay),
    );
  }

  /** Parses the text document (in a worker) or takes the Context Lens view's transcript, and publishes its
   * problems. A file in Context Lens whose transcript is not there yet gets them when it is (lensLoaded). */
  async refresh(uri: vscode.Uri): Promise<Problem[]> {
    const key = uri.toString();
    const doc = this.textDocument(uri);
    let transcript: Transcript;
    try {
      const lens = this.provider?.openDocuments().find((d) => d.uri.toString() === key);
      if (doc && !(lens?.session.showsWholeFile && lens.session.model && !doc.isDirty)) {
        const parsed = await this.parses.parse(key, new TextEncoder().encode(doc.getText()), uri.fsPath);
        if (!parsed) return []; // a newer edit is being parsed
        transcript = parsed;
      } else {
        // In Context Lens (and, if open as text, saved): the view's transcript is the file's, its problems found
        // where it is held (the session's thread).
        if (!lens?.session.model) return [];
        return this.show(uri, await lens.problems());
      }
    } catch (error) {
      // Not a transcript (package.json, tsconfig.json…) or gone: nothing of ours to say about it.
      if (!(error instanceof UnrecognizedTranscriptError))
        console.warn(`Context Lens: ${key}: ${String(error)}`);
      this.collection.delete(uri);
      return [];
    }
    return this.publish(uri, transcript);
  }

  private async publish(uri: vscode.Uri, transcript: Transcript): Promise<Problem[]> {
    await readResults(transcript, SLICE_MS);
    return this.show(uri, transcriptProblems(transcript, readSettings(transcript).policy));
  }

  private show(uri: vscode.Uri, problems: Problem[]): Problem[] {
    this.collection.set(uri, problems.map(toDiagnostic));
    return problems;
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    for (const f of this.lensFollow.values()) f.dispose();
    for (const d of this.disposables) d.dispose();
  }
}

export function registerDiagnostics(
  context: vscode.ExtensionContext,
  provider?: TranscriptEditorProvider,
): vscode.Disposable {
  const parseScript = vscode.Uri.joinPath(context.extensionUri, 'dist', 'parseWorker.js').fsPath;
  return new TranscriptDiagnostics(parseScript, provider);
}
