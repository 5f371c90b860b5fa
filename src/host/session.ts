// One open transcript on the host side, without the editor API: its parsed model, the latest analysis, and
// the messages for the webview. The custom editor wraps it; the browser tests' stand-in host uses it as is,
// so what the tests draw is what the editor would post.
import { type AnalysisWire, diffAnalysis, encodeAnalysis, encodeRequests } from '../analysisWire';
import type { Analysis, RequestAnalysis } from '../core/analysisTypes';
import { COMPARED_POLICIES, type Policy } from '../core/engine/policy';
import type { Block, Rewrite, Transcript } from '../core/model';
import { sanityFlags } from '../core/sanity';
import { findMessages } from '../core/search';
import { sessionTitle } from '../core/sessionTitle';
import { MAIN_THREAD, threadsOf, threadTranscript } from '../core/threads';
import { compareWithNone, nonePolicy, oncePolicy, paybackOf, ranOnce } from '../core/vsNone';
import { collectIfGrown, compactGarbage } from '../node/collectGarbage';
import type { HostMessage, PolicyComparison, SummarizerName } from '../protocol';
import type { EngineResult } from './engineResult';
import { likelyNext, nextInDirection, ResultCache, unchangedBySteps } from './keptAnalyses';
import { detailsMessage, sourcePosition, toolCalls, transcriptMessage } from './summaries';
import type { ViewSnapshot } from './viewSnapshots';

export type { EngineResult } from './engineResult';

/** The core entry points the session needs (formats and engine), injected so that tests run the real ones
 * without the editor, and the host can hand the engine its own options (summarizer, worker counter). */
export interface Engine {
  parse(bytes: Uint8Array, fileName: string): Transcript;
  /** The same parse without blocking this thread. */
  parseAsync?(bytes: Uint8Array, fileName: string): Promise<Transcript>;
  /** A parser for one file, parsed again as it grows (the editor: a worker thread that keeps the parsed lines,
   * see parseOffThread.ts). Preferred to `parseAsync` when present. */
  parser?(fileName: string): TranscriptParser;
  /** `signal`: the run may be stopped (it then gives way to other work now and then, and rejects when stopped).
   * `countsTakeLong`: called when the token counts the analysis waits for will take a while (a large session
   * opened for the first time); the analysis still resolves with exact figures. `answersChange`: a change the user
   * waits for (not the first analysis of an open, nor a run ahead or a comparison): the few texts it writes may
   * be counted on this thread whatever that costs in memory. */
  analyze(
    transcript: Transcript,
    policy: Policy,
    summarizer: SummarizerName,
    signal?: AbortSignal,
    countsTakeLong?: () => void,
    answersChange?: boolean,
  ): Promise<EngineResult>;
  /** The same analysis at once, with token counts estimated from the texts' lengths (no summarizer that needs a
   * model): shown while the exact counts are made. */
  estimate?(transcript: Transcript, policy: Policy, summarizer: SummarizerName): EngineResult;
}

export interface TranscriptParser {
  /** Parses the file's `bytes`; those before `from` are those of the previous parse (0: not known). Resolves
   * null when a newer parse superseded this one. `growing`: the file grew on disk since it was opened. `last`:
   * nothing is likely to be appended soon (a file that has not grown, and is not shown from its beginning). */
  parse(bytes: Uint8Array, from: number, growing?: boolean, last?: boolean): Promise<Transcript | null>;
  /** Stops any work in flight and frees what was kept. */
  dispose(): void;
}

type AnalysisMessage = Extract<HostMessage, { type: 'analysis' }>;
type AheadMessage = Extract<HostMessage, { type: 'ahead' }>;

/** An analysis run ahead is sent to the views only when its patch holds at most this many rows (messages and
 * requests): a step changes a few hundred; a policy switch may change most rows of a long session, a large message
 * for every view for a change the user may never make (it is answered when asked, from the kept analyses). */
const AHEAD_MAX_ROWS = 4096;

/** An analysis run ahead as the views were sent it: a patch on the one they show (`sent`). `kept`: the analysis
 * itself, until the user pauses long enough (`releaseKept`); a view may still show the offer after that, and the
 * host then runs the engine again to adopt it. */
interface Offer {
  id: number;
  patched: AnalysisMessage;
  kept?: { wire: AnalysisWire; result: EngineResult };
}

const NO_BYTES = new Uint8Array(0);

/** A clock for the session's delays. The editor's is the real one; a test moves its own, so that it neither
 * sleeps nor races the machine's load. */
