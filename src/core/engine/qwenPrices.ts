// Qwen models behind Alibaba Cloud Model Studio (DashScope), the endpoint Qwen Code calls with an API key. The kept
// price table (@pydantic/genai-prices) has no Alibaba provider, so without these a Qwen Code session's cost was only
// estimated. The rates are the ones ccusage 20.0.24 bills these names at, the reference our costs are checked against:
// its price source is LiteLLM's table as that release embeds it (read with `--offline`), measured on one-reply
// sessions with `ccusage qwen session` at prompts on either side of each step (docs/agents.md). The windows are Qwen
// Code's own for each name (`packages/core/src/core/tokenLimits.ts`), as the agent compresses against them.
import type { ModelPrices, Rate } from './prices';

/** USD per million tokens: input, output, cache read; the context window; and where the prompt is longer than
 * `from` tokens (what the request sends, cached or not), the rates the whole request is billed at instead. */
type Row = [
  input: number,
  output: number,
  cacheRead: number,
  contextWindow: number,
  longer?: { from: number; input: number; output: number; cacheRead: number },
];

const M = 1_000_000;
const K256 = 262_144;

const ROWS: Record<string, Row> = {
  'qwen3-coder-plus': [1, 5, 0.1, M],
  'qwen3-coder-flash': [0.3, 1.5, 0.03, M],
  'qwen3.5-plus': [0.4, 2.4, 0.04, M],
  'qwen3.6-plus': [0.5, 3, 0.05, M, { from: 256_000, input: 2, output: 6, cacheRead: 0.2 }],
  'qwen3-max': [1.2, 6, 0.12, K256],
  'qwen3-max-preview': [1.2, 6, 0.24, K256],
  'qwen3-coder-480b-a35b-instruct': [
    1.5,
    7.5,
    0.15,
    K256,
    { from: 32_000, input: 2.7, output: 13.5, cacheRead: 0.15 },
  ],
  'qwen3-coder-30b-a3b-instruct': [
    0.45,
    2.25,
    0.045,
    K256,
    { from: 32_000, input: 0.75, output: 3.75, cacheRead: 0.045 },
  ],
  'qwen3-vl-plus': [0.2, 1.6, 0.02, K256],
  'qwen3-235b-a22b': [0.7, 2.8, 0.07, K256],
  'qwen3-32b': [0.7, 2.8, 0.07, K256],
  'qwen-max': [1.6, 6.4, 0.16, K256],
  'qwen-plus': [0.4, 1.2, 0.04, K256],
  'qwen-turbo': [0.05, 0.2, 0.005, K256],
  'qwen-flash': [0.05, 0.4, 0.005, K256],
};

const rate = (base: number, from?: number, longer?: number): Rate => ({
  base,
  tiers: from !== undefined && longer !== undefined ? [{ from, price: longer }] : [],
});

/** The prices of a Qwen model by the name a log records (a provider prefix such as `dashscope/` or `qwen/` aside);
 * undefined for a name not listed, e.g. Qwen Code's `coder-model` (its free sign-in tier, which ccusage leaves
 * unpriced too). */
export function qwenPrices(model: string): ModelPrices | undefined {
  const id = model.trim().toLowerCase().replace(/^.*\//, '');
  const row = Object.hasOwn(ROWS, id) ? ROWS[id] : undefined;
  if (!row) return undefined;
  const [input, output, cacheRead, contextWindow, longer] = row;
  const from = longer?.from;
  return {
    id,
    provider: 'alibaba',
    // DashScope caches prefixes on its own (implicit cache): no breakpoints, nothing billed for writing them.
    cache: 'automatic',
    input: rate(input, from, longer?.input),
    output: rate(output, from, longer?.output),
    cacheRead: rate(cacheRead, from, longer?.cacheRead),
    cacheWrite5m: rate(input, from, longer?.input),
    cacheWrite1h: rate(input, from, longer?.input),
    contextWindow,
  };
}
