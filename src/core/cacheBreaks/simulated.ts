// The cache breaks a policy's replay makes: a request whose cached part falls short of what the previous request
// of the replay left in the cache, beyond the provider's granularity, with the rewrite, compaction or server edit
// that made it, or the cause the log shows for the same request (a break the log records is kept under every
// policy). Priced as the replay priced the request.
import type { Analysis, CompressionEvent, RequestAnalysis } from '../analysisTypes';
import { cacheRulesFor } from '../engine/cacheRules';
import { sessionPreset } from '../engine/models';
import type { Policy } from '../engine/policy';
import { lifetimeOf, requestPricing, requestSpans } from '../engine/requests';
import type { Transcript } from '../model';
import { replayedBreakCost } from './breakCost';
import { cacheBreak } from './cacheBreak';
import { type Between, compaction, earliest } from './evidence';
import { idleBefore, offBranchTimes } from './idle';
import { promptChanges, structuralCause } from './logged';
import { breakReport } from './report';
import type { BreakEvidence, CacheBreak, CacheBreakReport } from './types';

/** The events of a replay by the request whose pass made them (a long session's replay has tens of thousands, and
 * each break looks at its own request's). */
function eventsByRequest(events: readonly CompressionEvent[]): Map<number, CompressionEvent[]> {
  const out = new Map<number, CompressionEvent[]>();
  for (const e of events) {
    const list = out.get(e.requestIndex);
    if (list) list.push(e);
    else out.set(e.requestIndex, [e]);
  }
  return out;
}

/** The earliest rewrite the policy's pass before a request made in what the previous request sent (`before`: the
 * previous request's message count); `events`: that pass's. */
function policyRewrite(
  events: readonly CompressionEvent[],
  before: number,
  policy: string,
): BreakEvidence | undefined {
  let first: CompressionEvent | undefined;
  let cleared = 0;
  let firstCleared: number | undefined;
  for (const e of events) {
    if (e.messageIndex >= before) continue;
    if (e.action === 'context_edit') {
      cleared++;
      firstCleared = Math.min(firstCleared ?? e.messageIndex, e.messageIndex);
    } else if (!first || e.messageIndex < first.messageIndex) first = e;
  }
  const client: BreakEvidence | undefined = first
    ? { cause: 'rewrite', message: first.messageIndex, policy, rule: first.action }
    : undefined;
  const server: BreakEvidence | undefined =
    firstCleared !== undefined ? { cause: 'server-edit', message: firstCleared, cleared } : undefined;
  return earliest([client, server]);
}

/** A compaction before request k: the policy's own (simulated), or the log's that the replay follows. */
function compactedBefore(t: Transcript, r: RequestAnalysis, b: Between): BreakEvidence | undefined {
  if (r.compaction && !r.compaction.fromLog)
    return { cause: 'compaction', kind: 'simulated', message: b.start };
  return b.start !== b.prevStart ? compaction(t, b) : undefined;
}

/** The breaks of `analysis`, the replay of `thread` under `policy`; `logged` gives the log's causes. */
export function simulatedBreaks(
  t: Transcript,
  analysis: Analysis,
  policy: Policy,
  thread: string,
  logged: CacheBreakReport,
): CacheBreakReport {
  const preset = sessionPreset(policy.model, t.format, t.model);
  if (!preset) throw new Error(`model: unknown preset "${policy.model}"`);
  const pricing = requestPricing(
    t,
    requestSpans(t.messages, t.markers),
    policy.model,
    preset,
    policy.replay.cacheTtl,
    policy.replay.openaiCacheRetention,
  );
  const byLog = new Map(logged.breaks.map((b) => [b.index, b.evidence]));
  const events = eventsByRequest(analysis.events);
  const offBranch = offBranchTimes(t, thread);
  const sent = analysis.requests.filter((r) => !r.pending);
  const breaks: CacheBreak[] = [];
  for (let k = 1; k < sent.length; k++) {
    const r = sent[k];
    const prev = sent[k - 1];
    // The pricing has one row per request and the pending one; a replay that numbers more is priced as its last.
    const prices = pricing.prices[Math.min(r.index, pricing.prices.length - 1)];
    const rules = cacheRulesFor(prices);
    const tail = rules.uncachedTail(t.messages[prev.messageCount]?.usage);
    const expected = Math.min(rules.cachedOf(prev.promptTokens - tail), r.promptTokens);
    const tokens = expected - r.cachedTokens;
    if (tokens <= rules.missTolerance) continue;
    const b: Between = {
      prevStart: prev.firstMessage ?? 0,
      prevEnd: prev.messageCount,
      start: r.firstMessage ?? 0,
      end: r.messageCount,
    };
    const switched: BreakEvidence | undefined =
      prev.model && r.model && prev.model !== r.model
        ? { cause: 'model-switch', from: prev.model, to: r.model }
        : undefined;
    const [since, time] = [prev.timestamp, r.timestamp].map((s) => (s ? Date.parse(s) : Number.NaN));
    const expired: BreakEvidence | undefined = r.cacheExpired
      ? {
          cause: 'ttl-expired',
          idleMs: Number.isNaN(since) || Number.isNaN(time) ? 0 : idleBefore(offBranch, since, time),
          ttl: lifetimeOf(pricing, prices),
        }
      : undefined;
    const own = policyRewrite(events.get(r.index) ?? [], prev.messageCount, analysis.policyName);
    const evidence = compactedBefore(t, r, b) ??
      structuralCause(t, b, switched, expired) ??
      earliest([own, ...promptChanges(t, b)]) ??
      byLog.get(r.index) ?? { cause: 'provider-miss' };
    const figures = {
      expectedTokens: expected,
      readTokens: r.cachedTokens,
      tokens,
      cost: replayedBreakCost(prices, pricing.ttl, r, tokens),
    };
    breaks.push(cacheBreak(r, thread, figures, evidence));
  }
  return breakReport(analysis.policyName, thread, sent.length, breaks);
}
