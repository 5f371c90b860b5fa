// `report`'s table output: the rows per session, project, day and in total, and the --sweep grid.
import { maxOf, pushAll } from '../../core/arrays';
import {
  BREAK_CAUSES,
  breaksTotal,
  CAUSE_LABELS,
  type CauseCosts,
  causeCostWords,
  costliestOf,
} from '../../core/cacheBreaks';
import { sessionPreset } from '../../core/engine/models';
import type { Baseline } from '../../core/engine/policies/replay';
import type { PolicyName } from '../../core/engine/policy';
import { adapterFor } from '../../core/formats/registry';
import { bestPolicy, foldRows, type HistoryRow, type SessionFigures } from '../../core/history';
import { projectLabel } from '../../core/sessionProject';
import { bestCell, cellSettings, type SweepCell, type SweepGrid } from '../../core/sweep';
import { sweepAdvice } from '../../core/sweepAdvice';
import { offeredTo, turnOnLines } from '../../core/verdict';
import { baselineWords } from '../../vsNoneWords';
import { buildPolicy } from '../policyArgs';
import { terminalText } from '../terminal';

function cut(s: string, n: number): string {
  const t = terminalText(s.replace(/\s+/g, ' ').trim());
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
}

export const money = (x: number) => {
  if (x === 0) return '$0';
  const sign = x < 0 ? '-' : '';
  const a = Math.abs(x);
  return `${sign}$${a.toFixed(a >= 1 ? 2 : 4)}`;
};
export const signed = (x: number) => (x > 0 ? `+${money(x)}` : money(x));
export const pct = (x: number) => `${x > 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
export const int = (x: number) => x.toLocaleString('en-US');

/** Columns padded to their widest cell (rows of any number: no spread of them into a call). */
export function table(head: string[], rows: string[][], right: boolean[]): string[] {
  const widths = head.map((h, i) =>
    maxOf(
      rows.map((r) => r[i].length),
      h.length,
    ),
  );
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (right[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)];
}

function policyCell(row: HistoryRow, name: PolicyName): string {
  const p = row.policies[name];
  if (!p) return '';
  return `${signed(p.deltaCost)} ${pct(p.deltaShare)}`;
}

function recordedCell(row: HistoryRow): string {
  return row.unrecorded === row.sessions ? '—' : money(row.recordedCost);
}

/** The cache breaks' cost, and the cause that cost the most: "$26.25 (TTL expiries $21.04)". */
function breaksCell(c: CauseCosts | undefined): string {
  const top = c ? costliestOf(c) : undefined;
  if (!c || !top) return '—';
  return `${money(breaksTotal(c).cost)} (${CAUSE_LABELS[top].many} ${money(c[top]?.cost ?? 0)})`;
}

export function textReport(
  sessions: SessionFigures[],
  byProject: HistoryRow[],
  byDay: HistoryRow[],
  total: HistoryRow,
  names: PolicyName[],
  o: { model: string | undefined; sets: string[] } = { model: undefined, sets: [] },
  baseline: Baseline = 'as-logged',
): string {
  const base = baselineWords(baseline);
  const compared = names.filter((n) => n !== 'none');
  const out: string[] = [];
  const agents = new Map<string, number>();
  for (const s of sessions) agents.set(s.format, (agents.get(s.format) ?? 0) + 1);
  out.push(
    `${int(total.sessions)} sessions (${[...agents].map(([f, n]) => `${n} ${f}`).join(', ') || 'none found'}), ` +
      `${(total.bytes / 1e6).toFixed(1)} MB, ${int(total.requests)} requests; recorded cost ${recordedCell(total)}`,
    `policy columns: the policy's simulated cost minus that of ${base} over the same requests (negative: it saves), and that share of it`,
    `cache breaks: what the breaks the log records cost against reading those tokens, and the costliest cause (see \`context-lens cache\`)`,
  );
  // A recorded cost priced from a model the table does not know is an estimate: say so, session by session.
  const estimated = sessions.filter((s) => s.recordedEstimate);
  if (estimated.length > 0)
    pushAll(out, [
      `recorded cost an estimate for ${estimated.length} session${estimated.length === 1 ? '' : 's'} (models not in the price table, priced as a preset):`,
      ...estimated.map((s) => `  ${terminalText(s.path)}: ${terminalText(s.recordedEstimate ?? '')}`),
    ]);
  out.push('');
  const sessionRows = foldRows(sessions, (s) => s.path, names);
  const byPath = new Map(sessionRows.map((r) => [r.key, r]));
  pushAll(
    out,
    table(
      ['day', 'project', 'session (first prompt)', 'requests', 'recorded', 'cache breaks', ...compared],
      sessions.map((s) => {
        const r = byPath.get(s.path) as HistoryRow;
        return [
          s.day,
          cut(projectLabel(s.project), 24),
          cut(`${s.subAgent ? '[sub-agent] ' : ''}${s.firstPrompt || s.path.split(/[\\/]/).pop()}`, 44),
          int(s.requests),
          recordedCell(r),
          breaksCell(r.breaks),
          ...compared.map((n) => policyCell(r, n)),
        ];
      }),
      [false, false, false, true, true, true, ...compared.map(() => true)],
    ),
  );
  const group = (title: string, rows: HistoryRow[], label: (k: string) => string) => {
    out.push('');
    pushAll(
      out,
      table(
        [title, 'sessions', 'requests', 'recorded', 'cache breaks', ...compared],
        rows.map((r) => [
          cut(label(r.key), 40),
          int(r.sessions),
          int(r.requests),
          recordedCell(r),
          breaksCell(r.breaks),
          ...compared.map((n) => policyCell(r, n)),
        ]),
        [false, true, true, true, true, ...compared.map(() => true)],
      ),
    );
  };
  group('project', byProject, projectLabel);
  group('day', byDay, (k) => k);
  group('total', [total], () => 'total');
  const breaks = breaksTotal(total.breaks);
  if (breaks.breaks > 0) {
    out.push(
      '',
      `cache breaks the logs record, by cause: ${int(breaks.breaks)} breaks, ${money(breaks.cost)}`,
    );
    for (const cause of BREAK_CAUSES) {
      const t = total.breaks[cause];
      if (t) out.push(`  ${causeCostWords(cause, t)}`);
    }
  }
  const best = bestPolicy(total);
  out.push('');
  if (best) {
    const p = total.policies[best]!;
    out.push(
      `best: ${best}, ${signed(p.deltaCost)} (${pct(p.deltaShare)}) against ${base} over ${int(total.sessions)} sessions; ` +
        `${int(p.tokensSaved)} prompt tokens not sent; ` +
        (total.unrecorded < total.sessions
          ? `recorded ${money(total.recordedCost)} → ${money(p.projected)} under ${best}`
          : `${base} ${money(p.noneCost)} → ${money(p.cost)}`),
    );
  } else if (compared.length > 0)
    out.push(`best: none (no policy costs less than ${base} over these sessions)`);
  pushAll(out, bestPerProjectLines(sessions, byProject, o));
  return `${out.join('\n')}\n`;
}

