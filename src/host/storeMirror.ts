// An agent's own store copied out in a worker thread (host/storeWorker.ts), for the listings the editor makes.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { AgentStore, MirrorResult } from '../node/openCodeStore';
import type { StoreWorkerData } from './storeWorker';

/** A `ListingOptions.mirrorStore` that runs the copy in a thread of `dist` (the folder of the bundles). */
export function mirrorInWorker(
  dist: string,
): (env: NodeJS.ProcessEnv, store: AgentStore) => Promise<MirrorResult> {
  return (env, store) =>
    new Promise((resolve, reject) => {
      const worker = new Worker(join(dist, 'storeWorker.js'), {
        workerData: { env, store } satisfies StoreWorkerData,
      });
      worker.once('message', (m: { ok: true; result: MirrorResult } | { ok: false; message: string }) => {
        if (m.ok) resolve(m.result);
        else reject(new Error(m.message));
      });
      worker.once('error', reject);
      worker.once('exit', (code) =>
        reject(new Error(`the store's thread ended (${code}) before it answered`)),
      );
    });
}
