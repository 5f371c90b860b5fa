// Worker-thread entry (bundled as dist/tokenWorker.js): counts tokens off the extension host's main thread.
// Messages in: { id, tokenizer, texts }; out: { id, counts } or { id, error }.
import { parentPort } from 'node:worker_threads';
import { encoderFor, type TokenizerName } from './counter';
import { countTokens } from './split';

export interface CountRequest {
  id: number;
  tokenizer: TokenizerName;
  texts: string[];
}
export type CountReply = { id: number; counts: number[] } | { id: number; error: string };

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
