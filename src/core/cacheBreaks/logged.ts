// The cache breaks the log records: a request whose recorded read falls short of what the previous request of the
// conversation left in the cache by its own usage, beyond the provider's granularity (engine/cacheRules.ts), each
// with its cause and priced as the session's cost prices it.
import type { Analysis } from '../analysisTypes';
import { cacheRulesFor } from '../engine/cacheRules';
import { loggedCacheTtl, requestSpans } from '../engine/requests';
import type { RecordedUsage, Transcript } from '../model';
import { loggedBreakCost, recordedPrices } from './breakCost';
import { cacheBreak } from './cacheBreak';
import {
  type Between,
  compaction,
  earliest,
  microcompaction,
  newConversation,
  prefixChange,
  reasoningDropped,
  reload,
  rewind,
} from './evidence';
import { idleBefore, lifetimeAfter, offBranchTimes, outlived } from './idle';
import { breakReport } from './report';
import { type HeldBefore, thinkingDropped } from './thinkingDropped';
import type { BreakEvidence, CacheBreak, CacheBreakReport } from './types';

/** What the log says of one request. */
interface Logged {
  start: number;
  end: number;
  usage: RecordedUsage;
  model: string | undefined;
  time: number | undefined;
  expires: boolean;
  leftInCache: number;
}

const promptOf = (u: RecordedUsage) => u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens;

/** Causes that explain the whole prompt, first: a new conversation, a compaction, a model switch, an expiry. */
export function structuralCause(
  t: Transcript,
  b: Between,
  switched: BreakEvidence | undefined,
  expired: BreakEvidence | undefined,
): BreakEvidence | undefined {
  return (
    newConversation(t, b) ?? (b.start !== b.prevStart ? compaction(t, b) : undefined) ?? switched ?? expired
  );
}

/** What the transcript shows changed in the prompt between the two requests (the earliest of them explains it). */
export function promptChanges(t: Transcript, b: Between): (BreakEvidence | undefined)[] {
  return [microcompaction(t, b), rewind(t, b), reload(t, b), reasoningDropped(t, b), prefixChange(t, b)];
}

/** Anthropic caches the system prompt and tools at a breakpoint of their own: a request within the lifetime, to the
 * same model, that reads none of them sent them changed. */
function nothingRead(breakpointed: boolean, usage: RecordedUsage): BreakEvidence | undefined {
  return breakpointed && usage.cacheReadInputTokens === 0
    ? { cause: 'prefix-changed', message: 0, what: 'nothing was read: the system prompt or tools differ' }
    : undefined;
}

/** The agent's mode changed between the two requests (Roo Code, Kilo Code): each mode sends a system prompt of its
 * own, so nothing of the previous prompt can be read. */
function modeSwitch(t: Transcript, prevEnd: number, end: number): BreakEvidence | undefined {
  const from = t.messages[prevEnd]?.agentMode;
  const to = t.messages[end]?.agentMode;
  return from !== undefined && to !== undefined && from !== to
    ? {
        cause: 'prefix-changed',
        message: 0,
        what: `the agent's mode changed from ${from} to ${to}: each mode sends a system prompt of its own`,
      }
    : undefined;
}

/** The breaks the log of `thread` records, numbered as `analysis` numbers its requests. */
export function loggedBreaks(
  t: Transcript,
  analysis: Pick<Analysis, 'requests'>,
  thread: string,
): CacheBreakReport {
  const { starts } = requestSpans(t.messages, t.markers);
  const sessionTtl = loggedCacheTtl(t) ?? '5m';
  const offBranch = offBranchTimes(t, thread);
  const breaks: CacheBreak[] = [];
  let prev: Logged | undefined;
  let looked = 0;
  // What the requests so far left in the cache, by their reply's message (thinkingDropped.ts reads it).
  const held: HeldBefore = { ends: [], left: [] };
  for (const r of analysis.requests) {
    if (r.pending) continue;
    const end = r.messageCount;
    const message = t.messages[end];
    const usage = message?.usage;
    const model = message?.model ?? t.model;
    const prices = usage ? recordedPrices(t, model, r.timestamp) : undefined;
    if (!usage || !prices) {
      // Without its usage the log cannot say what this request left in the cache: the next one is not compared.
      prev = undefined;
      held.ends.length = 0;
      held.left.length = 0;
      continue;
    }
    looked++;
    const rules = cacheRulesFor(prices);
    const time = r.timestamp ? Date.parse(r.timestamp) : undefined;
    const now: Logged = {
      start: starts[r.index] ?? 0,
      end,
      usage,
      model,
      time: Number.isNaN(time) ? undefined : time,
      expires: rules.expires,
      leftInCache: rules.leftInCache(usage),
    };
    if (prev) {
      const expected = Math.min(prev.leftInCache, promptOf(usage));
      const tokens = expected - usage.cacheReadInputTokens;
      if (tokens > rules.missTolerance) {
        const b: Between = { prevStart: prev.start, prevEnd: prev.end, start: now.start, end };
        const switched: BreakEvidence | undefined =
          prev.model && model && prev.model !== model
            ? { cause: 'model-switch', from: prev.model, to: model }
            : undefined;
        const ttl = lifetimeAfter(prev.usage, sessionTtl);
        const idleMs =
          prev.time !== undefined && now.time !== undefined ? idleBefore(offBranch, prev.time, now.time) : 0;
        const expired: BreakEvidence | undefined =
          prev.expires && outlived(idleMs, ttl) ? { cause: 'ttl-expired', idleMs, ttl } : undefined;
        const dropped =
          prices.provider === 'anthropic'
            ? thinkingDropped(t, b, usage.cacheReadInputTokens, rules.missTolerance, held)
            : undefined;
        const evidence = structuralCause(t, b, switched, expired) ??
          modeSwitch(t, prev.end, end) ??
          earliest([...promptChanges(t, b), dropped]) ??
          nothingRead(rules.expires, usage) ?? { cause: 'provider-miss' };
        const figures = {
          expectedTokens: expected,
          readTokens: usage.cacheReadInputTokens,
          tokens,
          cost: loggedBreakCost(prices, usage, tokens),
        };
        breaks.push(cacheBreak(r, thread, figures, evidence));
      }
    }
    // A new conversation or a compaction starts what the cache holds afresh.
    if (prev && now.start !== prev.start) {
      held.ends.length = 0;
      held.left.length = 0;
    }
    held.ends.push(end);
    held.left.push(now.leftInCache);
    prev = now;
  }
  return breakReport('log', thread, looked, breaks);
}
