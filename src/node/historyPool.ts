// The threads a history runs its sessions in (the report, the Sessions view): one per core by default, each given
// the next session when it answers (largest first balances them), a thread that dies replaced and its session
// reported. The token counts the threads made are added to the main thread's stores as they arrive.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { TokenizerName } from '../core/tokens/counter';
import type { HistoryJob, HistoryReply, HistoryWorkerBase } from './historyJob';
import type { TokenStore } from './tokenStore';

export interface PoolFile {
  path: string;
  /** The path's own bytes, where a name on it is not UTF-8: what the thread opens. */
  bytes?: Uint8Array;
  size: number;
  modified: number;
}

export interface PoolOptions<D> {
  /** The worker's entry script; `data` is its workerData, with the stores' snapshot added. */
  script: string;
  data: D;
  threads: number;
  stores: Map<TokenizerName, TokenStore>;
  /** Each answer as it arrives (figures or error), with the file it is about. */
  onReply(reply: HistoryReply, file: PoolFile): void;
  /** A thread died with this session (out of memory on a huge file, say). */
  onCrash(file: PoolFile, error: Error): void;
  signal?: AbortSignal;
}

/** A worker running `script`. From source (`node --import tsx …`: tests, development) the thread registers the
 * TypeScript loader itself: the hooks of the main thread do not reach workers on Node 20. */
export function workerFor(script: string, data: unknown): Worker {
  if (!script.endsWith('.ts')) return new Worker(script, { workerData: data });
  const tsx = createRequire(script).resolve('tsx/cjs');
  return new Worker(`require(${JSON.stringify(tsx)}); require(${JSON.stringify(script)});`, {
    eval: true,
    workerData: data,
  });
}

/** Bytes of sessions worth a thread of their own: a thread costs about half a second of CPU to start (its bundle and
 * tokenizer), and on the real long sessions a second thread began to save time only beyond ~10 MB. */
const BYTES_PER_THREAD = 8 << 20;

/** How many threads `files` get, at most `threads`: one per file and per started 8 MB of them. */
export function poolThreads(files: readonly PoolFile[], threads: number): number {
  if (files.length === 0) return 0;
  const bytes = files.reduce((sum, f) => sum + f.size, 0);
  return Math.min(Math.max(1, threads), files.length, Math.max(1, Math.ceil(bytes / BYTES_PER_THREAD)));
}

/** Runs every file through the threads (`poolThreads`); resolves when all are answered (or the signal stops them). */
export function runHistoryPool<D extends object>(files: PoolFile[], o: PoolOptions<D>): Promise<void> {
  if (files.length === 0) return Promise.resolve();
  const data: D & HistoryWorkerBase = {
    ...o.data,
    stores: [...o.stores].map(([tokenizer, s]) => ({ tokenizer, records: s.snapshot() })),
  };
  let next = 0;
  let finished = 0;
  const current = new Map<Worker, number>();
  return new Promise((resolve) => {
    const stopAll = () => {
      for (const w of current.keys()) void w.terminate();
      current.clear();
      resolve();
    };
    o.signal?.addEventListener('abort', stopAll, { once: true });
    const start = (worker: Worker | null): void => {
      if (o.signal?.aborted) return;
      if (next >= files.length) {
        void worker?.terminate();
        return;
      }
      const id = next++;
      const w = worker ?? spawn();
      current.set(w, id);
      w.postMessage({
        id,
        path: files[id].path,
        ...(files[id].bytes ? { bytes: files[id].bytes } : {}),
        modified: files[id].modified,
      } satisfies HistoryJob);
    };
    const settle = (w: Worker | null) => {
      finished++;
      if (finished === files.length) {
        if (w) void w.terminate();
        for (const other of current.keys()) void other.terminate();
        o.signal?.removeEventListener('abort', stopAll);
        resolve();
      } else start(w);
    };
    const spawn = (): Worker => {
      const w = workerFor(o.script, data);
      w.on('message', (reply: HistoryReply) => {
        current.delete(w);
        // A thread that found the cache wrong: the store that saves drops it too (before it takes the new counts).
        for (const d of reply.distrusted ?? []) o.stores.get(d.tokenizer)?.distrust(d.why);
        for (const c of reply.counts) o.stores.get(c.tokenizer)?.addTaken(c.entries);
        if (o.signal?.aborted) return;
        o.onReply(reply, files[reply.id]);
        settle(w);
      });
      w.on('error', (error) => {
        const id = current.get(w);
        current.delete(w);
        if (id === undefined || o.signal?.aborted) return;
        o.onCrash(files[id], error);
        settle(null);
      });
      return w;
    };
    for (let k = 0; k < poolThreads(files, o.threads); k++) start(null);
  });
}
