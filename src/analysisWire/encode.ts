// The engine's Analysis into its wire form (types.ts): columns for the messages and requests, the live zone's facts
// as integers. Nothing is computed here: every figure is the engine's.
import type { Analysis, CompressionEvent, RequestAnalysis, WhyFacts, Zone } from '../core/analysisTypes';
import { LIVE_OUTCOMES, LIVE_TYPES } from '../core/analysisTypes';
import type { RequestColumns } from './columns';
import type { AnalysisWire, WireWhy } from './types';

const ZONE_CODE: Record<Zone, string> = { prefix: 'p', protected: 'r', live: 'l' };

function encodeWhy(why: WhyFacts): WireWhy {
  const liveZone: number[] = [];
  for (const f of why.liveZone)
    liveZone.push(
      f.message,
      f.block,
      f.request,
      f.chars,
      f.type === null ? -1 : LIVE_TYPES.indexOf(f.type),
      LIVE_OUTCOMES.indexOf(f.outcome),
    );
  return { ...why, liveZone };
}

/** The event that put the final request's cache boundary where it is. */
export function boundaryEventOf(analysis: Analysis): CompressionEvent | null {
  if (analysis.cacheBoundary === null) return null;
  const sent = analysis.requests.filter((r) => !r.pending);
  const last = sent[sent.length - 1] ?? analysis.requests[analysis.requests.length - 1];
  const fromRequest = last?.boundaryEvents.map((i) => analysis.events[i]).find((e) => e !== undefined);
  return fromRequest ?? analysis.events.find((e) => e.messageIndex === analysis.cacheBoundary) ?? null;
}

export function encodeRequests(requests: readonly RequestAnalysis[]): RequestColumns {
  const c: RequestColumns = {
    messageCount: [],
    promptTokens: [],
    cachedTokens: [],
    writtenTokens: [],
    boundaryMessage: [],
    cost: [],
    recordedInput: [],
    recordedCacheRead: [],
    recordedCacheCreation: [],
    recordedOutput: [],
  };
  for (const r of requests) {
    c.messageCount.push(r.messageCount);
    c.promptTokens.push(r.promptTokens);
    c.cachedTokens.push(r.cachedTokens);
    c.writtenTokens.push(r.writtenTokens);
    c.boundaryMessage.push(r.boundaryMessage ?? -1);
    c.cost.push(r.cost);
    c.recordedInput.push(r.recorded?.inputTokens ?? -1);
    c.recordedCacheRead.push(r.recorded?.cacheReadInputTokens ?? -1);
    c.recordedCacheCreation.push(r.recorded?.cacheCreationInputTokens ?? -1);
    c.recordedOutput.push(r.recorded?.outputTokens ?? -1);
  }
  return c;
}

/** `requests`: whether the request columns are wanted (the view shows them); the count is always there. */
export function encodeAnalysis(analysis: Analysis, options: { requests?: boolean } = {}): AnalysisWire {
  const m = analysis.messages;
  const tier: string[] = [];
  const floored: string[] = [];
  const zone: string[] = [];
  const rewritten: string[] = [];
  const distance: number[] = [];
  const tokensBefore: number[] = [];
  const tokensAfter: number[] = [];
  for (const a of m) {
    tier.push(a.tier === null ? '-' : String(a.tier));
    floored.push(a.floored ? '1' : '0');
    zone.push(ZONE_CODE[a.zone]);
    rewritten.push(a.rewritten ? '1' : '0');
    distance.push(a.distance ?? -1);
    tokensBefore.push(a.tokensBefore);
    tokensAfter.push(a.tokensAfter);
  }
  const wire: AnalysisWire = {
    format: analysis.format,
    policyName: analysis.policyName,
    trigger: analysis.trigger,
    totals: analysis.totals,
    cacheBoundary: analysis.cacheBoundary,
    boundaryEvent: boundaryEventOf(analysis),
    eventCount: analysis.events.length,
    tokenEstimate: analysis.tokenEstimate,
    messages: {
      tier: tier.join(''),
      distance,
      floored: floored.join(''),
      zone: zone.join(''),
      rewritten: rewritten.join(''),
      tokensBefore,
      tokensAfter,
    },
    requests: encodeRequests(options.requests === false ? [] : analysis.requests),
    sentRequests: analysis.requests.filter((r) => !r.pending).length,
  };
  if (analysis.hiddenPrefix) wire.hiddenPrefix = analysis.hiddenPrefix;
  if (analysis.recorded) {
    const { perRequest: _perRequest, ...recorded } = analysis.recorded;
    wire.recorded = recorded;
  }
  if (analysis.grewEvents?.length) wire.grewEvents = analysis.grewEvents.length;
  if (analysis.vsNone) wire.vsNone = analysis.vsNone;
  if (analysis.why) wire.why = encodeWhy(analysis.why);
  if (analysis.flags?.length) wire.flags = analysis.flags;
  if (analysis.floorProblems?.length) wire.floorProblems = analysis.floorProblems;
  if (analysis.compactions)
    wire.compactions = {
      simulated: analysis.compactions.simulated.flatMap((k) => {
        const c = analysis.requests[k]?.compaction;
        return c ? [{ request: k, ...c }] : [];
      }),
      recorded: analysis.compactions.recorded,
    };
  if (analysis.contextWindow) wire.contextWindow = analysis.contextWindow;
  if (analysis.liveFrom) wire.liveFrom = analysis.liveFrom;
  return wire;
}
