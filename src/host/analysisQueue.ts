// The analyses asked for by the views, one at a time. Changes that arrive while one runs are coalesced: only the
// newest waiting one runs next (a dragged slider sends many values; the view needs the last one).

export interface QueueSteps<Job, Outcome> {
  /** What must end before `next` runs (a run ahead in flight), or null when nothing need: the job then starts at
   * once, in the turn that asked for it. `next` may be replaced by a newer job meanwhile. */
  before(next: Job): Promise<void> | null;
  /** Runs one job; its failures are its own to report (a rejection stops the queue's drain). */
  run(job: Job): Promise<Outcome>;
  /** Once no job waits: the outcome of the last one run. */
  drained(last: Outcome): void;
}

export class AnalysisQueue<Job, Outcome> {
  private pending: Job | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly steps: QueueSteps<Job, Outcome>) {}

  /** Whether a job runs or waits. */
  get busy(): boolean {
    return this.pending !== null || this.running !== null;
  }

  /** Asks for `job`, in place of any job still waiting; resolves once no job waits nor runs. */
  push(job: Job): Promise<void> {
    this.pending = job;
    this.running ??= this.drain().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Resolves once no job runs (those pushed meanwhile included). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    let last: { outcome: Outcome } | null = null;
    while (this.pending) {
      const first = this.steps.before(this.pending);
      if (first) await first;
      const job = this.pending;
      if (!job) break;
      this.pending = null;
      last = { outcome: await this.steps.run(job) };
    }
    if (last) this.steps.drained(last.outcome);
  }
}
