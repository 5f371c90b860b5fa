// The token-counting processes of a pool (tokenPool.ts) and the texts waiting for them. A process is started when
// texts wait and handed texts once it has loaded its tokenizer's tables, a few batches at a time; the processes
// beyond the first start only for a long job, and each ends once idle.
import { type ChildProcess, fork } from 'node:child_process';
import type { TokenizerName } from '../core/tokens/counter';
import type { CountReply, CountRequest } from './tokenWorker';

/** The first worker ends after this long without a count; the others sooner (`SPARE_IDLE_MS`). */
export const IDLE_MS = 10_000;
/** The workers beyond the first end after this long without a count, or once a session's texts are counted: they
 * count a large job on every core, and the small ones that follow (what each analysis writes) go to the first
 * alone. Each holds the tokenizer's tables: kept through the first analysis and the runs ahead that follow an
 * open, they made the peak of the host's memory while opening a large session. */
const SPARE_IDLE_MS = 1_000;
/** Characters waiting to be counted that start the workers beyond the first. A worker takes ~0.3 s to start (Node,
 * then the tokenizer's tables), in which a running one counts 2–3 M characters of a session it has not seen: a
 * job shorter than this ended sooner on the first worker alone (docs/performance.md). */
export const SPARES_MIN_CHARS = 4_000_000;

/** Texts per message to a worker: small enough to balance the load, and for its copy to stay under the C
 * allocator's default threshold for memory of its own (128 KB): larger ones, freed by the worker, raised that
 * threshold, and the host kept what the allocator had held for them (the count took no longer in small batches). */
const BATCH_CHARS = 1 << 15;
/** Batches posted to a worker before it answered one: the next is there when it finishes. */
const IN_FLIGHT_PER_WORKER = 2;

/** Texts waiting for a worker, and what to do with their counts. */
interface Batch {
  tokenizer: TokenizerName;
  texts: string[];
  chars: number;
  resolve(counts: number[]): void;
  reject(error: Error): void;
}

export class TokenProcesses {
  /** By lane: each started when work waits for it (`pump`), ended once idle: an idle worker holds the tokenizer's
   * tables (tens of MB each) for nothing, and one starts again in a fraction of a second. */
  private workers: (ChildProcess | undefined)[] = [];
  /** By lane, whether its worker has loaded a tokenizer: only then is it handed texts, so that a job never waits
   * for a worker still starting while another could count its texts. */
  private readonly ready: boolean[] = [];
  private readonly idle: (ReturnType<typeof setTimeout> | undefined)[] = [];
  /** Batches posted to each worker and not answered yet (its start included). */
  private readonly inFlight: number[] = [];
  private readonly pending = new Map<number, { batch: Batch; worker: number }>();
  /** Batches no worker took yet, oldest first, and their characters. */
  private readonly queue: Batch[] = [];
  private queuedChars = 0;
  private nextId = 0;
  private starts = 0;

  constructor(
    private readonly script: string | URL,
    private readonly size: number,
    private readonly execArgv: string[] | undefined,
    private readonly idleMs: number,
  ) {}

  /** Starts worker `index`, which loads `tokenizer`'s tables before it is handed any text. */
  private start(index: number, tokenizer: TokenizerName): void {
    // JSON over the channel, not the structured clone ('advanced'): its buffers, freed, stayed in this process's
    // C heap (with JSON, none did), and strings survive JSON exactly (lone surrogates included).
    const w = fork(this.script, [], {
      serialization: 'json',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      // Not the host's own flags (an editor's inspector port, heap limits): a plain Node process.
      execArgv: this.execArgv ?? [],
    });
    this.workers[index] = w;
    this.starts++;
    this.ready[index] = false;
    this.inFlight[index] = 0;
    w.on('message', (reply: CountReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      this.inFlight[p.worker]--;
      if ('error' in reply) p.batch.reject(new Error(reply.error));
      else p.batch.resolve(reply.counts);
      this.pump();
      this.endWhenIdle(p.worker);
    });
    const failed = (error: Error) => {
      // One the pool ended had nothing pending (and another may run in its lane since).
      if (this.workers[index] !== w) return;
      this.workers[index] = undefined;
      this.dropPending(index, error);
      // No other worker to count what waits: it fails too (the engine counts it itself).
      if (this.running === 0) this.dropQueue(error);
    };
    w.on('error', failed);
    // Died: what it was counting fails, and the engine counts those texts itself.
    w.on('exit', (code, signal) =>
      failed(new Error(`the token worker exited (${signal ?? `code ${code}`}) while counting`)),
    );
    // Its start is a count of nothing, answered once the tables are loaded. A worker that cannot load them ends, and
    // what waits fails with why when no other worker runs (the engine counts it itself).
    this.post(index, {
      tokenizer,
      texts: [],
      chars: 0,
      resolve: () => {
        this.ready[index] = true;
      },
      reject: (error) => {
        if (this.workers[index] !== w) return; // ended by the pool
        this.stop(index);
        if (this.running === 0) this.dropQueue(error);
      },
    });
  }

