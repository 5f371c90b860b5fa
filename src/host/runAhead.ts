// While the view waits for the user, the analyses the next change most likely asks for are run, one at a time,
// between the host's other work: a step either way of `keepRecent` and `tier1Distance` (and the second step each
// way, kept for the next key), then the other policies.
// A change that finds its analysis kept answers without running the engine; one that does not stops the run in
// flight (within a few milliseconds: the engine gives way every 16 ms). Every wait is on the clock
// passed in, so that a test moves it instead of sleeping.
import type { Policy } from '../core/engine/policy';
import { COMPARED_POLICIES, policiesOfferedFor } from '../core/engine/policy';
import type { Transcript } from '../core/model';
import type { SummarizerName } from '../protocol';
import { NOTHING_TO_CANCEL, REAL_CLOCK, type SessionClock } from './clock';
import type { Engine } from './engine';
import type { EngineResult } from './engineResult';
import { likelyNext, nextInDirection, ResultCache, tierSteps, unchangedBySteps } from './keptAnalyses';

/** How long the session waits, and on what clock. */
export interface SessionTiming {
  clock: SessionClock;
  /** The runs ahead start after this long without a change. */
  runAheadAfterMs: number;
  /** The analyses kept for a user who is tuning are let go of after this long without a change (see
   * `TranscriptSession.releaseKept`). */
  keptWhileIdleMs: number;
}

/** The editor's delays. The runs ahead wait for a pause in the user's changes. The analyses kept for a user who is
 * tuning (run ahead, or left by a change) are let go of after a longer one: several MB each on a long session, and
 * ten of them would stay in the host's memory for as long as it stays open. The views keep what they were
 * offered, so a step after the pause still shows at once. */
export const SESSION_TIMING: SessionTiming = {
  clock: REAL_CLOCK,
  runAheadAfterMs: 700,
  keptWhileIdleMs: 30_000,
};

/** An analysis run ahead is sent to the views only when its patch holds at most this many rows (messages and
 * requests): a step changes a few hundred; a policy switch may change most rows of a long session, a large message
 * for every view for a change the user may never make (it is answered when asked, from the kept analyses). Offers
 * share the editor's one channel to the view with the answers: on a 100 MB session, switches offered at up to
 * 4,096 rows held the next step's answer and the view's own changes in that channel for up to 0.8 s. */
export const AHEAD_MAX_ROWS = 1024;

/** What the run-ahead reads of the session it runs for. */
export interface RunAheadPorts {
  engine: Pick<Engine, 'analyze'>;
  results: ResultCache;
  /** The transcript analysed now. */
  transcript(): Transcript | null;
  /** The settings of the analysis shown. */
  shown(): { policy: Policy; summarizer: SummarizerName } | null;
  /** Whether an analysis the user asked for runs or waits (a run ahead then gives way). */
  busy(): boolean;
  /** Sends the views an analysis run ahead (see SentAnalyses.offer). */
  offer(policy: Policy, summarizer: SummarizerName, result: EngineResult, maxRows: number): void;
  /** Lets go of the analyses kept for a user who paused long enough. */
  releaseKept(): void;
}

interface RunOptions {
  /** See `AHEAD_MAX_ROWS`. */
  maxRows?: number;
  /** Candidates (by key) that are run and kept but not offered: the step after the next, which the views could not
   * move to from the analysis shown. */
  keepOnly?: ReadonlySet<string>;
}

export class RunAhead {
  private cancelAhead = NOTHING_TO_CANCEL;
  private cancelStep = NOTHING_TO_CANCEL;
  private cancelRelease = NOTHING_TO_CANCEL;
  /** A run ahead in flight, and how to stop it: a requested analysis stops it and waits for it to stop. */
  private ahead: { done: Promise<void>; stop: AbortController; key: string } | null = null;
  /** The runs ahead under way (see `settled`). */
  private readonly runs = new Set<Promise<void>>();

  constructor(
    private readonly ports: RunAheadPorts,
    private readonly timing: SessionTiming,
  ) {}

  /** Whether a run ahead is in flight. */
  get inFlight(): boolean {
    return this.ahead !== null;
  }

  /** A change came: the runs scheduled do not start (those in flight go on until `stopUnless`). `release`: the
   * wait before letting go of the kept analyses starts again too. */
  postpone(release = true): void {
    this.cancelAhead();
    this.cancelStep();
    if (release) this.cancelRelease();
  }

  /** Stops the run in flight unless it is of the settings `key` (its result then answers the change). */
  stopUnless(key: string | null): void {
    if (this.ahead && this.ahead.key !== key) this.ahead.stop.abort();
  }

  /** `stopUnless(key)`, resolved once the run in flight ended; null when none is. */
  finish(key: string): Promise<void> | null {
    const ahead = this.ahead;
    if (!ahead) return null;
    this.stopUnless(key);
    return ahead.done;
  }

  /** Lets go of the kept analyses once the user paused for `keptWhileIdleMs`. */
  keepUntilIdle(): void {
    this.cancelRelease();
    this.cancelRelease = this.timing.clock.after(
      this.timing.keptWhileIdleMs,
      () => this.ports.releaseKept(),
      true,
    );
  }

  /** The wait before letting go of the kept analyses is dropped (they are let go of now, or the file closed). */
  cancelReleaseWait(): void {
    this.cancelRelease();
  }

