// The parses of transcripts open as text (the Problems panel, the status bar): one per document at a time, each in
// a thread of its own that ends with it, so that a newer edit ends the older parse's thread. The parse of a file
// open in Context Lens, kept for its growth, is parseOffThread.ts's.
import { Worker } from 'node:worker_threads';
import { UnrecognizedTranscriptError } from '../core/formats';
import type { Transcript } from '../core/model';
import { OffThreadParser, PARSE_LIMITS } from './parseOffThread';
import type { ParseReply, ParseRequest, ParseWorkerData, TextSettings, TextTotals } from './parseWorker';

/**
 * Parses (and analyses) a transcript open as text in a thread of its own, which ends when it answers. Resolves
 * null when cancelled (its thread ended). The same errors as `parseTranscript`.
 */
function totalsOffThread(
  script: string | URL,
  request: Extract<ParseRequest, { type: 'totals' }>,
): { result: Promise<TextTotals | null>; cancel: () => void } {
  let cancel = () => {};
  const result = new Promise<TextTotals | null>((resolve, reject) => {
    const workerData: ParseWorkerData = { background: true };
    const worker = new Worker(script, { workerData, resourceLimits: PARSE_LIMITS });
    const end = () => void worker.terminate();
    cancel = () => {
      end();
      resolve(null);
    };
    worker.on('message', (reply: ParseReply) => {
      end();
      if (reply.type === 'totals')
        resolve({ totals: reply.totals, policyName: reply.policyName, summarizer: reply.summarizer });
      else if (reply.type === 'error') {
        const u = reply.unrecognized;
        reject(
          u
            ? new UnrecognizedTranscriptError(u.rejected, u.expected, request.fileName)
            : new Error(reply.error),
        );
      } else reject(new Error(`unexpected reply ${reply.type} from the parse worker`));
    });
    worker.on('error', (e) => reject(e));
    worker.on('exit', (code) => reject(new Error(`the parse worker ended (exit code ${code})`)));
    worker.postMessage(request);
  });
  return { result, cancel };
}

/** One parse per key (a document) at a time, each in a thread of its own that ends with it: a newer parse of
 * the same key ends the older one's thread, and its result is null. */
export class LatestParse {
  private readonly inFlight = new Map<string, { dispose(): void }>();

  constructor(private readonly script: string | URL) {}

  async parse(key: string, bytes: Uint8Array, fileName: string): Promise<Transcript | null> {
    const parser = new OffThreadParser(this.script, fileName, { background: true });
    return this.latest(key, parser, () => parser.parse(bytes));
  }

  /** The figures of a transcript open as text under the settings for its format, parsed and analysed in a
   * worker thread. */
  async totals(
    key: string,
    bytes: Uint8Array,
    fileName: string,
    settings: Partial<Record<string, TextSettings>>,
  ): Promise<TextTotals | null> {
    const run = totalsOffThread(this.script, { type: 'totals', bytes, fileName, settings });
    return this.latest(key, { dispose: run.cancel }, () => run.result);
  }

  /** Ends the work in flight for `key` (its result is null). */
  cancel(key: string): void {
    this.inFlight.get(key)?.dispose();
    this.inFlight.delete(key);
  }

  private async latest<T>(key: string, work: { dispose(): void }, result: () => Promise<T>): Promise<T> {
    this.inFlight.get(key)?.dispose();
    this.inFlight.set(key, work);
    try {
      return await result();
    } finally {
      if (this.inFlight.get(key) === work) this.inFlight.delete(key);
      work.dispose();
    }
  }

  /** Parses in flight (for the tests: none is left behind). */
  get running(): number {
    return this.inFlight.size;
  }

  dispose(): void {
    for (const p of this.inFlight.values()) p.dispose();
    this.inFlight.clear();
  }
}
