// A pool of token-counting worker processes for the extension host: a large session takes seconds to tokenize, so
// the host counts in workers, primes the shared TokenCounter's cache, and the engine then counts synchronously
// from the cache. Processes, not threads: a worker thread's tokenizer tables and heap count in the host's own
// memory while it runs, and the C allocator keeps what its thread freed once it ended; a process gives it all back
// when it exits (docs/performance.md, "Figures behind the code"). The CLI and
// tests need none of this (they count on their own thread). With a folder to keep counts in (the extension's
// global storage), what was counted once, in any session, is never counted again.
import { type ChildProcess, fork } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { inSlices, SLICE_MS } from '../core/giveWay';
import type { Transcript } from '../core/model';
import type { TokenCounter, TokenizerName } from '../core/tokens/counter';
import { visitTexts } from '../core/tokens/texts';
import { TokenStore } from './tokenStore';
import type { CountReply, CountRequest } from './tokenWorker';

/** Per counter, the messages whose texts it was primed with. */
const primedMessages = new WeakMap<TokenCounter, WeakSet<Transcript['messages'][number]>>();

/** The first worker ends after this long without a count; the others sooner (`SPARE_IDLE_MS`). */
const IDLE_MS = 10_000;
/** The workers beyond the first end after this long without a count, or once a session's texts are counted: they
 * count a large job on every core, and the small ones that follow (what each analysis writes) go to the first
 * alone. Each holds the tokenizer's tables: kept through the first analysis and the runs ahead that follow an
 * open, they made the peak of the host's memory while opening a large session. */
const SPARE_IDLE_MS = 1_000;

/** Texts per message to a worker: small enough to balance the load, and for its copy to stay under the C
 * allocator's default threshold for memory of its own (128 KB): larger ones, freed by the worker, raised that
 * threshold, and the host kept what the allocator had held for them (the count took no longer in small batches). */
const BATCH_CHARS = 1 << 15;
/** Texts of at most this many characters in all are counted on the calling thread when no worker runs. */
export const COLD_IN_PLACE_CHARS = 256 * 1024;
/** Batches posted to a worker before it answered one: the next is there when it finishes. */
const IN_FLIGHT_PER_WORKER = 2;

/** New counts are written to disk this long after the first one, and at most once per `SAVE_EVERY_MS` (a session
 * followed live adds a few every second; the file is rewritten whole). */
const SAVE_DELAY_MS = 5_000;
const SAVE_EVERY_MS = 30_000;
/** New counts from one priming that make a save due soon whatever the spacing (a file seen for the first time;
 * a live session adds a few at each growth). */
const MANY_NEW_COUNTS = 1_000;

export class TokenWorkerPool {
  /** By lane: each started on its first batch, ended once idle (`send`): an idle worker holds the tokenizer's
   * tables (tens of MB each) for nothing, and one starts again in a fraction of a second. */
  private workers: (ChildProcess | undefined)[] = [];
  private readonly idle: (ReturnType<typeof setTimeout> | undefined)[] = [];
  /** Batches posted to each worker and not answered yet. */
  private readonly inFlight: number[] = [];
  private readonly pending = new Map<
    number,
    { resolve: (c: number[]) => void; reject: (e: Error) => void; worker: number }
  >();
  private nextId = 0;
  private storeDir: string | null = null;
  private warn: (message: string) => void = () => {};
  private readonly stores = new Map<TokenCounter, Promise<TokenStore | null>>();
  /** Per counter, the primings in flight (see `primeTranscript`). */
  private readonly priming = new Map<TokenCounter, Promise<void>>();
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private lastSave = 0;
  private saveDueAt = 0;

  /** `script`: the worker entry (dist/tokenWorker.js next to the extension bundle). One worker per core (at
   * most 4): while they count, the host's own thread mostly waits for them, and on 2 cores one worker left half
   * the machine idle for the seconds a large session takes to count. */
  constructor(
    private readonly script: string | URL,
    private readonly size = Math.max(1, Math.min(4, availableParallelism())),
    private readonly execArgv?: string[],
    private readonly idleMs = IDLE_MS,
  ) {}

