// The extension host's side of one open transcript whose session runs in a worker thread (sessionWorker.ts): the
// same asynchronous questions as the session (transcriptController.ts `SessionSide`), asked by message, and the
// messages the worker makes for the views forwarded as they come. The host keeps only what the editor shows
// beside the views: the transcript's format (for its settings), the analysis's totals (the status bar).
import { Worker } from 'node:worker_threads';
import type { Policy } from '../core/engine/policy';
import type { Problem } from '../core/problems';
import type { HostMessage, SettingKey, SummarizerName, WebviewMessage } from '../protocol';
import type {
  AnalysisHeadline,
  CallArgs,
  CallValue,
  FromWorker,
  ListMessage,
  SessionCall,
  SessionWorkerData,
  ToWorker,
  TranscriptHead,
} from './sessionProtocol';
import { summarizerFor } from './summarizers';
import type { ViewSnapshot } from './viewSnapshots';

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class RemoteSession {
  private readonly worker: Worker;
  private ids = 0;
  private readonly pending = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void; onPost?: (m: HostMessage) => void }
  >();
  private head: TranscriptHead | null = null;
  private headline: AnalysisHeadline | null = null;
  private readonly listeners = new Set<(analysis: AnalysisHeadline | null) => void>();
  private readonly summaries = new Map<number, AbortController>();
  private confirmed: ListMessage | null = null;
  /** The loads asked for and not answered yet, and the last list the worker made: while a load is under way, the
   * worker may be parsing in its own thread (a file's last parse: see parseOffThread.ts `inPlaceLast`), and a view
   * that starts meanwhile is answered this list (the one the worker would answer) rather than after the parse. */
  private loads = 0;
  private lastList: ListMessage | null = null;
  /** Set once the view closed: nothing more is asked. */
  private closing = false;
  /** Why the worker's thread ended, once it did. */
  private ended: string | null = null;

  constructor(
    script: string,
    readonly fileName: string,
    data: Omit<SessionWorkerData, 'fileName'>,
    /** Receives every message for the views (analyses, runs ahead, errors), in order. */
    private readonly broadcast: (message: HostMessage) => void,
  ) {
    this.worker = new Worker(script, { workerData: { ...data, fileName } satisfies SessionWorkerData });
    this.worker.on('message', (m: FromWorker) => this.receive(m));
    this.worker.on('error', (e) => this.fail(`the session's thread failed: ${errorText(e)}`));
    this.worker.on('exit', (code) => this.fail(`the session's thread ended (code ${code})`));
  }

  /** What the host knows of the transcript shown (its format, whether it is the whole file's). */
  get model(): TranscriptHead | null {
    return this.head;
  }

  get showsWholeFile(): boolean {
    return this.head?.showsWholeFile ?? false;
  }

  /** The analysis shown, as the status bar shows it. */
  get analysis(): AnalysisHeadline | null {
    return this.headline;
  }

  onDidChangeAnalysis(listener: (analysis: AnalysisHeadline | null) => void): { dispose(): void } {
    this.listeners.add(listener);
    return { dispose: () => void this.listeners.delete(listener) };
  }

  private post(message: ToWorker): void {
    if (this.ended === null && !this.closing) this.worker.postMessage(message);
  }

  private ask<T>(
    make: (id: number) => ToWorker,
    onPost?: (m: HostMessage) => void,
    transfer: ArrayBuffer[] = [],
  ): Promise<T> {
    if (this.ended !== null || this.closing)
      return Promise.reject(new Error(`${this.fileName}: ${this.ended ?? 'the view was closed'}`));
    const id = ++this.ids;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, onPost });
      this.worker.postMessage(make(id), transfer);
    });
  }

  private call<M extends SessionCall>(method: M, ...args: CallArgs<M>): Promise<CallValue<M>> {
    return this.ask((id) => ({ type: 'call', id, method, args }));
  }

  private receive(m: FromWorker): void {
    switch (m.type) {
      case 'reply': {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        if (m.error !== undefined) p?.reject(new Error(m.error));
        else p?.resolve(m.value);
        return;
      }
      case 'loaded': {
        const p = this.pending.get(m.id);
        this.pending.delete(m.id);
        if (m.head) this.head = m.head;
        if (m.confirmed) this.confirmed = m.message;
        if (m.message) this.lastList = m.message;
        p?.resolve(m.message);
        return;
      }
      case 'broadcast':
        this.broadcast(m.message);
        return;
      case 'sweepPost':
        this.pending.get(m.id)?.onPost?.(m.message);
        return;
      case 'analysisChanged':
        this.headline = m.analysis;
        if (m.head) this.head = m.head;
        for (const listener of [...this.listeners]) listener(m.analysis);
        return;
      case 'summarize':
        void this.summarize(m.id, m.policy, m.toolName, m.content);
        return;
      case 'abortSummary':
        this.summaries.get(m.id)?.abort();
        return;
      case 'disposed':
        this.closing = true;
        this.fail('the view was closed');
        void this.worker.terminate();
        return;
    }
  }

  /** A summary the worker's analysis asks of the editor's language model. */
  private async summarize(id: number, policy: Policy, toolName: string, content: string): Promise<void> {
    const stop = new AbortController();
    this.summaries.set(id, stop);
    try {
      const summarizer = summarizerFor('vscode-lm', policy);
      if (!summarizer) throw new Error('no language model summarizer');
      const text = await summarizer.summarize(toolName, content, stop.signal);
      this.post({ type: 'summary', id, text });
    } catch (error) {
      this.post({ type: 'summary', id, error: errorText(error) });
    } finally {
      this.summaries.delete(id);
    }
  }

  /** The worker's thread ended or failed: every question waiting fails with why. */
  private fail(why: string): void {
    if (this.ended !== null) return;
    this.ended = why;
    // Unlooked for (not the view closing): the views say so rather than wait for answers that will not come.
    if (!this.closing) this.broadcast({ type: 'error', message: `${this.fileName}: ${why}` });
    for (const p of this.pending.values()) p.reject(new Error(`${this.fileName}: ${why}`));
    this.pending.clear();
  }

  /** Parses the file's bytes in the worker (see TranscriptSession.loadAsync); the transcript message for the
   * views, packed there (forwarded to them untouched), null when a newer load superseded this one. */
  loadAsync(
    bytes: Uint8Array,
    from = 0,
    fileBytes?: number,
    growing = false,
    /** The bytes are moved to the worker (`bytes` is then empty here): a file's last parse (fileSource.ts). */
    moved = false,
  ): Promise<ListMessage | null> {
    // Bytes in shared memory (a grown file on disk) are read by the worker where they are; others are copied,
    // unless moved.
    const transfer = moved ? [bytes.buffer as ArrayBuffer] : [];
    this.loads++;
    const loaded = this.ask<ListMessage | null>(
      (id) => ({ type: 'load', id, bytes, from, fileBytes, growing }),
      undefined,
      transfer,
    );
    const done = () => {
      this.loads--;
    };
    loaded.then(done, done);
    return loaded;
  }

  confirmsRestored(message: ListMessage): boolean {
    return this.confirmed === message;
  }

  restore(snapshot: Pick<ViewSnapshot, 'list' | 'analysis'>): Promise<boolean> {
    return this.call('restore', snapshot);
  }

  /** The user's settings changed: the tokenizer that counts a file while it is parsed may be another. */
  settingsChanged(settings: Partial<Record<SettingKey, unknown>>): void {
    this.post({ type: 'settings', settings });
  }

  request(policy: Policy, summarizer: SummarizerName, seq: number, holds?: number): Promise<void> {
    if (summarizer === 'vscode-lm') {
      let id: string | null = null;
      try {
        id = summarizerFor('vscode-lm', policy)?.id ?? null;
      } catch {
        // Not available in this editor: the worker's analysis says so.
      }
      this.post({ type: 'lm', id });
    }
    return this.call('request', policy, summarizer, seq, holds);
  }

  async transcriptMessage(): Promise<ListMessage | null> {
    if (this.loads > 0 && this.lastList) return this.lastList;
    const list = await this.call('transcriptMessage');
    if (list) this.lastList = list;
    return list;
  }

  complete() {
    return this.call('complete');
  }

  showRequests(shown: boolean) {
    return this.call('showRequests', shown);
  }

  details(messageIndex: number) {
    return this.call('details', messageIndex);
  }

  source(messageIndex: number, blockIndex?: number) {
    return this.call('source', messageIndex, blockIndex);
  }

  find(seq: number, query: string) {
    return this.call('find', seq, query);
  }

  async selectThread(thread: string): Promise<ListMessage | null> {
    const list = await this.call('selectThread', thread);
    if (list) this.lastList = list;
    return list;
  }

  comparisonsMessage(policy: Policy) {
    return this.call('comparisonsMessage', policy);
  }

  verdictMessage(policy: Policy) {
    return this.call('verdictMessage', policy);
  }

  cacheView(seq: number, tab: boolean) {
    return this.call('cacheView', seq, tab);
  }

  releaseBytes(): void {
    void this.call('releaseBytes').catch(() => {});
  }

  releaseKept(): void {
    void this.call('releaseKept').catch(() => {});
  }

  settled() {
    return this.call('settled');
  }

  sweep(
    message: Extract<WebviewMessage, { type: 'sweep' }>,
    policy: Policy,
    post: (m: HostMessage) => void,
  ): Promise<void> {
    return this.ask((id) => ({ type: 'sweep', id, message, policy }), post);
  }

  /** The file's problems under `policy` (the Problems panel). */
  problems(policy: Policy): Promise<Problem[]> {
    return this.ask((id) => ({ type: 'problems', id, policy }));
  }

  /** Stops the work in flight; the questions asked before are answered, the worker keeps the counts it made, then
   * ends. */
  dispose(): void {
    this.post({ type: 'dispose' });
    this.closing = true;
  }
}
