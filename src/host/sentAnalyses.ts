// What the views of one transcript were sent of its analyses: the last one whole (a view that connects is sent it;
// the next message is a patch on it), the comparisons that went with it, and the analyses run ahead that the views
// hold as patches on it (offers), by settings.
import { type AnalysisWire, diffAnalysis, encodeAnalysis } from '../analysisWire';
import type { Analysis } from '../core/analysisTypes';
import type { Policy } from '../core/engine/policy';
import type { HostMessage, PolicyComparison } from '../protocol';
import type { EngineResult } from './engineResult';

export type AnalysisMessage = Extract<HostMessage, { type: 'analysis' }>;
export type AheadMessage = Extract<HostMessage, { type: 'ahead' }>;

/** An analysis run ahead as the views were sent it: a patch on the one they show (`sent`). `kept`: the analysis
 * itself, until the user pauses long enough (`letGoOfOffers`); a view may still show the offer after that, and the
 * host then runs the engine again to adopt it. */
export interface Offer {
  id: number;
  patched: AnalysisMessage;
  kept?: { wire: AnalysisWire; result: EngineResult };
}

/** The message of an analysis sent whole (what a view that connects is sent). */
export function wholeMessage(id: number, policy: Policy, analysis: AnalysisWire): AnalysisMessage {
  return { type: 'analysis', seq: 0, id, policy, analysis, elapsedMs: 0 };
}

export class SentAnalyses {
  private sent: { id: number; wire: AnalysisWire; message: AnalysisMessage } | null = null;
  private ids = 0;
  /** The offers the views hold, by settings key (ResultCache.key). */
  readonly offered = new Map<string, Offer>();
  /** The comparisons last sent; an analysis message carries them only when they changed. */
  private comparisons: PolicyComparison[] = [];
  /** Whether a view shows the requests (the Requests tab): only then do analysis messages carry their columns,
   * most of a change's message on a long session. */
  requestsShown = false;

  get last(): AnalysisMessage | null {
    return this.sent?.message ?? null;
  }

  encode(analysis: Analysis): AnalysisWire {
    return encodeAnalysis(analysis, { requests: this.requestsShown });
  }

  /** The message for `analysis`: a patch on the one sent before when it can be. Offers were patches on that one:
   * they go. */
  messageOf(
    analysis: Analysis,
    policy: Policy,
    seq: number,
    t0: number,
    options: { provisional?: boolean } = {},
  ): AnalysisMessage {
    const wire = this.encode(analysis);
    if (options.provisional) wire.tokensPending = true;
    const id = ++this.ids;
    const whole: AnalysisMessage = {
      type: 'analysis',
      seq,
      id,
      policy,
      analysis: wire,
      elapsedMs: performance.now() - t0,
    };
    const patched = this.sent ? diffAnalysis(this.sent.wire, wire, this.sent.id) : null;
    this.sent = { id, wire, message: whole };
    this.offered.clear();
    return patched ? { ...whole, ...patched } : { ...whole };
  }

  /** Notes the comparisons that go with the next analysis message; true when they differ from those sent. */
  compareWith(comparisons: PolicyComparison[]): boolean {
    const changed =
      comparisons.length !== this.comparisons.length || comparisons.some((c, i) => c !== this.comparisons[i]);
    this.comparisons = comparisons;
    return changed;
  }

  /** Whether the views were sent exactly `baseline` as the one comparison (what an offer's message assumes). */
  comparedWithOnly(baseline: PolicyComparison): boolean {
    return this.comparisons.length === 1 && this.comparisons[0] === baseline;
  }

  /** The last analysis whole (with the comparisons), for a webview that connects later. */
  complete(): AnalysisMessage | null {
    return this.sent ? { ...this.sent.message, comparisons: this.comparisons } : null;
  }

  /** The views were sent `message` before (a kept snapshot): the next message is a patch on it. */
  restore(message: AnalysisMessage): void {
    this.ids = Math.max(this.ids, message.id);
    this.sent = { id: message.id, wire: message.analysis, message };
    this.comparisons = message.comparisons ?? [];
  }

  /** Another transcript was sent: the next analysis goes whole. */
  forget(): void {
    this.sent = null;
    this.comparisons = [];
    this.offered.clear();
  }

  /**
   * Offers the views an analysis run ahead as a patch on the one they show; null when it is not worth sending:
   * one is offered for these settings already, or nothing was sent, or the patch has more than `maxRows` rows
   * (messages and requests).
   */
  offer(
    key: string,
    policy: Policy,
    result: EngineResult,
    maxRows: number,
    /** Makes the analysis what the views show beside it, once it is to be offered. */
    finish: () => void,
  ): Offer | null {
    const sent = this.sent;
    if (!sent || this.offered.has(key)) return null;
    finish();
    const wire = this.encode(result.analysis);
    const diff = diffAnalysis(sent.wire, wire, sent.id);
    if (!diff || diff.patch.rows.length + diff.patch.requestCount - diff.patch.requestsFrom > maxRows)
      return null;
    const id = ++this.ids;
    const offer = { id, patched: { ...wholeMessage(id, policy, wire), ...diff }, kept: { wire, result } };
    this.offered.set(key, offer);
    return offer;
  }

  /** Lets go of the offers' analyses but those under `keep`'s keys, which it returns. */
  releaseOffers(keep: readonly string[]): [string, EngineResult][] {
    const kept: [string, EngineResult][] = [];
    for (const [key, offer] of this.offered) {
      if (!offer.kept) continue;
      if (keep.includes(key)) kept.push([key, offer.kept.result]);
      else offer.kept = undefined;
    }
    return kept;
  }

  /** The offered analysis is the one shown, under the offer's id: the next message is a patch on it. */
  becomeShown(offer: Offer, policy: Policy, wire: AnalysisWire): void {
    this.sent = { id: offer.id, wire, message: wholeMessage(offer.id, policy, wire) };
    this.offered.clear();
  }
}
