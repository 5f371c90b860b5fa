// The custom editor "Context Lens" for *.jsonl / *.json transcripts (priority "option": the text editor stays
// the default). One TranscriptDocument per file holds the parsed transcript, the settings in force and the
// latest analysis; every panel showing it gets the same messages. Every message from a webview is validated
// (parseWebviewMessage) before anything is done with it.
import { statSync } from 'node:fs';
import * as vscode from 'vscode';
import { analyze, analyzeSync } from '../core/analysis';
import { sessionPreset } from '../core/engine/models';
import { parseTranscript } from '../core/formats';
import { adapterFor } from '../core/formats/registry';
import type { Transcript } from '../core/model';
import { analyzeWithPrimedCounts } from '../core/primedAnalysis';
import { sameData } from '../core/sameData';
import { MAIN_THREAD } from '../core/threads';
import {
  EstimatingCounter,
  encoderLoaded,
  forgetCountedTexts,
  type TokenCounter,
  type TokenizerName,
  tokenCounter,
} from '../core/tokens/counter';
import { collectGarbage } from '../node/collectGarbage';
import { TokenWorkerPool } from '../node/tokenPool';
import { type HostMessage, parseWebviewMessage, type ViewLayout, type WebviewMessage } from '../protocol';
import { EXPORT_COMMAND } from './commands';
import { untrusted } from './escape';
import { type FileRead, GrowingFile } from './growingFile';
import { OffThreadParser } from './parseOffThread';
import { type Engine, TranscriptSession } from './session';
import {
  applyChanges,
  type EffectiveSettings,
  modelSummaries,
  onOwnWritesSettled,
  ownWritesInFlight,
  readSettings,
  resetSettings,
  SECTION,
  saveTarget,
  writeChanges,
} from './settings';
import { summarizerFor } from './summarizers';
import { answerSweep } from './sweep';
import { Throttle } from './throttle';
import { SNAPSHOT_MIN_FILE_BYTES, ViewSnapshots } from './viewSnapshots';
import { webviewHtml } from './webviewHtml';

export { VIEW_TYPE } from './commands';

import { VIEW_TYPE } from './commands';

/** The real formats and engine. Before each analysis, the strings not yet counted are tokenized in worker
 * threads (a 100 MB session holds ~70 MB of text: seconds of tokenizing that must not block the host); the
 * engine then counts from the primed cache. The summarizer is looked up per analysis (the setting may change). */
export function createEngine(getPool: () => TokenWorkerPool | null, parseScript?: string): Engine {
  return {
    parse: (bytes, fileName) => parseTranscript(bytes, fileName),
    // Every parse runs in a worker thread (a 100 MB session, or a one-line JSON body, would block the host); the
    // worker keeps a growing session's parsed lines, so following it costs the parse of the new lines.
    // The token workers count each batch of messages of a large file as it arrives from the parse (with the
    // tokenizer the settings name for it), so that counting runs beside the rest of the parse rather than after
    // it. A small file shows nothing before its parse ends: counting beside it only delayed its first paint, on
    // 2 cores (a real 4.2 MB session: 1.7 → 2.2–2.5 s).
    parser: parseScript
      ? (fileName) =>
          new OffThreadParser(parseScript, fileName, {
            onMessages: (head, messages, size) => {
              if (size < BEGINNING_MIN_FILE_BYTES) return;
              const pool = getPool();
              const tokenizer = tokenizerFor(readSettings(head).policy.model, head);
              if (!pool || !tokenizer) return;
              pool.primeTranscript({ ...head, messages }, editorCounter(tokenizer)).catch(() => {});
            },
            holdsBytes: false,
          })
      : undefined,
    analyze: async (transcript, policy, summarizer, signal, countsTakeLong, answersChange) => {
      const tokenizer = tokenizerFor(policy.model, transcript);
      const pool = getPool();
      if (pool && tokenizer) {
        const counter = editorCounter(tokenizer);
        // A failed worker costs speed, not the result: the engine counts what is missing itself.
        const primed = pool.primeTranscript(transcript, counter).catch((e) => {
          console.error(
            `Context Lens: token workers failed (${errorText(e)}); counting on the extension host`,
          );
        });
        const slow = countsTakeLong ? setTimeout(countsTakeLong, COUNTS_TAKE_LONG_MS) : undefined;
        await primed;
        clearTimeout(slow);
        // What the policy writes is counted in the workers too (a first switch to the live zone writes thousands
        // of compressed results); the engine counts a few short texts in place for a change the user waits for,
        // or once this thread has the tokenizer's tables, or when no worker runs. The open's first analysis and
        // the runs ahead leave them to a running worker: loading the tables here (~30 MB, kept) for a few texts
        // added to the peak of the host's memory while opening a 100 MB session.
        const inPlace = answersChange || encoderLoaded(tokenizer) || pool.running === 0;
        return analyzeWithPrimedCounts(transcript, policy, {
          inPlaceBudget: inPlace ? undefined : 0,
          summarizer: summarizerFor(summarizer, policy),
          signal,
          counter,
          // Failed workers leave the texts to the last run, which counts them in place.
          countElsewhere: (texts) => pool.primeTexts(texts, counter).catch(() => 0),
          probeSummaries: summarizer !== 'vscode-lm',
        });
      }
      return analyze(transcript, policy, { summarizer: summarizerFor(summarizer, policy), signal });
    },
    estimate: (transcript, policy, summarizer) => {
      const tokenizer = tokenizerFor(policy.model, transcript);
      // Only summarizers that answer at once: a model would be asked for summaries of a provisional view.
      const offline = summarizer === 'vscode-lm' ? 'none' : summarizer;
      return analyzeSync(transcript, policy, {
        summarizer: summarizerFor(offline, policy),
        counter: tokenizer ? new EstimatingCounter(tokenizer) : undefined,
      });
    },
  };
}

