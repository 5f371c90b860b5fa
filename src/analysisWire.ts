// The analysis as it crosses from the host to the webview: columns instead of one object per message and per
// request. A 10,000-message analysis is ~5 MB as objects and must cross on every threshold change (each
// crossing is serialised, copied and validated); as columns it is a tenth of that, and validating a column is a
// loop over numbers. The webview decodes it back into the Analysis shapes its views draw. Nothing is computed
// here: every figure is the engine's.
import type {
  Analysis,
  AnalysisTotals,
  CompressionEvent,
  HiddenPrefixInfo,
  LiveOutcomeFact,
  MessageAnalysis,
  RecordedCompaction,
  RecordedComparison,
  RequestAnalysis,
  SanityFlag,
  SummarizationRequest,
  Tier,
  VsNone,
  WhyFacts,
  Zone,
} from './core/analysisTypes';
import { LIVE_OUTCOMES, LIVE_TYPES } from './core/analysisTypes';
import type { FormatId } from './core/model';

export interface MessageColumns {
  /** One character per message: '1', '2', '3', or '-' (no tool result). */
  tier: string;
  /** -1 for none. */
  distance: number[];
  /** One character per message: '1' floored, '0' not. */
  floored: string;
  /** One character per message: 'p' prefix, 'r' protected, 'l' live. */
  zone: string;
  /** One character per message: '1' rewritten, '0' not. */
  rewritten: string;
  tokensBefore: number[];
  tokensAfter: number[];
}

export interface RequestColumns {
  messageCount: number[];
  promptTokens: number[];
  cachedTokens: number[];
  writtenTokens: number[];
  /** -1 for none. */
  boundaryMessage: number[];
  cost: number[];
  /** Recorded usage per request; -1 where the log has none. */
  recordedInput: number[];
  recordedCacheRead: number[];
  recordedCacheCreation: number[];
  recordedOutput: number[];
}

export interface AnalysisWire {
  format: FormatId;
  policyName: string;
  trigger: Analysis['trigger'];
  totals: AnalysisTotals;
  cacheBoundary: number | null;
  /** The event that moved the final request's cache boundary (SPEC §7: the UI says which). */
  boundaryEvent: CompressionEvent | null;
  eventCount: number;
  tokenEstimate: boolean;
  messages: MessageColumns;
  /** Empty when the view does not show them (`sentRequests` still counts them): they are most of a change's
   * message on a long session, and only the Requests tab draws them. */
  requests: RequestColumns;
  /** How many requests the session sent (the pending next one aside). */
  sentRequests: number;
  /** Labelled estimates and ground truth, passed through when the engine gives them. */
  hiddenPrefix?: HiddenPrefixInfo;
  recorded?: RecordedTotals;
  /** Events whose block grew (SPEC §8.2 asks that they be reported). */
  grewEvents?: number;
  /** The policy beside none over the same requests (SPEC §5). */
  vsNone?: VsNone;
  /** The facts behind each block's fate, for the why-lines (the live zone's in columns: `WireWhy`). */
  why?: WireWhy;
  /** Figures that look wrong, with why (core/sanity.ts). */
  flags?: SanityFlag[];
  /** The session model's context window. */
  contextWindow?: number;
  /** The token figures are provisional (counts still being made); an exact analysis follows. */
  tokensPending?: boolean;
  /** Compaction: the simulated compactions (with their summarization requests) beside the log's. */
  compactions?: CompactionsView;
}

/** WhyFacts as they cross: each live-zone fact as `LIVE_FACT_WIDTH` integers (message, block, request, chars,
 * type code, outcome code), flattened. As objects they were most of a switch to a live-zone policy's message on
 * 100 MB (589 of 680 KB, ~3,000 facts). */
export type WireWhy = Omit<WhyFacts, 'liveZone'> & { liveZone: number[] };

/** Integers per live-zone fact. The type's code is its index in LIVE_TYPES (-1: null), the outcome's its index in
 * LIVE_OUTCOMES. */
export const LIVE_FACT_WIDTH = 6;

function encodeWhy(why: WhyFacts): WireWhy {
  const liveZone: number[] = [];
  for (const f of why.liveZone)
    liveZone.push(
      f.message,
      f.block,
      f.request,
      f.chars,
      f.type === null ? -1 : LIVE_TYPES.indexOf(f.type),
      LIVE_OUTCOMES.indexOf(f.outcome),
    );
  return { ...why, liveZone };
}

