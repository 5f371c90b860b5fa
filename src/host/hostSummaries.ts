// The language model's summaries the session's thread asks of the extension host (which alone has the editor's
// API): each question goes by message, its answer comes back by id, and an analysis that stops tells the host to
// stop its summary. A summary answered lets go of its analysis's signal: one analysis asks for many.
import type { Policy } from '../core/engine/policy';
import type { FromWorker } from './sessionProtocol';

type Ask = Extract<FromWorker, { type: 'summarize' | 'abortSummary' }>;

export class HostSummaries {
  private ids = 0;
  private readonly waiting = new Map<
    number,
    { resolve: (text: string) => void; reject: (e: Error) => void }
  >();

  constructor(private readonly send: (message: Ask) => void) {}

  ask(policy: Policy, toolName: string, content: string, signal: AbortSignal): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const id = ++this.ids;
      const abort = () => this.send({ type: 'abortSummary', id });
      signal.addEventListener('abort', abort, { once: true });
      const settled = () => signal.removeEventListener('abort', abort);
      this.waiting.set(id, {
        resolve: (text) => {
          settled();
          resolve(text);
        },
        reject: (error) => {
          settled();
          reject(error);
        },
      });
      this.send({ type: 'summarize', id, policy, toolName, content });
    });
  }

  /** The host's answer to summary `id`: its text, or why it failed. */
  answer(id: number, text: string | undefined, error: string | undefined): void {
    const waiting = this.waiting.get(id);
    this.waiting.delete(id);
    if (error !== undefined) waiting?.reject(new Error(error));
    else waiting?.resolve(text ?? '');
  }
}
