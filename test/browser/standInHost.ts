// A stand-in for the editor host: the same session, controller (the message switch), settings validation and
// messages as the custom editor (src/host/session.ts, transcriptController.ts, policySettings.ts), minus the
// editor API. The real formats and engine produce every analysis it posts.

import { analyze } from '../../src/core/analysis';
import { parseTranscript } from '../../src/core/formats';
import {
  applyChanges,
  defaultsFor,
  type EffectiveSettings,
  modelSummaries,
} from '../../src/host/policySettings';
import { type Engine, TranscriptSession } from '../../src/host/session';
import { summarizerFor } from '../../src/host/summarizers';
import { TranscriptController } from '../../src/host/transcriptController';
import type { HostMessage, ViewLayout, WebviewMessage } from '../../src/protocol';
import { parseWebviewMessage } from '../../src/protocol';

export const realEngine: Engine = {
  parse: (bytes, fileName) => parseTranscript(bytes, fileName),
  analyze: (t, p, s) => analyze(t, p, { summarizer: summarizerFor(s, p) }),
};

/** The one view the stand-in host serves. */
const VIEW = 'view';

export class StandInHost {
  readonly session: TranscriptSession;
  settings: EffectiveSettings;
  /** Every message the webview sent, validated, in order. */
  readonly received: WebviewMessage[] = [];
  readonly refused: string[] = [];
  /** What the editor would have written to settings.json. */
  readonly saved: { key: string; value: unknown }[] = [];
  /** What the views put on the clipboard, in order. */
  readonly copied: string[] = [];
  /** How long the host takes to answer a settings change (a busy extension host): 0, or what a test sets. */
  answerDelayMs = 0;
  /** While set, a settings change is answered only once it resolves: a host busy for as long as the test says. */
  answersHeld: Promise<void> | null = null;
  /** What the editor keeps in its workspace state for the view's layout. */
  layout: ViewLayout | null = null;
  /** Every analysis run ahead that was offered to the view. */
  readonly offered: Extract<HostMessage, { type: 'ahead' }>[] = [];
  /** Host-side analysis time of every analysis posted. */
  readonly analysisMs: number[] = [];
  private analysed: Extract<HostMessage, { type: 'analysis' }> | null = null;
  private readonly controller: TranscriptController<typeof VIEW>;

  get lastAnalysisMessage(): Extract<HostMessage, { type: 'analysis' }> | null {
    return this.analysed;
  }

  constructor(
    fileName: string,
    bytes: Uint8Array,
    private readonly post: (message: HostMessage) => Promise<void>,
    engine: Engine = realEngine,
  ) {
    this.session = new TranscriptSession(
      fileName,
      engine,
      (m) => {
        this.analysed = m;
        this.analysisMs.push(m.elapsedMs);
        void this.post(m);
      },
      (e) => void this.post({ type: 'error', message: String(e) }),
      fileName,
      (ahead) => {
        this.offered.push(ahead);
        void this.post(ahead);
      },
    );
    this.session.load(bytes);
    this.settings = this.defaults();
    this.controller = new TranscriptController(
      this.session,
      {
        post: (_view, m) => this.post(m),
        broadcast: (m) => void this.post(m),
        readyViews: () => [VIEW],
        ready: () => {},
        showsRequests: (_view, shown) => shown,
      },
      {
        current: () => this.settings,
        apply: (changes) => {
          const r = applyChanges(this.settings, changes);
          if ('settings' in r) this.settings = r.settings;
          return r;
        },
        save: async (changes) => {
          this.saved.push(...changes);
        },
        reset: async () => {
          this.settings = this.defaults();
        },
        message: (problem) => this.settingsMessage(problem),
      },
      {
        parsing: () => null,
        loadError: () => null,
        viewTookAnalysis: () => {},
        // The stand-in parses the file when it is made, and analyses it once the view is there to show it.
        nothingAnalysedYet: () => this.session.request(this.settings.policy, this.settings.summarizer, 0),
        reveal: async () => {},
        exportCompacted: async () => {},
        copy: async (text) => {
          this.copied.push(text);
        },
        layout: () => this.layout ?? undefined,
        saveLayout: async (layout) => {
          this.layout = layout;
        },
        beforeAnswer: async () => {
          if (this.answerDelayMs) await new Promise((r) => setTimeout(r, this.answerDelayMs));
          if (this.answersHeld) await this.answersHeld;
        },
      },
    );
  }

  private defaults(): EffectiveSettings {
    return { policy: defaultsFor(this.session.model), summarizer: 'none', problems: [] };
  }

  private settingsMessage(problem?: string): Extract<HostMessage, { type: 'settings' }> {
    const m: Extract<HostMessage, { type: 'settings' }> = {
      type: 'settings',
      policy: this.settings.policy,
      summarizer: this.settings.summarizer,
      models: modelSummaries(),
      scope: 'workspace',
    };
    if (problem) m.problem = problem;
    return m;
  }

  /** What the editor does when the file changed on disk (TranscriptDocument.reload): read, post, analyse. */
  async fileChanged(bytes: Uint8Array): Promise<void> {
    await this.post({ type: 'loading', fileName: this.session.fileName, phase: 'the file changed on disk' });
    await this.post(this.session.load(bytes));
    await this.session.request(this.settings.policy, this.settings.summarizer, 0);
  }

  async receive(data: unknown): Promise<void> {
    const parsed = parseWebviewMessage(data);
    if (!parsed.ok) {
      this.refused.push(parsed.error);
      return;
    }
    this.received.push(parsed.value);
    await this.controller.handle(VIEW, parsed.value);
  }
}
