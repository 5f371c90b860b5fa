// The analyses of the transcript a session shows: asked for through a queue (analysisQueue.ts), run ahead while
// the user pauses (runAhead.ts), measured against the other policies (comparisons.ts) and sent as patches on what
// the views hold (sentAnalyses.ts). This module decides which of them answers a change and when to let go of them.
import type { Analysis } from '../core/analysisTypes';
import type { Policy } from '../core/engine/policy';
import { SLICE_MS } from '../core/giveWay';
import type { Transcript } from '../core/model';
import { readResults } from '../core/problems';
import { compareWithNone, nonePolicy, ranOnce } from '../core/vsNone';
import type { HostMessage, SummarizerName } from '../protocol';
import { AnalysisQueue } from './analysisQueue';
import { Comparisons } from './comparisons';
import type { Engine } from './engine';
import type { EngineResult } from './engineResult';
import { nextInDirection, ResultCache, stepKeys } from './keptAnalyses';
import { Answering, Preempted, unlessPreempted } from './preempt';
import { RunAhead, SESSION_TIMING, type SessionTiming } from './runAhead';
import { type AheadMessage, type AnalysisMessage, type Offer, SentAnalyses } from './sentAnalyses';

/** A change asked for by a view (`seq` > 0) or by the host (0: an open, a growth, a setting changed elsewhere). */
interface Job {
  policy: Policy;
  summarizer: SummarizerName;
  seq: number;
  /** The id of the offer the view that asked shows already for these settings. */
  holds?: number;
}

/** What an answered job leaves for the run-ahead (see `drained`). */
interface Answered {
  runAhead: boolean;
  previous: Policy | undefined;
  stepped: Policy | null;
}

/** Where the analyses go, and of what. */
export interface AnalysesPorts {
  fileName: string;
  /** The request stream shown (null before the first parse). */
  transcript(): Transcript | null;
  /** Receives every analysis, in order. */
  onAnalysis(message: AnalysisMessage): void;
  onError(error: unknown): void;
  /** Receives the analyses run ahead, as patches on the last analysis (see `offer`). */
  onAhead(message: AheadMessage): void;
}

export class SessionAnalyses {
  private latest: { policy: Policy; summarizer: SummarizerName; result: EngineResult } | null = null;
  /** Analyses under recent settings, and those run ahead while the view waits for the user. */
  private readonly results = new ResultCache();
  private readonly comparisons: Comparisons;
  private readonly sent = new SentAnalyses();
  private readonly queue: AnalysisQueue<Job, Answered>;
  private readonly ahead: RunAhead;
  private readonly answering = new Answering();
  /** Whether an analysis of this file was made since it was last read whole. */
  analysedOnce = false;

  constructor(
    private readonly engine: Engine,
    private readonly ports: AnalysesPorts,
    timing: Partial<SessionTiming> = {},
  ) {
    this.comparisons = new Comparisons(engine, this.results);
    this.queue = new AnalysisQueue<Job, Answered>({
      // The run ahead of the very settings asked for is let finish: its result answers the change.
      before: (next) => this.ahead.finish(ResultCache.key(next.policy, next.summarizer)),
      run: (job) => this.answer(job),
      // After an answer to the user, who is tuning, and after the first analysis of a file opened (a first switch
      // to the live zone on a long session counts thousands of compressed results); not after the host's analyses
      // of a file that grew (one that grows every second would have its run-ahead thrown away at each growth).
      drained: ({ runAhead, previous, stepped }) => {
        if (runAhead) this.ahead.scheduleAfter(previous, stepped);
      },
    });
    this.ahead = new RunAhead(
      {
        engine,
        results: this.results,
        transcript: () => this.ports.transcript(),
        shown: () => this.latest,
        busy: () => this.queue.busy,
        offer: (policy, summarizer, result, maxRows) => this.offer(policy, summarizer, result, maxRows),
        releaseKept: () => this.releaseKept(),
      },
      { ...SESSION_TIMING, ...timing },
    );
  }

  get shown(): EngineResult | null {
    return this.latest?.result ?? null;
  }

  /** The "no policy" run kept for `policy`'s settings, if it was run (see Comparisons). */
  baselineOf(policy: Policy) {
    return this.comparisons.baselineAnalysisOf(policy);
  }

  /** The policy of the analysis shown. */
  get shownPolicy(): Policy | null {
    return this.latest?.policy ?? null;
  }