export interface SessionClock {
  /** Calls `run` once, `ms` from now; the returned function cancels it. `background`: the wait alone keeps no
   * process alive. */
  after(ms: number, run: () => void, background?: boolean): () => void;
}

const REAL_CLOCK: SessionClock = {
  after(ms, run, background) {
    const timer = setTimeout(run, ms);
    if (background) timer.unref?.();
    return () => clearTimeout(timer);
  },
};

/** How long the session waits, and on what clock. */
export interface SessionTiming {
  clock: SessionClock;
  /** The runs ahead start after this long without a change. */
  runAheadAfterMs: number;
  /** The analyses kept for a user who is tuning are let go of after this long without a change (see
   * `releaseKept`). */
  keptWhileIdleMs: number;
}
/** Before a run ahead made while the user pauses, the host's heap is collected once it grew by this much: V8 lets
 * the garbage of a large session's analyses pile up (~100 MB more over the runs ahead after opening 100 MB) before
 * it collects, and that pile was the peak of the host's memory. A collection takes ~90 ms there. */
const RUN_AHEAD_HEAP_SLACK = 32 * 1024 * 1024;
/** The editor's delays. The runs ahead wait for a pause in the user's changes. The analyses kept for a user who is
 * tuning (run ahead, or left by a change) are let go of after a longer one: ~6 MB each on a 100 MB session, ten of
 * them ~40% of the file's size in the host's memory for as long as it stays open. The views keep what they were
 * offered, so a step after the pause still shows at once. */
export const SESSION_TIMING: SessionTiming = {
  clock: REAL_CLOCK,
  runAheadAfterMs: 700,
  keptWhileIdleMs: 30_000,
};

const NOTHING_TO_CANCEL = () => {};

export class TranscriptSession {
  /** The file's transcript, and the request stream shown and analysed (the main conversation or a sub-agent's). */
  private whole: Transcript | null = null;
  private thread = MAIN_THREAD;
  private transcript: Transcript | null = null;
  private calls = new Map<string, Extract<Block, { type: 'tool_use' }>>();
  private revision = 0;
  private latest: { policy: Policy; summarizer: SummarizerName; result: EngineResult } | null = null;
  private baseline: {
    key: string;
    comparison: PolicyComparison;
    analysis: Pick<Analysis, 'totals' | 'requests' | 'recorded'>;
  } | null = null;
  /** Every policy the chart compares, per name, under the settings `key` (a policy switch reuses the others). */
  private allComparisons: { key: string; byName: Map<string, PolicyComparison> } | null = null;
  /** One pass now ("if compacted now") under the settings `key`, for a session whose analysis replays. */
  private compactedNow: { key: string; requests: readonly RequestAnalysis[] } | null = null;
  /** The comparisons last sent; an analysis message carries them only when they changed. */
  private comparisons: PolicyComparison[] = [];
  private running: Promise<void> | null = null;
  /** Analyses under recent settings, and those run ahead while the view waits for the user (see `runAhead`). */
  private readonly results = new ResultCache();
  /** Cancels the start of the runs ahead once the user pauses. */
  private cancelAhead = NOTHING_TO_CANCEL;
  /** A run ahead in flight, and how to stop it: a requested analysis stops it and waits for it to stop. */
  private ahead: { done: Promise<void>; stop: AbortController; key: string } | null = null;
  private cancelStep = NOTHING_TO_CANCEL;
  /** Cancels letting go of the kept analyses once the user paused (`releaseKept`). */
  private cancelRelease = NOTHING_TO_CANCEL;
  /** The runs ahead under way (see `settled`). */
  private readonly runsAhead = new Set<Promise<void>>();
  private readonly timing: SessionTiming;
  private pending: { policy: Policy; summarizer: SummarizerName; seq: number; holds?: number } | null = null;
  /** The last analysis sent, whole (what a view that connects now is sent), and its id: the next message
   * carries only what changed since (a patch on it). */
  private sent: { id: number; wire: AnalysisWire; message: AnalysisMessage } | null = null;
  /** The analyses run ahead that the views hold as patches on `sent`, by settings: a view that moves to one of
   * them shows it at once and says so (`request`'s `holds`); the host then only adopts it. */
  private readonly offered = new Map<string, Offer>();
  private analysisIds = 0;
  /** Counts loads, so that a parse that finishes after a newer one started is dropped. */
  private loads = 0;
  private parser: TranscriptParser | null = null;
  /** Whether an analysis of this file was made since it was last read whole. */
  private analysedOnce = false;
  /** Whether a view shows the requests (see showRequests). */
  private requestsShown = false;
  /** Set while the transcript is that of the file's first `bytes` only. */
  private beginning: { bytes: number; fileBytes: number } | null = null;
  /** What the views were sent of this file before (a kept snapshot) until the parse confirms or replaces it. */
  private restored: Pick<ViewSnapshot, 'transcript' | 'analysis'> | null = null;
  /** The load's message that confirmed the restored one. */
  private confirmed: Extract<HostMessage, { type: 'transcript' }> | null = null;

