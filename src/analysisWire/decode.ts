// The wire analysis back into the shapes the webview's views draw (ViewAnalysis): per-message and per-request
// objects, the live zone's facts as objects.
import type { LiveOutcomeFact, MessageAnalysis, RequestAnalysis, Tier, Zone } from '../core/analysisTypes';
import { LIVE_OUTCOMES, LIVE_TYPES } from '../core/analysisTypes';
import type { MessageColumns, RequestColumns } from './columns';
import type { AnalysisPatch } from './patch';
import { type AnalysisWire, LIVE_FACT_WIDTH, type ViewAnalysis, type WireWhy } from './types';

const ZONE_OF: Record<string, Zone> = { p: 'prefix', r: 'protected', l: 'live' };

function decodeWhy(why: WireWhy): NonNullable<ViewAnalysis['why']> {
  const liveZone: LiveOutcomeFact[] = [];
  const z = why.liveZone;
  for (let i = 0; i + LIVE_FACT_WIDTH <= z.length; i += LIVE_FACT_WIDTH)
    liveZone.push({
      message: z[i],
      block: z[i + 1],
      request: z[i + 2],
      chars: z[i + 3],
      type: z[i + 4] === -1 ? null : LIVE_TYPES[z[i + 4]],
      outcome: LIVE_OUTCOMES[z[i + 5]],
    });
  return { ...why, liveZone };
}

/** Requests [from, end) of the columns as objects. */
export function decodeRequests(c: RequestColumns, from = 0): RequestAnalysis[] {
  const out: RequestAnalysis[] = [];
  for (let index = from; index < c.promptTokens.length; index++) {
    const r: RequestAnalysis = {
      index,
      messageCount: c.messageCount[index],
      promptTokens: c.promptTokens[index],
      cachedTokens: c.cachedTokens[index],
      writtenTokens: c.writtenTokens[index],
      boundaryMessage: c.boundaryMessage[index] < 0 ? null : c.boundaryMessage[index],
      boundaryEvents: [],
      cost: c.cost[index],
    };
    if (c.recordedInput[index] >= 0)
      r.recorded = {
        inputTokens: c.recordedInput[index],
        cacheReadInputTokens: c.recordedCacheRead[index],
        cacheCreationInputTokens: c.recordedCacheCreation[index],
        outputTokens: c.recordedOutput[index],
      };
    out.push(r);
  }
  return out;
}

/** Back to per-message objects; `roles` and `toolNames` come from the transcript message (they never change
 * with the policy, so they cross once). */
export function decodeAnalysis(
  w: AnalysisWire,
  messages: readonly { role: MessageAnalysis['role']; toolNames?: string[] }[],
): ViewAnalysis {
  const out: MessageAnalysis[] = new Array(w.messages.distance.length);
  for (let i = 0; i < out.length; i++) out[i] = decodeRow(w.messages, i, messages);
  return decodeHead(w, out, decodeRequests(w.requests));
}

function decodeRow(
  c: MessageColumns,
  i: number,
  messages: readonly { role: MessageAnalysis['role']; toolNames?: string[] }[],
): MessageAnalysis {
  const t = c.tier.charCodeAt(i) - 48;
  const row: MessageAnalysis = {
    index: i,
    role: messages[i]?.role ?? 'user',
    tier: t >= 1 && t <= 3 ? (t as Tier) : null,
    distance: c.distance[i] < 0 ? null : c.distance[i],
    floored: c.floored[i] === '1',
    zone: ZONE_OF[c.zone[i]] ?? 'prefix',
    tokensBefore: c.tokensBefore[i],
    tokensAfter: c.tokensAfter[i],
    rewritten: c.rewritten[i] === '1',
    toolIds: [],
    toolNames: messages[i]?.toolNames ?? [],
  };
  return row;
}

function decodeHead(w: AnalysisWire, out: MessageAnalysis[], requests: RequestAnalysis[]): ViewAnalysis {
  const view: ViewAnalysis = {
    format: w.format,
    policyName: w.policyName,
    trigger: w.trigger,
    messages: out,
    requests,
    sentRequests: w.sentRequests,
    totals: w.totals,
    cacheBoundary: w.cacheBoundary,
    boundaryEvent: w.boundaryEvent,
    eventCount: w.eventCount,
    tokenEstimate: w.tokenEstimate,
  };
  if (w.hiddenPrefix) view.hiddenPrefix = w.hiddenPrefix;
  if (w.recorded) view.recorded = w.recorded;
  if (w.grewEvents) view.grewEvents = w.grewEvents;
  if (w.vsNone) view.vsNone = w.vsNone;
  if (w.why) view.why = decodeWhy(w.why);
  if (w.flags) view.flags = w.flags;
  if (w.floorProblems) view.floorProblems = w.floorProblems;
  if (w.contextWindow) view.contextWindow = w.contextWindow;
  if (w.tokensPending) view.tokensPending = true;
  if (w.compactions) view.compactions = w.compactions;
  if (w.liveFrom) view.liveFrom = w.liveFrom;
  return view;
}

/** `decodeAnalysis` of `w`, the whole analysis after `patch` (applyPatch), reusing the message objects of `prev` (the decoded `base`) for the
 * rows the patch did not touch: the list and the ladder then see which rows changed by identity. */
export function decodePatched(
  w: AnalysisWire,
  patch: AnalysisPatch,
  prev: ViewAnalysis,
  messages: readonly { role: MessageAnalysis['role']; toolNames?: string[] }[],
): ViewAnalysis {
  const out = prev.messages.slice();
  for (const r of patch.rows) out[r] = decodeRow(w.messages, r, messages);
  const from = patch.requestsFrom;
  return decodeHead(w, out, prev.requests.slice(0, from).concat(decodeRequests(w.requests, from)));
}
