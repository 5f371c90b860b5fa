// SPEC §5: how a policy is replayed over a session and how its cache is read. Settings only: no pass of its own.
import type { SectionDescriptor } from './descriptor';

/** SPEC §5. `auto`: `everyRequest` for a session that holds sent requests (Claude Code, Codex), `once` for a single
 * request body; the other three are what a replay runs (`resolveTrigger`). */
export type ReplayTrigger = 'auto' | 'once' | 'everyRequest' | 'pressure';
export const REPLAY_TRIGGERS: readonly ReplayTrigger[] = ['auto', 'once', 'everyRequest', 'pressure'];

/** `auto`: what the log's usage says (1-hour writes, else 5 minutes). */
export type CacheTtlSetting = 'auto' | '5m' | '1h';

/** OpenAI's `prompt_cache_retention`: `auto`, what the log's reads say (the cache never expires in the replay);
 * `in_memory` or `24h`, the lifetime simulated (models.ts `OPENAI_RETENTION_MS`). */
export type OpenAIRetentionSetting = 'auto' | 'in_memory' | '24h';
export const OPENAI_RETENTION_SETTINGS: readonly OpenAIRetentionSetting[] = ['auto', 'in_memory', '24h'];

/** What every policy is measured against (core/vsNone.ts): `as-logged`, the log's own compactions and their
 * summarization requests (what was paid); `none`, no compaction at all, as far as the model's window allows. */
export type Baseline = 'as-logged' | 'none';
export const BASELINES: readonly Baseline[] = ['as-logged', 'none'];

export interface ReplaySettings {
  trigger: ReplayTrigger;
  pressureFraction: number;
  cacheTtl: CacheTtlSetting;
  openaiCacheRetention: OpenAIRetentionSetting;
  baseline: Baseline;
}

export const replay: SectionDescriptor<'replay', ReplaySettings> = {
  key: 'replay',
  settings: {
    trigger: {
      kind: 'enum',
      values: REPLAY_TRIGGERS,
      default: 'auto',
      description:
        '`auto`: `everyRequest` for a session that holds sent requests (Claude Code, Codex), `once` for a single request body; `once`: one pass over the final transcript, on the next request only; `everyRequest`: a pass before each request; `pressure`: a pass only when a request reaches `replay.pressureFraction` of the context window.',
    },
    pressureFraction: {
      kind: 'fraction',
      default: 0.95,
      description: "Share of the model's context window that triggers a pass under the `pressure` trigger.",
    },
    cacheTtl: {
      kind: 'enum',
      values: ['auto', '5m', '1h'],
      default: 'auto',
      description:
        "Anthropic prompt-cache lifetime: `auto` (what the log's usage says: 1-hour writes, else 5 minutes), `5m` (writes at 1.25× input) or `1h` (writes at 2× input).",
    },
    openaiCacheRetention: {
      kind: 'enum',
      values: OPENAI_RETENTION_SETTINGS,
      default: 'auto',
      description:
        "OpenAI prompt-cache retention (`prompt_cache_retention`), for OpenAI models only: `auto` (what the log's reads say; the cache is not expired), `in_memory` (simulated: gone after 10 idle minutes) or `24h` (simulated: gone after 24 idle hours). A model that does not take the one asked (GPT-5.5 and later take only `24h`; GPT-4o and older only `in_memory`) is replayed at the one it takes.",
    },
    baseline: {
      kind: 'enum',
      values: BASELINES,
      default: 'as-logged',
      description:
        "What every policy is compared with: `as-logged` (the log's own compactions and their summarization requests, read from the agent's files where it keeps them, else estimated) or `none` (no compaction at all, as far as the model's context window allows).",
    },
  },
};