  constructor(
    readonly fileName: string,
    private readonly engine: Engine,
    /** Receives every analysis, in order. */
    private readonly onAnalysis: (message: AnalysisMessage) => void,
    private readonly onError: (error: unknown) => void,
    /** The file's path: the session's title takes the project from its folder (Claude Code keeps a project's
     * sessions in a folder named after its directory), which `fileName` alone does not hold. */
    private readonly path: string = fileName,
    /** Receives the analyses run ahead, as patches on the last analysis (see `offer`). */
    private readonly onAhead: (message: AheadMessage) => void = () => {},
    timing: Partial<SessionTiming> = {},
  ) {
    this.timing = { ...SESSION_TIMING, ...timing };
  }

  get model(): Transcript | null {
    return this.transcript;
  }

  get analysis(): Analysis | null {
    return this.latest?.result.analysis ?? null;
  }

  /** Who hears that `analysis` changed (see `onDidChangeAnalysis`). */
  private readonly analysisListeners = new Set<(analysis: Analysis | null) => void>();

  /** `listener` hears every change of `analysis` (a new one shown, or none once another transcript is adopted),
   * so that the status bar and the Problems panel follow the view without polling it or parsing the file again. */
  onDidChangeAnalysis(listener: (analysis: Analysis | null) => void): { dispose(): void } {
    this.analysisListeners.add(listener);
    return { dispose: () => void this.analysisListeners.delete(listener) };
  }

  private setLatest(latest: TranscriptSession['latest']): void {
    const before = this.latest?.result.analysis ?? null;
    this.latest = latest;
    const now = latest?.result.analysis ?? null;
    if (now === before) return;
    // A listener that throws is its own failure: the session goes on, and the others still hear.
    for (const listener of [...this.analysisListeners])
      try {
        listener(now);
      } catch (error) {
        this.onError(error);
      }
  }