function decodeWhy(why: WireWhy): WhyFacts {
  const liveZone: LiveOutcomeFact[] = [];
  const z = why.liveZone;
  for (let i = 0; i + LIVE_FACT_WIDTH <= z.length; i += LIVE_FACT_WIDTH)
    liveZone.push({
      message: z[i],
      block: z[i + 1],
      request: z[i + 2],
      chars: z[i + 3],
      type: z[i + 4] === -1 ? null : LIVE_TYPES[z[i + 4]],
      outcome: LIVE_OUTCOMES[z[i + 5]],
    });
  return { ...why, liveZone };
}

/** The compactions a compaction policy simulated, each with the request before which it summarized, beside those
 * the log records (Analysis.compactions, with the figures of each request's `compaction`). */
export interface CompactionsView {
  simulated: ({ request: number } & SummarizationRequest)[];
  recorded: RecordedCompaction[];
}

/** The engine's comparison with the recorded usage, without the per-request list. */
export type RecordedTotals = Omit<RecordedComparison, 'perRequest'>;

/** What the webview's views draw: the Analysis without the full event list (details fetch their own). */
export interface ViewAnalysis {
  format: FormatId;
  policyName: string;
  trigger: Analysis['trigger'];
  messages: MessageAnalysis[];
  /** Empty while the view does not show them (see AnalysisWire.requests). */
  requests: RequestAnalysis[];
  sentRequests: number;
  totals: AnalysisTotals;
  cacheBoundary: number | null;
  boundaryEvent: CompressionEvent | null;
  eventCount: number;
  tokenEstimate: boolean;
  hiddenPrefix?: HiddenPrefixInfo;
  recorded?: RecordedTotals;
  grewEvents?: number;
  vsNone?: VsNone;
  why?: WhyFacts;
  flags?: SanityFlag[];
  contextWindow?: number;
  tokensPending?: boolean;
  compactions?: CompactionsView;
}

const ZONE_CODE: Record<Zone, string> = { prefix: 'p', protected: 'r', live: 'l' };
const ZONE_OF: Record<string, Zone> = { p: 'prefix', r: 'protected', l: 'live' };

/** The event that put the final request's cache boundary where it is. */
export function boundaryEventOf(analysis: Analysis): CompressionEvent | null {
  if (analysis.cacheBoundary === null) return null;
  const sent = analysis.requests.filter((r) => !r.pending);
  const last = sent[sent.length - 1] ?? analysis.requests[analysis.requests.length - 1];
  const fromRequest = last?.boundaryEvents.map((i) => analysis.events[i]).find((e) => e !== undefined);
  return fromRequest ?? analysis.events.find((e) => e.messageIndex === analysis.cacheBoundary) ?? null;
}

export function encodeRequests(requests: readonly RequestAnalysis[]): RequestColumns {
  const c: RequestColumns = {
    messageCount: [],
    promptTokens: [],
    cachedTokens: [],
    writtenTokens: [],
    boundaryMessage: [],
    cost: [],
    recordedInput: [],
    recordedCacheRead: [],
    recordedCacheCreation: [],
    recordedOutput: [],
  };
  for (const r of requests) {
    c.messageCount.push(r.messageCount);
    c.promptTokens.push(r.promptTokens);
    c.cachedTokens.push(r.cachedTokens);
    c.writtenTokens.push(r.writtenTokens);
    c.boundaryMessage.push(r.boundaryMessage ?? -1);
    c.cost.push(r.cost);
    c.recordedInput.push(r.recorded?.inputTokens ?? -1);
    c.recordedCacheRead.push(r.recorded?.cacheReadInputTokens ?? -1);
    c.recordedCacheCreation.push(r.recorded?.cacheCreationInputTokens ?? -1);
    c.recordedOutput.push(r.recorded?.outputTokens ?? -1);
  }
  return c;
}

