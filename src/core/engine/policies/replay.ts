// SPEC §5: how a policy is replayed over a session and how its cache is read. Settings only: no pass of its own.
import type { SectionDescriptor } from './descriptor';

/** SPEC §5. `auto`: `everyRequest` for a session that holds sent requests (Claude Code, Codex), `once` for a single
 * request body; the other three are what a replay runs (`resolveTrigger`). */
export type ReplayTrigger = 'auto' | 'once' | 'everyRequest' | 'pressure';
export const REPLAY_TRIGGERS: readonly ReplayTrigger[] = ['auto', 'once', 'everyRequest', 'pressure'];

/** `auto`: what the log's usage says (1-hour writes, else 5 minutes). */
export type CacheTtlSetting = 'auto' | '5m' | '1h';

/** What every policy is measured against (core/vsNone.ts): `as-logged`, the log's own compactions and their
 * summarization requests (what was paid); `none`, no compaction at all, as far as the model's window allows. */
export type Baseline = 'as-logged' | 'none';
export const BASELINES: readonly Baseline[] = ['as-logged', 'none'];

export interface ReplaySettings {
  trigger: ReplayTrigger;
  pressureFraction: number;
  cacheTtl: CacheTtlSetting;
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
    baseline: {
      kind: 'enum',
      values: BASELINES,
      default: 'as-logged',
      description:
        "What every policy is compared with: `as-logged` (the log's own compactions and their summarization requests, read from the agent's files where it keeps them, else estimated) or `none` (no compaction at all, as far as the model's context window allows).",
    },
  },
};
