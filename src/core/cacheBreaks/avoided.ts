// What would have avoided the breaks (the "what would have avoided them"): for TTL expiries, the same
// session replayed under a 1-hour cache against a 5-minute one (a 1-hour write costs 2× input, a 5-minute one
// 1.25×, and only the longer one outlives a pause of minutes); for a model switch, the cold start it cost.
import type { Analysis } from '../analysisTypes';
import type { Policy } from '../engine/policy';
import type { CacheBreakReport } from './types';

/** Cents, but a figure under a cent keeps four places (it would read $0.00). */
const money = (x: number) => `$${x.toFixed(Math.abs(x) < 0.01 ? 4 : 2)}`;

export interface TtlAvoided {
  /** The session's cost replayed with `replay.cacheTtl` 5m, and with 1h (USD). */
  fiveMinutesCost: number;
  oneHourCost: number;
  /** 5-minute less 1-hour: what the longer lifetime would have saved (negative: what it would have cost more). */
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
  /** Absent when the log shows no TTL expiry. */
  ttl?: TtlAvoided;
  switches: SwitchCost[];
}

/** The policy replayed with the cache lifetime `ttl`. */
export function withCacheTtl(policy: Policy, ttl: '5m' | '1h'): Policy {
  return { ...policy, replay: { ...policy.replay, cacheTtl: ttl } };
}

/** The two replays' costs, in words: "1-hour caching would have saved $1.20 here ($8.10 against $9.30)". */
export function ttlAvoided(
  fiveMinutes: Pick<Analysis, 'totals'>,
  oneHour: Pick<Analysis, 'totals'>,
): TtlAvoided {
  const fiveMinutesCost = fiveMinutes.totals.cost;
  const oneHourCost = oneHour.totals.cost;
  const saved = fiveMinutesCost - oneHourCost;
  const against = `(${money(oneHourCost)} against ${money(fiveMinutesCost)} with 5-minute caching)`;
  const words =
    Math.abs(saved) < 0.005
      ? `1-hour caching would have cost the same here ${against}`
      : saved > 0
        ? `1-hour caching would have saved ${money(saved)} here ${against}`
        : `1-hour caching would have cost ${money(-saved)} more here ${against}`;
  return { fiveMinutesCost, oneHourCost, saved, words };
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

/** Whether the log shows a TTL expiry (only then are the two lifetimes replayed). */
export const hasExpiries = (log: CacheBreakReport) =>
  log.totals.some((t) => t.cause === 'ttl-expired' && t.breaks > 0);
