// The Analysis: what the engine concluded about one transcript under one policy. The UI and the CLI read only this.
import type { Baseline } from './engine/policies/replay';
import type { Diagnostic, FormatId, Role } from './model';

export type Tier = 1 | 2 | 3;
export type Zone = 'prefix' | 'protected' | 'live';
/** `context_edit`: a block the provider's server clears (Anthropic context editing), not the client. */
export type RewriteAction = 'tier1' | 'tier2' | 'obs_window' | 'live_zone' | 'context_edit' | 'microcompact';

/** SPEC §7: one rewrite of one block. Hashes: first 12 hex digits of SHA-256 of the old/new content. */
export interface CompressionEvent {
  action: RewriteAction;
  messageIndex: number;
  blockIndex: number;
  toolUseId: string | null;
  tier?: Tier;
  oldHash: string;
  newHash: string;
  oldLen: number;
  newLen: number;
  /** The request (0-based) whose pass made this rewrite; 0 when the policy ran once. */
  requestIndex: number;
}

export interface MessageAnalysis {
  index: number;
  role: Role;
  /** Tier of a tool-result message (null for messages without tool results). */
  tier: Tier | null;
  /** Distance of a tool-result message (SPEC §1), null otherwise. */
  distance: number | null;
  /** A floor tool kept this message from Tier 1. */
  floored: boolean;
  zone: Zone;
  tokensBefore: number;
  tokensAfter: number;
  rewritten: boolean;
  /** tool_use ids this message calls or answers. */
  toolIds: string[];
  /** Tool names (of the calls, or of the calls a result answers). */
  toolNames: string[];
}

export interface RequestAnalysis {
  index: number;
  /** Messages [0, messageCount) were sent. */
  messageCount: number;
  promptTokens: number;
  cachedTokens: number;
  writtenTokens: number;
  /** First message that differs from the previous request's prompt (null: nothing differs). */
  boundaryMessage: number | null;
  /** Indices into Analysis.events of the rewrites that moved the boundary. */
  boundaryEvents: number[];
  cost: number;
  timestamp?: string;
  recorded?: {
    inputTokens: number;
    cacheReadInputTokens: number;
    cacheCreationInputTokens: number;
    outputTokens: number;
  };
  /** Output tokens the simulation charged (the reply's tokens × calibration). */
  outputTokens?: number;
  /** The next request, not yet sent: the one a pass "now" prepares (its content is what export writes). */
  pending?: boolean;
  /** Anthropic: more than the cache lifetime passed since the previous request, so nothing was read from cache. */
  cacheExpired?: boolean;
  /** Whether a policy pass ran before this request (by the replay trigger). */
  passRan?: boolean;
  /** The model the request was priced and cached at (the price table's id). */
  model?: string;
  /** After a compaction: the first message the request carried (the summary); absent when it is 0. */
  firstMessage?: number;
  /** The log shows a cache break here that the transcript cannot explain (tools loaded mid-session, the agent's own
   * clearing, a provider-side miss): the cache held no more than the recorded read, whatever the policy. */
  recordedCacheBreak?: boolean;
  /** Compaction (engine/compaction.ts): the conversation was summarized before this request. The summarization
   * request's own figures; its cost is included in `cost` (the token figures above are this request's only). */
  compaction?: SummarizationRequest;
}

/** The request that asks the model for a summary before a compaction: the conversation so far (read from the cache
 * the previous request wrote), answered with the summary. */
export interface SummarizationRequest {
  /** What the agent counted when it decided (its last usage and what came since), against the threshold. */
  contextTokens: number;
  promptTokens: number;
  cachedTokens: number;
  writtenTokens: number;
  /** The summary: the log's own where it compacted here, else `compaction.summaryTokens`. */
  outputTokens: number;
  /** Whether the summary is the log's own (it compacted before the same request). */
  fromLog: boolean;
  /** Whether the figures are estimated (the conversation so far, read from the cache the previous request wrote);
   * false where they are the agent's own record of the request (`file`). */
  estimated: boolean;
  /** The file the agent recorded this summarization request in (Claude Code's `agent-acompact-*.jsonl`). */
  file?: string;
  cost: number;
  /** The first message the request after it sends (after the summary). */
  keptFrom: number;
  /** How many summarization requests these figures add up, where more than one: the log compacted again before the
   * agent sent anything (each compaction was a summarization request of its own). */
  requests?: number;
}

/** A compaction the log records, beside the simulated ones (compaction.ts). */
export interface RecordedCompaction {
  /** The request that followed it (the first one carrying its summary). */
  request: number;
  /** The message the compaction marker stands before. */
  beforeMessage: number;
  /** Tokens before it, as the agent recorded them (Claude Code `compactMetadata.preTokens`). */
  preTokens?: number;
}