/** The tokenizer of the model a policy names (the session's own under "auto"). */
const tokenizerFor = (model: string, transcript: Pick<Transcript, 'format' | 'model'>) =>
  sessionPreset(model, transcript.format, transcript.model)?.tokenizer;

/** The process-wide counter of `tokenizer`, remembering the digests of the long texts it keys: the editor keys
 * the same texts again at every analysis (they are let go when a transcript closes). */
function editorCounter(tokenizer: TokenizerName): TokenCounter {
  const counter = tokenCounter(tokenizer);
  counter.remembersTexts = true;
  return counter;
}

/** When the token counts an analysis waits for take longer than this, an analysis with estimated counts is shown
 * meanwhile (a 100 MB session takes seconds to count on every core; one seen before is counted from disk). */
const COUNTS_TAKE_LONG_MS = 400;

/** Files from this size are shown from their beginning first (see `showBeginning`): parsing 100 MB takes
 * seconds, the first MB tens of milliseconds. */
const BEGINNING_MIN_FILE_BYTES = 8 * 1024 * 1024;
const BEGINNING_BYTES = 1024 * 1024;

/** workspaceState key of the view's layout (controls panel open, list/details split). */
const LAYOUT_KEY = 'contextLens.layout';

const basename = (uri: vscode.Uri) => uri.path.slice(uri.path.lastIndexOf('/') + 1);
const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Following the file on disk (an agent appends a line every few hundred ms): a change is read after this settle
 * delay, and at most once per interval, so the view follows a growing session within about a second plus one
 * parse; never a debounce, which would wait for the agent to stop. */
const FOLLOW = { settleMs: 100, intervalMs: 500 };

/** The longest the parse of a file shown from a kept snapshot waits for a view to take it. */
const RESTORED_SHOWN_WAIT_MS = 3_000;

/** The longest an analysis waits for the transcript message before it to reach the views (`delivered`). */
const DELIVERY_WAIT_MS = 1_000;

