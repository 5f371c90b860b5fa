// The prompt cache's rules per provider, as data: what a prefix leaves in the cache (granularity), whether an
// entry expires, what a write costs, when the log's read shows a break, and what a request leaves unwritten. The
// replay asks these and knows no provider by name (SPEC §5).
import type { RecordedUsage } from '../model';
import { cachesWholeReply, OPENAI_CACHE_MIN_TOKENS, OPENAI_CACHE_STEP_TOKENS } from './models';
import { billedCost, type CacheRules, type ModelPrices } from './prices';

export type WriteTtl = '5m' | '1h';

export interface ProviderCacheRules {
  /** Whether an entry unused for its lifetime is gone (Anthropic); an automatic cache is kept while the provider
   * likes, which the log cannot say. */
  readonly expires: boolean;
  /** The tokens a prefix of `tokens` leaves in the cache. */
  cachedOf(tokens: number): number;
  /** Whether a read of `read` tokens, where the log's previous request put `expected` in the cache, is a break. */
  recordedBreak(expected: number, read: number): boolean;
  /** The tokens the log says a request sent past its last cache breakpoint, never written (0: none to speak of). */
  uncachedTail(usage: RecordedUsage | undefined): number;
  /** What a request left in the cache for the next one, by its own usage. */
  leftInCache(usage: RecordedUsage): number;
  /** How far a read may fall short of what the previous request left without being a break: the provider's
   * granularity (core/cacheBreaks lists the reads shorter than that). */
  readonly missTolerance: number;
  /** Cost of a request: `cached` read, `written` written at the lifetime `ttl`, `output` generated. */
  cost(prices: ModelPrices, ttl: WriteTtl, cached: number, written: number, output: number): number;
}

/** An Anthropic cache read below this share of what the log says the previous request cached, and short of it by
 * more than `RECORDED_BREAK_MIN_TOKENS`, is a break the log shows. OpenAI reports cached tokens in 128-token
 * steps: a read short by more than one step is one (within a Codex turn the prompt only grows, yet about a quarter
 * of GPT-5.x requests read less than the previous prompt; at the Anthropic thresholds they were taken as cached,
 * and the written tokens ran well under the log). */
export const RECORDED_BREAK_SHARE = 0.8;
export const RECORDED_BREAK_MIN_TOKENS = 1024;
/** What an Anthropic request sends past its last cache breakpoint when the breakpoint is on its last block: 1-16
 * input tokens in the Claude Code logs we have. More says the breakpoint stood before part of the conversation. */
export const BREAKPOINT_TAIL_TOKENS = 64;

/** Anthropic: the prefix up to the request's breakpoints, kept for its lifetime, a write billed at the lifetime's
 * rate. */
const anthropic: ProviderCacheRules = {
  expires: true,
  cachedOf: (tokens) => tokens,
  recordedBreak: (expected, read) =>
    read < RECORDED_BREAK_SHARE * expected && expected - read > RECORDED_BREAK_MIN_TOKENS,
  uncachedTail: (usage) => (usage && usage.inputTokens > BREAKPOINT_TAIL_TOKENS ? usage.inputTokens : 0),
  // Written up to the last breakpoint: what was read and what was written; the input past it never was.
  leftInCache: (usage) => usage.cacheReadInputTokens + usage.cacheCreationInputTokens,
  missTolerance: BREAKPOINT_TAIL_TOKENS,
  cost: (prices, ttl, cached, written, output) =>
    billedCost(prices, {
      input: 0,
      cacheRead: cached,
      cacheWrite5m: ttl === '5m' ? written : 0,
      cacheWrite1h: ttl === '1h' ? written : 0,
      output,
    }),
};

/** OpenAI and the other automatic caches: prefixes of 1024 tokens or more, in 128-token steps; a write billed at
 * the table's write price where the model has one (GPT-5.6: 1.25× the input), else as input. */
const automatic: ProviderCacheRules = {
  expires: false,
  cachedOf: (tokens) =>
    tokens >= OPENAI_CACHE_MIN_TOKENS
      ? Math.floor(tokens / OPENAI_CACHE_STEP_TOKENS) * OPENAI_CACHE_STEP_TOKENS
      : 0,
  recordedBreak: (expected, read) => expected - read > OPENAI_CACHE_STEP_TOKENS,
  uncachedTail: () => 0,
  leftInCache: (usage) =>
    automatic.cachedOf(usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens),
  missTolerance: OPENAI_CACHE_STEP_TOKENS,
  cost: (prices, _ttl, cached, written, output) =>
    billedCost(prices, { input: 0, cacheRead: cached, cacheWrite5m: written, cacheWrite1h: 0, output }),
};

export const CACHE_RULES: Readonly<Record<CacheRules, ProviderCacheRules>> = { anthropic, automatic };

/** The rules of the endpoint that prices `prices`. */
export function cacheRulesFor(prices: ModelPrices): ProviderCacheRules {
  return CACHE_RULES[prices.cache];
}

/** What of the previous reply a request finds in the cache after that reply's prompt, when it sends the reply next.
 * OpenAI keeps what it generated: the reasoning (the log's reads pass the previous prompt by about the reply's
 * reasoning tokens), or for some models the whole reply (models.ts). Anthropic caches prompts only, but a request
 * the log does not hold (the agent's own, after a reply: Claude Code 2.1.14x) may have sent the conversation with
 * that reply: the log's read then shows it (`sideRead`), and the reply is read back whatever the policy. Other
 * automatic caches (DeepSeek) keep the whole reply where the log's read shows it. */
export function replyInCache(
  provider: string,
  keyedByModel: boolean,
  cacheKey: string,
  sideRead: () => boolean,
): 'none' | 'reply' | 'reasoning' {
  if (provider !== 'openai') return sideRead() ? 'reply' : 'none';
  return keyedByModel && cachesWholeReply(cacheKey) ? 'reply' : 'reasoning';
}

/** Whether the log's read passes the previous prompt by at least half the previous reply's output (and more than
 * the 128-token noise of a read): the reply was in the cache. */
export function readShowsReply(
  read: number | undefined,
  previousPrompt: number | undefined,
  previousOutput: number | undefined,
): boolean {
  if (read === undefined || previousOutput === undefined || previousPrompt === undefined) return false;
  const beyond = read - previousPrompt;
  return beyond > 128 && beyond >= previousOutput / 2;
}
