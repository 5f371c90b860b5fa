// Worker-thread entry (bundled as dist/tokenWorker.js): counts tokens off the extension host's main thread.
// Messages in: { id, tokenizer, texts }; out: { id, counts } or { id, error }.
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { encoderFor, type TokenizerName } from './counter';
import { countTokens } from './split';

export interface CountRequest {
  id: number;
  tokenizer: TokenizerName;
  texts: string[];
}
export type CountReply = { id: number; counts: number[] } | { id: number; error: string };

// Counting is background work (a worker per core): on Linux, where the nice value belongs to each thread, this
// thread yields the CPU to the extension host's own, so a change in the view is answered while counts are made.
// Elsewhere the call would lower the whole extension host, so it is not made.
if (parentPort && process.platform === 'linux') {
  try {
    setPriority(0, 10);
  } catch {
    // Not allowed here: the counting runs at the normal priority.
  }
}

parentPort?.on('message', (request: CountRequest) => {
  let reply: CountReply;
  try {
    const enc = encoderFor(request.tokenizer);
    reply = {
      id: request.id,
      counts: request.texts.map((t) => (t.length === 0 ? 0 : countTokens(enc, t))),
    };
  } catch (error) {
    reply = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
