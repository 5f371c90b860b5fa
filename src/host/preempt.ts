// A change the user makes does not wait behind work nobody waits for any more: the analysis the host started (an
// open's first, that of a file that grew) is stopped at once when a change to other settings arrives, as the runs
// ahead are (runAhead.ts). Its token counts go on in the token workers: the change's own analysis waits for the
// same counts, or shows an estimate meanwhile, as the first analysis would have.

/** Why a preempted analysis ended (not an error to show: a newer change is answered instead). */
export class Preempted extends Error {
  constructor() {
    super('a newer change preempted this analysis');
    this.name = 'Preempted';
  }
}

/** `work`, or a rejection with `Preempted` as soon as `signal` aborts, whichever comes first: the engine's wait
 * for counts made elsewhere does not look at the signal, and the thread must be free for the change now. */
export function unlessPreempted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => {});
    return Promise.reject(new Preempted());
  }
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(new Preempted());
    signal.addEventListener('abort', stop, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', stop);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', stop);
        reject(signal.aborted ? new Preempted() : error);
      },
    );
  });
}

/** The job being answered, and what stops it. */
export class Answering {
  private current: { seq: number; key: string; stop: AbortController } | null = null;

  /** A job (`seq`: the view's change, 0 when the host started it; `key`: its settings) starts; its signal. */
  start(seq: number, key: string): AbortSignal {
    this.current = { seq, key, stop: new AbortController() };
    return this.current.stop.signal;
  }

  end(): void {
    this.current = null;
  }

  /** A job was asked for: a change from a view (`seq` > 0) stops an analysis the host started (`seq` 0) of other
   * settings (one of the same settings answers the change as it is). */
  asked(seq: number, key: string): void {
    const running = this.current;
    if (running && seq > 0 && running.seq === 0 && running.key !== key) running.stop.abort();
  }
}
