// Cache breaks (issue: "why did my cache break, and what did it cost"): a request that reads less from the prompt
// cache than the previous request of its conversation left there, beyond the provider's granularity. Each break has
// one cause from a closed list, the evidence for it, and what it cost against reading those tokens.
import type { CacheTtl, OpenAIRetention } from '../engine/models';

/** The closed list of causes, in the order totals are shown. */
export const BREAK_CAUSES = [
  'first',
  'ttl-expired',
  'model-switch',
  'compaction',
  'rewind',
  'prefix-changed',
  'rewrite',
  'server-edit',
  'provider-miss',
] as const;
export type BreakCause = (typeof BREAK_CAUSES)[number];

/** A tool result a microcompaction (or a server's context editing) cleared. */
export interface ClearedResult {
  message: number;
  block: number;
  tool: string;
}

/** What shows the cause, per cause. `message` is where the prompt first differs, where the log shows it. */
export type BreakEvidence =
  | { cause: 'first'; message: number }
  | { cause: 'ttl-expired'; idleMs: number; ttl: CacheTtl | OpenAIRetention }
  | { cause: 'model-switch'; from: string; to: string }
  | {
      cause: 'compaction';
      /** `auto` / `manual`: the agent's own, as its log says; `micro`: a microcompaction clearing old results;
       * `simulated`: the policy's compaction; undefined: the log does not say what started it. */
      kind?: 'auto' | 'manual' | 'micro' | 'simulated';
      message: number;
      cleared?: ClearedResult[];
    }
  | { cause: 'rewind'; message: number; lines: string }
  | { cause: 'prefix-changed'; message: number; what: string }
  | {
      cause: 'rewrite';
      message: number;
      /** The policy and its rule (a simulation), or undefined for the agent's own rewrite in a log. */
      policy?: string;
      rule: string;
    }
  | { cause: 'server-edit'; message: number; cleared: number }
  | { cause: 'provider-miss' };

export interface CacheBreak {
  /** Numbered from 1, as the view and the CLI number requests. */
  request: number;
  /** The request's index in `Analysis.requests`. */
  index: number;
  time?: string;
  /** `main`, or the sub-agent's id. */
  thread: string;
  /** What the previous request left in the cache (capped at this prompt), and what this one read of it. */
  expectedTokens: number;
  readTokens: number;
  /** Tokens that had been cached and are now written or sent uncached. */
  tokens: number;
  /** Those tokens at this request's write or uncached price, less what reading them would have cost (USD). */
  cost: number;
  cause: BreakCause;
  evidence: BreakEvidence;
  /** The evidence in words ("idle 14 h 52 min > 1 h"). */
  words: string;
}

export interface CauseTotal {
  cause: BreakCause;
  breaks: number;
  tokens: number;
  cost: number;
}

export interface CacheBreakReport {
  /** `log`: the breaks the recorded usage shows; otherwise the policy whose replay made them. */
  source: 'log' | string;
  thread: string;
  /** Requests looked at (those the log or the replay gives figures for). */
  requests: number;
  breaks: CacheBreak[];
  /** Every cause of the closed list, in its order, with the breaks it explains (zero rows kept). */
  totals: CauseTotal[];
  cost: number;
  /** Of the breaks, the share nothing in the transcript explains: by count and by cost (0 when there are none). */
  providerMissShare: { breaks: number; cost: number };
}