export class TranscriptDocument implements vscode.CustomDocument {
  readonly session: TranscriptSession;
  settings: EffectiveSettings = readSettings(null);
  private readonly panels = new Set<vscode.WebviewPanel>();
  /** The panels whose view said it is ready: one that is not yet is sent everything when it is ('ready'). */
  private readonly readyPanels = new Set<vscode.WebviewPanel>();
  /** The panels whose Requests tab is shown (analyses carry the request columns while there is one). */
  private readonly showingRequests = new Set<vscode.WebviewPanel>();
  private loadError: string | null = null;
  /** A file on disk is read by what it grew (GrowingFile); other schemes whole, compared with `lastBytes`. */
  private readonly file: GrowingFile | null;
  private lastBytes: Uint8Array | null = null;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly follow = new Throttle(() => this.reload(), FOLLOW);
  /** The first load; reloads wait for it (a change during the open is read after it). */
  private loaded: Promise<void> = Promise.resolve();
  /** Set while the views show a kept snapshot and the file is parsed: their requests wait for the parse (and, when
   * it did not confirm the snapshot, for the first analysis). */
  private parsing: Promise<void> | null = null;
  private parsed = () => {};
  /** Called once a view took the messages of a kept snapshot (then the parse starts: see `restore`). */
  private viewTookRestored = () => {};
  /** The file's bytes as first read, while a snapshot may be kept of them (null: none is, or the file changed
   * since), their key once made, and the settings of the snapshot kept. */
  private snapshotBytes: Uint8Array | null = null;
  private snapshotKey: Promise<string> | null = null;
  private keptUnder: unknown = null;
  /** The size of the file as first read. */
  private bytesRead = 0;

