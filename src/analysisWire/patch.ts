// Patches: a threshold step changes the tier of a few tool results and (under the `once` trigger) the pending
// request only, so after the first analysis the host sends just the rows that changed. The whole analysis of a
// large session is serialised twice on the host and copied across the editor's websocket and two frames per
// keystroke; a step's patch is a few hundred bytes.
import { type Infer, v } from '../protocol/check';
import type { MessageColumns, RequestColumns } from './columns';
import type { AnalysisWire } from './types';

/** Optional fields a patch may leave out when unchanged. */
export const KEPT_FIELDS = ['why', 'vsNone', 'hiddenPrefix', 'recorded', 'flags', 'floorProblems'] as const;
export type KeptField = (typeof KEPT_FIELDS)[number];

/** The part of an analysis message that says its columns hold only what changed since analysis `base`. */
export const analysisPatchCheck = v.object({
  /** The id of the analysis this one changes (the view must hold exactly that one). */
  base: v.int,
  /** Message rows the message columns hold, ascending. */
  rows: v.array(v.int),
  messageCount: v.int,
  /** The request columns hold requests [requestsFrom, requestCount). */
  requestsFrom: v.int,
  requestCount: v.int,
  /** Fields left out because they are those of `base` (the why-facts of a large session are large). */
  kept: v.optional(v.array(v.oneOf(KEPT_FIELDS))),
  /** `why.firstTouch` as its change from `base`'s, element by element and column by column (past its end, from
   * 0), in runs: [difference, count, ...]; the analysis then holds an empty `firstTouch`. A step of `keepRecent`
   * moves every result's first touch (most of a step's message) by the same few values. */
  firstTouchRuns: v.optional(v.array(v.int)),
  /** Message columns sent empty because the rows the patch holds have the base's values there: a policy switch
   * changes most rows' tier and tokens after, never their distance or tokens before (about a quarter of a switch
   * back to tiered). */
  sameColumns: v.optional(v.array(v.string)),
});
export type AnalysisPatch = Infer<typeof analysisPatchCheck>;

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