/** `requests`: whether the request columns are wanted (the view shows them); the count is always there. */
export function encodeAnalysis(analysis: Analysis, options: { requests?: boolean } = {}): AnalysisWire {
  const m = analysis.messages;
  const tier: string[] = [];
  const floored: string[] = [];
  const zone: string[] = [];
  const rewritten: string[] = [];
  const distance: number[] = [];
  const tokensBefore: number[] = [];
  const tokensAfter: number[] = [];
  for (const a of m) {
    tier.push(a.tier === null ? '-' : String(a.tier));
    floored.push(a.floored ? '1' : '0');
    zone.push(ZONE_CODE[a.zone]);
    rewritten.push(a.rewritten ? '1' : '0');
    distance.push(a.distance ?? -1);
    tokensBefore.push(a.tokensBefore);
    tokensAfter.push(a.tokensAfter);
  }
  const wire: AnalysisWire = {
    format: analysis.format,
    policyName: analysis.policyName,
    trigger: analysis.trigger,
    totals: analysis.totals,
    cacheBoundary: analysis.cacheBoundary,
    boundaryEvent: boundaryEventOf(analysis),
    eventCount: analysis.events.length,
    tokenEstimate: analysis.tokenEstimate,
    messages: {
      tier: tier.join(''),
      distance,
      floored: floored.join(''),
      zone: zone.join(''),
      rewritten: rewritten.join(''),
      tokensBefore,
      tokensAfter,
    },
    requests: encodeRequests(options.requests === false ? [] : analysis.requests),
    sentRequests: analysis.requests.filter((r) => !r.pending).length,
  };
  if (analysis.hiddenPrefix) wire.hiddenPrefix = analysis.hiddenPrefix;
  if (analysis.recorded) {
    const { perRequest: _perRequest, ...recorded } = analysis.recorded;
    wire.recorded = recorded;
  }
  if (analysis.grewEvents?.length) wire.grewEvents = analysis.grewEvents.length;
  if (analysis.vsNone) wire.vsNone = analysis.vsNone;
  if (analysis.why) wire.why = encodeWhy(analysis.why);
  if (analysis.flags?.length) wire.flags = analysis.flags;
  if (analysis.compactions)
    wire.compactions = {
      simulated: analysis.compactions.simulated.flatMap((k) => {
        const c = analysis.requests[k]?.compaction;
        return c ? [{ request: k, ...c }] : [];
      }),
      recorded: analysis.compactions.recorded,
    };
  if (analysis.contextWindow) wire.contextWindow = analysis.contextWindow;
  return wire;
}

/** Requests [from, end) of the columns as objects. */
export function decodeRequests(c: RequestColumns, from = 0): RequestAnalysis[] {
  const out: RequestAnalysis[] = [];
  for (let index = from; index < c.promptTokens.length; index++) {
    const r: RequestAnalysis = {
      index,
      messageCount: c.messageCount[index],
      promptTokens: c.promptTokens[index],
      cachedTokens: c.cachedTokens[index],
      writtenTokens: c.writtenTokens[index],
      boundaryMessage: c.boundaryMessage[index] < 0 ? null : c.boundaryMessage[index],
      boundaryEvents: [],
      cost: c.cost[index],
    };
    if (c.recordedInput[index] >= 0)
      r.recorded = {
        inputTokens: c.recordedInput[index],
        cacheReadInputTokens: c.recordedCacheRead[index],
        cacheCreationInputTokens: c.recordedCacheCreation[index],
        outputTokens: c.recordedOutput[index],
      };
    out.push(r);
  }
  return out;
}

/** Back to per-message objects; `roles` and `toolNames` come from the transcript message (they never change
 * with the policy, so they cross once). */
export function decodeAnalysis(
  w: AnalysisWire,
  messages: readonly { role: MessageAnalysis['role']; toolNames?: string[] }[],
): ViewAnalysis {
  const out: MessageAnalysis[] = new Array(w.messages.distance.length);
  for (let i = 0; i < out.length; i++) out[i] = decodeRow(w.messages, i, messages);
  return decodeHead(w, out, decodeRequests(w.requests));
}

function decodeRow(
  c: MessageColumns,
  i: number,
  messages: readonly { role: MessageAnalysis['role']; toolNames?: string[] }[],
): MessageAnalysis {
  const t = c.tier.charCodeAt(i) - 48;
  const row: MessageAnalysis = {
    index: i,
    role: messages[i]?.role ?? 'user',
    tier: t >= 1 && t <= 3 ? (t as Tier) : null,
    distance: c.distance[i] < 0 ? null : c.distance[i],
    floored: c.floored[i] === '1',
    zone: ZONE_OF[c.zone[i]] ?? 'prefix',
    tokensBefore: c.tokensBefore[i],
    tokensAfter: c.tokensAfter[i],
    rewritten: c.rewritten[i] === '1',
    toolIds: [],
    toolNames: messages[i]?.toolNames ?? [],
  };
  return row;
}