  /** Who hears that `analysis` changed (see `onDidChangeAnalysis`). */
  private readonly analysisListeners = new Set<(analysis: Analysis | null) => void>();

  /** `listener` hears every change of `analysis` (a new one shown, or none once another transcript is adopted),
   * so that the status bar and the Problems panel follow the view without polling it or parsing the file again. */
  onDidChangeAnalysis(listener: (analysis: Analysis | null) => void): { dispose(): void } {
    this.analysisListeners.add(listener);
    return { dispose: () => void this.analysisListeners.delete(listener) };
  }

  private setLatest(latest: SessionAnalyses['latest']): void {
    const before = this.latest?.result.analysis ?? null;
    this.latest = latest;
    const now = latest?.result.analysis ?? null;
    if (now === before) return;
    // A listener that throws is its own failure: the session goes on, and the others still hear.
    for (const listener of [...this.analysisListeners])
      try {
        listener(now);
      } catch (error) {
        this.ports.onError(error);
      }
  }

  /**
   * Asks for an analysis under `policy`. Changes that arrive while one runs are coalesced (analysisQueue.ts).
   * `holds`: the view that asked already shows the analysis offered with that id for these settings.
   */
  request(policy: Policy, summarizer: SummarizerName, seq: number, holds?: number): Promise<void> {
    this.comparisons.stopVerdict();
    if (holds !== undefined && this.adoptOffer(holds, policy, summarizer, seq)) return Promise.resolve();
    this.ahead.postpone();
    this.answering.asked(seq, ResultCache.key(policy, summarizer));
    return this.queue.push({ policy, summarizer, seq, holds });
  }

  /** Answers one change from the queue, and says what the run-ahead may start from. */
  private async answer(job: Job): Promise<Answered> {
    // After the first analysis of a file read whole too: the user looks at it before changing anything.
    const runAhead = job.seq > 0 || !this.analysedOnce;
    const previous = this.latest?.policy;
    const stepped = job.seq > 0 && previous ? nextInDirection(previous, job.policy) : null;
    // A view that showed an offer while the host was busy: still the host's offer when nothing was sent since.
    const key = ResultCache.key(job.policy, job.summarizer);
    const offer = this.sent.offered.get(key);
    const signal = this.answering.start(job.seq, key);
    try {
      this.ports.onAnalysis(
        offer && offer.id === job.holds
          ? await this.adoptLater(offer, job.policy, job.summarizer, job.seq)
          : await this.analyse(job, signal),
      );
    } catch (error) {
      // The newer change, next in the queue, is answered instead, and runs ahead after it.
      if (error instanceof Preempted) return { runAhead: false, previous, stepped: null };
      this.ports.onError(error);
    } finally {
      this.answering.end();
    }
    return { runAhead, previous, stepped };
  }

  /**
   * The views move to an analysis they were offered (a step run ahead): it becomes the one shown, sent to every
   * view (those that hold it already keep it), and the runs ahead go on from it. False when it cannot be now:
   * another analysis was sent since (the change then runs as any other), or one is being made, or the offer's
   * analysis was let go of (the change then waits its turn and `adoptLater` adopts the offer).
   */
  private adoptOffer(id: number, policy: Policy, summarizer: SummarizerName, seq: number): boolean {
    const offer = this.sent.offered.get(ResultCache.key(policy, summarizer));
    const previous = this.latest?.policy;
    const kept = offer?.kept;
    if (!kept || offer.id !== id || this.queue.busy || !previous) return false;
    this.ahead.postpone(false);
    const stepped = seq > 0 ? nextInDirection(previous, policy) : null;
    this.ahead.stopUnless(stepped && ResultCache.key(stepped, summarizer));
    this.becomeShown(offer, policy, summarizer, kept.result, kept.wire);
    this.ports.onAnalysis({ ...offer.patched, seq });
    this.ahead.scheduleAfter(previous, stepped);
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
    const transcript = this.ports.transcript();
    if (!transcript) throw new Error(`${this.ports.fileName}: the transcript is not loaded yet`);
    const result =
      offer.kept?.result ??
      this.results.get(ResultCache.key(policy, summarizer)) ??
      (await this.engine.analyze(transcript, policy, summarizer, undefined, undefined, true));
    await readResults(transcript, SLICE_MS);
    this.comparisons.finish(result.analysis, policy, transcript);
    const wire = offer.kept?.wire ?? this.sent.encode(result.analysis);
    this.becomeShown(offer, policy, summarizer, result, wire);
    return { ...offer.patched, seq };
  }

