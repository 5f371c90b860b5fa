// The Cache tab's message, declared once as its check: the figures core/cacheBreaks/view.ts makes on the host. Each
// object check is `exactly` its engine type, so a field added there fails to compile here until it is checked.
import type { Avoided, Lifetime, Lifetimes, SwitchCost, TtlAvoided } from '../core/cacheBreaks/avoided';
import { BREAK_CAUSES, type CauseTotal } from '../core/cacheBreaks/types';
import type { CacheHeadline, CacheView, HitRate, ViewBreak, ViewBreakReport } from '../core/cacheBreaks/view';
import { exactly, v } from './check';

const cause = v.oneOf(BREAK_CAUSES);

const viewBreakCheck = exactly<ViewBreak>()(
  v.object({
    request: v.int,
    index: v.int,
    time: v.optional(v.string),
    cause,
    /** The evidence in words: transcript text, drawn as text. */
    words: v.string,
    expectedTokens: v.int,
    readTokens: v.int,
    tokens: v.int,
    cost: v.number,
    differsAt: v.optional(v.int),
    lastMessage: v.int,
  }),
);

const causeTotalCheck = exactly<CauseTotal>()(
  v.object({ cause, breaks: v.int, tokens: v.int, cost: v.number }),
);

export const cacheHeadlineCheck = exactly<CacheHeadline>()(
  v.object({ cost: v.number, costliest: v.optional(causeTotalCheck) }),
);

const reportCheck = exactly<ViewBreakReport>()(
  v.object({
    source: v.string,
    requests: v.int,
    breaks: v.array(viewBreakCheck),
    totals: v.array(causeTotalCheck),
    cost: v.number,
    providerMissShare: v.object({ breaks: v.number, cost: v.number }),
    costliest: v.optional(cause),
  }),
);

const hitRateCheck = exactly<HitRate>()(
  v.object({ request: v.int, recorded: v.optional(v.number), simulated: v.optional(v.number) }),
);

const LIFETIMES: readonly Lifetime[] = ['5m', '1h', 'in_memory', '24h'];
const lifetime = v.oneOf(LIFETIMES);
const lifetimesFields = { shorter: lifetime, longer: lifetime, breaks: v.string, replayed: v.string };
const lifetimesCheck = exactly<Lifetimes>()(v.object(lifetimesFields));

const ttlCheck = exactly<TtlAvoided>()(
  v.object({
    ...lifetimesFields,
    shorterCost: v.number,
    longerCost: v.number,
    saved: v.number,
    words: v.string,
  }),
);

const switchCheck = exactly<SwitchCost>()(
  v.object({ request: v.int, from: v.string, to: v.string, cost: v.number, words: v.string }),
);

const avoidedCheck = exactly<Avoided>()(
  v.object({ ttl: v.optional(ttlCheck), switches: v.array(switchCheck) }),
);

export const cacheViewCheck = exactly<CacheView>()(
  v.object({
    thread: v.string,
    log: reportCheck,
    policy: reportCheck,
    hitRates: v.array(hitRateCheck),
    lifetimes: v.optional(lifetimesCheck),
    avoided: v.optional(avoidedCheck),
  }),
);
