// The requests a session sent, as data: which messages each carried, the model that answered it and the cache
// lifetime the agent asked for. Policies and the replay read these; formats only supply the facts.
import type { Marker, Message, Transcript } from '../model';
import { cacheRulesFor } from './cacheRules';
import {
  ANTHROPIC_CACHE_TTL_MS,
  AUTO_MODEL,
  type CacheTtl,
  type ModelPreset,
  OPENAI_RETENTION_MS,
  type OpenAIRetention,
  openaiRetentionsOf,
} from './models';
import type { OpenAIRetentionSetting } from './policies/replay';
import type { CacheTtlSetting } from './policy';
import { type ModelPrices, tablePrices, withoutWritePremium } from './prices';

export interface RequestSpans {
  /** Request k sends messages [starts[k], ends[k]): the end is the k-th assistant message's index (SPEC §1); the
   * start is 0, or the first message after the last compaction before it (the agent then sends the compaction
   * summary instead of the older messages). Index `ends.length` is the pending request (its end is the length). */
  ends: number[];
  starts: number[];
  /** Where each compaction's segment starts. */
  segmentStarts: number[];
}

export function requestSpans(messages: readonly Message[], markers: readonly Marker[]): RequestSpans {
  const ends: number[] = [];
  // A reply the runtime wrote itself (`synthetic`: an API error, an interruption) was never a request, nor one the
  // model never finished (`cut`: reasoning only, no usage, and the agent restarted), nor a compaction's own
  // summarizing call (`compaction-call`: sent with the messages it replaces; its summary starts the next segment), nor
  // a summary whose call sent messages the file no longer holds (`summary-without-call`).
  for (const m of messages)
    if (
      m.role === 'assistant' &&
      !m.flags?.some(
        (f) => f === 'synthetic' || f === 'cut' || f === 'compaction-call' || f === 'summary-without-call',
      )
    )
      ends.push(m.index);
  // Each compaction starts a segment at its marker; the requests of the segment send from there, or from the
  // messages it kept before it (`keptFrom`).
  const compactions = markers
    .filter((m) => m.kind === 'compaction')
    .map((m) => ({ at: m.beforeMessage, from: Math.min(m.keptFrom ?? m.beforeMessage, m.beforeMessage) }))
    .sort((a, b) => a.at - b.at);
  const segmentStarts = [...new Set(compactions.map((c) => c.at))];
  let s = 0;
  const starts = [...ends, messages.length].map((end) => {
    while (s < compactions.length && compactions[s].at <= end) s++;
    return s > 0 ? compactions[s - 1].from : 0;
  });
  return { ends, starts, segmentStarts };
}

/** The cache lifetime the log's writes used: 1 hour when most written tokens say so, else 5 minutes; undefined
 * when the log does not say. */
export function loggedCacheTtl(transcript: Transcript): CacheTtl | undefined {
  let oneHour = 0;
  let all = 0;
  let known = false;
  const add = (u: Message['usage']) => {
    if (!u || u.cacheCreation1hInputTokens === undefined) return;
    known = true;
    oneHour += u.cacheCreation1hInputTokens;
    all += u.cacheCreationInputTokens;
  };
  if (transcript.replies) for (const r of transcript.replies) add(r.usage);
  else for (const m of transcript.messages) add(m.usage);
  if (!known) return undefined;
  return all > 0 && oneHour * 2 > all ? '1h' : '5m';
}

/** Models whose endpoint reports no cache writes: every reply of theirs reads from the cache yet none wrote to it
 * (`cache_creation_input_tokens` always 0, `input_tokens` the misses: DeepSeek behind Claude Code's
 * Anthropic-compatible endpoint). Anthropic reports a write for every read prefix, so such a log cannot come
 * from its cache rules. */
export function modelsWithoutWrites(transcript: Transcript): Set<string> {
  const seen = new Map<string, { read: number; written: number; replies: number }>();
  const add = (model: string | undefined, u: Message['usage']) => {
    if (!model || !u) return;
    const s = seen.get(model) ?? { read: 0, written: 0, replies: 0 };
    s.read += u.cacheReadInputTokens;
    s.written += u.cacheCreationInputTokens;
    s.replies++;
    seen.set(model, s);
  };
  if (transcript.replies) for (const r of transcript.replies) add(r.model ?? transcript.model, r.usage);
  else for (const m of transcript.messages) add(m.model ?? transcript.model, m.usage);
  const out = new Set<string>();
  for (const [model, s] of seen)
    if (s.replies >= NO_WRITES_MIN_REPLIES && s.read > 0 && s.written === 0) out.add(model);
  return out;
}

/** Replies a model needs before its log may say its endpoint reports no writes (one reply may read a cache
 * another session wrote). */
const NO_WRITES_MIN_REPLIES = 3;