function decodeHead(w: AnalysisWire, out: MessageAnalysis[], requests: RequestAnalysis[]): ViewAnalysis {
  const view: ViewAnalysis = {
    format: w.format,
    policyName: w.policyName,
    trigger: w.trigger,
    messages: out,
    requests,
    sentRequests: w.sentRequests,
    totals: w.totals,
    cacheBoundary: w.cacheBoundary,
    boundaryEvent: w.boundaryEvent,
    eventCount: w.eventCount,
    tokenEstimate: w.tokenEstimate,
  };
  if (w.hiddenPrefix) view.hiddenPrefix = w.hiddenPrefix;
  if (w.recorded) view.recorded = w.recorded;
  if (w.grewEvents) view.grewEvents = w.grewEvents;
  if (w.vsNone) view.vsNone = w.vsNone;
  if (w.why) view.why = decodeWhy(w.why);
  if (w.flags) view.flags = w.flags;
  if (w.contextWindow) view.contextWindow = w.contextWindow;
  if (w.tokensPending) view.tokensPending = true;
  if (w.compactions) view.compactions = w.compactions;
  return view;
}

// ---------------------------------------------------------------------------------------------------------
// Patches: a threshold step changes the tier of a few tool results and (under the `once` trigger) the pending
// request only, so after the first analysis the host sends just the rows that changed. On 100 MB the whole
// analysis is ~1 MB, serialised twice on the host and copied across the editor's websocket and two frames per
// keystroke; a step's patch is a few hundred bytes.

/** The part of an analysis message that says its columns hold only what changed since analysis `base`. */
export interface AnalysisPatch {
  /** The id of the analysis this one changes (the view must hold exactly that one). */
  base: number;
  /** Message rows the message columns hold, ascending. */
  rows: number[];
  messageCount: number;
  /** The request columns hold requests [requestsFrom, requestCount). */
  requestsFrom: number;
  requestCount: number;
  /** Fields left out because they are those of `base` (the why-facts of a large session are ~100 KB). */
  kept?: KeptField[];
  /** `why.firstTouch` as its change from `base`'s, element by element and column by column (past its end, from
   * 0), in runs: [difference, count, ...]; the analysis then holds an empty `firstTouch`. A step of `keepRecent`
   * moves every result's first touch (~50 KB on 100 MB, most of a step's message) by the same few values. */
  firstTouchRuns?: number[];
  /** Message columns sent empty because the rows the patch holds have the base's values there: a policy switch
   * changes most rows' tier and tokens after, never their distance or tokens before (~36 of the ~137 KB of a
   * switch back to tiered on 100 MB). */
  sameColumns?: string[];
}

/** Optional fields a patch may leave out when unchanged. */
export const KEPT_FIELDS = ['why', 'vsNone', 'hiddenPrefix', 'recorded', 'flags'] as const;
export type KeptField = (typeof KEPT_FIELDS)[number];

type Column = string | number[];

function rowsDiffer(a: Record<string, Column>, b: Record<string, Column>, i: number): boolean {
  for (const key in b) {
    const x = a[key];
    const y = b[key];
    if (x === undefined) return true;
    if (typeof y === 'string') {
      if (typeof x !== 'string' || x.charCodeAt(i) !== y.charCodeAt(i)) return true;
    } else if (typeof x === 'string' || x[i] !== y[i]) return true;
  }
  return false;
}

function pick(
  columns: Record<string, Column>,
  rows: readonly number[],
  empty: readonly string[],
): Record<string, Column> {
  const out: Record<string, Column> = {};
  for (const key in columns) {
    const c = columns[key];
    if (empty.includes(key)) out[key] = typeof c === 'string' ? '' : [];
    else out[key] = typeof c === 'string' ? rows.map((r) => c[r]).join('') : rows.map((r) => c[r]);
  }
  return out;
}