  /** Hands `batch` to worker `index`, which runs. */
  private post(index: number, batch: Batch): void {
    const worker = this.workers[index] as ChildProcess;
    clearTimeout(this.idle[index]);
    this.inFlight[index]++;
    const id = this.nextId++;
    this.pending.set(id, { batch, worker: index });
    worker.send({ id, tokenizer: batch.tokenizer, texts: batch.texts } satisfies CountRequest);
  }

  /** Starts the workers the waiting batches call for (the first for any, the others for a long job) and hands
   * the batches to the ready ones, a few each. */
  private pump(): void {
    const first = this.queue[0];
    if (first) {
      for (let i = 0; i < this.size; i++) {
        if (this.workers[i]) continue;
        if (this.running > 0 && this.queuedChars < SPARES_MIN_CHARS) break;
        this.start(i, first.tokenizer);
      }
    }
    for (let i = 0; i < this.workers.length && this.queue.length > 0; i++) {
      if (!this.workers[i] || !this.ready[i]) continue;
      while (this.inFlight[i] < IN_FLIGHT_PER_WORKER && this.queue.length > 0) {
        const batch = this.queue.shift() as Batch;
        this.queuedChars -= batch.chars;
        this.post(i, batch);
      }
    }
  }

  /** What waits for a worker fails with `error`. */
  private dropQueue(error: Error): void {
    const dropped = this.queue.splice(0);
    this.queuedChars = 0;
    for (const b of dropped) b.reject(error);
  }

  /** Ends worker `index` once it has been idle a while: the first after `idleMs`, the others sooner. */
  private endWhenIdle(index: number): void {
    clearTimeout(this.idle[index]);
    if (this.inFlight[index] > 0 || !this.workers[index]) return;
    const timer = setTimeout(
      () => this.endIfIdle(index),
      index === 0 ? this.idleMs : Math.min(this.idleMs, SPARE_IDLE_MS),
    );
    timer.unref?.();
    this.idle[index] = timer;
  }

  /** Ends the workers beyond the first that count nothing now, those still starting included. */
  endIdleSpares(): void {
    for (let i = 1; i < this.workers.length; i++) if (!this.ready[i] || this.inFlight[i] === 0) this.stop(i);
  }

  /** Ends worker `index` now, unless it is counting. */
  private endIfIdle(index: number): void {
    if (this.inFlight[index] === 0) this.stop(index);
  }

  /** Ends worker `index` now; what it was asked fails. */
  private stop(index: number): void {
    const w = this.workers[index];
    if (!w) return;
    clearTimeout(this.idle[index]);
    this.workers[index] = undefined;
    this.dropPending(index, new Error('the token worker ended'));
    w.kill();
  }

  /** What worker `index` was asked and did not answer fails with `error`. */
  private dropPending(index: number, error: Error): void {
    for (const [id, p] of this.pending) {
      if (p.worker !== index) continue;
      this.pending.delete(id);
      p.batch.reject(error);
    }
    this.inFlight[index] = 0;
  }

  /** Ends every worker; what they were asked and what waits fails. */
  async end(): Promise<void> {
    for (const t of this.idle) clearTimeout(t);
    const workers = this.workers;
    this.workers = [];
    this.inFlight.length = 0;
    this.dropQueue(new Error('the token workers ended'));
    await Promise.all(
      workers.map(
        (w) =>
          w &&
          w.exitCode === null &&
          w.signalCode === null &&
          new Promise((resolve) => {
            w.once('exit', resolve);
            w.kill();
          }),
      ),
    );
  }

  /** Worker processes started so far. */
  get started(): number {
    return this.starts;
  }

  /** How many worker processes run now, those starting included (none until the first count, and again after
   * being idle a while). */
  get running(): number {
    return this.workers.filter(Boolean).length;
  }

  /** Token counts of `texts`, in order, counted across the workers. */
  countMany(tokenizer: TokenizerName, texts: readonly string[]): Promise<number[]> {
    const out = new Array<number>(texts.length);
    const batches: Promise<void>[] = [];
    const queue = (start: number, batch: string[], chars: number) =>
      batches.push(
        new Promise<void>((resolve, reject) => {
          this.queue.push({
            tokenizer,
            texts: batch,
            chars,
            resolve: (counts) => {
              counts.forEach((c, j) => {
                out[start + j] = c;
              });
              resolve();
            },
            reject,
          });
          this.queuedChars += chars;
        }),
      );
    let current: string[] = [];
    let chars = 0;
    let start = 0;
    texts.forEach((t, i) => {
      if (current.length > 0 && chars + t.length > BATCH_CHARS) {
        queue(start, current, chars);
        current = [];
        chars = 0;
        start = i;
      }
      current.push(t);
      chars += t.length;
    });
    if (current.length > 0) queue(start, current, chars);
    this.pump();
    return Promise.all(batches).then(() => out);
  }
}
