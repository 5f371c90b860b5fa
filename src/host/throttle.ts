// Following a file that keeps changing (an agent appends a line every few hundred ms): a debounce would wait for
// a quiet moment that never comes. A throttle runs the task at a bounded pace instead: the first change waits a
// short settle delay (one write often arrives as several change events), one run at a time, and a change that
// arrives during a run is picked up by the next run, which starts as soon as the interval allows. So the wait
// from any change to the start of a run that sees it is at most max(settle, interval) plus one run.

export interface Clock {
  now(): number;
  setTimeout(f: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realClock: Clock = {
  now: () => performance.now(),
  setTimeout: (f, ms) => setTimeout(f, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface ThrottleOptions {
  /** Wait this long after a first change before running (lets a burst of change events become one run). */
  settleMs: number;
  /** At least this long between the starts of two runs. */
  intervalMs: number;
}

export class Throttle {
  private timer: unknown;
  private running = false;
  /** A change came that no started run has seen yet. */
  private dirty = false;
  private lastStart = Number.NEGATIVE_INFINITY;
  private disposed = false;

  constructor(
    private readonly task: () => Promise<void>,
    private readonly options: ThrottleOptions,
    private readonly clock: Clock = realClock,
  ) {}

  /** Something changed: make sure a run starts that sees it. */
  trigger(): void {
    if (this.disposed) return;
    this.dirty = true;
    this.arm();
  }

  /** Whether a run is in progress or waiting to start. */
  get busy(): boolean {
    return this.running || this.timer !== undefined;
  }

  private arm(): void {
    if (this.running || this.timer !== undefined || !this.dirty) return;
    const { settleMs, intervalMs } = this.options;
    const wait = Math.max(settleMs, this.lastStart + intervalMs - this.clock.now());
    this.timer = this.clock.setTimeout(() => void this.run(), wait);
  }

  private async run(): Promise<void> {
    this.timer = undefined;
    if (this.disposed || !this.dirty) return;
    this.dirty = false;
    this.running = true;
    this.lastStart = this.clock.now();
    try {
      await this.task();
    } catch (error) {
      // The task reports its own failures; one failed run must not stop the following.
      console.error(`Context Lens: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.running = false;
      this.arm();
    }
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }
}
