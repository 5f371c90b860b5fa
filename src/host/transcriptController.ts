// What a Context Lens view asks of the host, answered without the editor API (GitLens keeps its webview host apart
// from the provider the same way): the custom editor and the browser tests' stand-in host hand it the session of
// the transcript shown and small ports for the views, the settings and what only an editor can do (open the file
// as text, export). Every message is validated on arrival (parseWebviewMessage) before anything is done with it.

import type { Policy } from '../core/engine/policy';
import { type HostMessage, parseWebviewMessage, type ViewLayout, type WebviewMessage } from '../protocol';
import type { EffectiveSettings } from './policySettings';
import type { SourcePosition } from './summaries';

type SettingsMessage = Extract<HostMessage, { type: 'settings' }>;
type SettingChanges = Extract<WebviewMessage, { type: 'updateSettings' }>['changes'];
type Reply<T extends HostMessage['type']> = Extract<HostMessage, { type: T }>;
type Maybe<T> = T | Promise<T>;
/** A transcript message as made in place, or packed where the session runs in a thread of its own (listWire.ts). */
type List = Reply<'transcript'> | Reply<'list'>;

/** The session side of one transcript, as the controller asks it: the session itself (session.ts) where it runs on
 * the same thread (the browser tests' stand-in host), or its proxy on the extension host (remoteSession.ts), which
 * asks the session's worker thread. Each answer is a message for the views, already in wire form. */
export interface SessionSide {
  transcriptMessage(): Maybe<List | null>;
  complete(): Maybe<Reply<'analysis'> | null>;
  showRequests(shown: boolean): Maybe<Reply<'analysis'> | null>;
  request(
    policy: Policy,
    summarizer: EffectiveSettings['summarizer'],
    seq: number,
    holds?: number,
  ): Promise<void>;
  details(messageIndex: number): Maybe<Reply<'details'> | Reply<'packed'> | null>;
  /** Where a message (and block) of the transcript shown is in the file; null before the transcript is there. */
  source(messageIndex: number, blockIndex?: number): Maybe<SourcePosition | null>;
  comparisonsMessage(policy: Policy): Promise<Reply<'comparisons'> | Reply<'packed'>>;
  verdictMessage(policy: Policy): Promise<Reply<'verdict'> | null>;
  /** The header's line on the cache; `tab`: with the Cache tab's figures for the analysis shown, and what other
   * lifetimes would have saved. */
  cacheView(seq: number, tab: boolean): Promise<Reply<'cacheView'> | Reply<'packed'>>;
  find(seq: number, query: string): Maybe<Reply<'found'>>;
  /** The Tuning tab's sweep (sweep.ts), its progress and grid posted as they come. */
  sweep(
    message: Extract<WebviewMessage, { type: 'sweep' }>,
    policy: Policy,
    post: (m: HostMessage) => void,
  ): Promise<void>;
  selectThread(thread: string): Maybe<List | null>;
}

/** The views of one transcript, by whatever stands for a view (the editor: a webview panel). */
export interface ViewsPort<View> {
  /** Posts to one view; resolves once it took the message. */
  post(view: View, message: HostMessage): PromiseLike<unknown>;
  /** Posts to every view of the transcript that is ready for it. */
  broadcast(message: HostMessage): void;
  /** The views that said they are ready (`ready`), the one that just did included. */
  readyViews(): readonly View[];
  /** `view` said it is ready (it was just started, or started again). */
  ready(view: View): void;
  /** Notes whether `view` shows the Requests tab; returns whether any view does. */
  showsRequests(view: View, shown: boolean): boolean;
}

/** The settings in force for the transcript, and where changes to them are kept. */
export interface SettingsPort {
  current(): EffectiveSettings;
  /** Validates a view's changes against the settings in force and takes them; the errors otherwise. */
  apply(changes: SettingChanges): { settings: EffectiveSettings } | { errors: string[] };
  /** Keeps the changes taken (the editor: settings.json, once the changes pause); rejects with what to tell the
   * view when they could not be kept. */
  save(changes: SettingChanges): Promise<void>;
  /** Back to the defaults of the transcript's format. */
  reset(): Promise<void>;
  /** The settings message for the views; `problem`: a refused change, said beside the settings' own. */
  message(problem?: string): SettingsMessage;
}

/** What only the host of the document knows or can do. */
export interface DocumentPort {
  /** Set while the views show a kept snapshot and the file is parsed: their requests wait for it. */
  parsing(): Promise<void> | null;
  /** Why the transcript could not be shown, if it could not. */
  loadError(): string | null;
  /** A view took the last analysis sent whole (a kept snapshot's, at first: the parse waits for that). */
  viewTookAnalysis(): void;
  /** A view is ready and no analysis is there to send it (the stand-in host analyses at that moment). */
  nothingAnalysedYet?(): Promise<void>;
  /** Opens the file as text at a line (and column) of it. */
  reveal(at: { line: number; column: number; endLine?: number; endColumn?: number } | null): Promise<void>;
  exportCompacted(): Promise<void>;
  /** Puts text on the clipboard (the lines to paste a view copies). */
  copy(text: string): Promise<void>;
  /** The view's layout (controls panel open, list/details split), the user's whatever the file. */
  layout(): ViewLayout | undefined;
  saveLayout(layout: ViewLayout): Promise<void>;
  /** Before a settings change is answered (the stand-in host: a host as busy as a test says). */
  beforeAnswer?(): Promise<void>;
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e));

