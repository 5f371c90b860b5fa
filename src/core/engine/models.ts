// Model presets (SPEC §5): context window, tokenizer, provider and prices. These are editable DEFAULTS: the list
// prices the providers published for each model (USD per million tokens), which the user can change.
import type { TokenizerName } from '../tokens/counter';

export type Provider = 'anthropic' | 'openai';

export interface ModelPreset {
  id: string;
  label: string;
  provider: Provider;
  contextWindow: number;
  /** Claude models have no public tokenizer: they are counted with o200k and labelled as an estimate. */
  tokenizer: TokenizerName;
  /** USD per million tokens. */
  inputPrice: number;
  outputPrice: number;
  /** OpenAI: the price of cached input (its automatic prefix cache). Anthropic: derived from cacheReadMultiplier. */
  cachedInputPrice?: number;
  /** Anthropic prompt-cache lifetime used for writes and expiry: 5 minutes (1.25× write) or 1 hour (2× write). */
  cacheTtl?: '5m' | '1h';
}

/** Anthropic: cache reads cost 0.1× the input price; writes 1.25× (5-minute lifetime) or 2× (1 hour). */
export const ANTHROPIC_CACHE_READ_MULTIPLIER = 0.1;
export const ANTHROPIC_CACHE_WRITE_MULTIPLIER = { '5m': 1.25, '1h': 2 } as const;
export const ANTHROPIC_CACHE_TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;
/** OpenAI: prefixes of 1024 tokens or more are cached automatically, in 128-token steps. */
export const OPENAI_CACHE_MIN_TOKENS = 1024;
export const OPENAI_CACHE_STEP_TOKENS = 128;

export const MODEL_PRESETS: readonly ModelPreset[] = [
  {
    id: 'claude-sonnet-4',
    label: 'Claude Sonnet 4 / 4.5',
    provider: 'anthropic',
    contextWindow: 200_000,
    tokenizer: 'o200k_base',
    inputPrice: 3,
    outputPrice: 15,
    cacheTtl: '5m',
  },
  {
    id: 'claude-opus-4',
    label: 'Claude Opus 4 / 4.1',
    provider: 'anthropic',
    contextWindow: 200_000,
    tokenizer: 'o200k_base',
    inputPrice: 15,
    outputPrice: 75,
    cacheTtl: '5m',
  },
  {
    id: 'claude-opus-4.5',
    label: 'Claude Opus 4.5',
    provider: 'anthropic',
    contextWindow: 200_000,
    tokenizer: 'o200k_base',
    inputPrice: 5,
    outputPrice: 25,
    cacheTtl: '5m',
  },
  {
    id: 'claude-haiku-4.5',
    label: 'Claude Haiku 4.5',
    provider: 'anthropic',
    contextWindow: 200_000,
    tokenizer: 'o200k_base',
    inputPrice: 1,
    outputPrice: 5,
    cacheTtl: '5m',
  },
  {
    id: 'gpt-5',
    label: 'GPT-5',
    provider: 'openai',
    contextWindow: 400_000,
    tokenizer: 'o200k_base',
    inputPrice: 1.25,
    cachedInputPrice: 0.125,
    outputPrice: 10,
  },
  {
    id: 'gpt-4.1',
    label: 'GPT-4.1',
    provider: 'openai',
    contextWindow: 1_047_576,
    tokenizer: 'o200k_base',
    inputPrice: 2,
    cachedInputPrice: 0.5,
    outputPrice: 8,
  },
  {
    id: 'gpt-4o',
    label: 'GPT-4o',
    provider: 'openai',
    contextWindow: 128_000,
    tokenizer: 'o200k_base',
    inputPrice: 2.5,
    cachedInputPrice: 1.25,
    outputPrice: 10,
  },
  {
    id: 'gpt-4o-mini',
    label: 'GPT-4o mini',
    provider: 'openai',
    contextWindow: 128_000,
    tokenizer: 'o200k_base',
    inputPrice: 0.15,
    cachedInputPrice: 0.075,
    outputPrice: 0.6,
  },
  {
    id: 'gpt-4-turbo',
    label: 'GPT-4 Turbo (cl100k)',
    provider: 'openai',
    contextWindow: 128_000,
    tokenizer: 'cl100k_base',
    inputPrice: 10,
    // No cached-input discount on this model.
    cachedInputPrice: 10,
    outputPrice: 30,
  },
];

export function findModelPreset(
  id: string,
  presets: readonly ModelPreset[] = MODEL_PRESETS,
): ModelPreset | undefined {
  return presets.find((p) => p.id === id);
}

/** The preset for a model name recorded in a transcript (`claude-opus-4-7`, `gpt-4o-2024-08-06`…), if any. */
export function presetForRecordedModel(
  model: string | undefined,
  presets: readonly ModelPreset[] = MODEL_PRESETS,
): ModelPreset | undefined {
  if (!model) return undefined;
  const name = model.toLowerCase();
  if (name.includes('opus')) {
    // Opus 4.5 and later (opus-4-5, opus-4-6…) have the lower price; Opus 4 and 4.1 the higher one.
    const minor = /opus-4[-.](\d)/.exec(name)?.[1];
    return findModelPreset(
      minor !== undefined && Number(minor) >= 5 ? 'claude-opus-4.5' : 'claude-opus-4',
      presets,
    );
  }
  if (name.includes('haiku')) return findModelPreset('claude-haiku-4.5', presets);
  if (name.includes('sonnet') || name.startsWith('claude'))
    return findModelPreset('claude-sonnet-4', presets);
  const sorted = [...presets].sort((a, b) => b.id.length - a.id.length);
  return sorted.find((p) => name.startsWith(p.id));
}

/** The preset to use when the user chose none: the recorded model's, else a typical model of the format's agent. */
export function defaultModelFor(
  format: string,
  recordedModel: string | undefined,
  presets: readonly ModelPreset[] = MODEL_PRESETS,
): ModelPreset | undefined {
  const recorded = presetForRecordedModel(recordedModel, presets);
  if (recorded) return recorded;
  if (format === 'codex') return findModelPreset('gpt-5', presets);
  if (format === 'openai-chat' || format === 'openai-responses') return findModelPreset('gpt-4o', presets);
  return undefined;
}
