// One open transcript on the host side, without the editor API: its parsed model, the request stream shown, and
// the messages for the webview. The analyses are asked for through a queue (analysisQueue.ts), run ahead while the
// user pauses (runAhead.ts), measured against the other policies (comparisons.ts) and sent as patches on what the
// views hold (sentAnalyses.ts). The custom editor wraps it; the browser tests' stand-in host uses it as is, so
// what the tests draw is what the editor would post.
import type { Analysis } from '../core/analysisTypes';
import type { Policy } from '../core/engine/policy';
import type { Block, Transcript } from '../core/model';
import { sameData } from '../core/sameData';
import { findMessages } from '../core/search';
import { HEAD_BYTES } from '../core/sessionProject';
import { sessionTitle } from '../core/sessionTitle';
import { MAIN_THREAD, threadsOf, threadTranscript } from '../core/threads';
import { sessionHead } from '../node/sessionRead';
import { type HostMessage, parseHostMessage, type SummarizerName, type WebviewMessage } from '../protocol';
import { cacheViewMessage } from './cacheBreaks';
import type { Engine, TranscriptParser } from './engine';
import type { SessionTiming } from './runAhead';
import type { AheadMessage, AnalysisMessage } from './sentAnalyses';
import { SessionAnalyses } from './sessionAnalyses';
import { detailsMessage, sourcePosition, toolCalls, transcriptMessage } from './summaries';
import { answerSweep } from './sweep';
import type { ViewSnapshot } from './viewSnapshots';

export type { SessionClock } from './clock';
export type { Engine, TranscriptParser } from './engine';
export type { EngineResult } from './engineResult';
export { SESSION_TIMING, type SessionTiming } from './runAhead';

type TranscriptMessage = Extract<HostMessage, { type: 'transcript' }>;

const NO_BYTES = new Uint8Array(0);

export class TranscriptSession {
  /** The file's transcript, and the request stream shown and analysed (the main conversation or a sub-agent's). */
  private whole: Transcript | null = null;
  private thread = MAIN_THREAD;
  private transcript: Transcript | null = null;
  private calls = new Map<string, Extract<Block, { type: 'tool_use' }>>();
  private revision = 0;
  private readonly analyses: SessionAnalyses;
  /** Counts loads, so that a parse that finishes after a newer one started is dropped. */
  private loads = 0;
  private parser: TranscriptParser | null = null;
  /** Set while the transcript is that of the file's first `bytes` only. */
  private beginning: { bytes: number; fileBytes: number } | null = null;
  /** What the views were sent of this file before (a kept snapshot) until the parse confirms or replaces it. */
  private restored: { transcript: TranscriptMessage; analysis: AnalysisMessage } | null = null;
  /** The load's message that confirmed the restored one. */
  private confirmed: TranscriptMessage | null = null;
  /** The file's first bytes, until its parse says its format; then the project its first records name (the
   * Sessions view's name for it). */
  private head: Uint8Array | null = null;
  private project: string | undefined;

  constructor(
    readonly fileName: string,
    private readonly engine: Engine,
    /** Receives every analysis, in order. */
    onAnalysis: (message: AnalysisMessage) => void,
    onError: (error: unknown) => void,
    /** The file's path: the session's title takes the project from it where the log's records name none, as the
     * Sessions view does; `fileName` alone does not hold it. */
    private readonly path: string = fileName,
    /** Receives the analyses run ahead, as patches on the last analysis (see SessionAnalyses.offer). */
    onAhead: (message: AheadMessage) => void = () => {},
    timing: Partial<SessionTiming> = {},
  ) {
    this.analyses = new SessionAnalyses(
      engine,
      { fileName, transcript: () => this.transcript, onAnalysis, onError, onAhead },
      timing,
    );
  }

  get model(): Transcript | null {
    return this.transcript;
  }

  /** Whether the transcript shown is the whole file's main conversation (not its beginning, not a sub-agent's):
   * then its analysis is that of the file as a text editor holds it once saved. */
  get showsWholeFile(): boolean {
    return this.transcript !== null && this.beginning === null && this.thread === MAIN_THREAD;
  }

  get analysis(): Analysis | null {
    return this.analyses.shown?.analysis ?? null;
  }

  /** `listener` hears every change of `analysis` (see SessionAnalyses.onDidChangeAnalysis). */
  onDidChangeAnalysis(listener: (analysis: Analysis | null) => void): { dispose(): void } {
    return this.analyses.onDidChangeAnalysis(listener);
  }

