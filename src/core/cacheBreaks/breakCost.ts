// What a break cost: the tokens that had been cached, at the price this request paid for them (a write at its
// lifetime, or uncached input), less what reading them would have cost. Always priced with the engine's own
// functions: the log's requests as the session's cost prices them (recordedUsage.ts), a replay's as it does.
import type { WriteTtl } from '../engine/cacheRules';
import { cacheRulesFor } from '../engine/cacheRules';
import { type ModelPrices, tablePrices } from '../engine/prices';
import type { RecordedUsage, Transcript } from '../model';
import { replyCost, unpricedPreset } from '../recordedUsage';

/** The prices the session's cost charges a reply of `model` at `timestamp` (recordedUsage.ts: the table's, else the
 * preset an unknown model is priced as). */
export function recordedPrices(
  t: Pick<Transcript, 'model' | 'format'>,
  model: string | undefined,
  timestamp: string | undefined,
): ModelPrices | undefined {
  const name = model ?? t.model;
  const found = name ? tablePrices(name, timestamp ? new Date(timestamp) : undefined) : undefined;
  if (found) return found;
  const preset = unpricedPreset(name, t.format);
  return preset ? tablePrices(preset.pricedAs) : undefined;
}

/** The usage had `tokens` more been read from the cache: taken from the writes at the request's own lifetime
 * first, then the other lifetime's, then the uncached input. */
export function usageReading(u: RecordedUsage, tokens: number): RecordedUsage {
  const oneHour = Math.min(u.cacheCreation1hInputTokens ?? 0, u.cacheCreationInputTokens);
  const fiveMinutes = u.cacheCreationInputTokens - oneHour;
  let rest = tokens;
  const take = (n: number) => {
    const x = Math.min(n, rest);
    rest -= x;
    return x;
  };
  const oneHourFirst = oneHour * 2 > u.cacheCreationInputTokens;
  const from1h = oneHourFirst ? take(oneHour) : 0;
  const from5m = take(fiveMinutes);
  const from1hAfter = oneHourFirst ? 0 : take(oneHour);
  const fromInput = take(u.inputTokens);
  const out: RecordedUsage = {
    ...u,
    inputTokens: u.inputTokens - fromInput,
    cacheReadInputTokens: u.cacheReadInputTokens + (tokens - rest),
    cacheCreationInputTokens: u.cacheCreationInputTokens - from1h - from5m - from1hAfter,
  };
  if (u.cacheCreation1hInputTokens !== undefined)
    out.cacheCreation1hInputTokens = oneHour - from1h - from1hAfter;
  return out;
}

const asReply = (usage: RecordedUsage) => ({ thread: '', onBranch: true, usage, line: 0 });

/** A logged request's break: its recorded cost less its cost had `tokens` been read. */
export function loggedBreakCost(prices: ModelPrices, usage: RecordedUsage, tokens: number): number {
  return replyCost(prices, asReply(usage)) - replyCost(prices, asReply(usageReading(usage, tokens)));
}

/** A replayed request's break: its cost less its cost had `tokens` of what it wrote been read. */
export function replayedBreakCost(
  prices: ModelPrices,
  ttl: WriteTtl,
  r: { cachedTokens: number; writtenTokens: number; outputTokens?: number },
  tokens: number,
): number {
  const rules = cacheRulesFor(prices);
  const output = r.outputTokens ?? 0;
  return (
    rules.cost(prices, ttl, r.cachedTokens, r.writtenTokens, output) -
    rules.cost(prices, ttl, r.cachedTokens + tokens, r.writtenTokens - tokens, output)
  );
}