const shortKey = (key: string) => key.replace(/^tiered\./, '');

export function sweepText(grid: SweepGrid, baseline: Baseline): string {
  const base = baselineWords(baseline);
  const best = bestCell(grid);
  const out = [
    `sweep of ${grid.policy} over ${int(grid.sessions)} sessions (${int(grid.replays)} replays): cost against ${base} ` +
      `over the same requests, and prompt tokens saved; [ ] the current setting, * the best`,
    '',
  ];
  const mark = (i: number, text: string) =>
    i === grid.current ? `[${text}]` : i === best ? `*${text}` : text;
  const grids: [string, (i: number) => string][] = [
    [
      `cost against ${base}`,
      (i) => {
        const c = grid.cells[i];
        return c ? mark(i, `${signed(c.deltaCost)} ${pct(c.deltaShare)}`) : 'refused';
      },
    ],
    [
      'prompt tokens saved',
      (i) => {
        const c = grid.cells[i];
        return c ? mark(i, int(c.tokensSaved)) : 'refused';
      },
    ],
  ];
  const cols = grid.cols.values.length;
  for (const [title, cell] of grids) {
    out.push(`${title} (rows: ${shortKey(grid.rows.key)}, columns: ${shortKey(grid.cols.key)})`);
    pushAll(
      out,
      table(
        [`${shortKey(grid.rows.key)} \\ ${shortKey(grid.cols.key)}`, ...grid.cols.values.map(String)],
        grid.rows.values.map((v, r) => [String(v), ...grid.cols.values.map((_, c) => cell(r * cols + c))]),
        [true, ...grid.cols.values.map(() => true)],
      ),
    );
    out.push('');
  }
  if (best === null) out.push('best: no cell could be replayed');
  else {
    const c = grid.cells[best] as SweepCell;
    const where = cellSettings(grid, best)
      .map((s) => `${s.key}=${s.value}`)
      .join(', ');
    out.push(
      `best: ${where}: ${signed(c.deltaCost)} (${pct(c.deltaShare)}) against ${base}, ${int(c.tokensSaved)} prompt tokens not sent` +
        (c.deltaCost >= 0 ? ` (every cell costs at least as much as ${base})` : ''),
    );
    if (grid.current !== null && grid.current !== best) {
      const cur = grid.cells[grid.current];
      if (cur) out.push(`current: ${signed(cur.deltaCost)} (${pct(cur.deltaShare)})`);
    }
  }
  for (const advice of sweepAdvice(grid)) out.push(`warning: ${advice}`);
  const refused = grid.refused.flatMap((r, i) => (r ? [i] : []));
  if (refused.length > 0)
    out.push(
      `refused: ${refused.length} cells, e.g. ${cellSettings(grid, refused[0])
        .map((c) => `${shortKey(c.key)}=${c.value}`)
        .join(', ')}: ${grid.refused[refused[0]]}`,
    );
  return `${out.join('\n')}\n`;
}

