// A stand-in for the editor host: the same session, settings validation and messages as the custom editor
// (src/host/session.ts, policySettings.ts, summaries.ts), minus the editor API. The real formats and engine
// produce every analysis it posts.

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
import { answerSweep } from '../../src/host/sweep';
import type { HostMessage, ViewLayout, WebviewMessage } from '../../src/protocol';
import { parseWebviewMessage } from '../../src/protocol';

export const realEngine: Engine = {
  parse: (bytes, fileName) => parseTranscript(bytes, fileName),
  analyze: (t, p, s) => analyze(t, p, { summarizer: summarizerFor(s, p) }),
};

export class StandInHost {
  readonly session: TranscriptSession;
  settings: EffectiveSettings;
  /** Every message the webview sent, validated, in order. */
  readonly received: WebviewMessage[] = [];
  readonly refused: string[] = [];
  /** What the editor would have written to settings.json. */
  readonly saved: { key: string; value: unknown }[] = [];
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
    this.settings = { policy: defaultsFor(this.session.model), summarizer: 'none', problems: [] };
  }

  private settingsMessage(problem?: string): HostMessage {
    const m: HostMessage = {
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
    const message = parsed.value;
    this.received.push(message);
    switch (message.type) {
      case 'ready': {
        this.session.showRequests(false);
        if (this.layout) await this.post({ type: 'layout', layout: this.layout });
        const t = this.session.transcriptMessage();
        if (t) await this.post(t);
        await this.post(this.settingsMessage());
        const complete = this.analysed ? this.session.complete() : null;
        if (complete) await this.post(complete);
        else await this.session.request(this.settings.policy, this.settings.summarizer, 0);
        return;
      }
      case 'updateSettings': {
        const r = applyChanges(this.settings, message.changes);
        if ('errors' in r)
          return this.post({ ...this.settingsMessage(r.errors.join('\n')), seq: message.seq } as HostMessage);
        this.settings = r.settings;
        this.saved.push(...message.changes);
        // As the editor does: the settings message goes out and the analysis starts at once, without waiting
        // for the message to arrive (messages still arrive in order).
        if (this.answerDelayMs) await new Promise((r) => setTimeout(r, this.answerDelayMs));
        if (this.answersHeld) await this.answersHeld;
        const posted = this.post({ ...this.settingsMessage(), seq: message.seq } as HostMessage);
        await this.session.request(r.settings.policy, r.settings.summarizer, message.seq, message.holds);
        return posted;
      }
      case 'resetSettings':
        this.settings = { policy: defaultsFor(this.session.model), summarizer: 'none', problems: [] };
        await this.post(this.settingsMessage());
        return this.session.request(this.settings.policy, this.settings.summarizer, message.seq);
      case 'requestDetails': {
        const d = this.session.details(message.messageIndex);
        if (d) await this.post(d);
        return;
      }
      case 'revealInSource':
        return;
      case 'compareAll':
        return this.post(await this.session.comparisonsMessage(this.settings.policy));
      case 'requestsShown': {
        const again = this.session.showRequests(message.shown);
        if (again) await this.post(again);
        return;
      }
      case 'find':
        return this.post(this.session.find(message.seq, message.query));
      case 'sweep':
        return answerSweep(this, message, this.session.model, this.settings.policy, (m) => void this.post(m));
      case 'exportCompacted':
        return;
      case 'saveLayout':
        this.layout = message.layout;
        return;
      case 'selectThread': {
        const t = this.session.selectThread(message.thread);
        if (!t) return;
        await this.post(t);
        return this.session.request(this.settings.policy, this.settings.summarizer, 0);
      }
    }
  }
}
