// Prices from a kept table: @pydantic/genai-prices ships every provider's list prices as data (never updated from
// the network here, so figures are reproducible). This adapter resolves a model once and prices usage locally:
// asking the table per request costs ~30 µs, too much for a replay of thousands of requests on every change.
import type { calcPrice as CalcPrice, ModelPrice } from '@pydantic/genai-prices';
import { qwenPrices } from './qwenPrices';

/** How an endpoint caches: `anthropic`, the prefix up to the request's breakpoints, written at a premium and kept
 * for a lifetime (5 minutes or 1 hour) from its last use; `automatic` (OpenAI, DeepSeek, Gemini), every prefix of
 * 1024 tokens or more in 128-token steps, kept while the provider likes, a write billed at the table's write price
 * when it has one, else as input. */
export type CacheRules = 'anthropic' | 'automatic';

/** The cache rules of a provider as the price table names it. */
export function cacheRulesOf(provider: string): CacheRules {
  return provider === 'anthropic' ? 'anthropic' : 'automatic';
}

/** USD per million tokens; a long-context rate applies to the whole request once its input passes `from`. */
export interface Rate {
  base: number;
  tiers: { from: number; price: number }[];
}

export interface ModelPrices {
  /** The table's id for the model (`claude-opus-4-6`, `gpt-5.2`). */
  id: string;
  /** The table's provider of the model (`anthropic`, `openai`, `deepseek`, `google`…): never guessed from the name. */
  provider: string;
  /** How the endpoint caches and bills the cache (models.ts `cacheRulesOf`). */
  cache: CacheRules;
  input: Rate;
  output: Rate;
  cacheRead: Rate;
  /** Cache writes, 5-minute and 1-hour lifetime (Anthropic: 1.25× and 2× the input). Where the table gives no write
   * price (most OpenAI models, DeepSeek, Gemini) a write is billed as input; GPT-5.6 bills them at 1.25×. */
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

const resolved = new Map<string, ModelPrices | null>();

/** The table's lookup, its package loaded when the first model is priced: the table is half a megabyte of code,
 * which every bundle that may price something would otherwise run as it starts (the extension host's activation
 * among them, on the thread every extension shares). */
let calcPrice: typeof CalcPrice | undefined;
function lookUp(): typeof CalcPrice {
  calcPrice ??= (require('@pydantic/genai-prices') as { calcPrice: typeof CalcPrice }).calcPrice;
  return calcPrice;
}

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
  const calc = lookUp();
  let found: ReturnType<typeof CalcPrice>;
  try {
    // No provider named: the table finds the provider whose models match the name (a DeepSeek model behind Claude
    // Code's Anthropic-compatible endpoint is DeepSeek's, priced at DeepSeek's rates).
    found = calc({ input_tokens: 1 }, model, at ? { timestamp: at } : undefined);
  } catch {
    return qwenPrices(model) ?? null;
  }
  // A gateway's `<provider>/<model>` (Cline's and OpenRouter's names: `anthropic/claude-opus-4.8`) is the model's.
  const slash = model.lastIndexOf('/');
  if (!found && slash > 0 && slash < model.length - 1) return resolve(model.slice(slash + 1), at);
  // The table has no Alibaba Cloud provider: Qwen models come from a table of their own.
  if (!found) return qwenPrices(model) ?? null;
  const p = found.model_price;
  const input = rate(p.input_mtok);
  const output = rate(p.output_mtok);
  if (!input || !output) return null;
  const cacheWrite5m = rate(p.cache_write_mtok, input) as Rate;
  const prices: ModelPrices = {
    id: found.model.id,
    provider: found.provider.id,
    cache: cacheRulesOf(found.provider.id),
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

/** The same model behind an endpoint that reports no cache writes (only reads, and misses as input: DeepSeek's
 * Anthropic-compatible API): prefixes are cached without breakpoints or a lifetime, and nothing is billed for
 * writing them. */
export function withoutWritePremium(prices: ModelPrices): ModelPrices {
  return { ...prices, cache: 'automatic', cacheWrite5m: prices.input, cacheWrite1h: prices.input };
}
