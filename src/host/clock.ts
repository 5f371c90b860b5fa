// The host's waits go through a clock passed in: the editor's is the real one; a test moves its own
// (test/unit/fakeClock.ts), so that it neither sleeps nor races the machine's load.

export interface SessionClock {
  /** Calls `run` once, `ms` from now; the returned function cancels it. `background`: the wait alone keeps no
   * process alive. */
  after(ms: number, run: () => void, background?: boolean): () => void;
}

export const REAL_CLOCK: SessionClock = {
  after(ms, run, background) {
    const timer = setTimeout(run, ms);
    if (background) timer.unref?.();
    return () => clearTimeout(timer);
  },
};

export const NOTHING_TO_CANCEL = () => {};

/** Resolves after `ms` on `clock`, or at once when `until` settles first (whichever comes first). */
export function waitAtMost(clock: SessionClock, ms: number, until: Promise<unknown>): Promise<void> {
  return new Promise<void>((resolve) => {
    const cancel = clock.after(ms, resolve);
    until.then(
      () => {
        cancel();
        resolve();
      },
      () => {
        cancel();
        resolve();
      },
    );
  });
}
