// What would have avoided the breaks (the "what would have avoided them"): for the breaks a pause caused,
// the same session replayed under the shorter and the longer cache lifetime of its provider: Anthropic's 5 minutes
// and 1 hour (a 1-hour write costs 2× input, a 5-minute one 1.25×, and only the longer one outlives a pause of
// minutes), OpenAI's in-memory and 24-hour retention (billed alike; in memory is gone after 10 idle minutes in the
// replay's reading, docs/strategies.md); for a model switch, the cold start it cost.
import type { Analysis } from '../analysisTypes';
import {
  type CacheTtl,
  OPENAI_RETENTION_MS,
  type OpenAIRetention,
  openaiRetentionsOf,
} from '../engine/models';
import type { Policy } from '../engine/policy';
import type { Transcript } from '../model';
import { idleBefore, offBranchTimes } from './idle';
import type { CacheBreakReport } from './types';

/** Cents, but a figure under a cent keeps four places (it would read $0.00). */
const money = (x: number) => `$${x.toFixed(Math.abs(x) < 0.01 ? 4 : 2)}`;

export type Lifetime = CacheTtl | OpenAIRetention;

/** The two lifetimes of a provider's cache, the shorter first, and the words for comparing them. */
export interface Lifetimes {
  shorter: Lifetime;
  longer: Lifetime;
  /** The breaks the comparison speaks to: "TTL expiries". */
  breaks: string;
  /** What is replayed: "a 5-minute and a 1-hour cache". */
  replayed: string;
}

const ANTHROPIC_LIFETIMES: Lifetimes = {
  shorter: '5m',
  longer: '1h',
  breaks: 'TTL expiries',
  replayed: 'a 5-minute and a 1-hour cache',
};

const OPENAI_LIFETIMES: Lifetimes = {
  shorter: 'in_memory',
  longer: '24h',
  breaks: 'Breaks after more than 10 idle minutes',
  replayed: 'in-memory and 24-hour prompt cache retention',
};

const LIFETIME_WORDS: Record<Lifetime, string> = {
  '5m': '5-minute caching',
  '1h': '1-hour caching',
  in_memory: 'in-memory retention',
  '24h': '24-hour retention',
};

export interface TtlAvoided extends Lifetimes {
  /** The session's cost replayed with the shorter lifetime, and with the longer one (USD). */
  shorterCost: number;
  longerCost: number;
  /** Shorter less longer: what the longer lifetime would have saved (negative: what it would have cost more). */
  saved: number;
  words: string;
}

export interface SwitchCost {
  request: number;
  from: string;
  to: string;
  cost: number;
  words: string;
}

export interface Avoided {
  /** Absent when the log shows no break a longer lifetime speaks to. */
  ttl?: TtlAvoided;
  switches: SwitchCost[];
}

/** The policy replayed with the cache lifetime `lifetime` (its provider's setting; the other is left as it is). */
export function withLifetime(policy: Policy, lifetime: Lifetime): Policy {
  const replay =
    lifetime === '5m' || lifetime === '1h'
      ? { ...policy.replay, cacheTtl: lifetime }
      : { ...policy.replay, openaiCacheRetention: lifetime };
  return { ...policy, replay };
}

/** The two replays' costs, in words: "1-hour caching would have saved $1.20 here ($8.10 against $9.30 with
 * 5-minute caching)". */
export function ttlAvoided(
  lifetimes: Lifetimes,
  shorter: Pick<Analysis, 'totals'>,
  longer: Pick<Analysis, 'totals'>,
): TtlAvoided {
  const shorterCost = shorter.totals.cost;
  const longerCost = longer.totals.cost;
  const saved = shorterCost - longerCost;
  const name = LIFETIME_WORDS[lifetimes.longer];
  const against = `(${money(longerCost)} against ${money(shorterCost)} with ${LIFETIME_WORDS[lifetimes.shorter]})`;
  const words =
    Math.abs(saved) < 0.005
      ? `${name} would have cost the same here ${against}`
      : saved > 0
        ? `${name} would have saved ${money(saved)} here ${against}`
        : `${name} would have cost ${money(-saved)} more here ${against}`;
  return { ...lifetimes, shorterCost, longerCost, saved, words };
}

/** Each model switch's cold start: the break it made, at its cost. */
export function switchCosts(log: CacheBreakReport): SwitchCost[] {
  const out: SwitchCost[] = [];
  for (const b of log.breaks) {
    if (b.evidence.cause !== 'model-switch') continue;
    const { from, to } = b.evidence;
    out.push({
      request: b.request,
      from,
      to,
      cost: b.cost,
      words: `request ${b.request}: the cold start of ${to} after ${from} cost ${money(b.cost)}`,
    });
  }
  return out;
}

/** Whether the log shows a TTL expiry. */
const hasExpiries = (log: CacheBreakReport) =>
  log.totals.some((t) => t.cause === 'ttl-expired' && t.breaks > 0);

/** Whether a break of the log came after more idle time than OpenAI's in-memory retention, at a model that takes
 * both retentions: the log's own cache does not expire (its reads say what it held), so the pause is the evidence. */
function hasLongPauses(t: Transcript, none: Pick<Analysis, 'requests'>, log: CacheBreakReport): boolean {
  const broken = new Set(log.breaks.map((b) => b.index));
  const offBranch = offBranchTimes(t, log.thread);
  let since: number | undefined;
  for (const r of none.requests) {
    if (r.pending) continue;
    const time = r.timestamp ? Date.parse(r.timestamp) : Number.NaN;
    if (
      broken.has(r.index) &&
      since !== undefined &&
      !Number.isNaN(time) &&
      r.model !== undefined &&
      openaiRetentionsOf(r.model).length > 1 &&
      idleBefore(offBranch, since, time) > OPENAI_RETENTION_MS.in_memory
    )
      return true;
    since = Number.isNaN(time) ? undefined : time;
  }
  return false;
}

/** The lifetimes the session's provider offers, when the log (`none`: its replay under no policy) shows breaks a
 * longer one speaks to; undefined otherwise (then the two are not replayed). */
export function comparedLifetimes(
  t: Transcript,
  provider: string | undefined,
  none: Pick<Analysis, 'requests'>,
  log: CacheBreakReport,
): Lifetimes | undefined {
  if (provider === 'openai') return hasLongPauses(t, none, log) ? OPENAI_LIFETIMES : undefined;
  return hasExpiries(log) ? ANTHROPIC_LIFETIMES : undefined;
}