  private start(index: number): ChildProcess {
    // JSON over the channel, not the structured clone ('advanced'): its buffers, freed, stayed in this process's
    // C heap (with JSON, none did), and strings survive JSON
    // exactly (lone surrogates included).
    const w = fork(this.script, [], {
      serialization: 'json',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      // Not the host's own flags (an editor's inspector port, heap limits): a plain Node process.
      execArgv: this.execArgv ?? [],
    });
    w.on('message', (reply: CountReply) => {
      const p = this.pending.get(reply.id);
      if (!p) return;
      this.pending.delete(reply.id);
      this.inFlight[p.worker]--;
      if ('error' in reply) p.reject(new Error(reply.error));
      else p.resolve(reply.counts);
      this.endWhenIdle(p.worker);
    });
    const failed = (error: Error) => {
      // One the pool ended had nothing pending (and another may run in its lane since).
      if (this.workers[index] !== w) return;
      this.workers[index] = undefined;
      for (const [id, p] of this.pending) {
        if (p.worker !== index) continue;
        this.pending.delete(id);
        p.reject(error);
      }
      this.inFlight[index] = 0;
    };
    w.on('error', failed);
    // Died: what it was counting fails, and the engine counts those texts itself.
    w.on('exit', (code, signal) =>
      failed(new Error(`the token worker exited (${signal ?? `code ${code}`}) while counting`)),
    );
    return w;
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

  /** Ends the idle workers beyond the first at once. */
  private endIdleSpares(): void {
    for (let i = 1; i < this.workers.length; i++) this.endIfIdle(i);
  }

  /** Ends worker `index` now, unless it is counting. */
  private endIfIdle(index: number): void {
    const w = this.workers[index];
    if (!w || this.inFlight[index] > 0) return;
    clearTimeout(this.idle[index]);
    this.workers[index] = undefined;
    w.kill();
  }

  private async endWorkers(): Promise<void> {
    for (const t of this.idle) clearTimeout(t);
    const workers = this.workers;
    this.workers = [];
    this.inFlight.length = 0;
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

  /** How many worker processes run now (none until the first count, and again after being idle a while). */
  get running(): number {
    return this.workers.filter(Boolean).length;
  }

  /** Counts `texts` in worker `index`, started if it is not running. */
  private send(tokenizer: TokenizerName, texts: string[], index: number): Promise<number[]> {
    clearTimeout(this.idle[index]);
    const worker = this.workers[index] ?? this.start(index);
    this.workers[index] = worker;
    this.inFlight[index] = (this.inFlight[index] ?? 0) + 1;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, worker: index });
      worker.send({ id, tokenizer, texts } satisfies CountRequest);
    });
  }

  /** Token counts of `texts`, in order, counted across the workers. */
  async countMany(tokenizer: TokenizerName, texts: readonly string[]): Promise<number[]> {
    const batches: { start: number; texts: string[] }[] = [];
    let current: string[] = [];
    let chars = 0;
    let start = 0;
    texts.forEach((t, i) => {
      if (current.length > 0 && chars + t.length > BATCH_CHARS) {
        batches.push({ start, texts: current });
        current = [];
        chars = 0;
        start = i;
      }
      current.push(t);
      chars += t.length;
    });
    if (current.length > 0) batches.push({ start, texts: current });
    const out = new Array<number>(texts.length);
    // A few batches in flight per worker, not all: each posted batch is a copy of its texts held by the worker
    // until it counts them (all of a session's at once raised the peak of an open).
    // Lanes fill the first worker before the next: a job of a batch or two starts no other.
    let next = 0;
    const lane = async (index: number) => {
      while (next < batches.length) {
        const b = batches[next++];
        const counts = await this.send(tokenizer, b.texts, Math.floor(index / IN_FLIGHT_PER_WORKER));
        counts.forEach((c, j) => {
          out[b.start + j] = c;
        });
      }
    };
    await Promise.all(
      Array.from({ length: Math.min(batches.length, IN_FLIGHT_PER_WORKER * this.size) }, (_, i) => lane(i)),
    );
    return out;
  }

  /** Keeps the counts in `dir` (node/tokenStore.ts): each counter primed here is backed by its tokenizer's store
   * there, read on first use; new counts are saved a few seconds later and on `dispose`. */
  keepCountsIn(dir: string, warn?: (message: string) => void): this {
    this.storeDir = dir;
    if (warn) this.warn = warn;
    return this;
  }

  private async backingOf(counter: TokenCounter): Promise<void> {
    const dir = this.storeDir;
    if (!dir || counter.backing) return;
    let store = this.stores.get(counter);
    if (!store) {
      store = TokenStore.openAsync(dir, counter.tokenizer, { warn: this.warn }).catch(() => null);
      this.stores.set(counter, store);
    }
    const s = await store;
    if (s && !counter.backing) counter.backing = s;
  }

  /** `soon`: many new counts (a large session counted for the first time): saved `SAVE_DELAY_MS` from now, whenever
   * the last save was, so that an editor closed within the next half minute does not lose seconds of counting. */
  private scheduleSave(soon = false): void {
    if (!this.storeDir) return;
    const due = soon ? SAVE_DELAY_MS : Math.max(SAVE_DELAY_MS, this.lastSave + SAVE_EVERY_MS - Date.now());
    if (this.saveTimer && !(soon && this.saveDueAt > Date.now() + due)) return;
    clearTimeout(this.saveTimer);
    this.saveDueAt = Date.now() + due;
    this.saveTimer = setTimeout(() => void this.saveNow(), due);
    this.saveTimer.unref?.();
  }

  /** Milliseconds until the next save of new counts (null: none is due). */
  get saveDueIn(): number | null {
    return this.saveTimer ? Math.max(0, this.saveDueAt - Date.now()) : null;
  }

  /** Writes the new counts of every store now. */
  async saveNow(): Promise<void> {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    this.lastSave = Date.now();
    const stores = await Promise.all(this.stores.values());
    await Promise.all(stores.map((s) => s?.save()));
  }

  /** Counts in the workers every string of `transcript` that `counter` does not hold yet (in memory or in the store
   * on disk), and stores the counts: the analysis that follows then counts from the cache without blocking.
   * Resolves once every message of `transcript` is counted, those an earlier call is still counting included
   * (a session's messages are primed as they arrive from the parse, before the whole transcript is). Not an
   * async function: in the editor, one kept the file's bytes a batch from the parse carries alive until its counts
   * came in, seconds after the host let go of them (measured). */
  primeTranscript(transcript: Transcript, counter: TokenCounter): Promise<number> {
    // Messages primed before are skipped without hashing their texts again: a changed
    // setting keeps the transcript, a grown file keeps its earlier message objects. (Were one of their counts
    // evicted from the bounded cache since, the engine counts it itself: slower, never wrong.)
    const known = primedMessages.get(counter) ?? new WeakSet();
    primedMessages.set(counter, known);
    const fresh = transcript.messages.filter((m) => !known.has(m));
    // Taken at once, so that a call made meanwhile does not count them again: it waits for this one instead.
    for (const m of fresh) known.add(m);
    const counting = fresh.length > 0 ? this.primeFresh({ ...transcript, messages: fresh }, counter) : null;
    const earlier = this.priming.get(counter);
    if (counting) {
      const all = Promise.all([earlier, counting.catch(() => {})]).then(() => {});
      this.priming.set(counter, all);
      void all.then(() => {
        if (this.priming.get(counter) !== all) return;
        this.priming.delete(counter);
        // A session's texts are counted: what follows (what its analyses write) goes to the first worker alone.
        if (this.priming.size === 0) this.endIdleSpares();
      });
    }
    // Failed counts leave their texts to the engine, which counts what is missing itself.
    return afterBoth(earlier, counting);
  }

  /** `primeTexts` of a transcript's texts, whose digests the counter remembers first (those it holds itself). */
  private async primeFresh(transcript: Transcript, counter: TokenCounter): Promise<number> {
    const texts: string[] = [];
    const held: string[] = [];
    visitTexts(transcript, (text, own) => {
      texts.push(text);
      if (own) held.push(text);
    });
    await inSlices(held, (t) => counter.rememberHeld([t]), SLICE_MS);
    return this.primeTexts(texts, counter);
  }

  /** Counts in the workers the `texts` that `counter` does not know yet (in memory or on disk) and stores the
   * counts, saved a few seconds later; how many were counted. A transcript's texts, and what an analysis writes
   * (core/primedAnalysis.ts). */
  async primeTexts(texts: readonly string[], counter: TokenCounter): Promise<number> {
    await this.backingOf(counter);
    // Keyed by their digests, which takes a while for a session's texts: in slices, as is storing their counts.
    const missing: string[] = [];
    await inSlices(new Set(texts), (t) => !counter.known(t) && missing.push(t), SLICE_MS);
    let chars = 0;
    for (const t of missing) chars += t.length;
    // Workers that ended take longer to start again than this thread takes to count a few texts.
    if (this.running === 0 && chars <= COLD_IN_PLACE_CHARS) for (const t of missing) counter.count(t);
    else {
      const counts = await this.countMany(counter.tokenizer, missing);
      await inSlices(missing.keys(), (i) => counter.prime([missing[i]], [counts[i]]), SLICE_MS);
    }
    this.scheduleSave(missing.length >= MANY_NEW_COUNTS);
    return missing.length;
  }

  async dispose(): Promise<void> {
    await this.endWorkers();
    await this.saveNow();
  }
}

/** What `counting` counted, once `earlier` is done too (0 when nothing was to count). */
async function afterBoth(
  earlier: Promise<void> | undefined,
  counting: Promise<number> | null,
): Promise<number> {
  await earlier;
  return counting ? await counting : 0;
}
