// The analysis as it crosses from the host to the webview (AnalysisWire) and as the webview's views draw it
// (ViewAnalysis), both derived from the engine's Analysis: a field of Analysis crosses as it is unless it is
// listed below as reshaped (with why) or left out. A field added to Analysis therefore crosses by default, and the
// wire's check (check.ts, `exactly`) fails to compile until it checks it too.
import type {
  Analysis,
  CompressionEvent,
  MessageAnalysis,
  RecordedComparison,
  RequestAnalysis,
  SummarizationRequest,
  WhyFacts,
} from '../core/analysisTypes';
import type { MessageColumns, RequestColumns } from './columns';

/** Fields of Analysis the view never reads: the model and tokenizer are the settings' own, the summarizer's name is
 * in the totals' attempts, the budget is the engine's. */
type LeftOut = 'model' | 'tokenizer' | 'contextBudget' | 'summarizer';

/** Fields that cross in another shape (see `Reshaped`). */
type ReshapedKey = 'messages' | 'requests' | 'events' | 'recorded' | 'grewEvents' | 'why' | 'compactions';

/** Passed through as the engine gives them. */
type PassedThrough = Pick<Analysis, Exclude<keyof Analysis, LeftOut | ReshapedKey>>;

/** WhyFacts as they cross: each live-zone fact as `LIVE_FACT_WIDTH` integers (message, block, request, chars,
 * type code, outcome code), flattened. As objects they were most of a switch to a live-zone policy's message. */
export type WireWhy = Omit<WhyFacts, 'liveZone'> & { liveZone: number[] };

/** Integers per live-zone fact. The type's code is its index in LIVE_TYPES (-1: null), the outcome's its index in
 * LIVE_OUTCOMES. */
export const LIVE_FACT_WIDTH = 6;

/** The compactions a compaction policy simulated, each with the request before which it summarized, beside those
 * the log records (Analysis.compactions, with the figures of each request's `compaction`). */
export interface CompactionsView {
  simulated: ({ request: number } & SummarizationRequest)[];
  recorded: Analysis['compactions'] extends { recorded: infer R } | undefined ? R : never;
}

/** The engine's comparison with the recorded usage, without the per-request list. */
export type RecordedTotals = Omit<RecordedComparison, 'perRequest'>;

/** What differs on the wire, and why. */
interface Reshaped {
  /** Columns, not one object per message (columns.ts). */
  messages: MessageColumns;
  /** Empty when the view does not show them (`sentRequests` still counts them): they are most of a change's
   * message on a long session, and only the Requests tab draws them. */
  requests: RequestColumns;
  /** How many requests the session sent (the pending next one aside): the request columns do not mark it. */
  sentRequests: number;
  /** In place of the events (the view fetches a message's own with its details): the event that moved the final
   * request's cache boundary (SPEC §7: the UI says which), and how many there are. */
  boundaryEvent: CompressionEvent | null;
  eventCount: number;
  recorded?: RecordedTotals;
  /** How many events grew (SPEC §8.2 asks that they be reported); their indices point into the events. */
  grewEvents?: number;
  /** The live zone's facts in columns. */
  why?: WireWhy;
  /** The simulated compactions with their summarization requests, which stay behind with the request objects. */
  compactions?: CompactionsView;
  /** The token figures are provisional (counts still being made); an exact analysis follows. Set by the host. */
  tokensPending?: boolean;
}

export type AnalysisWire = PassedThrough & Reshaped;

/** What the webview's views draw: the wire analysis with its columns and facts back as the engine's objects. */
export type ViewAnalysis = Omit<AnalysisWire, 'messages' | 'requests' | 'why'> & {
  messages: MessageAnalysis[];
  /** Empty while the view does not show them (see AnalysisWire.requests). */
  requests: RequestAnalysis[];
  why?: WhyFacts;
};