  /** Parses the file's bytes (again, when it changed on disk) and returns the message for the webview. */
  load(bytes: Uint8Array): TranscriptMessage {
    this.keepHead(bytes, 0);
    this.loads++;
    this.analyses.analysedOnce = false;
    return this.adopt(this.engine.parse(bytes, this.fileName), null);
  }

  /**
   * `load` with the engine's asynchronous parse when it has one; null when a newer load superseded this one.
   * `from`: the file grew, and its bytes before `from` are those of the previous load. `fileBytes`: `bytes` are
   * only the beginning of a file that long (shown while the rest is parsed; the whole file's load follows).
   * `growing`: the file grew on disk since it was opened (a live session: more is likely to follow).
   */
  loadAsync(
    bytes: Uint8Array,
    from = 0,
    fileBytes?: number,
    growing = false,
  ): Promise<TranscriptMessage | null> {
    this.keepHead(bytes, from);
    const load = ++this.loads;
    const beginning = fileBytes !== undefined && fileBytes > bytes.length;
    let parsed: Promise<Transcript | null>;
    if (this.engine.parser) {
      this.parser ??= this.engine.parser(this.fileName);
      parsed = this.parser.parse(bytes, from, growing, !growing && !beginning);
    } else if (this.engine.parseAsync) parsed = this.engine.parseAsync(bytes, this.fileName);
    // A parse error rejects, as from the others.
    else parsed = new Promise((resolve) => resolve(this.engine.parse(bytes, this.fileName)));
    // The frame that waits for the parse holds no bytes: the parser lets go of them before it ends (see
    // parseOffThread.ts), and an async frame keeps its arguments to its end.
    return this.adoptParsed(parsed, load, from, beginning ? { bytes: bytes.length, fileBytes } : null);
  }

  /** A copy of the file's first bytes when `bytes` start it (a load from 0): the project is read from them. */
  private keepHead(bytes: Uint8Array, from: number): void {
    if (from === 0) this.head = bytes.slice(0, HEAD_BYTES);
  }

  private async adoptParsed(
    parsed: Promise<Transcript | null>,
    load: number,
    from: number,
    beginning: { bytes: number; fileBytes: number } | null,
  ): Promise<TranscriptMessage | null> {
    const transcript = await parsed;
    // An analysis in flight is of the transcript shown now: the new one is adopted after it, so that every
    // analysis message reaches the view after its own transcript (the parse above ran beside it).
    await this.analyses.idle();
    if (!transcript || load !== this.loads) return null;
    if (from === 0) this.analyses.analysedOnce = false;
    return this.adopt(transcript, beginning);
  }

  /**
   * Shows what the views were sent of the same file under the same settings before (see viewSnapshots.ts) while
   * the file is parsed: a view that connects gets it, and the next analysis is a patch on it. The parse then
   * confirms it (the next load keeps its revision, and its transcript message need not be sent again) or
   * replaces it. The kept list is unpacked and checked here, as a view checks it: false (nothing restored) when a
   * view would refuse it.
   */
  restore(snapshot: Pick<ViewSnapshot, 'list' | 'analysis'>): boolean {
    const t = parseHostMessage(snapshot.list);
    if (!t.ok || t.value.type !== 'transcript' || t.value.beginning) return false;
    this.restored = { transcript: t.value, analysis: snapshot.analysis };
    this.revision = t.value.revision;
    this.analyses.restore(snapshot.analysis);
    return true;
  }

  /** Whether `message` (a load's) is the one restored before: its views need not be sent it again. */
  confirmsRestored(message: TranscriptMessage): boolean {
    return this.confirmed === message;
  }

  /** Lets go of the file's bytes the transcript holds (`raw`): nothing the views ask for reads them (an export
   * parses the file again), and a 100 MB session's are 100 MB for as long as it is open. */
  releaseBytes(): void {
    for (const t of [this.whole, this.transcript]) if (t) t.raw = NO_BYTES;
  }

  /** Stops a parse in flight and ends the parser's thread (the file was closed). */
  dispose(): void {
    this.loads++;
    this.analyses.dispose();
    this.parser?.dispose();
    this.parser = null;
  }

  private adopt(whole: Transcript, beginning: TranscriptSession['beginning']): TranscriptMessage {
    this.whole = whole;
    if (this.head) {
      this.project = sessionHead(this.path, this.head, whole.format).project;
      this.head = null;
    }
    this.beginning = beginning;
    let transcript = threadTranscript(whole, this.thread);
    if (!transcript) {
      this.thread = MAIN_THREAD;
      transcript = whole;
    }
    this.transcript = transcript;
    this.calls = toolCalls(this.transcript);
    const restored = this.restored;
    this.restored = null;
    if (restored) {
      // The views keep what they were shown when the parse made the very same message.
      const message = this.message(transcript);
      // The kept message came through JSON, its messages decoded from columns (listWire.ts): the same data, its
      // keys in another order.
      if (sameData(JSON.parse(JSON.stringify(message)), restored.transcript)) {
        this.analyses.adopted(true);
        this.confirmed = message;
        return message;
      }
    }
    this.analyses.adopted(false);
    this.revision++;
    return this.message(transcript);
  }

