// `report`'s output on stdout, in the format asked for: a table, JSON or CSV, of the rows or of the --sweep grid.
import type { Baseline } from '../../core/engine/policies/replay';
import type { PolicyName } from '../../core/engine/policy';
import { bestPolicy, type HistoryRow, type SessionFigures } from '../../core/history';
import { bestCell, type SweepGrid } from '../../core/sweep';
import { sweepAdvice } from '../../core/sweepAdvice';
import { buildPolicy } from '../policyArgs';
import { print } from '../terminal';
import type { Options } from './args';
import { csvReport, sweepCsv } from './csv';
import type { Outcome } from './run';
import { sweepText, textReport } from './text';

export interface Rows {
  sessions: SessionFigures[];
  byProject: HistoryRow[];
  byDay: HistoryRow[];
  total: HistoryRow;
}

/** What the report compares every policy with (`--set replay.baseline=…`). */
function baselineOf(o: Options): Baseline {
  return buildPolicy({}, 'none', o.model, o.sets).replay.baseline;
}

export function printRows(o: Options, r: Rows, names: PolicyName[], outcome: Outcome): void {
  const baseline = baselineOf(o);
  if (o.output === 'json')
    print(
      `${JSON.stringify(
        {
          policies: names,
          baseline,
          since: o.since ?? null,
          until: o.until ?? null,
          sessions: r.sessions,
          projects: r.byProject,
          days: r.byDay,
          total: r.total,
          best: bestPolicy(r.total),
          skipped: outcome.skipped,
          grew: outcome.grew,
        },
        null,
        2,
      )}\n`,
    );
  else if (o.output === 'csv') print(csvReport(r.sessions, r.byProject, r.byDay, r.total, names));
  else print(textReport(r.sessions, r.byProject, r.byDay, r.total, names, o, baseline));
}

export function printSweep(o: Options, grid: SweepGrid, sessions: SessionFigures[], outcome: Outcome): void {
  if (o.output === 'json')
    print(
      `${JSON.stringify({ sweep: grid, baseline: baselineOf(o), best: bestCell(grid), advice: sweepAdvice(grid), sessions, skipped: outcome.skipped, grew: outcome.grew }, null, 2)}\n`,
    );
  else if (o.output === 'csv') print(sweepCsv(grid));
  else print(sweepText(grid, baselineOf(o)));
}
