// Parsing transcripts in a worker thread (dist/parseWorker.js), whatever their size: a large session takes
// seconds of synchronous work, and a one-line JSON body of a few MB can too; on the extension host's main thread
// either would freeze every view. One OffThreadParser per file being followed: it keeps its worker (and the
// worker its parsed lines) between parses of a JSONL session that grows, so a grown file costs the parse of its
// new lines; a parse that a newer one supersedes is stopped by ending its thread. The one-off parses of documents
// open as text (the Problems panel, the status bar) are in latestParse.ts.
import { Worker } from 'node:worker_threads';
import { pushAll } from '../core/arrays';
import { UnrecognizedTranscriptError } from '../core/formats';
import type { Message, Transcript } from '../core/model';
import { type Problem, rememberFileProblems } from '../core/problems';
import { parseTranscriptFile } from '../node/parseFile';
import type { MessageSummary } from '../protocol';
import type { ParseReply, ParseRequest, ParseWorkerData } from './parseWorker';
import { messageSummaries, rememberSummaries } from './summaries';

/** A worker kept for appends is ended after this long without a parse: it holds a copy of the file and its parsed
 * lines (about three times the file's size), and an agent that writes again later costs one whole parse, in the
 * worker, while the view keeps what it shows. */
export const IDLE_MS = 15_000;
/** The same for a file that has not grown since it was opened (most are finished sessions): the worker is kept
 * only for the rest of a file shown from its beginning, which follows at once; once that rest is parsed, it is
 * ended (the worker holds about three times the file, beside the token workers counting it and the first
 * analysis, which the editor finishes before it reads the file again). */
export const OPENED_IDLE_MS = 2_000;

/** The parse thread's young generation, in MB (V8's default is larger): a parse allocates each line's record and
 * drops most of it at once, and a smaller nursery collects that sooner: the host's peak while opening is lower,
 * in the same time (docs/performance.md, "Figures behind the code"). */
export const PARSE_LIMITS = { maxYoungGenerationSizeMb: 8 };

export class OffThreadParser {
  private worker: Worker | null = null;
  /** Settles the parse in flight as superseded. */
  private supersede: (() => void) | null = null;
  /** The transcript of the last parse and its size in bytes, when the worker holds that file for an append. */
  private held: { transcript: Transcript; size: number } | null = null;
  private idle: ReturnType<typeof setTimeout> | undefined;
  private disposed = false;

  constructor(
    private readonly script: string | URL,
    private readonly fileName: string,
    private readonly options: {
      idleMs?: number;
      openedIdleMs?: number;
      background?: boolean;
      /** Called with each batch of new messages as it arrives (`head`: the transcript they belong to, its
       * messages still coming; `size`: the bytes parsed), before the parse resolves: work on them can start while
       * the rest crosses. */
      onMessages?: (head: Transcript, messages: Message[], size: number) => void;
      /** Whether a transcript holds the bytes it was parsed from (`raw`, default true): an export splices into
       * them. The editor never reads them: without them, the bytes of a parse after which the worker keeps nothing
       * go once the worker parsed them, before the messages cross (the bytes beside both copies of the messages
       * made the peak of the host's memory while opening). */
      holdsBytes?: boolean;
      /** The last parse of a file that is not growing (its rest once its beginning is shown, or the whole of a
       * file opened) is made in the calling thread rather than the worker, which ends: the worker's copy of every
       * message, crossing beside the one made of it here, and its heap beside the file's bytes made the peak of
       * the editor's memory while opening. For a caller whose thread is not the extension host's (the session's):
       * that thread answers nothing else meanwhile. */
      inPlaceLast?: boolean;
    } = {},
  ) {}