export interface AnalysisTotals {
  messages: number;
  toolResults: number;
  tokensBefore: number;
  tokensAfter: number;
  promptTokens: number;
  cachedTokens: number;
  writtenTokens: number;
  cost: number;
  /** Tier counts and tokens saved per tier. */
  tiers: Record<'1' | '2' | '3', { count: number; tokensSaved: number }>;
  summarizerAttempts: number;
  summarizerFailures: number;
}

export interface Analysis {
  format: FormatId;
  policyName: string;
  /** The replay trigger that ran (`auto` resolved: everyRequest for a session, once for a request body). */
  trigger: 'once' | 'everyRequest' | 'pressure';
  messages: MessageAnalysis[];
  requests: RequestAnalysis[];
  events: CompressionEvent[];
  totals: AnalysisTotals;
  /** The cache boundary of the final request (index of the first rewritten message), null if none. */
  cacheBoundary: number | null;
  /** Tokens counted with o200k for a Claude model: an estimate, calibrated against recorded usage. */
  tokenEstimate: boolean;
  /** Model preset id and tokenizer the figures used. */
  model?: string;
  tokenizer?: string;
  /** The session model's context window, in tokens. */
  contextWindow?: number;
  /** SPEC §4: model context window minus liveZone.outputBufferTokens. */
  contextBudget?: number;
  /** What the file does not hold (system prompt, tools) and the tokenizer factor, estimated and labelled. */
  hiddenPrefix?: HiddenPrefixInfo;
  /** The simulated cache figures next to the usage the transcript recorded, when it recorded any. */
  recorded?: RecordedComparison;
  /** Summarizer used (`none`, `extractive:300`, `vscode-lm:…`). */
  summarizer?: string;
  /** Events whose block grew (Tier-1 stubs of short results, head-and-tail just over the limit, observation stubs
   * of short results): SPEC §8.2 asks that they be reported. Indices into `events`. */
  grewEvents?: number[];
  /** Figures that look wrong, said where the figure is (core/sanity.ts). */
  flags?: SanityFlag[];
  /** The tools this policy would stub to Tier 1 though they look content-bearing (core/problems.ts): the part of
   * the Problems panel's list that depends on the settings, so that the view's Problems tab shows the same list. */
  floorProblems?: Diagnostic[];
  /** The facts behind each block's fate (first touch, floor tool, live-zone outcome). */
  why?: WhyFacts;
  /** The policy beside "none" over the same requests; set by whoever also ran none (core/vsNone.ts). */
  vsNone?: VsNone;
  /** The first message the next request sends when it is not 0: after a compaction the summary (what came before
   * was compacted away and is not sent again). */
  liveFrom?: number;
  /** Compaction: the requests the simulation compacted before (their `compaction`), beside those the log did. */
  compactions?: { simulated: number[]; recorded: RecordedCompaction[] };
}

/** What the file does not hold of each request, estimated from its recorded usage (engine/calibration.ts). */
export interface HiddenPrefixInfo {
  /** Tokens added to every request for what the file does not hold. */
  hiddenTokens: number;
  /** Multiplier from our counts to the provider's. */
  calibration: number;
  /** Requests with recorded usage that the fit used. */
  samples: number;
  /** How the figures were obtained, in words for the UI and the CLI. */
  source: string;
  /** Whether the hidden prefix is taken as already in the provider's cache at the first request (true when it was
   * measured from recorded usage: the agent sends the same system prompt and tools in every session). */
  warmAtStart: boolean;
  /** How much of the hidden prefix is read from cache at the first request. Claude Code's hidden prefix holds a
   * shared part (instructions, tools: cached by earlier sessions) and a per-session part (environment, memory
   * files) that the first request writes; the first request's recorded cache read tells them apart. */
  warmTokens: number;
  /** Per model that answered, when several did and each had enough recorded requests (engine/calibration.ts). */
  byModel?: { model: string; hiddenTokens: number; calibration: number; samples: number }[];
}

export interface RecordedComparison {
  /** Requests of the replay that have recorded usage. */
  requests: number;
  /** Replies the whole file records usage for (main thread, sub-agents, off-branch): what `requests` is out of. */
  fileReplies: number;
  /** What the session really cost: every reply of the file at its model and cache lifetime (recordedUsage.ts). */
  sessionCost: number;
  /** Replies of models the price table does not know (or of no model) are priced as a preset: of `sessionCost`,
   * what they cost, and which models as which preset, in words. */
  sessionCostEstimate?: { cost: number; models: string };
  recordedCacheRead: number;
  simulatedCached: number;
  /** cache_creation_input_tokens + input_tokens: everything not read from cache. */
  recordedWritten: number;
  simulatedWritten: number;
  /** (simulated − recorded) / recorded. */
  cachedError: number;
  writtenError: number;
  perRequest: { index: number; cachedError: number | null; writtenError: number | null }[];
}