export class TranscriptController<View> {
  constructor(
    private readonly session: SessionSide,
    private readonly views: ViewsPort<View>,
    private readonly settings: SettingsPort,
    private readonly document: DocumentPort,
  ) {}

  /** A message from `view`, as it arrived: refused (and the view told why) unless it is one of the protocol's.
   * Returns the refusal, if any. */
  async receive(view: View, data: unknown): Promise<string | null> {
    const parsed = parseWebviewMessage(data);
    if (!parsed.ok) {
      void this.views.post(view, { type: 'error', message: `The host refused a message: ${parsed.error}` });
      return parsed.error;
    }
    try {
      await this.handle(view, parsed.value);
    } catch (e) {
      void this.views.post(view, { type: 'error', message: errorText(e) });
    }
    return null;
  }

  async handle(view: View, message: WebviewMessage): Promise<void> {
    const { session, views, settings, document } = this;
    const post = (m: HostMessage) => void views.post(view, m);
    // A view showing a kept snapshot asks about a transcript the host has yet to parse.
    const parsing = message.type !== 'ready' && message.type !== 'saveLayout' ? document.parsing() : null;
    if (parsing) await parsing;
    switch (message.type) {
      case 'ready': {
        const layout = document.layout();
        if (layout) post({ type: 'layout', layout });
        views.ready(view);
        // The list first: while a file's last parse holds the session's thread, the list of its beginning is at
        // hand already (remoteSession.ts), and the view shows it meanwhile.
        const t = await session.transcriptMessage();
        if (t) post(t);
        post(settings.message());
        // A view that (re)starts shows its details tab.
        await session.showRequests(views.showsRequests(view, false));
        const analysis = await session.complete();
        if (analysis) void views.post(view, analysis).then(() => document.viewTookAnalysis());
        else await document.nothingAnalysedYet?.();
        const error = document.loadError();
        if (error) post({ type: 'error', message: error });
        return;
      }
      case 'saveLayout':
        return document.saveLayout(message.layout);
      case 'updateSettings':
        return this.updateSettings(view, message);
      case 'resetSettings': {
        await settings.reset();
        views.broadcast(settings.message());
        const { policy, summarizer } = settings.current();
        await session.request(policy, summarizer, message.seq);
        return;
      }
      case 'requestDetails': {
        const d = await session.details(message.messageIndex);
        if (d) post(d);
        return;
      }
      case 'revealInSource':
        return document.reveal(await session.source(message.messageIndex, message.blockIndex));
      case 'compareAll':
        post(await session.comparisonsMessage(settings.current().policy));
        return;
      case 'copyText':
        return document.copy(message.text);
      case 'askVerdict': {
        const verdict = await session.verdictMessage(settings.current().policy);
        if (verdict) post(verdict);
        return;
      }
      case 'requestsShown': {
        const again = await session.showRequests(views.showsRequests(view, message.shown));
        if (again) views.broadcast(again);
        return;
      }
      case 'find':
        post(await session.find(message.seq, message.query));
        return;
      case 'cacheBreaks':
        post(await session.cacheView(message.seq, message.tab));
        return;
      case 'sweep':
        return session.sweep(message, settings.current().policy, post);
      case 'selectThread': {
        const t = await session.selectThread(message.thread);
        if (!t) {
          post({ type: 'error', message: `No conversation ${message.thread} in this file` });
          return;
        }
        views.broadcast(t);
        const { policy, summarizer } = settings.current();
        await session.request(policy, summarizer, 0);
        return;
      }
      case 'exportCompacted':
        try {
          await document.exportCompacted();
        } catch (e) {
          post({ type: 'error', message: `Export failed: ${errorText(e)}` });
        }
        return;
    }
  }

  /** A view changed the settings: every view is told (the one that asked, which change this answers: it may have
   * sent newer ones since), the analysis starts at once, and the change is kept after it started. */
  private async updateSettings(
    view: View,
    message: Extract<WebviewMessage, { type: 'updateSettings' }>,
  ): Promise<void> {
    const { views, settings } = this;
    const r = settings.apply(message.changes);
    if ('errors' in r) {
      void views.post(view, { ...settings.message(r.errors.join('\n')), seq: message.seq });
      return;
    }
    await this.document.beforeAnswer?.();
    const answer = settings.message();
    for (const v of views.readyViews())
      void views.post(v, v === view ? { ...answer, seq: message.seq } : answer);
    const analysed = this.session.request(
      r.settings.policy,
      r.settings.summarizer,
      message.seq,
      message.holds,
    );
    await settings
      .save(message.changes)
      .catch((e) => views.post(view, { type: 'error', message: errorText(e) }));
    await analysed;
  }
}
