// Model presets (SPEC §5): context window, tokenizer and provider, with the model whose list prices they charge.
// The prices themselves come from the kept table (prices.ts).
import { FORMATS } from '../formats/registry';
import type { FormatAdapter } from '../formats/types';
import type { TokenizerName } from '../tokens/counter';
import { type ModelPrices, tablePrices } from './prices';

export type Provider = 'anthropic' | 'openai';

export interface ModelPreset {
  id: string;
  label: string;
  provider: Provider;
  contextWindow: number;
  /** Claude models have no public tokenizer: they are counted with o200k and labelled as an estimate. */
  tokenizer: TokenizerName;
  /** The model whose list prices (from the kept table, prices.ts) this preset charges. */
  pricedAs: string;
}

/** `model` setting value: each request at the model that answered it, the session named after its main one. */
export const AUTO_MODEL = 'auto';

export const ANTHROPIC_CACHE_TTL_MS = { '5m': 5 * 60_000, '1h': 60 * 60_000 } as const;
export type CacheTtl = keyof typeof ANTHROPIC_CACHE_TTL_MS;
/** OpenAI's prompt cache retention (`prompt_cache_retention`), simulated. Documented: an in-memory prefix is
 * typically cleared after 5 to 10 minutes of inactivity and always within an hour of its last use; an extended one
 * (`24h`) is kept up to 24 hours; both are billed alike. Our reading where it is silent: in-memory is gone after 10
 * idle minutes (the end of "typically"), `24h` after 24 idle hours (counted from the last use, as Anthropic's). */
export const OPENAI_RETENTION_MS = { in_memory: 10 * 60_000, '24h': 24 * 60 * 60_000 } as const;
export type OpenAIRetention = keyof typeof OPENAI_RETENTION_MS;

/** The retentions an OpenAI model takes, the shorter first: GPT-5.5 and later only `24h`; GPT-5 to GPT-5.4 (their
 * Codex variants too) and GPT-4.1 both; older models (GPT-4o) only `in_memory`. */
export function openaiRetentionsOf(model: string): readonly OpenAIRetention[] {
  const m = /^gpt-(\d+)(?:\.(\d+))?/.exec(model);
  if (!m) return ['in_memory'];
  const major = Number(m[1]);
  const minor = Number(m[2] ?? 0);
  if (major > 5 || (major === 5 && minor >= 5)) return ['24h'];
  if (major === 5 || (major === 4 && minor === 1)) return ['in_memory', '24h'];
  return ['in_memory'];
}

/** OpenAI: prefixes of 1024 tokens or more are cached automatically, in 128-token steps. */
export const OPENAI_CACHE_MIN_TOKENS = 1024;
export const OPENAI_CACHE_STEP_TOKENS = 128;

/** What the price table lacks: the tokenizer, and the window we assume (the table gives 1M for models whose 1M
 * window is a beta most sessions do not use). */
export const MODEL_PRESETS: readonly ModelPreset[] = [
  {
    id: 'claude-sonnet-4',
    label: 'Claude Sonnet 4 / 4.5 / 4.6',
    provider: 'anthropic',
    contextWindow: 200_000,
    tokenizer: 'o200k_base',
    pricedAs: 'claude-sonnet-4-5',
  },
  {
    id: 'claude-opus-4',
    label: 'Claude Opus 4 / 4.1',
    provider: 'anthropic',
    contextWindow: 200_000,
    tokenizer: 'o200k_base',
    pricedAs: 'claude-opus-4-1',
  },
  {
    id: 'claude-opus-4.5',
    label: 'Claude Opus 4.5 / 4.6',
    provider: 'anthropic',
    contextWindow: 200_000,
    tokenizer: 'o200k_base',
    pricedAs: 'claude-opus-4-5',
  },
  {
    id: 'claude-haiku-4.5',
    label: 'Claude Haiku 4.5',
    provider: 'anthropic',
    contextWindow: 200_000,
    tokenizer: 'o200k_base',
    pricedAs: 'claude-haiku-4-5',
  },
  {
    id: 'gpt-5',
    label: 'GPT-5 / GPT-5 Codex',
    provider: 'openai',
    contextWindow: 400_000,
    tokenizer: 'o200k_base',
    pricedAs: 'gpt-5',
  },
  {
    id: 'gpt-5.2',
    label: 'GPT-5.2 / GPT-5.2 Codex',
    provider: 'openai',
    contextWindow: 400_000,
    tokenizer: 'o200k_base',
    pricedAs: 'gpt-5.2',
  },
  {
    id: 'gpt-4.1',
    label: 'GPT-4.1',
    provider: 'openai',
    contextWindow: 1_047_576,
    tokenizer: 'o200k_base',
    pricedAs: 'gpt-4.1',
  },
  {
    id: 'gpt-4o',
    label: 'GPT-4o',
    provider: 'openai',
    contextWindow: 128_000,
    tokenizer: 'o200k_base',
    pricedAs: 'gpt-4o',
  },
  {
    id: 'gpt-4o-mini',
    label: 'GPT-4o mini',
    provider: 'openai',
    contextWindow: 128_000,
    tokenizer: 'o200k_base',
    pricedAs: 'gpt-4o-mini',
  },
  {
    id: 'gpt-4-turbo',
    label: 'GPT-4 Turbo (cl100k)',
    provider: 'openai',
    contextWindow: 128_000,
    tokenizer: 'cl100k_base',
    pricedAs: 'gpt-4-turbo',
  },
];

/** Models whose cache keeps the whole reply they generated after the prompt (reasoning, text and tool calls), so
 * the next request of a turn reads it back. Measured on Codex rollouts: GPT-5.4's reads pass the previous prompt
 * by its whole output, GPT-5.2 Codex's by its reasoning only; a model not named here is taken to keep reasoning. */