  /**
   * Parses `bytes` like `parseTranscript`; the same result and errors. `from`: the bytes before it are those of
   * the previous parse, unchanged (0 when unknown), so only the rest is sent when the worker still holds them.
   * Resolves null when a newer parse (or dispose) superseded this one. `growing`: the file grew on disk since it
   * was opened (the worker is then kept longer for the next append). `last`: nothing is likely to be appended
   * soon, the worker keeps nothing (by default, an append to a file that has not grown: the rest of one shown from
   * its beginning; a whole parse is kept a moment for that rest).
   */
  parse(
    bytes: Uint8Array,
    from = 0,
    growing = false,
    last = from > 0 && !growing,
  ): Promise<Transcript | null> {
    this.stopInFlight();
    clearTimeout(this.idle);
    if (this.disposed) return Promise.resolve(null);
    if (this.options.inPlaceLast && last && !growing) {
      this.held = null;
      this.endWorker();
      return this.inPlace(bytes);
    }
    const held = this.held;
    const append = held !== null && from > 0 && from === held.size && this.worker !== null;
    this.held = null;
    if (!append) this.endWorker();
    let worker: Worker;
    try {
      worker = this.worker ??= this.startWorker();
    } catch (error) {
      try {
        return Promise.resolve(this.inline(bytes, String(error)));
      } catch (parseError) {
        return Promise.reject(parseError);
      }
    }
    // A copy of the bytes to parse is handed over (the caller's bytes stay its own).
    // Not the view itself: a view crosses with its whole buffer (a file's first megabyte, or the last lines it
    // grew by, would copy all of it, and a growing file's buffer has room to spare).
    // (`new Uint8Array`, not `slice`: a Node Buffer's slice is a view of the same memory.)
    // An append larger than what the worker holds (the rest of a file shown from its beginning) goes with the
    // bytes before it: the worker takes them as its buffer, where it would otherwise copy what it holds and the
    // append into a larger one, and hold the append besides while it parses (the file twice over).
    // Bytes in shared memory (a file on disk, see growingFile.ts) cross as they are, the whole file each time:
    // the worker reads the host's own bytes, never a copy of them.
    const shared = isShared(bytes);
    const whole = append && held !== null && (shared || bytes.length - from > from);
    const sent = shared ? bytes : new Uint8Array(append && held && !whole ? bytes.subarray(from) : bytes);
    const request: ParseRequest =
      append && held
        ? { type: 'append', bytes: sent, whole, last }
        : { type: 'parse', bytes: sent, fileName: this.fileName, last };
    // Posted once the replies are listened to. The closures of `receive` read the bytes through `source` only, so
    // that they can let go of them (`holdsBytes`): this frame ends here.
    const replies = this.receive(worker, { bytes }, bytes.length, append ? held : null, growing, last);
    worker.postMessage(request, shared ? [] : [sent.buffer as ArrayBuffer]);
    return replies;
  }

