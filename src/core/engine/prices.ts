// Prices from a kept table: @pydantic/genai-prices ships every provider's list prices as data (never updated from
// the network here, so figures are reproducible). This adapter resolves a model once and prices usage locally:
// asking the table per request costs ~30 µs, too much for a replay of thousands of requests on every change.
import { calcPrice, type ModelPrice } from '@pydantic/genai-prices';
import type { Provider } from './models';

/** USD per million tokens; a long-context rate applies to the whole request once its input passes `from`. */
export interface Rate {
  base: number;
  tiers: { from: number; price: number }[];
}

export interface ModelPrices {
  /** The table's id for the model (`claude-opus-4-6`, `gpt-5.2`). */
  id: string;
  provider: Provider;
  input: Rate;
  output: Rate;
  cacheRead: Rate;
  /** Anthropic cache writes, 5-minute and 1-hour lifetime. OpenAI has no write premium: the input rate. */
  cacheWrite5m: Rate;
  cacheWrite1h: Rate;
  contextWindow?: number;
}

/** Tokens of one request by how the provider bills them. `input` is the uncached, unwritten part. */
export interface BilledTokens {
  input: number;
  cacheRead: number;
  cacheWrite5m: number;
  cacheWrite1h: number;
  output: number;
}

function rate(value: ModelPrice[string], fallback?: Rate): Rate | undefined {
  if (typeof value === 'number') return { base: value, tiers: [] };
  if (value && typeof value === 'object')
    return { base: value.base, tiers: value.tiers.map((t) => ({ from: t.start, price: t.price })) };
  return fallback;
}

function providerOf(model: string): Provider {
  return /claude|anthropic/i.test(model) ? 'anthropic' : 'openai';
}

const resolved = new Map<string, ModelPrices | null>();

/** The table's prices for a model name as a log records it, at a date (prices may change over time); undefined
 * when the table does not know the model. */
export function tablePrices(model: string, at?: Date): ModelPrices | undefined {
  const day = at && !Number.isNaN(at.getTime()) ? at.toISOString().slice(0, 10) : '';
  const key = `${model}\u0000${day}`;
  let hit = resolved.get(key);
  if (hit === undefined) {
    hit = resolve(model, day ? new Date(`${day}T12:00:00Z`) : undefined);
    resolved.set(key, hit);
  }
  return hit ?? undefined;
}

function resolve(model: string, at: Date | undefined): ModelPrices | null {
  const provider = providerOf(model);
  let found: ReturnType<typeof calcPrice>;
  try {
    found = calcPrice({ input_tokens: 1 }, model, { providerId: provider, ...(at ? { timestamp: at } : {}) });
  } catch {
    return null;
  }
  if (!found) return null;
  const p = found.model_price;
  const input = rate(p.input_mtok);
  const output = rate(p.output_mtok);
  if (!input || !output) return null;
  const cacheWrite5m = rate(p.cache_write_mtok, input) as Rate;
  const prices: ModelPrices = {
    id: found.model.id,
    provider,
    input,
    output,
    cacheRead: rate(p.cache_read_mtok, input) as Rate,
    cacheWrite5m,
    cacheWrite1h: rate(p.cache_write_1h_mtok, cacheWrite5m) as Rate,
  };
  if (found.model.context_window) prices.contextWindow = found.model.context_window;
  return prices;
}

function at(r: Rate, promptTokens: number): number {
  let price = r.base;
  for (const t of r.tiers) if (promptTokens > t.from) price = t.price;
  return price;
}

/** What one request costs in USD. */
export function billedCost(prices: ModelPrices, t: BilledTokens): number {
  const prompt = t.input + t.cacheRead + t.cacheWrite5m + t.cacheWrite1h;
  return (
    (t.input * at(prices.input, prompt) +
      t.cacheRead * at(prices.cacheRead, prompt) +
      t.cacheWrite5m * at(prices.cacheWrite5m, prompt) +
      t.cacheWrite1h * at(prices.cacheWrite1h, prompt) +
      t.output * at(prices.output, prompt)) /
    1_000_000
  );
}