const CACHES_WHOLE_REPLY = /^gpt-5\.4(?![0-9])/;

export function cachesWholeReply(model: string | undefined): boolean {
  return model !== undefined && CACHES_WHOLE_REPLY.test(model.toLowerCase());
}

export function findModelPreset(
  id: string,
  presets: readonly ModelPreset[] = MODEL_PRESETS,
): ModelPreset | undefined {
  return presets.find((p) => p.id === id);
}

/** The preset for a model name recorded in a transcript (`claude-opus-5`, `gpt-5.6-sol`, `deepseek-v4-pro`…): a
 * model the price table knows is priced at itself, with the table's provider; the window and tokenizer the table
 * lacks (or gives only as a beta, Claude's 1M) come from the preset of its family. A model the table does not know
 * takes the nearest preset by name, if any. */
export function presetForRecordedModel(
  model: string | undefined,
  presets: readonly ModelPreset[] = MODEL_PRESETS,
): ModelPreset | undefined {
  if (!model) return undefined;
  // One object per name and preset list: the replay's memos recognise a preset by identity.
  let byName = recordedPresets.get(presets);
  if (!byName) {
    byName = new Map();
    recordedPresets.set(presets, byName);
  }
  if (byName.has(model)) return byName.get(model);
  const family = familyPreset(model, presets);
  const table = tablePrices(model);
  const preset = table ? tablePreset(table, family) : family;
  byName.set(model, preset);
  return preset;
}

// Keyed by the preset list, not by a transcript: a model name's preset is a fact of the name and the list alone,
// shared by every transcript that records the name (and it must be the same object in each, see above).
const recordedPresets = new WeakMap<readonly ModelPreset[], Map<string, ModelPreset | undefined>>();

/** A table model as a preset: its own prices and provider, its family's window and tokenizer. */
function tablePreset(table: ModelPrices, family: ModelPreset | undefined): ModelPreset {
  const anthropic = table.cache === 'anthropic';
  const sameFamily = family && (family.provider === 'anthropic') === anthropic ? family : undefined;
  return {
    id: table.id,
    label: `${table.id} (${table.provider}, from the price table)`,
    provider: anthropic ? 'anthropic' : 'openai',
    // Claude's table window is the 1M beta most sessions do not use: 200k until the log proves more (analysis.ts).
    contextWindow:
      sameFamily?.contextWindow ?? (anthropic ? CLAUDE_WINDOW : (table.contextWindow ?? DEFAULT_WINDOW)),
    tokenizer: sameFamily?.tokenizer ?? 'o200k_base',
    pricedAs: table.id,
  };
}

const CLAUDE_WINDOW = 200_000;
/** The window of a model neither the table nor a preset knows the window of (GPT-4o's, the smallest of ours). */
const DEFAULT_WINDOW = 128_000;

/** The preset of a model's family by its name, for what the price table does not say. */
function familyPreset(name0: string, presets: readonly ModelPreset[]): ModelPreset | undefined {
  const name = name0.toLowerCase();
  if (name.includes('opus')) {
    // Opus 4.5 and later (opus-4-5, opus-4-6…, opus-5) have the lower price; Opus 4 and 4.1 the higher one.
    const version = /opus-(\d+)(?:[-.](\d))?/.exec(name);
    const major = Number(version?.[1] ?? 4);
    const minor = Number(version?.[2] ?? 0);
    return findModelPreset(major > 4 || minor >= 5 ? 'claude-opus-4.5' : 'claude-opus-4', presets);
  }
  if (name.includes('haiku')) return findModelPreset('claude-haiku-4.5', presets);
  if (/^gpt-5\.[2-9]/.test(name)) return findModelPreset('gpt-5.2', presets);
  if (name.includes('sonnet') || name.startsWith('claude'))
    return findModelPreset('claude-sonnet-4', presets);
  const sorted = [...presets].sort((a, b) => b.id.length - a.id.length);
  return sorted.find((p) => name.startsWith(p.id));
}

/** The context window of a session: the preset's, or, where the log proves it larger (a recorded prompt beyond
 * it, as on Claude's 1M window), the table's window of the model that answered when it holds that prompt, else the
 * largest recorded prompt. */
export function provenWindow(
  preset: ModelPreset,
  largestRecordedPrompt: number,
  tableWindow?: number,
): number {
  if (largestRecordedPrompt <= preset.contextWindow) return preset.contextWindow;
  return tableWindow !== undefined && tableWindow >= largestRecordedPrompt
    ? tableWindow
    : largestRecordedPrompt;
}

/** The preset to use when the user chose none: the recorded model's, else a typical model of the format's agent. Its
 * window and tokenizer serve `auto`; its id may be a price-table model's, which is no `model` setting. */
export function defaultModelFor(
  format: string,
  recordedModel: string | undefined,
  presets: readonly ModelPreset[] = MODEL_PRESETS,
): ModelPreset | undefined {
  const recorded = presetForRecordedModel(recordedModel, presets);
  if (recorded) return recorded;
  const typical = FORMATS.find((f: FormatAdapter) => f.id === format)?.defaultModel;
  return typical === undefined ? undefined : findModelPreset(typical, presets);
}

/** The preset a setting names; under `auto`, the preset of the model that answered most of the session (its
 * window and tokenizer; each request is still priced at its own model). */
export function sessionPreset(
  setting: string,
  format: string,
  recordedModel: string | undefined,
  presets: readonly ModelPreset[] = MODEL_PRESETS,
): ModelPreset | undefined {
  if (setting !== AUTO_MODEL) return findModelPreset(setting, presets);
  return (
    defaultModelFor(format, recordedModel, presets) ??
    findModelPreset('claude-sonnet-4', presets) ??
    presets[0]
  );
}
