// A pool of token-counting worker processes for the extension host: a large session takes seconds to tokenize, so
// the host counts in workers, primes the shared TokenCounter's cache, and the engine then counts synchronously
// from the cache. Processes, not threads: a worker thread's tokenizer tables and heap count in the host's own
// memory while it runs, and the C allocator keeps what its thread freed once it ended; a process gives it all back
// when it exits (docs/performance.md, "Figures behind the code"). The CLI and
// tests need none of this (they count on their own thread). With a folder to keep counts in (the extension's
// global storage), what was counted once, in any session, is never counted again.
import { availableParallelism } from 'node:os';
import { inSlices, SLICE_MS } from '../core/giveWay';
import type { Transcript } from '../core/model';
import type { TokenCounter, TokenizerName } from '../core/tokens/counter';
import { visitTexts } from '../core/tokens/texts';
import { IDLE_MS, TokenProcesses } from './tokenProcesses';
import { TokenStore } from './tokenStore';

/** Per counter, the messages whose texts it was primed with. */
const primedMessages = new WeakMap<TokenCounter, WeakSet<Transcript['messages'][number]>>();

/** Texts of at most this many characters in all are counted on the calling thread when no worker runs. */
export const COLD_IN_PLACE_CHARS = 256 * 1024;

/** New counts are written to disk this long after the first one, and at most once per `SAVE_EVERY_MS` (a session
 * followed live adds a few every second; the file is rewritten whole). */
const SAVE_DELAY_MS = 5_000;
const SAVE_EVERY_MS = 30_000;
/** New counts from one priming that make a save due soon whatever the spacing (a file seen for the first time;
 * a live session adds a few at each growth). */
const MANY_NEW_COUNTS = 1_000;

export class TokenWorkerPool {
  private readonly processes: TokenProcesses;
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
    script: string | URL,
    size = Math.max(1, Math.min(4, availableParallelism())),
    execArgv?: string[],
    idleMs = IDLE_MS,
  ) {
    this.processes = new TokenProcesses(script, size, execArgv, idleMs);
  }

  /** How many worker processes run now, those starting included (none until the first count, and again after
   * being idle a while). */
  get running(): number {
    return this.processes.running;
  }

  /** Worker processes started so far. */
  get started(): number {
    return this.processes.started;
  }

  /** Token counts of `texts`, in order, counted across the workers. */
  countMany(tokenizer: TokenizerName, texts: readonly string[]): Promise<number[]> {
    return this.processes.countMany(tokenizer, texts);
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
        if (this.priming.size === 0) this.processes.endIdleSpares();
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
    await this.processes.end();
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