  private becomeShown(
    offer: Offer,
    policy: Policy,
    summarizer: SummarizerName,
    result: EngineResult,
    wire: Offer['patched']['analysis'],
  ): void {
    this.results.set(ResultCache.key(policy, summarizer), result);
    this.setLatest({ policy, summarizer, result });
    this.sent.becomeShown(offer, policy, wire);
  }

  /** Lets go of the analyses kept for a user who is tuning (`keptWhileIdleMs`), but the one shown and the steps
   * offered on it: a user back from reading starts with a step, the base of the next step's offer. */
  releaseKept(): void {
    this.ahead.cancelReleaseWait();
    if (this.queue.busy || this.ahead.inFlight) {
      this.ahead.keepUntilIdle();
      return;
    }
    const latest = this.latest;
    const steps = latest ? stepKeys(latest.policy, latest.summarizer) : [];
    const kept = this.sent.releaseOffers(steps);
    this.results.clear();
    if (latest) this.results.set(ResultCache.key(latest.policy, latest.summarizer), latest.result);
    for (const [key, result] of kept) this.results.set(key, result);
  }

  /** Resolves once no analysis is being made, asked for or run ahead: what a caller that moves the session's
   * clock waits for before it looks at what was sent. */
  async settled(): Promise<void> {
    while (this.queue.busy || this.ahead.running)
      await Promise.all([this.queue.idle(), this.ahead.settled()]);
  }

  private async analyse({ policy, summarizer, seq }: Job, signal: AbortSignal): Promise<AnalysisMessage> {
    const transcript = this.ports.transcript();
    if (!transcript) throw new Error(`${this.ports.fileName}: the transcript is not loaded yet`);
    const t0 = performance.now();
    const key = ResultCache.key(policy, summarizer);
    // Only the first analysis of a file read whole can wait long for its counts (a view with nothing to show
    // yet); a file that grew keeps showing its last analysis until the next.
    // The estimate gives way to other work too, so the exact analysis may come first: it is then not sent.
    let exact = false;
    const late = () => exact || signal.aborted;
    const provisional =
      this.engine.estimate && !this.analysedOnce
        ? () => {
            this.provisionalMessage(transcript, policy, summarizer, seq, t0, late).then(
              (message) => message && this.ports.onAnalysis(message),
              (error) => this.ports.onError(error),
            );
          }
        : undefined;
    const analysed = () =>
      this.engine.analyze(transcript, policy, summarizer, signal, provisional, this.analysedOnce);
    const result = this.results.get(key) ?? (await unlessPreempted(analysed(), signal));
    exact = true;
    this.results.set(key, result);
    this.setLatest({ policy, summarizer, result });
    this.analysedOnce = true;
    // (Under none the analysis is the "as logged" run itself; a kept baseline may be of other settings.)
    const comparisons =
      policy.name === 'none' && policy.replay.baseline === 'as-logged'
        ? []
        : [await unlessPreempted(this.comparisons.baselineFor(transcript, policy, signal), signal)];
    // The floors the policy would miss read every result once per transcript: in slices, before.
    await readResults(transcript, SLICE_MS);
    this.comparisons.finish(result.analysis, policy, transcript);
    const changed = this.sent.compareWith(comparisons);
    const message = this.sent.messageOf(result.analysis, policy, seq, t0);
    if (changed) message.comparisons = comparisons;
    message.elapsedMs = performance.now() - t0;
    return message;
  }

  /**
   * Sends the views an analysis run ahead, as a patch on the one they show: one that moves to its settings shows it
   * at once, without the two hops through the editor to the host and back (`adoptOffer`). Only when its message is
   * that of an answer: the same comparisons (the baseline of the shown one), a patch of at most `maxRows` rows.
   */
  private offer(policy: Policy, summarizer: SummarizerName, result: EngineResult, maxRows: number): void {
    const key = ResultCache.key(policy, summarizer);
    const shown = this.latest && ResultCache.key(this.latest.policy, this.latest.summarizer);
    const baseline = this.comparisons.baselineOf(policy);
    if (key === shown || policy.name === 'none' || !baseline || !this.sent.comparedWithOnly(baseline)) return;
    const transcript = this.ports.transcript();
    if (!transcript) return;
    const offer = this.sent.offer(key, policy, result, maxRows, () =>
      this.comparisons.finish(result.analysis, policy, transcript),
    );
    if (offer) this.ports.onAhead({ type: 'ahead', summarizer, analysis: offer.patched });
  }