  private message(transcript: Transcript): TranscriptMessage {
    const threads = this.whole ? { threads: threadsOf(this.whole), thread: this.thread } : undefined;
    const message = transcriptMessage(transcript, this.fileName, this.revision, threads);
    // Sessions are named by their project and first prompt, not by the UUID of their file.
    message.title = sessionTitle(this.whole ?? transcript, this.path, this.project);
    if (this.beginning) {
      message.beginning = this.beginning;
      // The problems of a session cut short (a call whose result is further on) are not the file's.
      message.diagnostics = [];
    }
    return message;
  }

  /** The transcript message for a webview that (re)connects. */
  transcriptMessage(): TranscriptMessage | null {
    return this.transcript ? this.message(this.transcript) : (this.restored?.transcript ?? null);
  }

  /** Shows another request stream of the file; null when the file has no such thread. The caller asks for its
   * analysis. */
  selectThread(thread: string): TranscriptMessage | null {
    if (!this.whole || !threadTranscript(this.whole, thread)) return null;
    this.thread = thread;
    return this.adopt(this.whole, this.beginning);
  }

  /** Asks for an analysis under `policy` (see SessionAnalyses.request). */
  request(policy: Policy, summarizer: SummarizerName, seq: number, holds?: number): Promise<void> {
    return this.analyses.request(policy, summarizer, seq, holds);
  }

  /** Lets go of the analyses kept for a user who is tuning, but the one shown and the steps offered on it. */
  releaseKept(): void {
    this.analyses.releaseKept();
  }

  /** Resolves once no analysis is being made, asked for or run ahead. */
  settled(): Promise<void> {
    return this.analyses.settled();
  }

  showRequests(shown: boolean): AnalysisMessage | null {
    return this.analyses.showRequests(shown);
  }

  compareAll(policy: Policy) {
    return this.analyses.compareAll(policy);
  }

  comparisonsMessage(policy: Policy): Promise<Extract<HostMessage, { type: 'comparisons' }>> {
    return this.analyses.comparisonsMessage(policy);
  }

  verdictMessage(policy: Policy): Promise<Extract<HostMessage, { type: 'verdict' }> | null> {
    return this.analyses.verdictMessage(policy);
  }

  /** The last analysis whole (with the comparisons), for a webview that connects later; null before the first
   * analysis of the transcript shown. */
  complete(): AnalysisMessage | null {
    return this.analyses.complete();
  }

  details(messageIndex: number): Extract<HostMessage, { type: 'details' }> | null {
    if (!this.transcript) return null;
    return detailsMessage(
      this.transcript,
      this.analyses.shown?.analysis ?? null,
      this.analyses.shown?.rewrites ?? [],
      this.calls,
      messageIndex,
    );
  }

  /** The list's search: the messages whose full text holds `query`. */
  find(seq: number, query: string): Extract<HostMessage, { type: 'found' }> {
    return {
      type: 'found',
      seq,
      query,
      messages: this.transcript ? findMessages(this.transcript, query) : [],
    };
  }

  /** The header's line on the cache and, for the Cache tab (`tab`), its figures for the analysis shown (see
   * cacheBreaks.ts). */
  cacheView(seq: number, tab: boolean): Promise<Extract<HostMessage, { type: 'cacheView' }>> {
    const analysis = this.analyses.shown?.analysis;
    const policy = this.analyses.shownPolicy;
    const shown =
      this.transcript && analysis && policy
        ? {
            transcript: this.transcript,
            thread: this.thread,
            policy,
            analysis,
            none: this.analyses.baselineOf(policy),
          }
        : null;
    return cacheViewMessage(this.engine, shown, seq, tab);
  }

  source(messageIndex: number, blockIndex?: number) {
    return this.transcript ? sourcePosition(this.transcript, messageIndex, blockIndex) : null;
  }

  /** The Tuning tab's sweep of the transcript shown (sweep.ts); a newer sweep stops this one. */
  sweep(
    message: Extract<WebviewMessage, { type: 'sweep' }>,
    policy: Policy,
    post: (m: HostMessage) => void,
  ): Promise<void> {
    return answerSweep(this, message, this.transcript, policy, post);
  }
}
