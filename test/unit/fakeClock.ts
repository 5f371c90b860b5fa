import type { SessionClock } from '../../src/host/clock';

/** A clock a test moves itself: nothing waits for the machine's time, so a loaded machine changes no outcome.
 * `advance` runs the waits that fall due, in order of their time, and after each one waits for what it started
 * (`settled`: the work the caller knows how to wait for). */
export class FakeClock implements SessionClock {
  now = 0;
  private waits: { at: number; order: number; run: () => void; live: boolean }[] = [];
  private order = 0;

  constructor(private readonly settled: () => Promise<void> = async () => {}) {}

  after(ms: number, run: () => void): () => void {
    const wait = { at: this.now + ms, order: this.order++, run, live: true };
    this.waits.push(wait);
    return () => {
      wait.live = false;
    };
  }

  /** The waits not yet run nor cancelled, by how far from now they fall due. */
  get pending(): number[] {
    return this.waits.filter((w) => w.live).map((w) => w.at - this.now);
  }

  async advance(ms: number): Promise<void> {
    const until = this.now + ms;
    await this.settled();
    for (;;) {
      this.waits = this.waits.filter((w) => w.live);
      const due = this.waits.filter((w) => w.at <= until).sort((a, b) => a.at - b.at || a.order - b.order)[0];
      if (!due) break;
      this.now = due.at;
      due.live = false;
      due.run();
      await this.settled();
    }
    this.now = until;
  }
}