/** The columns whose values at `rows` are the same in `a` and `b`. */
function sameAt(a: Record<string, Column>, b: Record<string, Column>, rows: readonly number[]): string[] {
  const same: string[] = [];
  for (const key in b) {
    const x = a[key];
    const y = b[key];
    if (x === undefined || typeof x !== typeof y) continue;
    if (
      rows.every((r) =>
        typeof y === 'string' ? (x as string).charCodeAt(r) === y.charCodeAt(r) : x[r] === y[r],
      )
    )
      same.push(key);
  }
  return same;
}

function slice(columns: Record<string, Column>, from: number): Record<string, Column> {
  const out: Record<string, Column> = {};
  for (const key in columns) out[key] = columns[key].slice(from);
  return out;
}

const columnsOf = (c: MessageColumns | RequestColumns) => c as unknown as Record<string, Column>;
const lengthOf = (c: Record<string, Column>) => Object.values(c)[0]?.length ?? 0;

/**
 * `next` as a patch on `prev` (whose id is `base`): every field but the columns whole, the message rows that
 * differ in any column, and the requests from the first that differs. Null when a patch would not be smaller
 * (another transcript, or most rows changed).
 */
export function diffAnalysis(
  prev: AnalysisWire,
  next: AnalysisWire,
  base: number,
): { analysis: AnalysisWire; patch: AnalysisPatch } | null {
  const pm = columnsOf(prev.messages);
  const nm = columnsOf(next.messages);
  const messageCount = lengthOf(nm);
  if (lengthOf(pm) !== messageCount) return null;
  const rows: number[] = [];
  for (let i = 0; i < messageCount; i++) if (rowsDiffer(pm, nm, i)) rows.push(i);
  if (rows.length > messageCount / 2) return null;
  const pr = columnsOf(prev.requests);
  const nr = columnsOf(next.requests);
  const requestCount = lengthOf(nr);
  let requestsFrom = 0;
  const common = Math.min(lengthOf(pr), requestCount);
  while (requestsFrom < common && !rowsDiffer(pr, nr, requestsFrom)) requestsFrom++;
  const same = rows.length > 0 ? sameAt(pm, nm, rows) : [];
  const analysis: AnalysisWire = {
    ...next,
    messages: pick(nm, rows, same) as unknown as MessageColumns,
    requests: slice(nr, requestsFrom) as unknown as RequestColumns,
  };
  const patch: AnalysisPatch = { base, rows, messageCount, requestsFrom, requestCount };
  if (same.length > 0) patch.sameColumns = same;
  const kept = KEPT_FIELDS.filter(
    (k) => next[k] !== undefined && JSON.stringify(next[k]) === JSON.stringify(prev[k]),
  );
  if (kept.length > 0) {
    for (const k of kept) delete analysis[k];
    patch.kept = kept;
  }
  const runs = analysis.why && prev.why ? differenceRuns(prev.why.firstTouch, analysis.why.firstTouch) : null;
  if (analysis.why && runs) {
    analysis.why = { ...analysis.why, firstTouch: [] };
    patch.firstTouchRuns = runs;
  }
  return { analysis, patch };
}

/** Elements per first-touch fact: [message, request, distance]. */
const FIRST_TOUCH_STRIDE = 3;

/** The order in which runs walk an array of `length` facts of `stride` elements: column by column (the change of a
 * step is alike down a column: every request +1, every distance +1). */
function* columnWise(length: number, stride: number): Generator<number> {
  for (let c = 0; c < stride; c++) for (let i = c; i < length; i += stride) yield i;
}

/** `next` against `prev`, element by element in `columnWise` order (past `prev`'s end, against 0), as runs
 * [difference, count, ...]; null when that is not shorter than `next` itself. */
function differenceRuns(prev: readonly number[], next: readonly number[]): number[] | null {
  if (next.length % FIRST_TOUCH_STRIDE !== 0) return null;
  const runs: number[] = [];
  for (const i of columnWise(next.length, FIRST_TOUCH_STRIDE)) {
    const d = next[i] - (i < prev.length ? prev[i] : 0);
    if (runs.length > 0 && runs[runs.length - 2] === d) runs[runs.length - 1]++;
    else runs.push(d, 1);
    if (runs.length >= next.length) return null;
  }
  return runs.length > 0 ? runs : null;
}