  /** While the exact token counts are made: the analysis with estimated counts, beside none estimated alike,
   * marked provisional (the exact one follows, answering the same change); null when the exact one came first
   * (`late`). */
  private async provisionalMessage(
    transcript: Transcript,
    policy: Policy,
    summarizer: SummarizerName,
    seq: number,
    t0: number,
    late: () => boolean,
  ): Promise<AnalysisMessage | null> {
    const estimate = this.engine.estimate;
    if (!estimate) throw new Error('the engine gives no estimate');
    const { analysis } = await estimate(transcript, policy, summarizer);
    if (policy.name !== 'none' && !late()) {
      const none = (await estimate(transcript, nonePolicy(policy), 'none')).analysis;
      if (none.recorded && policy.replay.baseline === 'as-logged') analysis.recorded = none.recorded;
      analysis.vsNone = compareWithNone(
        analysis,
        none,
        policy.replay.baseline,
        ranOnce(analysis) ? analysis : undefined,
      );
    }
    return late() ? null : this.sent.messageOf(analysis, policy, seq, t0, { provisional: true });
  }

  /**
   * Whether a view shows the requests (the Requests tab): only then do analysis messages carry their columns,
   * most of a change's message on a long session. Returns the last analysis again, with or without them, when
   * that changed.
   */
  showRequests(shown: boolean): AnalysisMessage | null {
    if (shown === this.sent.requestsShown) return null;
    this.sent.requestsShown = shown;
    const latest = this.latest;
    const sent = this.sent.last;
    if (!latest || !sent) return null;
    return this.sent.messageOf(latest.result.analysis, sent.policy, sent.seq, performance.now());
  }

  /** Every policy the chart compares, but `policy` (see Comparisons.compareAll). */
  compareAll(policy: Policy) {
    const transcript = this.ports.transcript();
    return transcript ? this.comparisons.compareAll(transcript, policy) : Promise.resolve([]);
  }

  /** The verdict card's message: the strategies of the session's provider ranked under `policy`'s settings. Null
   * once the user changed the settings again, or while a change waits (the view asks again after the next
   * analysis; see `Comparisons.currentVerdict`). */
  async verdictMessage(policy: Policy): Promise<Extract<HostMessage, { type: 'verdict' }> | null> {
    const transcript = this.ports.transcript();
    if (!transcript || this.queue.busy) return null;
    const verdict = await this.comparisons.currentVerdict(transcript, policy);
    return verdict && { type: 'verdict', policy, verdict };
  }

  /** The Requests tab's message: every other policy, and for a replayed session the payback of one pass now. */
  async comparisonsMessage(policy: Policy): Promise<Extract<HostMessage, { type: 'comparisons' }>> {
    const transcript = this.ports.transcript();
    if (!transcript) return { type: 'comparisons', comparisons: [] };
    return this.comparisons.message(transcript, policy, this.latest?.result.analysis);
  }

  /** The last analysis whole (with the comparisons), for a webview that connects later; later messages patch
   * it. Null before the first analysis of the transcript shown. */
  complete(): AnalysisMessage | null {
    return this.sent.complete();
  }

  /** Another transcript is shown: nothing kept is of it. `confirmed`: it is the one the views were sent before
   * (a kept snapshot), so the next analysis is still a patch on what they show. */
  adopted(confirmed: boolean): void {
    this.setLatest(null);
    this.results.clear();
    this.comparisons.clear();
    if (confirmed) {
      this.sent.offered.clear();
      this.analysedOnce = true;
    } else this.sent.forget();
  }

  /** The views were sent `message` before (a kept snapshot): the next message is a patch on it. */
  restore(message: AnalysisMessage): void {
    this.sent.restore(message);
  }

  /** Resolves once no analysis asked for runs (a new transcript is adopted after it). */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  /** The file closed: nothing scheduled starts, the run ahead in flight stops, nobody hears any more. */
  dispose(): void {
    this.ahead.dispose();
    this.comparisons.stopVerdict();
    this.analysisListeners.clear();
  }
}
