// The pieces several messages carry, declared as their checks; their types are derived from them.

import { totalsCheck } from '../analysisWire/check';
import { requestColumnsCheck } from '../analysisWire/columns';
import type { TurnOnSnippet } from '../core/engine/policies/descriptor';
import type { Baseline } from '../core/engine/policies/replay';
import type { SweepGrid } from '../core/sweep';
import type { Verdict } from '../core/verdict';
import { exactly, type Infer, v } from './check';

const role = v.oneOf(['system', 'user', 'assistant'] as const);

/** What the list shows of a message besides its analysis: a short plain-text preview and where it sits. */
export const messageSummaryCheck = v.object({
  index: v.int,
  role,
  /** First characters of the message's text, rendered as text (never as HTML). */
  preview: v.string,
  /** Kinds of its blocks, in order (`text`, `tool_use`, `tool_result`…). */
  blockKinds: v.array(v.string),
  /** 1-based source line of the message's first record, when known. */
  line: v.optional(v.int),
  flags: v.optional(v.array(v.string)),
  /** Names of the tools this message calls, or of the calls its results answer. */
  toolNames: v.optional(v.array(v.string)),
});
export type MessageSummary = Infer<typeof messageSummaryCheck>;

export const markerSummaryCheck = v.object({
  kind: v.oneOf(['compaction', 'unknown-record', 'meta-record'] as const),
  label: v.string,
  beforeMessage: v.int,
  line: v.optional(v.int),
  text: v.optional(v.string),
});
export type MarkerSummary = Infer<typeof markerSummaryCheck>;

export { type DiagnosticSummary, diagnosticSummaryCheck } from '../analysisWire/check';

export const summarizerNameCheck = v.oneOf(['none', 'extractive', 'vscode-lm'] as const);
export type SummarizerName = Infer<typeof summarizerNameCheck>;

export const modelPresetSummaryCheck = v.object({ id: v.string, label: v.string });
export type ModelPresetSummary = Infer<typeof modelPresetSummaryCheck>;

/** One block of the selected message, as the Details view shows it. */
export const blockDetailCheck = v.object({
  blockIndex: v.int,
  kind: v.string,
  /** The original content as text (nested text blocks joined; images and others described). */
  original: v.string,
  /** The content after the policy, when the policy rewrote this block. */
  compressed: v.nullable(v.string),
  toolUseId: v.optional(v.string),
  toolName: v.optional(v.string),
  /** The paired tool call's input as pretty JSON (for a tool_result), or this call's input (for a tool_use). */
  toolArgs: v.optional(v.string),
  /** 1-based source line of the block, when known. */
  line: v.optional(v.int),
});
export type BlockDetail = Infer<typeof blockDetailCheck>;

/** The requests of another policy, for the chart's side-by-side comparison. */
export const policyComparisonCheck = v.object({
  policyName: v.string,
  totals: totalsCheck,
  requests: requestColumnsCheck,
});
export type PolicyComparison = Infer<typeof policyComparisonCheck>;

/** One request stream of a file: its id (`main` or the sub-agent's), messages and replies with recorded usage. */
export const threadSummaryCheck = v.object({
  id: v.string,
  messages: v.int,
  replies: v.int,
  description: v.optional(v.string),
});
export type ThreadSummary = Infer<typeof threadSummaryCheck>;

/** How the user arranged the view, remembered per workspace. */
export const viewLayoutCheck = v.object({
  /** The controls side panel is open. */
  controlsOpen: v.bool,
  /** The list's share of the list/details split, 0.2 to 0.8 (the webview clamps what it reads). */
  split: v.number,
  /** The list shows the log's bookkeeping records (meta, snapshots, progress…: no conversation); unset: hidden. */
  bookkeeping: v.optional(v.bool),
});
export type ViewLayout = Infer<typeof viewLayoutCheck>;

/** The tier constants the Tuning tab sweeps. */
export const SWEEP_KEYS = ['tiered.keepRecent', 'tiered.tier1Distance'] as const;
export type SweepKey = (typeof SWEEP_KEYS)[number];

/** core/sweep.ts's SweepGrid as it crosses to the view: each cell the policy's cost against the baseline and the
 * tokens it saves. */
export type SweepGridWire = Omit<SweepGrid, 'policy'> & {
  policy: string;
  /** What each cell is compared with (`replay.baseline` of the policy swept). */
  baseline: Baseline;
  /** What the figures do not say by themselves (core/sweepAdvice.ts): an edge, a risky best cell, an inert axis. */
  advice?: string[];
};
export type SweepCellWire = NonNullable<SweepGridWire['cells'][number]>;

const sweepAxis = v.object({ key: v.string, values: v.array(v.int) });
export const sweepGridCheck = exactly<SweepGridWire>()(
  v.object({
    policy: v.string,
    baseline: v.oneOf(['as-logged', 'none'] as const),
    rows: sweepAxis,
    cols: sweepAxis,
    cells: v.array(
      v.nullable(
        v.object({
          cost: v.number,
          noneCost: v.number,
          deltaCost: v.number,
          deltaShare: v.number,
          tokensSaved: v.number,
          extraWritten: v.number,
        }),
      ),
    ),
    refused: v.array(v.nullable(v.string)),
    advice: v.optional(v.array(v.string)),
    current: v.nullable(v.int),
    sessions: v.int,
    replays: v.int,
  }),
);

/** core/verdict.ts's Verdict as it crosses to the view (a snippet's target as a string: the view only shows it). */
export type VerdictWire = Omit<Verdict, 'turnOn'> & {
  turnOn: (Omit<TurnOnSnippet, 'target'> & { target: string })[];
};
const verdictRowCheck = v.object({
  policyName: v.string,
  label: v.string,
  cost: v.number,
  deltaCost: v.number,
  deltaShare: v.number,
  simulatedFromDocs: v.bool,
  clientSide: v.bool,
});
export const verdictCheck = exactly<VerdictWire>()(
  v.object({
    provider: v.string,
    baseline: v.string,
    against: v.string,
    baselineCost: v.number,
    requests: v.int,
    ranked: v.array(verdictRowCheck),
    best: v.nullable(verdictRowCheck),
    current: v.object({ policyName: v.string, label: v.string, row: v.nullable(verdictRowCheck) }),
    turnOn: v.array(
      v.object({
        target: v.string,
        language: v.oneOf(['json', 'toml', 'shell'] as const),
        title: v.string,
        text: v.string,
        note: v.optional(v.string),
      }),
    ),
  }),
);