  /**
   * Schedules the runs ahead after an answer to a change from `previous` (`stepped`: the next step in the same
   * direction). A user stepping one tier constant moves on to the other as often as they press the same key again:
   * its steps run next, then the policies no step changes (once); the other policies wait until the user pauses.
   * None of them stands in the way of the next key: a change stops the run in flight (the engine gives way every
   * 16 ms), and the verdict's runs give way to a change too.
   */
  scheduleAfter(previous: Policy | undefined, stepped: Policy | null): void {
    const shown = this.ports.shown();
    if (!shown) return;
    const { policy, summarizer } = shown;
    const transcript = this.ports.transcript();
    // Only the policies this session can use are compared, so only those are run ahead.
    const compared = transcript ? policiesOfferedFor(transcript, policy.model) : COMPARED_POLICIES;
    this.keepUntilIdle();
    // A user stepping a tier constant is likely to press the same key again: that step is run at once (one
    // replay, done before the next key at a reading pace; a change to other settings stops it).
    // The step back is kept: it is only offered to the views. The step after the next is run too, not offered: once
    // the user takes the next step it is kept, offered at once, and the replay the next key needs started one key
    // earlier (a replay of a long session in the editor may take longer than a reader's pace between keys). Then the
    // steps of the other constant.
    // Then the policies no step changes, once: a user who stepped after a pause (their analyses let go of) and
    // then switches policy is answered from them, not after a replay.
    if (stepped) {
      const unchanged = unchangedBySteps(policy, compared).filter(
        (p) => !this.ports.results.peek(ResultCache.key(p, summarizer)),
      );
      const beyond = nextInDirection(policy, stepped);
      const first = [stepped, ...(previous ? [previous] : []), ...(beyond ? [beyond] : [])];
      const keys = new Set(first.map((p) => ResultCache.key(p, summarizer)));
      const other = tierSteps(policy).filter((p) => !keys.has(ResultCache.key(p, summarizer)));
      const next = [...first, ...other, ...unchanged];
      const keepOnly = new Set(beyond ? [ResultCache.key(beyond, summarizer)] : []);
      this.cancelStep = this.timing.clock.after(0, () => this.start(policy, summarizer, next, { keepOnly }));
    } else if (previous && previous.name !== policy.name) {
      // A user who switched policy is likely to switch back to compare: the policy left is kept, so offering it
      // costs no engine run, only its message (most rows change: larger than a step's, sent all the same).
      this.cancelStep = this.timing.clock.after(0, () =>
        this.start(policy, summarizer, [previous], { maxRows: Number.POSITIVE_INFINITY }),
      );
    }
    // After a pause, the steps a user most likely takes, the second step each way (kept, not offered: the same key
    // pressed again comes sooner than its replay in the editor), then the other policies.
    const { steps, secondSteps, policies } = likelyNext(policy, compared);
    this.cancelAhead = this.timing.clock.after(this.timing.runAheadAfterMs, () =>
      this.start(policy, summarizer, [...steps, ...secondSteps, ...policies], {
        keepOnly: new Set(secondSteps.map((p) => ResultCache.key(p, summarizer))),
      }),
    );
  }

  private start(
    policy: Policy,
    summarizer: SummarizerName,
    candidates: Policy[],
    options?: RunOptions,
  ): void {
    const run = this.run(policy, summarizer, candidates, options).finally(() => this.runs.delete(run));
    this.runs.add(run);
  }

  /** Whether runs ahead are under way. */
  get running(): boolean {
    return this.runs.size > 0;
  }

  /** Resolves once the runs ahead under way ended. */
  async settled(): Promise<void> {
    await Promise.all(this.runs);
  }

  /** Runs `candidates` one after the other while the analysis shown is under `policy` and nothing else is asked
   * for. Offline summarizers only (a model would be asked for summaries nobody requested). */
  private async run(
    policy: Policy,
    summarizer: SummarizerName,
    candidates: Policy[],
    { maxRows = AHEAD_MAX_ROWS, keepOnly = new Set() }: RunOptions = {},
  ): Promise<void> {
    if (summarizer === 'vscode-lm') return;
    const { ports } = this;
    // What is kept is offered first: it costs no engine run, only its message, and the step back must not wait
    // behind the next step's replay (a user who reverses does so right after the step).
    const isKept = (p: Policy) => ports.results.peek(ResultCache.key(p, summarizer)) !== undefined;
    const ordered = [...candidates.filter(isKept), ...candidates.filter((p) => !isKept(p))];
    for (const next of ordered) {
      // One run ahead at a time: a later call waits for the one in flight.
      while (this.ahead) await this.ahead.done;
      const transcript = ports.transcript();
      if (ports.busy() || !transcript || ports.shown()?.policy !== policy) return;
      const key = ResultCache.key(next, summarizer);
      const kept = ports.results.peek(key);
      if (kept) {
        if (!keepOnly.has(key)) ports.offer(next, summarizer, kept, maxRows);
        continue;
      }
      const stop = new AbortController();
      const done = ports.engine.analyze(transcript, next, summarizer, stop.signal).then(
        (result) => {
          if (ports.transcript() !== transcript || stop.signal.aborted) return;
          ports.results.set(key, result);
          if (ports.shown()?.policy === policy && !keepOnly.has(key))
            ports.offer(next, summarizer, result, maxRows);
        },
        () => {}, // stopped by a change, or failed: the change runs the engine itself
      );
      const ahead = { done, stop, key };
      this.ahead = ahead;
      await done;
      if (this.ahead === ahead) this.ahead = null;
      if (stop.signal.aborted) return;
      // Gives way to the host's other work (messages from the views) between two runs: not a wait on the clock.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }

  /** The file closed: nothing scheduled starts, the run in flight stops. */
  dispose(): void {
    this.postpone();
    this.ahead?.stop.abort();
  }
}
