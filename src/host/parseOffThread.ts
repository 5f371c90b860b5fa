// Parsing a large transcript in a worker thread (dist/parseWorker.js): the parse of a 100 MB session takes
// seconds of synchronous work that would block the extension host. Small files parse on this thread, where a
// worker's start-up would cost more than the parse.
import { Worker } from 'node:worker_threads';
import { parseTranscript, UnrecognizedTranscriptError } from '../core/formats';
import type { Transcript } from '../core/model';
import type { MessageSummary } from '../protocol';
import type { ParseReply, ParseRequest } from './parseWorker';
import { rememberSummaries } from './summaries';

/** From this size on the parse runs in a worker (a few MB parse in tens of ms: not worth a thread). */
export const OFF_THREAD_MIN_BYTES = 4_000_000;

/** Parses `bytes` like `parseTranscript`, in a worker started from `script` when the file is large. The result
 * and the errors are the same as on this thread. */
export function parseOffThread(
  script: string | URL,
  bytes: Uint8Array,
  fileName: string,
  minBytes = OFF_THREAD_MIN_BYTES,
): Promise<Transcript> {
  if (bytes.length < minBytes) return Promise.resolve(parseTranscript(bytes, fileName));
  return new Promise((resolve, reject) => {
    const worker = new Worker(script);
    const send = (request: ParseRequest) => worker.postMessage(request);
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      f();
      void worker.terminate();
    };
    let transcript: Transcript | null = null;
    let expected = 0;
    const summaries: MessageSummary[] = [];
    worker.on('message', (reply: ParseReply) => {
      if (reply.type === 'error') {
        const u = reply.unrecognized;
        const error = u
          ? new UnrecognizedTranscriptError(u.rejected, u.expected, fileName)
          : new Error(reply.error);
        return settle(() => reject(error));
      }
      if (reply.type === 'head') {
        transcript = reply.transcript;
        if (reply.rawIsInput) transcript.raw = bytes;
        expected = reply.messageCount;
      } else if (transcript) {
        for (const m of reply.messages) transcript.messages.push(m);
        for (const m of reply.summaries) summaries.push(m);
      }
      const t = transcript;
      if (!t) return;
      if (t.messages.length >= expected) {
        rememberSummaries(t, summaries);
        return settle(() => resolve(t));
      }
      // The next batch once this turn of the event loop is over: the host answers other work in between.
      setImmediate(() => send({ type: 'more' }));
    });
    // A worker that could not run (its bundle missing, out of memory) is no reason to refuse the file: parse here.
    const inline = (why: string) =>
      settle(() => {
        console.warn(`Context Lens: parse worker failed (${why}); parsing ${fileName} on the extension host`);
        try {
          resolve(parseTranscript(bytes, fileName));
        } catch (error) {
          reject(error);
        }
      });
    worker.once('error', (error) => inline(error.message));
    worker.once('exit', (code) => inline(`exit code ${code}`));
    // A copy crosses to the worker (the caller keeps its bytes to compare with the next read).
    send({ type: 'parse', bytes, fileName });
  });
}