/** `prev` changed by `runs` (see `differenceRuns`), at most `max` long; null when they do not fit. */
function applyRuns(prev: readonly number[], runs: readonly number[], max: number): number[] | null {
  if (runs.length % 2 !== 0) return null;
  let length = 0;
  for (let r = 0; r < runs.length; r += 2) {
    if (!Number.isSafeInteger(runs[r]) || !Number.isInteger(runs[r + 1]) || runs[r + 1] < 1) return null;
    length += runs[r + 1];
  }
  if (length > max || length % FIRST_TOUCH_STRIDE !== 0) return null;
  const out = new Array<number>(length);
  let r = 0;
  let left = runs[1];
  for (const i of columnWise(length, FIRST_TOUCH_STRIDE)) {
    if (left === 0) {
      r += 2;
      left = runs[r + 1];
    }
    out[i] = (i < prev.length ? prev[i] : 0) + runs[r];
    left--;
  }
  return out;
}

/** The whole analysis from `prev` and a patch on it; null when the patch does not fit `prev`. */
export function applyPatch(
  prev: AnalysisWire,
  part: AnalysisWire,
  patch: AnalysisPatch,
): AnalysisWire | null {
  const pm = columnsOf(prev.messages);
  const am = columnsOf(part.messages);
  const pr = columnsOf(prev.requests);
  const ar = columnsOf(part.requests);
  const { rows, messageCount, requestsFrom, requestCount } = patch;
  const same = patch.sameColumns ?? [];
  if (lengthOf(pm) !== messageCount) return null;
  for (const key of same) if (pm[key] === undefined || am[key]?.length !== 0) return null;
  for (const key in am) if (!same.includes(key) && am[key].length !== rows.length) return null;
  if (requestsFrom > lengthOf(pr) || lengthOf(ar) !== requestCount - requestsFrom) return null;
  for (let k = 0; k < rows.length; k++)
    if (
      !Number.isInteger(rows[k]) ||
      rows[k] < 0 ||
      rows[k] >= messageCount ||
      (k > 0 && rows[k] <= rows[k - 1])
    )
      return null;
  const messages: Record<string, Column> = {};
  for (const key in pm) {
    const p = pm[key];
    const a = am[key];
    if (a === undefined || typeof a !== typeof p) return null;
    if (same.includes(key)) messages[key] = p.slice();
    else if (typeof p === 'string') {
      const chars = p.split('');
      rows.forEach((r, k) => {
        chars[r] = (a as string)[k];
      });
      messages[key] = chars.join('');
    } else {
      const copy = p.slice();
      rows.forEach((r, k) => {
        copy[r] = (a as number[])[k];
      });
      messages[key] = copy;
    }
  }
  const requests: Record<string, Column> = {};
  for (const key in pr) {
    const a = ar[key];
    if (a === undefined) return null;
    requests[key] = (pr[key] as number[]).slice(0, requestsFrom).concat(a as number[]);
  }
  const whole: AnalysisWire = {
    ...part,
    messages: messages as unknown as MessageColumns,
    requests: requests as unknown as RequestColumns,
  };
  for (const k of patch.kept ?? []) {
    if (!KEPT_FIELDS.includes(k) || prev[k] === undefined) return null;
    Object.assign(whole, { [k]: prev[k] });
  }
  if (patch.firstTouchRuns) {
    if (!whole.why || !prev.why || whole.why.firstTouch.length !== 0) return null;
    // One fact per tool-result message at most.
    const max = FIRST_TOUCH_STRIDE * messageCount;
    const firstTouch = applyRuns(prev.why.firstTouch, patch.firstTouchRuns, max);
    if (!firstTouch) return null;
    whole.why = { ...whole.why, firstTouch };
  }
  return whole;
}

/** `decodeAnalysis` of `w`, the whole analysis after `patch` (applyPatch), reusing the message objects of `prev` (the decoded `base`) for the
 * rows the patch did not touch: the list and the ladder then see which rows changed by identity. */
export function decodePatched(
  w: AnalysisWire,
  patch: AnalysisPatch,
  prev: ViewAnalysis,
  messages: readonly { role: MessageAnalysis['role']; toolNames?: string[] }[],
): ViewAnalysis {
  const out = prev.messages.slice();
  for (const r of patch.rows) out[r] = decodeRow(w.messages, r, messages);
  const from = patch.requestsFrom;
  return decodeHead(w, out, prev.requests.slice(0, from).concat(decodeRequests(w.requests, from)));
}