/** Each project's cheapest policy against the baseline, with the lines that turn it on for the provider of its sessions
 * (core/verdict.ts): what a reader pastes, project by project. */
export function bestPerProjectLines(
  sessions: readonly SessionFigures[],
  byProject: readonly HistoryRow[],
  o: { model: string | undefined; sets: string[] },
): string[] {
  const out: string[] = [];
  for (const row of byProject) {
    const first = sessions.find((s) => s.project === row.key);
    if (!first) continue;
    const policy = buildPolicy({ format: first.format }, undefined, o.model, o.sets);
    const preset = sessionPreset(policy.model, first.format, first.model);
    const provider = preset?.provider ?? adapterFor(first.format).wire;
    // The cheapest of the policies this provider is offered (the verdict's candidates), when one saves.
    let best: PolicyName | null = null;
    for (const [name, figures] of Object.entries(row.policies) as [
      PolicyName,
      NonNullable<HistoryRow['policies'][PolicyName]>,
    ][])
      if (
        name !== 'none' &&
        offeredTo(name, provider) &&
        figures.deltaCost < (best ? row.policies[best]!.deltaCost : 0)
      )
        best = name;
    if (!best) continue;
    const p = row.policies[best]!;
    // The report does not read whether the requests carry thinking: the lines leave its edit out.
    const lines = turnOnLines(best, policy, provider, {
      contextWindow: preset?.contextWindow,
      thinking: false,
    });
    out.push(
      `${terminalText(projectLabel(row.key))}: ${best}, ${signed(p.deltaCost)} (${pct(p.deltaShare)}) against ${baselineWords(policy.replay.baseline)} over ${int(row.sessions)} session${row.sessions === 1 ? '' : 's'}`,
    );
    for (const l of lines) {
      out.push(`  ${l.title}:`);
      pushAll(
        out,
        l.text.split('\n').map((t) => `    ${t}`),
      );
    }
  }
  return out.length > 0 ? ['', 'best per project, with the lines that turn it on:', ...out] : [];
}
