// The thread that copies an agent's own store (OpenCode's database and storage folders, or a fork's) into the mirror the
// Sessions view and the pickers list (bundled as dist/storeWorker.js): reading a database whole is seconds of work
// on a large one, and a running agent changes it all the time, so the extension host never does it itself.
import { parentPort, workerData } from 'node:worker_threads';
import { mirrorStore } from '../node/openCodeMirror';
import type { AgentStore } from '../node/openCodeStore';

export interface StoreWorkerData {
  env: NodeJS.ProcessEnv;
  store: AgentStore;
}

if (parentPort) {
  const port = parentPort;
  const { env, store } = workerData as StoreWorkerData;
  mirrorStore(env, store).then(
    (result) => port.postMessage({ ok: true, result }),
    (e: unknown) => port.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e) }),
  );
}
