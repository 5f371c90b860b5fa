// The checks of the wire analysis. Each one that stands for an engine type is `exactly` that type, so a field the
// engine adds fails to compile here until it is checked.
import {
  type AnalysisTotals,
  type CompressionEvent,
  type HiddenPrefixInfo,
  LIVE_OUTCOMES,
  LIVE_TYPES,
  type Payback,
  type SanityFlag,
  type VsNone,
} from '../core/analysisTypes';
import type { FormatId } from '../core/model';
import { type Check, exactly, type Infer, v } from '../protocol/check';
import { messageColumnsCheck, requestColumnsCheck } from './columns';
import {
  type AnalysisWire,
  type CompactionsView,
  LIVE_FACT_WIDTH,
  type RecordedTotals,
  type WireWhy,
} from './types';

/** A problem as the views show it (the Problems tab, the floors an analysis would miss). */
export const diagnosticSummaryCheck = v.object({
  severity: v.oneOf(['error', 'warning', 'info'] as const),
  code: v.string,
  message: v.string,
  line: v.int,
  column: v.int,
});
export type DiagnosticSummary = Infer<typeof diagnosticSummaryCheck>;
export const compressionEventCheck = exactly<CompressionEvent>()(
  v.object({
    action: v.oneOf(['tier1', 'tier2', 'obs_window', 'live_zone', 'context_edit', 'microcompact'] as const),
    messageIndex: v.int,
    blockIndex: v.int,
    toolUseId: v.nullable(v.string),
    tier: v.optional(v.oneOf([1, 2, 3] as const)),
    oldHash: v.string,
    newHash: v.string,
    oldLen: v.number,
    newLen: v.number,
    requestIndex: v.int,
  }),
);

export const paybackCheck = exactly<Payback>()(
  v.object({
    extraWrittenTokens: v.number,
    extraCost: v.number,
    savedTokensPerRequest: v.number,
    savedCostPerRequest: v.number,
    paybackRequests: v.nullable(v.int),
  }),
);

const vsNone = exactly<VsNone>()(
  v.object({
    baseline: v.oneOf(['as-logged', 'none'] as const),
    requests: v.int,
    cost: v.number,
    noneCost: v.number,
    deltaCost: v.number,
    deltaShare: v.number,
    promptTokens: v.number,
    nonePromptTokens: v.number,
    tokensSaved: v.number,
    writtenTokens: v.number,
    noneWrittenTokens: v.number,
    extraWritten: v.number,
    compactedNow: v.optional(paybackCheck),
  }),
);

/** `WireWhy.liveZone`: whole facts of `LIVE_FACT_WIDTH` integers, each code one of its list's. */
const liveFacts: Check<number[]> = v.refine(v.array(v.int), (z, p) => {
  if (z.length % LIVE_FACT_WIDTH !== 0)
    return `${p}: expected facts of ${LIVE_FACT_WIDTH} integers, got ${z.length}`;
  for (let i = 0; i < z.length; i += LIVE_FACT_WIDTH) {
    const type = z[i + 4];
    const outcome = z[i + 5];
    if (type < -1 || type >= LIVE_TYPES.length) return `${p}[${i + 4}]: no type has the code ${type}`;
    if (outcome < 0 || outcome >= LIVE_OUTCOMES.length)
      return `${p}[${i + 5}]: no outcome has the code ${outcome}`;
  }
  return null;
});

const why = exactly<WireWhy>()(
  v.object({
    firstTouch: v.array(v.int),
    floorTools: v.array(v.object({ message: v.int, tool: v.string })),
    liveZone: liveFacts,
    notShorter: v.array(
      v.object({
        message: v.int,
        block: v.int,
        action: v.oneOf(['tier1', 'tier2', 'obs_window'] as const),
        request: v.int,
        tokens: v.number,
        rewriteTokens: v.number,
      }),
    ),
    cleared: v.optional(
      v.array(
        v.object({
          message: v.int,
          block: v.int,
          request: v.int,
          kind: v.oneOf(['tool_result', 'tool_input', 'thinking'] as const),
        }),
      ),
    ),
    clearings: v.optional(
      v.array(
        v.object({
          request: v.int,
          promptTokens: v.number,
          toolUses: v.int,
          freedTokens: v.number,
          thinkingTurns: v.int,
        }),
      ),
    ),
  }),
);