/** How each request of a replay is priced and cached. */
export interface RequestPricing {
  /** Per request (the pending one last): the prices of the model that answers it. */
  prices: ModelPrices[];
  /** Per request: which cache it reads and writes (a different model has a different cache). */
  cacheKey: string[];
  /** Whether the cache key is the answering model (`model: auto`), not one preset for every request. */
  keyedByModel: boolean;
  ttl: CacheTtl;
  /** Whether `ttl` is the lifetime the log's writes used (then the log's reads speak for this replay's cache). */
  ttlAsLogged: boolean;
  /** OpenAI's retention the replay simulates (`replay.openaiCacheRetention`); absent: its cache does not expire,
   * the log's reads say what it held. */
  openaiRetention?: OpenAIRetention;
  /** Recorded model names the price table does not know, priced as the session's preset instead. */
  unpriced: string[];
}

/** Under `model: auto` each request is priced at the model that answered it (the pending one at the last model
 * seen); under a preset, every request at the preset's model, one cache. */
export function requestPricing(
  transcript: Transcript,
  spans: RequestSpans,
  modelSetting: string,
  preset: ModelPreset,
  ttlSetting: CacheTtlSetting,
  retention: OpenAIRetentionSetting = 'auto',
): RequestPricing {
  const fallback = tablePrices(preset.pricedAs);
  if (!fallback)
    throw new Error(`model preset ${preset.id}: the price table does not know ${preset.pricedAs}`);
  const logged = loggedCacheTtl(transcript);
  const ttl = ttlSetting === 'auto' ? (logged ?? '5m') : ttlSetting;
  const ttlAsLogged = logged === undefined || ttl === logged;
  const count = spans.ends.length + 1;
  const lifetime = retention === 'auto' ? {} : { openaiRetention: retention };
  if (modelSetting !== AUTO_MODEL)
    return {
      prices: new Array(count).fill(fallback),
      cacheKey: new Array(count).fill(preset.id),
      keyedByModel: false,
      ttl,
      ttlAsLogged,
      ...lifetime,
      unpriced: [],
    };
  const prices: ModelPrices[] = [];
  const cacheKey: string[] = [];
  const unpriced = new Set<string>();
  const noWrites = modelsWithoutWrites(transcript);
  let last = transcript.model;
  for (let k = 0; k < count; k++) {
    const message = k < spans.ends.length ? transcript.messages[spans.ends[k]] : undefined;
    const name = message?.model ?? last;
    if (name) last = name;
    const at = message?.timestamp ? new Date(message.timestamp) : undefined;
    const found = name ? tablePrices(name, at) : undefined;
    if (name && !found) unpriced.add(name);
    // A model the table cannot price is priced at the preset, under its endpoint's cache rules all the same.
    const base = found ?? fallback;
    prices.push(name && noWrites.has(name) ? withoutWritePremium(base) : base);
    cacheKey.push(name ?? preset.id);
  }
  return { prices, cacheKey, keyedByModel: true, ttl, ttlAsLogged, ...lifetime, unpriced: [...unpriced] };
}

/** How long (ms) a cache of a request priced at `prices` lives unused, under this replay (`now`) and as the log ran
 * (`log`); undefined: it does not expire. Anthropic's at the replay's lifetime (the log's, the other one where the
 * replay asks what that one would have done). OpenAI's at the retention simulated, where one is (the model's own
 * where it does not take the one asked), and in the log at the shorter one the model takes: a cold read after that
 * long idle is the log's expiry. Other automatic caches, and OpenAI's unsimulated, never expire here. */
export function cacheLifetimes(
  pricing: RequestPricing,
  prices: ModelPrices,
): { now: number | undefined; log: number | undefined } {
  if (cacheRulesFor(prices).expires) {
    const now = ANTHROPIC_CACHE_TTL_MS[pricing.ttl];
    const other = pricing.ttl === '1h' ? '5m' : '1h';
    return { now, log: pricing.ttlAsLogged ? now : ANTHROPIC_CACHE_TTL_MS[other] };
  }
  if (!simulatesRetention(pricing, prices)) return { now: undefined, log: undefined };
  return {
    now: OPENAI_RETENTION_MS[lifetimeOf(pricing, prices) as OpenAIRetention],
    log: OPENAI_RETENTION_MS[openaiRetentionsOf(prices.id)[0]],
  };
}

/** The lifetime a request priced at `prices` is replayed at, by name: Anthropic's `ttl`, or the OpenAI retention
 * simulated (the model's own where it does not take the one asked). */
export function lifetimeOf(pricing: RequestPricing, prices: ModelPrices): CacheTtl | OpenAIRetention {
  if (!simulatesRetention(pricing, prices)) return pricing.ttl;
  const takes = openaiRetentionsOf(prices.id);
  const asked = pricing.openaiRetention as OpenAIRetention;
  return takes.includes(asked) ? asked : takes[0];
}

/** Whether the replay simulates OpenAI's retention for a request priced at `prices` (then the log's reads no longer
 * speak for what a cold cache held). */
export function simulatesRetention(pricing: RequestPricing, prices: ModelPrices): boolean {
  return pricing.openaiRetention !== undefined && prices.provider === 'openai';
}
