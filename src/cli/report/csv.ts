// `report --csv`: one line per session, project, day and the total, or one per cell of the --sweep grid; every
// cell through the CSV target's escaping helper (cli/csv.ts).
import { BREAK_CAUSES, breaksTotal } from '../../core/cacheBreaks';
import type { PolicyName } from '../../core/engine/policy';
import { foldRows, type HistoryRow, type SessionFigures } from '../../core/history';
import { bestCell, type SweepGrid } from '../../core/sweep';
import { csvCell } from '../csv';

export function csvReport(
  sessions: SessionFigures[],
  byProject: HistoryRow[],
  byDay: HistoryRow[],
  total: HistoryRow,
  names: PolicyName[],
): string {
  const head = [
    'level',
    'key',
    'day',
    'project',
    'first_prompt',
    'sessions',
    'requests',
    'bytes',
    'recorded_cost',
  ];
  for (const n of names)
    head.push(`${n}_cost`, `${n}_delta_cost`, `${n}_delta_share`, `${n}_tokens_saved`, `${n}_projected_cost`);
  // The cache breaks the logs record (context-lens cache), after the policies: in total, then by cause.
  head.push('break_cost');
  for (const c of BREAK_CAUSES) head.push(`${c}_breaks`, `${c}_break_cost`);
  const lines = [head.join(',')];
  const bySession = new Map(foldRows(sessions, (s) => s.path, names).map((r) => [r.key, r]));
  const emit = (level: string, r: HistoryRow, s?: SessionFigures) => {
    const cells: (string | number | null)[] = [
      level,
      r.key,
      s?.day ?? (level === 'day' ? r.key : ''),
      s?.project ?? (level === 'project' ? r.key : ''),
      s?.firstPrompt ?? '',
      r.sessions,
      r.requests,
      r.bytes,
      r.unrecorded === r.sessions ? null : r.recordedCost,
    ];
    for (const n of names) {
      const p = r.policies[n];
      cells.push(
        p?.cost ?? null,
        p?.deltaCost ?? null,
        p?.deltaShare ?? null,
        p?.tokensSaved ?? null,
        p?.projected ?? null,
      );
    }
    cells.push(breaksTotal(r.breaks).cost);
    for (const c of BREAK_CAUSES) cells.push(r.breaks[c]?.breaks ?? 0, r.breaks[c]?.cost ?? 0);
    lines.push(cells.map(csvCell).join(','));
  };
  for (const s of sessions) emit('session', bySession.get(s.path) as HistoryRow, s);
  for (const r of byProject) emit('project', r);
  for (const r of byDay) emit('day', r);
  emit('total', total);
  return `${lines.join('\n')}\n`;
}

export function sweepCsv(grid: SweepGrid): string {
  const head = [
    grid.rows.key,
    grid.cols.key,
    'cost',
    'none_cost',
    'delta_cost',
    'delta_share',
    'tokens_saved',
    'extra_written',
    'current',
    'best',
  ];
  const best = bestCell(grid);
  const lines = [head.join(',')];
  grid.rows.values.forEach((rv, r) => {
    grid.cols.values.forEach((cv, c) => {
      const i = r * grid.cols.values.length + c;
      const cell = grid.cells[i];
      lines.push(
        [
          rv,
          cv,
          cell?.cost,
          cell?.noneCost,
          cell?.deltaCost,
          cell?.deltaShare,
          cell?.tokensSaved,
          cell?.extraWritten,
          i === grid.current ? 1 : 0,
          i === best ? 1 : 0,
        ]
          .map((v) => csvCell(v ?? null))
          .join(','),
      );
    });
  });
  return `${lines.join('\n')}\n`;
}