const tierTotals = v.object({ count: v.number, tokensSaved: v.number });
export const totalsCheck = exactly<AnalysisTotals>()(
  v.object({
    messages: v.number,
    toolResults: v.number,
    tokensBefore: v.number,
    tokensAfter: v.number,
    promptTokens: v.number,
    cachedTokens: v.number,
    writtenTokens: v.number,
    cost: v.number,
    tiers: v.object({ '1': tierTotals, '2': tierTotals, '3': tierTotals }),
    summarizerAttempts: v.number,
    summarizerFailures: v.number,
  }),
);

const hiddenPrefix = exactly<HiddenPrefixInfo>()(
  v.object({
    hiddenTokens: v.number,
    calibration: v.number,
    samples: v.number,
    source: v.string,
    warmAtStart: v.bool,
    warmTokens: v.number,
    byModel: v.optional(
      v.array(
        v.object({ model: v.string, hiddenTokens: v.number, calibration: v.number, samples: v.number }),
      ),
    ),
  }),
);

const recorded = exactly<RecordedTotals>()(
  v.object({
    requests: v.number,
    fileReplies: v.number,
    sessionCost: v.number,
    sessionCostEstimate: v.optional(v.object({ cost: v.number, models: v.string })),
    recordedCacheRead: v.number,
    simulatedCached: v.number,
    recordedWritten: v.number,
    simulatedWritten: v.number,
    cachedError: v.number,
    writtenError: v.number,
  }),
);

const flag = exactly<SanityFlag>()(
  v.object({
    kind: v.oneOf(['beyond-window', 'recorded-differs', 'hidden-prefix'] as const),
    where: v.oneOf(['requests', 'recorded', 'hidden-prefix'] as const),
    message: v.string,
  }),
);

const compactions = exactly<CompactionsView>()(
  v.object({
    simulated: v.array(
      v.object({
        request: v.int,
        contextTokens: v.number,
        promptTokens: v.number,
        cachedTokens: v.number,
        writtenTokens: v.number,
        outputTokens: v.number,
        fromLog: v.bool,
        estimated: v.bool,
        file: v.optional(v.string),
        cost: v.number,
        keptFrom: v.int,
        requests: v.optional(v.int),
      }),
    ),
    recorded: v.array(v.object({ request: v.int, beforeMessage: v.int, preTokens: v.optional(v.number) })),
  }),
);

/** The check of a wire analysis; `format` is checked against the formats the host described. */
export function analysisCheckOf(format: Check<FormatId>): Check<AnalysisWire> {
  return exactly<AnalysisWire>()(
    v.object({
      format,
      policyName: v.string,
      trigger: v.oneOf(['once', 'everyRequest', 'pressure'] as const),
      totals: totalsCheck,
      cacheBoundary: v.nullable(v.int),
      boundaryEvent: v.nullable(compressionEventCheck),
      eventCount: v.int,
      tokenEstimate: v.bool,
      messages: messageColumnsCheck,
      requests: requestColumnsCheck,
      sentRequests: v.int,
      hiddenPrefix: v.optional(hiddenPrefix),
      recorded: v.optional(recorded),
      grewEvents: v.optional(v.int),
      vsNone: v.optional(vsNone),
      why: v.optional(why),
      flags: v.optional(v.array(flag)),
      floorProblems: v.optional(v.array(diagnosticSummaryCheck)),
      contextWindow: v.optional(v.int),
      tokensPending: v.optional(v.bool),
      compactions: v.optional(compactions),
      liveFrom: v.optional(v.int),
    }),
  );
}