  /** Parses the file's bytes (again, when it changed on disk) and returns the message for the webview. */
  load(bytes: Uint8Array): Extract<HostMessage, { type: 'transcript' }> {
    this.loads++;
    this.analysedOnce = false;
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
  ): Promise<Extract<HostMessage, { type: 'transcript' }> | null> {
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

  private async adoptParsed(
    parsed: Promise<Transcript | null>,
    load: number,
    from: number,
    beginning: { bytes: number; fileBytes: number } | null,
  ): Promise<Extract<HostMessage, { type: 'transcript' }> | null> {
    const transcript = await parsed;
    // An analysis in flight is of the transcript shown now: the new one is adopted after it, so that every
    // analysis message reaches the view after its own transcript (the parse above ran beside it).
    while (this.running) await this.running;
    if (!transcript || load !== this.loads) return null;
    if (from === 0) this.analysedOnce = false;
    return this.adopt(transcript, beginning);
  }

  /**
   * Shows what the views were sent of the same file under the same settings before (see viewSnapshots.ts) while
   * the file is parsed: a view that connects gets it, and the next analysis is a patch on it. The parse then
   * confirms it (the next load keeps its revision, and its transcript message need not be sent again) or
   * replaces it.
   */
  restore(snapshot: Pick<ViewSnapshot, 'transcript' | 'analysis'>): void {
    const { transcript, analysis } = snapshot;
    this.restored = snapshot;
    this.revision = transcript.revision;
    this.analysisIds = Math.max(this.analysisIds, analysis.id);
    this.sent = { id: analysis.id, wire: analysis.analysis, message: analysis };
    this.comparisons = analysis.comparisons ?? [];
  }

  /** Whether `message` (a load's) is the one restored before: its views need not be sent it again. */
  confirmsRestored(message: Extract<HostMessage, { type: 'transcript' }>): boolean {
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
    this.cancelAhead();
    this.cancelStep();
    this.cancelRelease();
    this.ahead?.stop.abort();
    this.parser?.dispose();
    this.parser = null;
    this.analysisListeners.clear();
  }

  private adopt(
    whole: Transcript,
    beginning: TranscriptSession['beginning'],
  ): Extract<HostMessage, { type: 'transcript' }> {
    this.whole = whole;
    this.beginning = beginning;
    let transcript = threadTranscript(whole, this.thread);
    if (!transcript) {
      this.thread = MAIN_THREAD;
      transcript = whole;
    }
    this.transcript = transcript;
    this.calls = toolCalls(this.transcript);
    this.setLatest(null);
    this.results.clear();
    this.offered.clear();
    this.baseline = null;
    this.allComparisons = null;
    this.compactedNow = null;
    const restored = this.restored;
    this.restored = null;
    if (restored) {
      // The views keep what they were shown when the parse made the very same message.
      const message = this.message(transcript);
      if (JSON.stringify(message) === JSON.stringify(restored.transcript)) {
        this.analysedOnce = true;
        this.confirmed = message;
        return message;
      }
    }
    this.sent = null;
    this.comparisons = [];
    this.revision++;
    return this.message(transcript);
  }

  private message(transcript: Transcript): Extract<HostMessage, { type: 'transcript' }> {
    const threads = this.whole ? { threads: threadsOf(this.whole), thread: this.thread } : undefined;
    const message = transcriptMessage(transcript, this.fileName, this.revision, threads);
    // Sessions are named by their project and first prompt, not by the UUID of their file.
    message.title = sessionTitle(this.whole ?? transcript, this.path);
    if (this.beginning) {
      message.beginning = this.beginning;
      // The problems of a session cut short (a call whose result is further on) are not the file's.
      message.diagnostics = [];
    }
    return message;
  }

  /** The transcript message for a webview that (re)connects. */
  transcriptMessage(): Extract<HostMessage, { type: 'transcript' }> | null {
    return this.transcript ? this.message(this.transcript) : (this.restored?.transcript ?? null);
  }

  /** Shows another request stream of the file; null when the file has no such thread. The caller asks for its
   * analysis. */
  selectThread(thread: string): Extract<HostMessage, { type: 'transcript' }> | null {
    if (!this.whole || !threadTranscript(this.whole, thread)) return null;
    this.thread = thread;
    return this.adopt(this.whole, this.beginning);
  }

  /**
   * Asks for an analysis under `policy`. Changes that arrive while one runs are coalesced: only the newest
   * waiting one runs next (a dragged slider sends many values; the view needs the last one). `holds`: the view
   * that asked already shows the analysis offered with that id for these settings.
   */
  request(policy: Policy, summarizer: SummarizerName, seq: number, holds?: number): Promise<void> {
    if (holds !== undefined && this.adoptOffer(holds, policy, summarizer, seq)) return Promise.resolve();
    this.cancelAhead();
    this.cancelStep();
    this.cancelRelease();
    this.pending = { policy, summarizer, seq, holds };
    if (!this.running) {
      this.running = this.drain().finally(() => {
        this.running = null;
      });
    }
    return this.running;
  }

  private async drain(): Promise<void> {
    let runAhead = false;
    let stepped: Policy | null = null;
    let previous: Policy | undefined;
    while (this.pending) {
      if (this.ahead) {
        // The run ahead of the very settings asked for is let finish: its result answers the change.
        const wanted = ResultCache.key(this.pending.policy, this.pending.summarizer);
        if (this.ahead.key !== wanted) this.ahead.stop.abort();
        await this.ahead.done;
      }
      const job = this.pending;
      if (!job) break;
      this.pending = null;
      // After the first analysis of a file read whole too: the user looks at it before changing anything.
      runAhead = job.seq > 0 || !this.analysedOnce;
      previous = this.latest?.policy;
      stepped = job.seq > 0 && previous ? nextInDirection(previous, job.policy) : null;
      // A view that showed an offer while the host was busy: still the host's offer when nothing was sent since.
      const offer = this.offered.get(ResultCache.key(job.policy, job.summarizer));
      try {
        this.onAnalysis(
          offer && offer.id === job.holds
            ? await this.adoptLater(offer, job.policy, job.summarizer, job.seq)
            : await this.analyse(job.policy, job.summarizer, job.seq),
        );
      } catch (error) {
        this.onError(error);
      }
    }
    // After an answer to the user, who is tuning, and after the first analysis of a file opened (a first switch
    // to the live zone on 100 MB counts 3,000 compressed results); not after the host's analyses of a file that
    // grew (one that grows every second would have its run-ahead thrown away at each growth).
    if (runAhead) this.runAheadAfter(previous, stepped);
  }

  /**
   * The views move to an analysis they were offered (a step run ahead): it becomes the one shown, sent to every
   * view (those that hold it already keep it), and the runs ahead go on from it. False when it cannot be now:
   * another analysis was sent since (the change then runs as any other), or one is being made, or the offer's
   * analysis was let go of (the change then waits its turn and `adoptLater` adopts the offer).
   */
  private adoptOffer(id: number, policy: Policy, summarizer: SummarizerName, seq: number): boolean {
    const key = ResultCache.key(policy, summarizer);
    const offer = this.offered.get(key);
    const previous = this.latest?.policy;
    const kept = offer?.kept;
    if (!kept || offer.id !== id || this.running || this.pending || !previous) return false;
    this.cancelAhead();
    this.cancelStep();
    const stepped = seq > 0 ? nextInDirection(previous, policy) : null;
    if (this.ahead && this.ahead.key !== (stepped && ResultCache.key(stepped, summarizer)))
      this.ahead.stop.abort();
    this.becomeShown(offer, policy, summarizer, kept.result, kept.wire);
    this.onAnalysis({ ...offer.patched, seq });
    this.runAheadAfter(previous, stepped);
    return true;
  }

  /** `adoptOffer` once the analysis in flight is sent, the engine run again when the offer's analysis was let go
   * of: the views that show the offer keep it (an analysis depends only on the transcript and the settings). */
  private async adoptLater(
    offer: Offer,
    policy: Policy,
    summarizer: SummarizerName,
    seq: number,
  ): Promise<AnalysisMessage> {
    const transcript = this.transcript;
    if (!transcript) throw new Error(`${this.fileName}: the transcript is not loaded yet`);
    const result =
      offer.kept?.result ??
      this.results.get(ResultCache.key(policy, summarizer)) ??
      (await this.engine.analyze(transcript, policy, summarizer, undefined, undefined, true));
    this.finish(result.analysis, policy);
    const wire = offer.kept?.wire ?? encodeAnalysis(result.analysis, { requests: this.requestsShown });
    this.becomeShown(offer, policy, summarizer, result, wire);
    return { ...offer.patched, seq };
  }

  /** The offered analysis is the one shown, under the offer's id: the next message is a patch on it. */
  private becomeShown(
    offer: Offer,
    policy: Policy,
    summarizer: SummarizerName,
    result: EngineResult,
    wire: AnalysisWire,
  ): void {
    this.results.set(ResultCache.key(policy, summarizer), result);
    this.setLatest({ policy, summarizer, result });
    this.sent = { id: offer.id, wire, message: wholeMessage(offer.id, policy, wire) };
    this.offered.clear();
  }

  /** Lets go of the analyses kept for a user who is tuning (`keptWhileIdleMs`), but the one shown. */
  releaseKept(): void {
    this.cancelRelease();
    if (this.running || this.pending || this.ahead) {
      this.keepUntilIdle();
      return;
    }
    const offers = [...this.offered.values()].filter((o) => o.kept);
    if (this.results.size <= 1 && offers.length === 0) return;
    this.results.clear();
    const latest = this.latest;
    if (latest) this.results.set(ResultCache.key(latest.policy, latest.summarizer), latest.result);
    for (const offer of offers) offer.kept = undefined;
    // Collected now: an idle host allocates nothing, so V8 would keep them as garbage for as long as it stays idle;
    // and compacted, or most of their pages would stay, each with a few objects made beside them.
    compactGarbage();
  }

  private keepUntilIdle(): void {
    this.cancelRelease();
    this.cancelRelease = this.timing.clock.after(this.timing.keptWhileIdleMs, () => this.releaseKept(), true);
  }

  /** Schedules the runs ahead after an answer to a change from `previous` (`stepped`: the next step in the same
   * direction). The other neighbours wait until the user pauses: while keys come at a reading pace, they would only
   * stand in the way of the next answer (measured on 100 MB: step p90 478 ms with runs ahead right away, 133 ms
   * without); the policies no step changes run with the steps, but once. */
  private runAheadAfter(previous: Policy | undefined, stepped: Policy | null): void {
    const latest = this.latest;
    if (!latest) return;
    this.keepUntilIdle();
    // A user stepping a tier constant is likely to press the same key again: that one step is run at once (one
    // replay, done before the next key at a reading pace; a change to other settings stops it).
    // The step back is kept: it is only offered to the views.
    // Then the policies no step changes, once: a user who stepped after a pause (their analyses let go of) and
    // then switches policy is answered from them, not after a replay.
    if (stepped) {
      const unchanged = unchangedBySteps(latest.policy, COMPARED_POLICIES).filter(
        (p) => !this.results.peek(ResultCache.key(p, latest.summarizer)),
      );
      const next = [stepped, ...(previous ? [previous] : []), ...unchanged];
      this.cancelStep = this.timing.clock.after(0, () =>
        this.startRunAhead(latest.policy, latest.summarizer, next),
      );
    } else if (previous && previous.name !== latest.policy.name) {
      // A user who switched policy is likely to switch back to compare: the policy left is kept, so offering it
      // costs no engine run, only its message (most rows change: larger than a step's, sent all the same).
      this.cancelStep = this.timing.clock.after(0, () =>
        this.startRunAhead(latest.policy, latest.summarizer, [previous], {
          maxRows: Number.POSITIVE_INFINITY,
        }),
      );
    }
    this.cancelAhead = this.timing.clock.after(this.timing.runAheadAfterMs, () =>
      this.startRunAhead(latest.policy, latest.summarizer, likelyNext(latest.policy, COMPARED_POLICIES), {
        collecting: true,
      }),
    );
  }

  private startRunAhead(
    policy: Policy,
    summarizer: SummarizerName,
    candidates: Policy[],
    options?: { maxRows?: number; collecting?: boolean },
  ): void {
    const run = this.runAhead(policy, summarizer, candidates, options).finally(() =>
      this.runsAhead.delete(run),
    );
    this.runsAhead.add(run);
  }

  /** Resolves once no analysis is being made, asked for or run ahead: what a caller that moves the session's
   * clock waits for before it looks at what was sent. */
  async settled(): Promise<void> {
    while (this.running || this.runsAhead.size > 0) await Promise.all([this.running, ...this.runsAhead]);
  }

  /**
   * While the view waits for the user, the analyses the next change most likely asks for are run, one at a time,
   * between the host's other work: a step either way of `keepRecent` and `tier1Distance`, then the other
   * policies. A change that finds its analysis here answers without running the engine; one that does not stops
   * the run in flight (within a few milliseconds: the engine gives way every few hundred requests). Offline summarizers only
   * (a model would be asked for summaries nobody requested).
   */
  private async runAhead(
    policy: Policy,
    summarizer: SummarizerName,
    candidates: Policy[],
    /** `maxRows`: see `offer`; `collecting`: the user paused, so the heap may be collected between runs. */
    { maxRows = AHEAD_MAX_ROWS, collecting = false }: { maxRows?: number; collecting?: boolean } = {},
  ): Promise<void> {
    if (summarizer === 'vscode-lm') return;
    for (const next of candidates) {
      // One run ahead at a time: a later call waits for the one in flight.
      while (this.ahead) await this.ahead.done;
      const transcript = this.transcript;
      if (this.pending || this.running || !transcript || this.latest?.policy !== policy) return;
      const key = ResultCache.key(next, summarizer);
      const kept = this.results.peek(key);
      if (kept) {
        this.offer(next, summarizer, kept, maxRows);
        continue;
      }
      if (collecting) collectIfGrown(RUN_AHEAD_HEAP_SLACK);
      const stop = new AbortController();
      const done = this.engine.analyze(transcript, next, summarizer, stop.signal).then(
        (result) => {
          if (this.transcript !== transcript || stop.signal.aborted) return;
          this.results.set(key, result);
          if (this.latest?.policy === policy) this.offer(next, summarizer, result, maxRows);
        },
        () => {}, // stopped by a change, or failed: the change runs the engine itself
      );
      const ahead = { done, stop, key };
      this.ahead = ahead;
      await done;
      if (this.ahead === ahead) this.ahead = null;
      if (stop.signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  private async analyse(policy: Policy, summarizer: SummarizerName, seq: number): Promise<AnalysisMessage> {
    const transcript = this.transcript;
    if (!transcript) throw new Error(`${this.fileName}: the transcript is not loaded yet`);
    const t0 = performance.now();
    const key = ResultCache.key(policy, summarizer);
    // Only the first analysis of a file read whole can wait long for its counts (a view with nothing to show
    // yet); a file that grew keeps showing its last analysis until the next.
    const provisional =
      this.engine.estimate && !this.analysedOnce
        ? () => {
            try {
              this.onAnalysis(this.provisionalMessage(transcript, policy, summarizer, seq, t0));
            } catch (error) {
              this.onError(error);
            }
          }
        : undefined;
    const result =
      this.results.get(key) ??
      (await this.engine.analyze(transcript, policy, summarizer, undefined, provisional, this.analysedOnce));
    this.results.set(key, result);
    this.setLatest({ policy, summarizer, result });
    this.analysedOnce = true;
    const comparisons = policy.name === 'none' ? [] : [await this.baselineFor(transcript, policy)];
    // SPEC §5: the headline is the policy beside none over the same requests. A pass run once carries its own
    // payback; a replay's "if compacted now" is a further run, made when the Requests tab asks (compareAll).
    // The recorded usage is the ground truth the "none" simulation must come close to (SPEC §5): it is shown beside
    // none, whatever the policy.
    // (Under none the analysis is that run itself; a kept baseline may be of other settings.)
    this.finish(result.analysis, policy);
    const changed =
      comparisons.length !== this.comparisons.length || comparisons.some((c, i) => c !== this.comparisons[i]);
    this.comparisons = comparisons;
    const message = this.messageOf(result.analysis, policy, seq, t0);
    if (changed) message.comparisons = comparisons;
    message.elapsedMs = performance.now() - t0;
    return message;
  }

  /** What the view shows beside an analysis under `policy`: the recorded usage, the sanity flags, the policy
   * against none. */
  private finish(analysis: Analysis, policy: Policy): void {
    if (policy.name !== 'none' && this.baseline?.analysis.recorded)
      analysis.recorded = this.baseline.analysis.recorded;
    analysis.flags = sanityFlags(analysis);
    if (this.baseline && policy.name !== 'none')
      analysis.vsNone = compareWithNone(
        analysis,
        this.baseline.analysis,
        ranOnce(analysis) ? analysis : undefined,
      );
  }

  /**
   * Sends the views an analysis run ahead, as a patch on the one they show: one that moves to its settings shows it
   * at once, without the two hops through the editor to the host and back (`adoptOffer`). Only when its message is
   * that of an answer: the same comparisons (the baseline of the shown one), a patch of at most `maxRows` rows.
   */
  private offer(policy: Policy, summarizer: SummarizerName, result: EngineResult, maxRows: number): void {
    const sent = this.sent;
    const key = ResultCache.key(policy, summarizer);
    const baseline = this.baseline?.comparison;
    const shown = this.latest && ResultCache.key(this.latest.policy, this.latest.summarizer);
    if (!sent || this.offered.has(key) || key === shown) return;
    if (
      policy.name === 'none' ||
      !baseline ||
      this.comparisons.length !== 1 ||
      this.comparisons[0] !== baseline
    )
      return;
    if (this.baseline?.key !== baselineKey(policy)) return;
    this.finish(result.analysis, policy);
    const wire = encodeAnalysis(result.analysis, { requests: this.requestsShown });
    const diff = diffAnalysis(sent.wire, wire, sent.id);
    if (!diff || diff.patch.rows.length + diff.patch.requestCount - diff.patch.requestsFrom > maxRows) return;
    const id = ++this.analysisIds;
    const patched = { ...wholeMessage(id, policy, wire), ...diff };
    this.offered.set(key, { id, patched, kept: { wire, result } });
    this.onAhead({ type: 'ahead', summarizer, analysis: patched });
  }

  /** While the exact token counts are made: the analysis with estimated counts, beside none estimated alike,
   * marked provisional (the exact one follows, answering the same change). */
  private provisionalMessage(
    transcript: Transcript,
    policy: Policy,
    summarizer: SummarizerName,
    seq: number,
    t0: number,
  ): AnalysisMessage {
    const estimate = this.engine.estimate;
    if (!estimate) throw new Error('the engine gives no estimate');
    const { analysis } = estimate(transcript, policy, summarizer);
    if (policy.name !== 'none') {
      const none = estimate(transcript, nonePolicy(policy), 'none').analysis;
      if (none.recorded) analysis.recorded = none.recorded;
      analysis.vsNone = compareWithNone(analysis, none, ranOnce(analysis) ? analysis : undefined);
    }
    return this.messageOf(analysis, policy, seq, t0, { provisional: true });
  }

  /** The message for `analysis`: a patch on the one sent before when it can be. */
  private messageOf(
    analysis: Analysis,
    policy: Policy,
    seq: number,
    t0: number,
    options: { provisional?: boolean } = {},
  ): AnalysisMessage {
    const wire = encodeAnalysis(analysis, { requests: this.requestsShown });
    if (options.provisional) wire.tokensPending = true;
    const id = ++this.analysisIds;
    const whole: AnalysisMessage = {
      type: 'analysis',
      seq,
      id,
      policy,
      analysis: wire,
      elapsedMs: performance.now() - t0,
    };
    const patched = this.sent ? diffAnalysis(this.sent.wire, wire, this.sent.id) : null;
    this.sent = { id, wire, message: whole };
    this.offered.clear();
    return patched ? { ...whole, ...patched } : { ...whole };
  }

  /**
   * Whether a view shows the requests (the Requests tab): only then do analysis messages carry their columns,
   * most of a change's message on a long session. Returns the last analysis again, with or without them, when
   * that changed.
   */
  showRequests(shown: boolean): AnalysisMessage | null {
    if (shown === this.requestsShown) return null;
    this.requestsShown = shown;
    const latest = this.latest;
    const sent = this.sent;
    if (!latest || !sent) return null;
    return this.messageOf(latest.result.analysis, sent.message.policy, sent.message.seq, performance.now());
  }

  /** The "no policy" run every policy is measured against. It runs no pass, so it depends only on the model and
   * the cache lifetime (the trigger changes nothing): one run per transcript and those two settings. */
  private async baselineFor(transcript: Transcript, policy: Policy): Promise<PolicyComparison> {
    const key = baselineKey(policy);
    if (this.baseline?.key === key) return this.baseline.comparison;
    const { analysis } = await this.engine.analyze(transcript, nonePolicy(policy), 'none');
    const comparison = {
      policyName: 'none',
      totals: analysis.totals,
      requests: encodeRequests(analysis.requests),
    };
    this.baseline = {
      key,
      comparison,
      analysis: { totals: analysis.totals, requests: analysis.requests, recorded: analysis.recorded },
    };
    return comparison;
  }

  /**
   * Every policy the chart compares (none, tiered, live zone, both) under the settings of `policy`, except
   * `policy`'s own, which the analysis carries. Summarizer `none`: a comparison never calls a model. Runs are kept
   * per policy name under one set of settings, so switching policy computes only the one not run yet.
   */
  async compareAll(policy: Policy): Promise<PolicyComparison[]> {
    const transcript = this.transcript;
    if (!transcript) return [];
    const key = JSON.stringify({ ...policy, name: '' });
    if (this.allComparisons?.key !== key) this.allComparisons = { key, byName: new Map() };
    const byName = this.allComparisons.byName;
    const value: PolicyComparison[] = [];
    for (const name of COMPARED_POLICIES) {
      if (name === policy.name) continue;
      let comparison = byName.get(name);
      if (!comparison) {
        if (name === 'none') comparison = await this.baselineFor(transcript, policy);
        else {
          const other = { ...policy, name };
          const key = ResultCache.key(other, 'none');
          const result = this.results.get(key) ?? (await this.engine.analyze(transcript, other, 'none'));
          this.results.set(key, result);
          const { analysis } = result;
          comparison = {
            policyName: name,
            totals: analysis.totals,
            requests: encodeRequests(analysis.requests),
          };
        }
        byName.set(name, comparison);
      }
      value.push(comparison);
    }
    return value;
  }

  /** The Requests tab's message: every other policy, and for a replayed session the payback of one pass now. */
  async comparisonsMessage(policy: Policy): Promise<Extract<HostMessage, { type: 'comparisons' }>> {
    const message: Extract<HostMessage, { type: 'comparisons' }> = {
      type: 'comparisons',
      comparisons: await this.compareAll(policy),
    };
    const transcript = this.transcript;
    const analysis = this.latest?.result.analysis;
    if (!transcript || !analysis || policy.name === 'none' || ranOnce(analysis)) return message;
    const key = JSON.stringify(policy);
    if (this.compactedNow?.key !== key) {
      const { analysis: once } = await this.engine.analyze(transcript, oncePolicy(policy), 'none');
      this.compactedNow = { key, requests: once.requests };
    }
    const none = this.baseline?.analysis;
    const payback = none ? paybackOf(this.compactedNow.requests, none.requests) : null;
    if (payback) message.compactedNow = payback;
    return message;
  }

  /** The last analysis whole (with the comparisons), for a webview that connects later; later messages patch
   * it. Null before the first analysis of the transcript shown. */
  complete(): AnalysisMessage | null {
    return this.sent ? { ...this.sent.message, comparisons: this.comparisons } : null;
  }

  details(messageIndex: number): Extract<HostMessage, { type: 'details' }> | null {
    if (!this.transcript) return null;
    return detailsMessage(
      this.transcript,
      this.latest?.result.analysis ?? null,
      this.latest?.result.rewrites ?? [],
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

  source(messageIndex: number, blockIndex?: number) {
    return this.transcript ? sourcePosition(this.transcript, messageIndex, blockIndex) : null;
  }
}

/** The "no policy" run depends only on the model and the cache lifetime (the trigger changes nothing). */
const baselineKey = (policy: Policy) => JSON.stringify([policy.model, policy.replay.cacheTtl]);

/** The message of an analysis sent whole (what a view that connects is sent). */
function wholeMessage(id: number, policy: Policy, analysis: AnalysisWire): AnalysisMessage {
  return { type: 'analysis', seq: 0, id, policy, analysis, elapsedMs: 0 };
}
