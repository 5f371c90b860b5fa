// Tuning the constants: one policy replayed over a grid of two settings (e.g. tiered.keepRecent × tiered.tier1Distance),
// each cell the policy's cost against none over the same requests (SPEC §5) and the prompt tokens it saves. The
// report sums the grids of many sessions; the view draws one session's as a heatmap.
//
// A grid over tier1Distance needs far fewer replays than cells, exactly: tier1Distance is read at one place only,
// a block's first touch (SPEC §2 step 4), where "distance ≥ tier1Distance" picks Tier 1 over Tier 2. Two values a < b
// therefore give the same replay, step for step, unless some first touch of the replay under a happened at a
// distance d with a ≤ d < b (the first decision that could differ is such a touch, and every step before it is the
// same in both). The engine reports its first touches (`why.firstTouch`), so a replay under a also answers every b
// up to the next first-touch distance. The sweep tests check this against a replay per cell.
import type { Analysis } from './analysisTypes';
import { POLICY_FIELDS, type Policy, type PolicyName, validatePolicy } from './engine/policy';
import { type CostAgainstNone, compareWithNone, nonePolicy } from './vsNone';

export interface SweepAxis {
  key: string;
  values: number[];
}

/** At most this many values per axis (a 100 × 100 grid is already 10,000 cells). */
export const MAX_AXIS_VALUES = 100;
const T1 = 'tiered.tier1Distance';

/** `key=from..to`, `key=from..to:step` or `key=v1,v2,...`; the key a whole-number setting. Throws with what is wrong. */
export function parseSweepAxis(spec: string): SweepAxis {
  const eq = spec.indexOf('=');
  const key = eq > 0 ? spec.slice(0, eq) : '';
  const field = Object.hasOwn(POLICY_FIELDS, key) ? POLICY_FIELDS[key] : undefined;
  if (field?.kind !== 'int')
    throw new Error(
      `--sweep ${spec}: expected key=from..to[:step] with a whole-number key (e.g. tiered.keepRecent=4..16, tiered.tier1Distance=10..40:5)`,
    );
  const body = spec.slice(eq + 1);
  // Every number is checked before any is used: past 2^53 `v += 1` no longer moves `v`, and a range of such values
  // never ended.
  const inRange = (text: string): number => {
    const v = Number(text);
    if (!Number.isSafeInteger(v) || v < field.min || v > field.max)
      throw new Error(`--sweep ${spec}: ${text} is out of range for ${key} (${field.min}..${field.max})`);
    return v;
  };
  let values: number[];
  const range = /^(\d+)\.\.(\d+)(?::(\d+))?$/.exec(body);
  if (range) {
    const [from, to] = [inRange(range[1]), inRange(range[2])];
    const step = range[3] === undefined ? 1 : Number(range[3]);
    if (step < 1 || to < from)
      throw new Error(`--sweep ${spec}: the range must go up, by a step of at least 1`);
    const count = Math.floor((to - from) / step) + 1;
    if (count > MAX_AXIS_VALUES) throw new Error(`--sweep ${spec}: more than ${MAX_AXIS_VALUES} values`);
    // Counted, not stepped until past `to`: the loop ends after `count` values whatever the numbers.
    values = Array.from({ length: count }, (_, i) => from + i * step);
  } else if (/^\d+(,\d+)*$/.test(body)) {
    values = [...new Set(body.split(',').map(inRange))];
    if (values.length > MAX_AXIS_VALUES)
      throw new Error(`--sweep ${spec}: more than ${MAX_AXIS_VALUES} values`);
  } else throw new Error(`--sweep ${spec}: expected from..to, from..to:step or a list v1,v2,…`);
  return { key, values };
}

export type SweepCell = CostAgainstNone;

export interface SweepGrid {
  policy: PolicyName;
  rows: SweepAxis;
  cols: SweepAxis;
  /** Row-major: cells[r * cols.values.length + c]; null where the setting is refused (see `refused`). */
  cells: (SweepCell | null)[];
  /** Why a cell's setting is refused (e.g. tier1Distance below keepRecent), per cell. */
  refused: (string | null)[];
  /** The cell of the policy's own settings, when they are on the grid. */
  current: number | null;
  sessions: number;
  /** Replays run (the cells answered by another cell's replay are not counted). */
  replays: number;
}

/** What runs one analysis: synchronously (CLI), or giving way to the event loop (the editor). */
export type SweepRunner = (policy: Policy) => Analysis | Promise<Analysis>;

/** The base policy with a cell's two settings, checked together (tier1Distance 40 with keepRecent 30 is fine, though
 * keepRecent 30 beside the base's tier1Distance 20 alone is not); or why the cell is refused. */
function cellPolicy(base: Policy, rows: SweepAxis, cols: SweepAxis, r: number, c: number): Policy | string {
  const patch: Record<string, Record<string, number>> = {};
  for (const [key, value] of [
    [rows.key, rows.values[r]],
    [cols.key, cols.values[c]],
  ] as const) {
    const [section, sub] = key.split('.');
    patch[section] = { ...patch[section], [sub]: value };
  }
  const checked = validatePolicy(patch, { base });
  return 'errors' in checked ? checked.errors.join('; ') : checked.policy;
}

function settingOf(policy: Policy, key: string): number {
  const [section, sub] = key.split('.');
  return (policy as unknown as Record<string, Record<string, number>>)[section]?.[sub];
}

