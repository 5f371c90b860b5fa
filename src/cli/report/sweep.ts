// `report --sweep`: the grid to replay, and the sessions' grids summed.
import type { SessionFigures } from '../../core/history';
import { addGrid, type SweepGrid } from '../../core/sweep';
import { buildPolicy } from '../policyArgs';
import type { ReportWorkerData } from '../reportWorker';
import type { Options } from './args';

/** The swept policy and the grid's axes: one --sweep is a row, its other axis the other tier constant as set. */
export function sweepPlan(o: Options): ReportWorkerData['sweep'] {
  if (o.sweep.length === 0) return undefined;
  const policy = o.names.find((n) => n !== 'none') ?? 'tiered';
  const [rows, second] = o.sweep;
  if (second) return { policy, rows, cols: second };
  // The tier constants are the same for every format: the defaults of none in particular say them.
  const base = buildPolicy({}, policy, o.model, o.sets);
  const other = rows.key === 'tiered.tier1Distance' ? 'tiered.keepRecent' : 'tiered.tier1Distance';
  const value = other === 'tiered.keepRecent' ? base.tiered.keepRecent : base.tiered.tier1Distance;
  return { policy, rows, cols: { key: other, values: [value] } };
}

export function sumGrids(
  sessions: SessionFigures[],
  grids: Map<string, SweepGrid>,
  sweep: NonNullable<ReportWorkerData['sweep']>,
): SweepGrid {
  const n = sweep.rows.values.length * sweep.cols.values.length;
  const total: SweepGrid = {
    policy: sweep.policy,
    rows: sweep.rows,
    cols: sweep.cols,
    cells: new Array(n).fill(null),
    refused: new Array(n).fill(null),
    current: null,
    sessions: 0,
    replays: 0,
  };
  for (const s of sessions) {
    const g = grids.get(s.path);
    if (!g) continue;
    addGrid(total, g);
    total.current = g.current;
    g.refused.forEach((r, i) => {
      if (r) total.refused[i] = r;
    });
  }
  return total;
}
