// What a sweep's figures do not say by themselves: the best cell on the grid's edge (a better one may lie beyond), a
// best setting that drops what the agent recently read (the cost counts tokens, not what the agent loses), and an
// axis along which nothing changes (and why, as the setting's descriptor says). Shown under the heatmap and under
// `report --sweep`.
import { maxOf, minOf } from './arrays';
import { SETTINGS } from './engine/policies/registry';
import { bestCell, type SweepGrid } from './sweep';

const specOf = (key: string) => SETTINGS.find((s) => s.key === key)?.spec;
const shortKey = (key: string) => key.slice(key.indexOf('.') + 1);

/** The warning a setting's value carries (`keepRecent 1 < 3: rewrites what…`), or null. */
export function settingRisk(key: string, value: number): string | null {
  const risk = specOf(key)?.risk;
  return risk && value < risk.below ? `${shortKey(key)} ${value} < ${risk.below}: ${risk.words}` : null;
}

type Grid = Pick<SweepGrid, 'rows' | 'cols' | 'cells'>;

/** Whether every line of cells along one axis (the other held) gives the same figures. */
function inert(grid: Grid, along: 'rows' | 'cols'): boolean {
  const nCols = grid.cols.values.length;
  const nRows = grid.rows.values.length;
  if ((along === 'cols' ? nCols : nRows) < 2) return false;
  const outer = along === 'cols' ? nRows : nCols;
  const inner = along === 'cols' ? nCols : nRows;
  let compared = 0;
  for (let o = 0; o < outer; o++) {
    let first: (typeof grid.cells)[number] = null;
    for (let i = 0; i < inner; i++) {
      const cell = grid.cells[along === 'cols' ? o * nCols + i : i * nCols + o];
      if (!cell) continue;
      if (!first) first = cell;
      else if (cell.deltaCost !== first.deltaCost || cell.tokensSaved !== first.tokensSaved) return false;
      else compared++;
    }
  }
  return compared > 0;
}

export function sweepAdvice(grid: Grid): string[] {
  const out: string[] = [];
  for (const along of ['rows', 'cols'] as const)
    if (inert(grid, along)) {
      const key = grid[along].key;
      const why = specOf(key)?.inertWhy;
      out.push(
        `every ${shortKey(key)} value gives the same figures here${why ? `: ${why}` : ': nothing in this session turns on it'}`,
      );
    }
  const best = bestCell({ ...grid } as SweepGrid);
  if (best === null) return out;
  const nCols = grid.cols.values.length;
  const at = { rows: Math.floor(best / nCols), cols: best % nCols };
  for (const along of ['rows', 'cols'] as const) {
    const axis = grid[along];
    if (axis.values.length < 2 || inert(grid, along)) continue;
    const value = axis.values[at[along]];
    const lo = minOf(axis.values);
    const hi = maxOf(axis.values);
    const spec = specOf(axis.key);
    const floor = spec && spec.kind === 'int' ? spec.min : Number.NEGATIVE_INFINITY;
    if ((value === lo && value > floor) || value === hi)
      out.push(
        `the best cell is on the grid's edge (${shortKey(axis.key)} ${value}, the ${value === lo ? 'smallest' : 'largest'} value swept): a better setting may lie beyond it; widen the range`,
      );
  }
  for (const along of ['rows', 'cols'] as const) {
    const risk = settingRisk(grid[along].key, grid[along].values[at[along]]);
    if (risk) out.push(`the best cell's ${risk}; its cost does not count that`);
  }
  return out;
}
