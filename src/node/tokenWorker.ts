// Worker-process entry (bundled as dist/tokenWorker.js, forked by tokenPool.ts): counts tokens outside the extension
// host. Messages in: { id, tokenizer, texts }; out: { id, counts } or { id, error }.
import { setPriority } from 'node:os';
import { encoderFor, type TokenizerName } from '../core/tokens/counter';
import { countTokens } from '../core/tokens/split';

export interface CountRequest {
  id: number;
  tokenizer: TokenizerName;
  texts: string[];
}
export type CountReply = { id: number; counts: number[] } | { id: number; error: string };

// Counting is background work (a worker per core): the process yields the CPU to the extension host, so a change
// in the view is answered while counts are made.
if (process.send) {
  try {
    setPriority(0, 10);
  } catch {
    // Not allowed here: the counting runs at the normal priority.
  }
}

process.on('message', (request: CountRequest) => {
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
  process.send?.(reply);
});