/** First-touch distances of a replay, sorted; null when the analysis does not say (then nothing is reused). */
function touchDistances(a: Analysis): number[] | null {
  if (!a.why) return null;
  const out: number[] = [];
  for (let i = 2; i < a.why.firstTouch.length; i += 3) out.push(a.why.firstTouch[i]);
  return out.sort((x, y) => x - y);
}

/** Whether a replay under tier1Distance `from` (with first touches at `touches`) is the replay under `to` ≥ from. */
function sameReplay(touches: number[], from: number, to: number): boolean {
  let lo = 0;
  let hi = touches.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (touches[mid] < from) lo = mid + 1;
    else hi = mid;
  }
  return lo >= touches.length || touches[lo] >= to;
}

/** The grid of one transcript: `base` (its name is the swept policy) with each cell's two settings. */
export async function sweepTranscript(
  base: Policy,
  rowsAxis: SweepAxis,
  colsAxis: SweepAxis,
  run: SweepRunner,
  onProgress?: (done: number, total: number) => void,
): Promise<SweepGrid> {
  const none = await run(nonePolicy(base));
  const n = rowsAxis.values.length * colsAxis.values.length;
  const grid: SweepGrid = {
    policy: base.name,
    rows: rowsAxis,
    cols: colsAxis,
    cells: new Array(n).fill(null),
    refused: new Array(n).fill(null),
    current: null,
    sessions: 1,
    replays: 1,
  };
  const cellOf = (a: Analysis): SweepCell => {
    const v = compareWithNone(a, none, base.replay.baseline);
    return {
      cost: v.cost,
      noneCost: v.noneCost,
      deltaCost: v.deltaCost,
      deltaShare: v.deltaShare,
      tokensSaved: v.tokensSaved,
      extraWritten: v.extraWritten,
    };
  };
  const at = (r: number, c: number) => r * colsAxis.values.length + c;
  const r0 = rowsAxis.values.indexOf(settingOf(base, rowsAxis.key));
  const c0 = colsAxis.values.indexOf(settingOf(base, colsAxis.key));
  if (r0 >= 0 && c0 >= 0) grid.current = at(r0, c0);
  // The tier1Distance axis, if any, is walked inside, in increasing order, reusing replays (see the top).
  const inner = colsAxis.key === T1 ? 'cols' : rowsAxis.key === T1 ? 'rows' : null;
  const outerAxis = inner === 'rows' ? colsAxis : rowsAxis;
  const innerAxis = inner === 'rows' ? rowsAxis : colsAxis;
  const order = innerAxis.values.map((_, i) => i).sort((a, b) => innerAxis.values[a] - innerAxis.values[b]);
  const policies = new Array<Policy | null>(n).fill(null);
  for (let r = 0; r < rowsAxis.values.length; r++)
    for (let c = 0; c < colsAxis.values.length; c++) {
      const policy = cellPolicy(base, rowsAxis, colsAxis, r, c);
      if (typeof policy === 'string') grid.refused[at(r, c)] = policy;
      else policies[at(r, c)] = policy;
    }
  const total = policies.filter(Boolean).length;
  let done = 0;
  for (let o = 0; o < outerAxis.values.length; o++) {
    let last: { t1: number; touches: number[] | null; cell: SweepCell } | null = null;
    for (const i of order) {
      const [r, c] = inner === 'rows' ? [i, o] : [o, i];
      const policy = policies[at(r, c)];
      if (!policy) continue;
      done++;
      const t1 = policy.tiered.tier1Distance;
      if (last?.touches && sameReplay(last.touches, last.t1, t1)) {
        grid.cells[at(r, c)] = last.cell;
        continue;
      }
      const a = await run(policy);
      grid.replays++;
      const cell = cellOf(a);
      grid.cells[at(r, c)] = cell;
      onProgress?.(done, total);
      last = { t1, touches: inner ? touchDistances(a) : null, cell };
    }
  }
  return grid;
}

/** Adds `from` (another session's grid over the same axes) into `into`. */
export function addGrid(into: SweepGrid, from: SweepGrid): void {
  into.sessions += from.sessions;
  into.replays += from.replays;
  from.cells.forEach((cell, i) => {
    if (!cell) return;
    const t = into.cells[i];
    if (!t) {
      into.cells[i] = { ...cell };
      return;
    }
    t.cost += cell.cost;
    t.noneCost += cell.noneCost;
    t.deltaCost += cell.deltaCost;
    t.tokensSaved += cell.tokensSaved;
    t.extraWritten += cell.extraWritten;
    t.deltaShare = t.noneCost > 0 ? t.deltaCost / t.noneCost : 0;
  });
}

/** The cell that costs the least against none (ties: the first in the grid's order), or null. */
export function bestCell(grid: SweepGrid): number | null {
  let best: number | null = null;
  grid.cells.forEach((cell, i) => {
    if (cell && (best === null || cell.deltaCost < (grid.cells[best] as SweepCell).deltaCost)) best = i;
  });
  return best;
}

/** "keepRecent=6, tier1Distance=15": a cell's settings in words. */
export function cellSettings(grid: SweepGrid, index: number): { key: string; value: number }[] {
  const c = index % grid.cols.values.length;
  const r = Math.floor(index / grid.cols.values.length);
  return [
    { key: grid.rows.key, value: grid.rows.values[r] },
    { key: grid.cols.key, value: grid.cols.values[c] },
  ];
}