  /** The transcript the worker's replies to a parse of `source` make; `held`: the transcript of the parse before,
   * when this one is an append to it. */
  private receive(
    worker: Worker,
    source: { bytes: Uint8Array | null },
    size: number,
    held: { transcript: Transcript; size: number } | null,
    growing: boolean,
    last: boolean,
  ): Promise<Transcript | null> {
    const append = held !== null;
    return new Promise<Transcript | null>((resolve, reject) => {
      let settled = false;
      const done = () => {
        settled = true;
        this.supersede = null;
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      this.supersede = () => {
        done();
        resolve(null);
      };
      let transcript: Transcript | null = null;
      let problems: Problem[] = [];
      let expected = 0;
      /** Messages asked for so far (those the worker did not send again included), `batch` at a time. */
      let asked = 0;
      let batch = 1;
      let appendable = false;
      const summaries: MessageSummary[] = [];
      const onMessage = (reply: ParseReply) => {
        if (settled) return;
        if (reply.type === 'error') {
          done();
          this.endWorker();
          const u = reply.unrecognized;
          reject(
            u
              ? new UnrecognizedTranscriptError(u.rejected, u.expected, this.fileName)
              : new Error(reply.error),
          );
          return;
        }
        if (reply.type === 'totals') return;
        if (reply.type === 'head') {
          transcript = reply.transcript;
          problems = reply.problems;
          expected = reply.messageCount;
          appendable = reply.appendable;
          if (this.options.holdsBytes === false) {
            if (!appendable || last) letGoOf(source);
          } else if (reply.rawIsInput && source.bytes) transcript.raw = source.bytes;
          // The messages the worker did not send again are those of the transcript it parsed before.
          if (append && held) {
            transcript.messages = held.transcript.messages.slice(0, reply.unchanged);
            pushAll(summaries, messageSummaries(held.transcript).slice(0, reply.unchanged));
          }
        } else if (transcript) {
          for (const m of reply.messages) transcript.messages.push(m);
          for (const m of reply.summaries) summaries.push(m);
          try {
            this.options.onMessages?.(transcript, reply.messages, size);
          } catch (error) {
            // Work started early on the messages is a speed-up: its failure must not stop the parse.
            console.warn(
              `Context Lens: ${this.fileName}: ${error instanceof Error ? error.message : String(error)}`,
            );
          }
        }
        const t = transcript;
        if (!t) return;
        if (t.messages.length >= expected) {
          done();
          rememberSummaries(t, summaries);
          rememberFileProblems(t, problems);
          this.parsed(t, size, appendable && !last, growing);
          resolve(t);
          return;
        }
        if (reply.type === 'head') {
          asked = t.messages.length;
          batch = reply.batchMessages;
        }
        // Two batches asked for at a time: the worker copies out the next while the host reads this one. Each is
        // asked for once this turn of the event loop is over: the host answers other work in between.
        setImmediate(() => {
          while (!settled && asked < expected && asked < t.messages.length + 2 * batch) {
            asked += batch;
            worker.postMessage({ type: 'more' } satisfies ParseRequest);
          }
        });
      };
      // A worker that could not run (its bundle missing, out of memory) is no reason to refuse the file.
      const onError = (error: Error) => fail(error.message);
      const onExit = (code: number) => fail(`exit code ${code}`);
      const fail = (why: string) => {
        if (settled) return;
        done();
        this.worker = null;
        if (!source.bytes) {
          reject(new Error(`the parse thread ended (${why}) while its messages were crossing`));
          return;
        }
        try {
          resolve(this.inline(source.bytes, why));
        } catch (error) {
          reject(error);
        }
      };
      worker.on('message', onMessage);
      worker.once('error', onError);
      worker.once('exit', onExit);
    });
  }

  protected startWorker(): Worker {
    const workerData: ParseWorkerData = { background: this.options.background ?? false };
    const worker = new Worker(this.script, { workerData, resourceLimits: PARSE_LIMITS });
    // A parse in flight has its own listeners; these keep a kept worker's end from going unnoticed (and an
    // 'error' without a listener from being thrown on the host).
    worker.on('error', () => {});
    worker.on('exit', () => {
      if (this.worker !== worker) return;
      this.worker = null;
      this.held = null;
    });
    return worker;
  }

  /** After a parse: keep the worker for an append (for a while), or end it (`kept`: false when there is nothing to
   * keep, or nothing likely to follow soon: the parse was the last). */
  private parsed(transcript: Transcript, size: number, kept: boolean, growing: boolean): void {
    if (!kept) {
      this.endWorker();
      return;
    }
    this.held = { transcript, size };
    this.idle = setTimeout(
      () => {
        this.held = null;
        this.endWorker();
      },
      growing ? (this.options.idleMs ?? IDLE_MS) : (this.options.openedIdleMs ?? OPENED_IDLE_MS),
    );
  }

  /** The parse in this thread (see `inPlaceLast`): the same transcript as the worker's. */
  private async inPlace(bytes: Uint8Array): Promise<Transcript> {
    const transcript = parseTranscriptFile(bytes, this.fileName);
    if (this.options.holdsBytes === false && transcript.raw === bytes) transcript.raw = new Uint8Array(0);
    return transcript;
  }

  private inline(bytes: Uint8Array, why: string): Transcript {
    console.warn(
      `Context Lens: parse worker failed (${why}); parsing ${this.fileName} on the extension host`,
    );
    this.endWorker();
    return parseTranscriptFile(bytes, this.fileName);
  }

  /** The parse in flight (if any) resolves null and its thread stops: the work is superseded. */
  private stopInFlight(): void {
    if (!this.supersede) return;
    this.supersede();
    this.held = null;
    this.endWorker();
  }

  private endWorker(): void {
    const w = this.worker;
    this.worker = null;
    if (w) void w.terminate();
  }

  /** Whether a worker thread is running (in flight, or kept for an append). */
  get running(): boolean {
    return this.worker !== null;
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.idle);
    this.stopInFlight();
    this.held = null;
    this.endWorker();
  }
}

/** (The worker collects its own view of the bytes as it starts sending; the host's thread forces no collection,
 * see node/collectGarbage.ts.) */
function letGoOf(source: { bytes: Uint8Array | null }): void {
  source.bytes = null;
}

/** Whether `bytes` are in memory that a worker thread shares rather than receives a copy of. */
const isShared = (bytes: Uint8Array) =>
  typeof SharedArrayBuffer === 'function' && bytes.buffer instanceof SharedArrayBuffer;

/** Parses `bytes` once in a worker thread; the same result and errors as `parseTranscript`. */
export async function parseOffThread(
  script: string | URL,
  bytes: Uint8Array,
  fileName: string,
): Promise<Transcript> {
  const parser = new OffThreadParser(script, fileName);
  try {
    const t = await parser.parse(bytes);
    if (!t) throw new Error('the parse was superseded');
    return t;
  } finally {
    parser.dispose();
  }
}