  constructor(
    readonly uri: vscode.Uri,
    engine: Engine,
    private readonly onDispose: () => void,
    /** Called with each transcript adopted (opened or changed on disk), for the Problems panel. */
    private readonly onTranscript: (doc: TranscriptDocument) => void = () => {},
    /** Where what the views were shown is kept for the next open (none: every open parses first). */
    private readonly snapshots: ViewSnapshots | null = null,
  ) {
    this.file = uri.scheme === 'file' ? new GrowingFile(uri.fsPath) : null;
    this.session = new TranscriptSession(
      basename(uri),
      engine,
      (message) => {
        this.broadcast(message);
      },
      (error) =>
        this.broadcast({ type: 'error', message: `${basename(uri)}: analysis failed: ${errorText(error)}` }),
      uri.path,
      (ahead) => this.broadcast(ahead),
    );
    // A live agent session appends lines while it is open: follow the file.
    const dir = vscode.Uri.joinPath(uri, '..');
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(dir, basename(uri)));
    watcher.onDidChange(() => this.follow.trigger(), null, this.disposables);
    watcher.onDidCreate(() => this.follow.trigger(), null, this.disposables);
    this.disposables.push(watcher);
  }

  get transcript() {
    return this.session.model;
  }

  /** Reads and parses the file, then analyses it under the settings, with a progress notification. */
  load(token?: vscode.CancellationToken): Promise<void> {
    // However the load ended (cancelled, failed): the bytes go then at the latest, usually before the first analysis.
    this.loaded = this.firstLoad(token).then(() => this.letGoOfBytes());
    return this.loaded;
  }

  /** Once shown, the file's bytes are let go of (a 100 MB session's are 100 MB on the host for as long as it is
   * open, and nothing reads them: an export parses the file again); their snapshot key is made first. A file that
   * grows is read whole again at its next change, then followed as before. Those of a large file are collected at
   * once, with the garbage of its parse: V8 kept them through the first analysis, the peak of the host's memory
   * (100 MB more there, measured on a 100 MB session). */
  private async letGoOfBytes(): Promise<void> {
    await this.keyOfSnapshot()?.catch(() => {});
    this.handOverBytes();
    this.session.releaseBytes();
    if (this.bytesRead >= BEGINNING_MIN_FILE_BYTES) collectGarbage();
  }

  /** Lets the parse alone hold the file's bytes (it lets go of them once parsed, when it is the last): the snapshot
   * key is made of them first, meanwhile. */
  private handOverBytes(): void {
    void this.keyOfSnapshot()?.catch(() => {});
    this.snapshotBytes = null;
    this.file?.release();
  }

  /** What changed on disk since the last read (the whole file at first); null when nothing did. `start`: see
   * GrowingFile.read. */
  private async readChanges(start?: Parameters<GrowingFile['read']>[0]): Promise<FileRead | null> {
    if (this.file) return this.file.read(start);
    const bytes = await vscode.workspace.fs.readFile(this.uri);
    if (this.lastBytes && sameBytes(bytes, this.lastBytes)) return null;
    this.lastBytes = bytes;
    return { bytes, from: 0 };
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
          this.broadcast({ type: 'loading', fileName: name, phase });
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
            this.parsed();
            void this.letGoOfBytes();
            await analysed;
            return;
          }
          this.settings = readSettings(this.session.model);
          const shownNow = this.delivered(transcript);
          this.broadcast(this.settingsMessage());
          await shownNow;
          // The first analysis takes seconds on a large session: the bytes are let go of before it.
          void this.letGoOfBytes();
          step(`counting tokens and analysing ${transcript.messages.length} messages`, 30);
          await this.session.request(this.settings.policy, this.settings.summarizer, 0);
          progress.report({ increment: 50 });
          await this.keepSnapshot();
        } catch (error) {
          this.loadError = `${name}: ${errorText(error)}`;
          this.broadcast({ type: 'error', message: this.loadError });
        } finally {
          this.parsed();
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
  ): Promise<Extract<HostMessage, { type: 'transcript' }> | null> {
    step('reading the file', 5);
    // A large session's beginning is parsed and shown while the rest is read (reading 100 MB took ~0.5 s, before
    // anything was shown), unless a view of the whole file may be kept from an earlier open.
    let beginning: Promise<number> | undefined;
    const kept = (await this.snapshots?.keptFor(this.uri.path)) ?? false;
    const read = await this.readChanges(
      !kept
        ? {
            bytes: BEGINNING_BYTES + 1,
            read: (start, size) => {
              beginning = this.showBeginning(start, size);
            },
          }
        : undefined,
    );
    const bytes = read?.bytes ?? this.file?.bytes ?? new Uint8Array(0);
    this.bytesRead = bytes.length;
    if (token?.isCancellationRequested) return null;
    const restored = await this.restore(bytes, kept && beginning === undefined);
    const shown = restored ? 0 : await (beginning ?? this.showBeginning(bytes, bytes.length));
    if (!shown && !restored) step(`parsing ${(bytes.length / 1e6).toFixed(1)} MB`, 15);
    // The file's last parse until it grows (when it is read again): the whole file, or the rest of one shown from
    // its beginning.
    this.handOverBytes();
    return this.session.loadAsync(bytes, shown);
  }

  /** The key of the snapshot of the file's bytes as first read (viewSnapshots.ts); null when none is kept of them
   * (small, not on disk, changed since, or summarised by a model, whose summaries are not the engine's to repeat). */
  private keyOfSnapshot(): Promise<string> | null {
    const bytes = this.snapshotBytes;
    if (this.snapshots && bytes) this.snapshotKey ??= this.snapshots.key(this.uri.path, bytes);
    return this.snapshotKey;
  }

  /** Notes whether a snapshot may be kept of `bytes` (`snapshotBytes`), and shows the one kept of them while the
   * file is parsed, when the settings in force make the policy of its analysis, one is kept for the file and the
   * views were shown nothing of it yet (`mayShow`); requests from the views wait for the parse. */
  private async restore(bytes: Uint8Array, mayShow: boolean): Promise<boolean> {
    const eligible =
      this.file && bytes.length >= SNAPSHOT_MIN_FILE_BYTES && readSettings(null).summarizer !== 'vscode-lm';
    this.snapshotBytes = eligible ? bytes : null;
    if (!mayShow || !this.snapshots || !eligible) return false;
    const key = this.keyOfSnapshot();
    const snapshot = key && (await key.then((k) => this.snapshots?.find(k)).catch(() => null));
    if (!snapshot) return false;
    const { transcript, analysis } = snapshot;
    // The settings' defaults depend on the transcript's format only.
    const settings = readSettings({ format: transcript.format });
    if (!sameData([settings.policy, settings.summarizer], [analysis.policy, snapshot.settings.summarizer]))
      return false;
    this.settings = settings;
    this.keptUnder = [analysis.policy, settings.summarizer];
    this.session.restore(snapshot);
    let parsed = () => {};
    this.parsing = new Promise<void>((resolve) => {
      parsed = resolve;
    });
    this.parsed = () => {
      this.parsing = null;
      parsed();
    };
    this.broadcast(transcript);
    this.broadcast(this.settingsMessage());
    this.broadcast(analysis);
    // The parse waits until a view took them (at most a few seconds): on 2 cores, parsing beside the view's first
    // render delays the figures the snapshot is there to show at once.
    await new Promise<void>((resolve) => {
      const cap = setTimeout(resolve, RESTORED_SHOWN_WAIT_MS);
      this.viewTookRestored = () => {
        clearTimeout(cap);
        resolve();
      };
      if (this.readyPanels.size > 0) this.viewTookRestored();
    });
    this.viewTookRestored = () => {};
    return true;
  }

  /** Keeps what the views now show for the next open of the same file: when it is the exact
   * analysis of the whole file, of its main conversation, under the settings in force, and not kept already. Whether
   * settings.json holds them is checked when the snapshot is found. */
  private async keepSnapshot(): Promise<void> {
    const key = this.keyOfSnapshot();
    const transcript = this.session.transcriptMessage();
    const analysis = this.session.complete();
    if (!this.snapshots || !key || !transcript || !analysis || transcript.beginning) return;
    if ((transcript.thread ?? MAIN_THREAD) !== MAIN_THREAD || analysis.analysis.tokensPending) return;
    const settings = this.settingsMessage();
    const made = [analysis.policy, settings.summarizer];
    if (!sameData(analysis.policy, settings.policy) || sameData(made, this.keptUnder)) return;
    this.keptUnder = made;
    await this.snapshots
      .keep(await key, { transcript, settings, analysis })
      .catch((e) =>
        console.warn(`Context Lens: could not keep the view of ${basename(this.uri)}: ${errorText(e)}`),
      );
  }

  /**
   * A large JSONL session is first shown as it was when its first `BEGINNING_BYTES` were written (an agent's log
   * is append-only, so that is a true earlier state of it): the list and the ladder appear in a fraction of a
   * second while the rest is parsed, as an append, in the same worker. Returns where the rest starts (0 when
   * the whole file is parsed at once: small, not JSONL, or the beginning did not parse).
   */
  private async showBeginning(bytes: Uint8Array, fileBytes: number): Promise<number> {
    if (fileBytes < BEGINNING_MIN_FILE_BYTES) return 0;
    const cut = bytes.lastIndexOf(0x0a, BEGINNING_BYTES) + 1;
    if (cut <= 0) return 0;
    const message = await this.session.loadAsync(bytes.subarray(0, cut), 0, fileBytes).catch(() => null);
    const model = this.session.model;
    if (!message || !model || adapterFor(model.format).shape !== 'jsonl') return 0;
    this.broadcast(message);
    return cut;
  }

  /** One step of following the file: read what changed, parse it (only the new lines of a grown JSONL
   * session), show it, analyse it. The throttle runs one at a time. */
  private async reload() {
    await this.loaded;
    try {
      const read = await this.readChanges();
      if (!read) return;
      // Only a file as it was first read is kept.
      this.snapshotBytes = null;
      this.snapshotKey = null;
      // A file that grew keeps its view while the new lines are read; one rewritten says so.
      if (read.from === 0)
        this.broadcast({
          type: 'loading',
          fileName: basename(this.uri),
          phase: 'the file changed on disk: reading it again',
        });
      const transcript = await this.session.loadAsync(read.bytes, read.from, undefined, true);
      if (!transcript) return; // closed meanwhile
      this.loadError = null;
      this.onTranscript(this);
      await this.delivered(transcript);
      // Not awaited: the next read and parse (in the worker) run while this analysis runs here; the session
      // adopts the next transcript only after it.
      void this.session.request(this.settings.policy, this.settings.summarizer, 0);
    } catch (error) {
      this.broadcast({
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
    // Our own writes land here too, once they settle, and find what the views already show: no message (each
    // one re-renders every view), no analysis.
    if (same && sameProblems) return;
    this.broadcast(this.settingsMessage());
    if (!same && this.session.model) await this.session.request(next.policy, next.summarizer, 0);
  }

  attach(panel: vscode.WebviewPanel) {
    this.panels.add(panel);
    panel.onDidDispose(() => {
      this.panels.delete(panel);
      this.readyPanels.delete(panel);
      this.showingRequests.delete(panel);
    });
  }

  broadcast(message: HostMessage) {
    for (const p of this.receivers(message)) void p.webview.postMessage(message);
  }

  /** The panels `message` is for: a view that is not ready yet would be sent the transcript twice (now, and with
   * everything else when it is ready); only the progress and the errors it shows meanwhile are sent before. */
  private receivers(message: HostMessage): vscode.WebviewPanel[] {
    const early = message.type === 'loading' || message.type === 'error';
    return [...(early ? this.panels : this.readyPanels)];
  }

  /** `broadcast`, resolved once every panel took the message (or after `DELIVERY_WAIT_MS`). A large message leaves
   * the extension host only while its thread is free: sent before an analysis of seconds, the list of a 100 MB
   * session reached the view after the analysis, not before it. */
  private delivered(message: HostMessage): Promise<void> {
    const posts = Promise.all(this.receivers(message).map((p) => p.webview.postMessage(message)));
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cap = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, DELIVERY_WAIT_MS);
    });
    return Promise.race([posts.then(() => {}), cap]).finally(() => clearTimeout(timer));
  }

  async handle(panel: vscode.WebviewPanel, message: WebviewMessage): Promise<void> {
    const post = (m: HostMessage) => void panel.webview.postMessage(m);
    // A view showing a kept snapshot asks about a transcript the host has yet to parse.
    if (message.type !== 'ready' && this.parsing) await this.parsing;
    switch (message.type) {
      case 'ready': {
        this.readyPanels.add(panel);
        // A view that (re)starts shows its details tab.
        this.showingRequests.delete(panel);
        this.session.showRequests(this.showingRequests.size > 0);
        const t = this.session.transcriptMessage();
        if (t) post(t);
        post(this.settingsMessage());
        const analysis = this.session.complete();
        if (analysis) void panel.webview.postMessage(analysis).then(() => this.viewTookRestored());
        if (this.loadError) post({ type: 'error', message: this.loadError });
        return;
      }
      case 'updateSettings': {
        const r = applyChanges(this.settings, message.changes);
        if ('errors' in r) {
          post({ ...this.settingsMessage(r.errors.join('\n')), seq: message.seq });
          return;
        }
        this.settings = r.settings;
        // The panel that sent the change learns which change this answers (it may have sent newer ones since).
        const settings = this.settingsMessage();
        for (const p of this.readyPanels)
          void p.webview.postMessage(p === panel ? { ...settings, seq: message.seq } : settings);
        // Analyse at once; the settings write (and its change event, which finds nothing new) follows.
        const analysed = this.session.request(
          r.settings.policy,
          r.settings.summarizer,
          message.seq,
          message.holds,
        );
        await writeChanges(message.changes).catch((e) =>
          post({ type: 'error', message: `Could not save ${SECTION} settings: ${errorText(e)}` }),
        );
        await analysed;
        return;
      }
      case 'resetSettings':
        await resetSettings();
        this.settings = readSettings(this.session.model);
        this.broadcast(this.settingsMessage());
        await this.session.request(this.settings.policy, this.settings.summarizer, message.seq);
        return;
      case 'requestDetails': {
        const d = this.session.details(message.messageIndex);
        if (d) post(d);
        return;
      }
      case 'revealInSource': {
        const at = this.session.source(message.messageIndex, message.blockIndex);
        const start = new vscode.Position(
          Math.max(0, (at?.line ?? 1) - 1),
          Math.max(0, (at?.column ?? 1) - 1),
        );
        const end =
          at?.endLine !== undefined && at.endColumn !== undefined
            ? new vscode.Position(at.endLine - 1, Math.max(0, at.endColumn - 1))
            : start;
        // Open the file as text beside the lens ('default' would choose this very editor for the file again).
        await vscode.commands.executeCommand('vscode.openWith', this.uri, 'default', {
          viewColumn: vscode.ViewColumn.Beside,
          selection: new vscode.Range(start, end),
        });
        return;
      }
      case 'compareAll':
        post(await this.session.comparisonsMessage(this.settings.policy));
        return;
      case 'requestsShown': {
        if (message.shown) this.showingRequests.add(panel);
        else this.showingRequests.delete(panel);
        const again = this.session.showRequests(this.showingRequests.size > 0);
        if (again) this.broadcast(again);
        return;
      }
      case 'find':
        post(this.session.find(message.seq, message.query));
        return;
      case 'sweep':
        return answerSweep(this, message, this.session.model, this.settings.policy, post);
      case 'selectThread': {
        const t = this.session.selectThread(message.thread);
        if (!t) {
          post({ type: 'error', message: `No conversation ${message.thread} in this file` });
          return;
        }
        this.broadcast(t);
        await this.session.request(this.settings.policy, this.settings.summarizer, 0);
        return;
      }
      case 'exportCompacted':
        try {
          await vscode.commands.executeCommand(EXPORT_COMMAND, this.uri);
        } catch (e) {
          post({ type: 'error', message: `Export failed: ${errorText(e)}` });
        }
        return;
    }
  }

  dispose(): void {
    // The view as it is left is the one shown at the next open (most often under the settings tuned here).
    void this.keepSnapshot();
    this.onDispose();
    this.follow.dispose();
    this.session.dispose();
    // The texts of this transcript whose keys the counters remember (the other views' are hashed again once).
    forgetCountedTexts();
    for (const d of this.disposables) d.dispose();
  }
}

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

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
    // One pool for all transcripts, started with the first one (activation alone starts no threads).
    // Without its bundle (a broken package) the engine counts on this thread.
    const script = vscode.Uri.joinPath(context.extensionUri, 'dist', 'tokenWorker.js').fsPath;
    let pool: TokenWorkerPool | null | undefined;
    const getPool = () => {
      if (pool === undefined) {
        try {
          // Counts are kept on disk: reopening a session, or another sharing its content, counts nothing twice.
          pool = new TokenWorkerPool(script).keepCountsIn(
            vscode.Uri.joinPath(context.globalStorageUri, 'tokens').fsPath,
            (m) => console.warn(`Context Lens: ${m}`),
          );
        } catch (e) {
          pool = null;
          console.error(
            `Context Lens: token workers unavailable (${errorText(e)}); counting on the extension host`,
          );
        }
      }
      return pool;
    };
    const provider = new TranscriptEditorProvider(context, getPool);
    const disposable = vscode.Disposable.from(
      { dispose: () => void pool?.dispose() },
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

  private readonly engine: Engine;
  private readonly snapshots: ViewSnapshots | null;

  private constructor(
    private readonly context: vscode.ExtensionContext,
    getPool: () => TokenWorkerPool | null,
  ) {
    const parseScript = vscode.Uri.joinPath(context.extensionUri, 'dist', 'parseWorker.js').fsPath;
    this.engine = createEngine(getPool, parseScript);
    const build = engineBuild(context, [
      vscode.Uri.joinPath(context.extensionUri, 'dist', 'extension.js').fsPath,
      parseScript,
    ]);
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
      this.engine,
      () => this.documents.delete(doc),
      (d) => this.transcriptAdopted.fire(d),
      this.snapshots,
    );
    this.documents.add(doc);
    // The session lets go of its listeners when the document is disposed.
    doc.session.onDidChangeAnalysis(() => this.analysisChanged.fire(doc));
    // Not awaited: the panel opens at once and shows the progress; the notification shows it too.
    void doc.load(token);
    return doc;
  }

  async resolveCustomEditor(document: TranscriptDocument, panel: vscode.WebviewPanel): Promise<void> {
    const { extensionUri } = this.context;
    panel.webview.options = {
      enableScripts: true,
      localResourceRoots: [
        vscode.Uri.joinPath(extensionUri, 'dist'),
        vscode.Uri.joinPath(extensionUri, 'media'),
      ],
    };
    panel.webview.html = webviewHtml({
      cspSource: panel.webview.cspSource,
      scriptUri: panel.webview
        .asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview.js'))
        .toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'main.css')).toString(),
    });
    document.attach(panel);
    panel.webview.onDidReceiveMessage(async (data: unknown) => {
      const parsed = parseWebviewMessage(data);
      if (!parsed.ok) {
        console.error(`Context Lens: ${parsed.error}`);
        void panel.webview.postMessage({
          type: 'error',
          message: `The host refused a message: ${parsed.error}`,
        });
        return;
      }
      const message = parsed.value;
      // The layout is the user's, per workspace, whatever the file: kept here rather than by the document.
      if (message.type === 'saveLayout') {
        await this.context.workspaceState.update(LAYOUT_KEY, message.layout);
        return;
      }
      if (message.type === 'ready') {
        const layout = this.context.workspaceState.get<ViewLayout>(LAYOUT_KEY);
        if (layout) void panel.webview.postMessage({ type: 'layout', layout } satisfies HostMessage);
      }
      try {
        await document.handle(panel, message);
      } catch (e) {
        void panel.webview.postMessage({ type: 'error', message: errorText(e) });
      }
    });
  }
}