/** SPEC §5: what a policy costs is its total beside "none" over the same requests (core/vsNone.ts). */
export interface VsNone {
  /** The run compared with (`replay.baseline`): the log's own compactions and their summarization requests, or no
   * compaction at all. The `none…` figures below are that run's. */
  baseline: Baseline;
  /** Sent requests both runs priced (the next, pending request is apart: `compactedNow`). */
  requests: number;
  cost: number;
  noneCost: number;
  /** cost − noneCost: negative when the policy saves money. */
  deltaCost: number;
  /** deltaCost / noneCost (0 when none costs nothing). */
  deltaShare: number;
  promptTokens: number;
  nonePromptTokens: number;
  /** Prompt tokens the policy did not send, summed over the requests. */
  tokensSaved: number;
  writtenTokens: number;
  noneWrittenTokens: number;
  /** Cache writes the policy's rewrites caused: writtenTokens − noneWrittenTokens (negative: it wrote less). */
  extraWritten: number;
  /** One pass before the next request ("if compacted now"): absent when this analysis did not compute it. */
  compactedNow?: Payback;
}

/** A one-shot pass against none: the next request's extra write against the saving per later request. */
export interface Payback {
  /** Tokens the next request writes to the cache beyond what it writes under none. */
  extraWrittenTokens: number;
  /** What the next request costs beyond none (the write premium, less the cheaper read). */
  extraCost: number;
  /** Prompt tokens each later request does not send (it reads the shorter prefix from cache). */
  savedTokensPerRequest: number;
  /** What each later request saves: the saved tokens at the cache-read price. */
  savedCostPerRequest: number;
  /** After how many later requests the saving covers the extra cost (0: at once; null: never). */
  paybackRequests: number | null;
}

/** What became of one live-zone candidate block (SPEC §4), for the why-line. */
/** `summary`: a compaction summary, never compressed (the agent's memory of what came before). */
export const LIVE_OUTCOMES = ['compressed', 'not-shorter', 'left-as-is', 'short', 'summary'] as const;
export type LiveOutcome = (typeof LIVE_OUTCOMES)[number];
/** The types the live zone detects (engine/compressors/detect.ts `detectType`), in their wire order. */
export const LIVE_TYPES = ['json-array', 'diff', 'html', 'search', 'log', 'tabular', 'code', 'text'] as const;
export interface LiveOutcomeFact {
  message: number;
  block: number;
  /** The request whose pass had it as the live zone. */
  request: number;
  /** Characters of the original. */
  chars: number;
  /** The detected type (null: under liveZone.minChars, not looked at). */
  type: (typeof LIVE_TYPES)[number] | null;
  outcome: LiveOutcome;
}

/** The facts behind each block's fate (engine/why.ts), so that the view can say which rule applied. */
export interface WhyFacts {
  /** Per tool-result message a tiered pass classified: [message, request whose pass first met it, distance then],
   * flattened. */
  firstTouch: number[];
  /** Floored messages (distance ≥ tier1Distance): the floor tool that kept each from Tier 1. */
  floorTools: { message: number; tool: string }[];
  liveZone: LiveOutcomeFact[];
  /** Rewrites not made because they would not have made the block shorter in tokens (SPEC §2 "no growth"). */
  notShorter: NotShorterFact[];
  /** Blocks the server's context editing cleared, and the requests whose edit cleared new ones (absent when the
   * policy has no context editing). */
  cleared?: ClearedFact[];
  clearings?: ClearingFact[];
}

/** A rewrite a pass would have made, kept back because it was not shorter in tokens than what the block holds. */
export interface NotShorterFact {
  message: number;
  block: number;
  /** The rule whose rewrite it was. */
  action: 'tier1' | 'tier2' | 'obs_window';
  /** The request whose pass met it. */
  request: number;
  /** Tokens of the block as it stays, and of the rewrite that was not made. */
  tokens: number;
  rewriteTokens: number;
}

/** One block context editing cleared: what it was, and the request before which it was first cleared. */
export interface ClearedFact {
  message: number;
  block: number;
  request: number;
  /** `tool_result`: replaced by the placeholder; `tool_input`: the call's input emptied (`clearToolInputs`);
   * `thinking`: removed (`clearThinkingKeep`). */
  kind: 'tool_result' | 'tool_input' | 'thinking';
}

/** A request before which context editing cleared blocks it had not cleared before, with the numbers behind it. */
export interface ClearingFact {
  request: number;
  /** The prompt the server received, in input tokens, and the tool uses in it (what `trigger` is compared with). */
  promptTokens: number;
  toolUses: number;
  /** Tokens the edit takes out of that request (against `clearAtLeast`). */
  freedTokens: number;
  /** Thinking turns in the request (against `clearThinkingKeep`). */
  thinkingTurns: number;
}

/** A figure that looks wrong, with why it may be (core/sanity.ts). `where` names the figure it is about. */
export interface SanityFlag {
  kind: 'beyond-window' | 'recorded-differs' | 'hidden-prefix';
  where: 'requests' | 'recorded' | 'hidden-prefix';
  message: string;
}
