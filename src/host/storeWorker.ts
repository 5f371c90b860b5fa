// The thread that copies an agent's own store (OpenCode's database and storage folders) into the mirror the
// Sessions view and the pickers list (bundled as dist/storeWorker.js): reading a database whole is seconds of work
// on a large one, and a running agent changes it all the time, so the extension host never does it itself.
import { parentPort, workerData } from 'node:worker_threads';
import { mirrorOpenCode } from '../node/openCodeStore';

export interface StoreWorkerData {
  env: NodeJS.ProcessEnv;
  data: string;
}

if (parentPort) {
  const port = parentPort;
  const { env, data } = workerData as StoreWorkerData;
  mirrorOpenCode(env, data).then(
    (result) => port.postMessage({ ok: true, result }),
    (e: unknown) => port.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e) }),
  );
}
