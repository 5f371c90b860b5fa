// `context-lens report [DIR]...`: every session under the agents' folders (or the given ones), replayed under every
// policy the engine knows, side by side against none: per session, per project, per day and in total, as a table,
// JSON or CSV. Sessions are read, parsed and replayed in worker threads (one per core); token counts come from
// the cache on disk, so a second report over the same folders tokenizes nothing it has seen.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { maxOf, pushAll } from '../core/arrays';
import type { PolicyName } from '../core/engine/policy';
import { discoverableFormats } from '../core/formats/registry';
import { bestPolicy, foldRows, type HistoryRow, reportPolicies, type SessionFigures } from '../core/history';
import {
  addGrid,
  bestCell,
  cellSettings,
  parseSweepAxis,
  type SweepAxis,
  type SweepCell,
  type SweepGrid,
} from '../core/sweep';
import type { TokenizerName } from '../core/tokens/counter';
import { runHistoryPool } from '../node/historyPool';
import { engineId, ReportResults } from '../node/reportResults';
import { listJsonl, sessionsDir } from '../node/sessionFiles';
import { TokenStore } from '../node/tokenStore';
import { csvCell } from './csv';
import {
  buildPolicy,
  POLICY_HELP,
  parsePolicyName,
  takeValue,
  UsageError,
  withUsageErrors,
} from './policyArgs';
import { REPORT_WORKER, type ReportWorkerData } from './reportWorker';
import { print, printError, terminalText } from './terminal';
import { TOKEN_CACHE_HELP, TokenCacheOption } from './tokenCache';

const HELP = `usage: context-lens report [DIR|FILE]... [options]

Every session log under the folders (default: $CLAUDE_CONFIG_DIR/projects or ~/.claude/projects, and
$CODEX_HOME/sessions or ~/.codex/sessions), replayed under every policy, each against "none" over the same
requests; per session, per project, per day and in total.

  --policy NAME      a policy to compare (repeatable; default: every policy the engine knows)
  --set key=value    change one constant for every policy (repeatable)
  --model PRESET     price every request at one preset (default: the model that answered it)
  --since DAY        sessions started on or after DAY (YYYY-MM-DD or YYYYMMDD, local time)
  --until DAY        sessions started on or before DAY
  --json             print the rows as JSON
  --csv              print the rows as CSV (one line per session, project, day and the total)
  --jobs N           worker threads (default and most: one per core)
  --recompute        replay every session, even one whose figures were kept from an earlier report
  --sweep key=A..B[:STEP]
                     replay the policy (the first --policy, default tiered) over a grid of settings instead
                     (at most two, e.g. --sweep tiered.keepRecent=4..16 --sweep tiered.tier1Distance=10..40:5):
                     each cell's cost against none and tokens saved, summed over the sessions, best named
${TOKEN_CACHE_HELP}

A file that cannot be read or parsed is reported on stderr and skipped; a file that grows meanwhile is read as it
was when opened. Folders are read 8 levels deep; deeper ones are named on stderr. Progress goes to stderr.

${POLICY_HELP}
`;

interface Options {
  paths: string[];
  names: PolicyName[];
  sets: string[];
  model: string | undefined;
  since: string | undefined;
  until: string | undefined;
  output: 'table' | 'json' | 'csv';
  jobs: number;
  sweep: SweepAxis[];
  recompute: boolean;
}

function parseDay(flag: string, v: string): string {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(v);
  if (!m || Number.isNaN(Date.parse(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`)))
    throw new UsageError(`${flag}: expected a day as YYYY-MM-DD or YYYYMMDD, got "${v}"`);
  return `${m[1]}-${m[2]}-${m[3]}`;
}

function parseArgs(args: string[], cache: TokenCacheOption): Options | undefined {
  const o: Options = {
    paths: [],
    names: [],
    sets: [],
    model: undefined,
    since: undefined,
    until: undefined,
    output: 'table',
    jobs: availableParallelism(),
    sweep: [],
    recompute: false,
  };
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = () => takeValue(args, i++, a);
    if (!options || !a.startsWith('--')) o.paths.push(a);
    else if (a === '--') options = false;
    else if (a === '--help' || a === '-h') {
      print(HELP);
      return undefined;
    } else if (cache.option(a, value)) continue;
    else if (a === '--policy') o.names.push(parsePolicyName(value()));
    else if (a === '--set') o.sets.push(value());
    else if (a === '--model') o.model = value();
    else if (a === '--since') o.since = parseDay(a, value());
    else if (a === '--until') o.until = parseDay(a, value());
    else if (a === '--json') o.output = 'json';
    else if (a === '--csv') o.output = 'csv';
    else if (a === '--recompute') o.recompute = true;
    else if (a === '--sweep') {
      try {
        o.sweep.push(parseSweepAxis(value()));
      } catch (e) {
        throw new UsageError((e as Error).message.replace(/^--sweep /, ''));
      }
      if (o.sweep.length > 2) throw new UsageError("--sweep: at most two (the grid's rows and columns)");
      if (o.sweep.length === 2 && o.sweep[0].key === o.sweep[1].key)
        throw new UsageError(`--sweep: ${o.sweep[0].key} twice; sweep two different constants`);
    } else if (a === '--jobs') {
      const v = value();
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1)
        throw new UsageError(`--jobs: expected a whole number ≥ 1, got "${v}"`);
      // A thread holds its tokenizer's tables and a whole session: more threads than cores add memory (300: 6.4 GB)
      // and no speed to work that is all computing.
      const most = availableParallelism();
      if (n > most)
        printError(
          `context-lens report: --jobs ${n} capped at ${most} (one thread per core: more would only take memory)\n`,
        );
      o.jobs = Math.min(n, most);
    } else throw new UsageError(`unknown option ${a}`);
  }
  if (o.since && o.until && o.since > o.until)
    throw new UsageError(`--since ${o.since} is after --until ${o.until}`);
  // Every --set and --model checked once here, not in each worker.
  buildPolicy({ format: 'claude-code', model: undefined }, o.names[0], o.model, o.sets);
  return o;
}

/** Folders below each DIR read this deep (an agent's layout is 1 to 4 levels; a link loop or a copied home is not
 * walked for ever): a folder deeper is said, never silently left out. */
const FOLDER_DEPTH = 8;

interface Found {
  path: string;
  size: number;
  modified: number;
  ino: number;
}

/** The session logs to read: every *.jsonl under each folder (symbolic links are not followed), each file given. */
async function findSessions(o: Options, warn: (m: string) => void): Promise<Found[]> {
  const roots = o.paths.length > 0 ? o.paths : discoverableFormats().map((f) => sessionsDir(f));
  const paths: string[] = [];
  for (const root of roots) {
    let s: ReturnType<typeof statSync>;
    try {
      s = statSync(root);
    } catch (e) {
      if (o.paths.length > 0)
        warn(`${root}: cannot read (${(e as NodeJS.ErrnoException).code ?? e}); skipped`);
      continue;
    }
    if (s.isDirectory()) {
      const deeper: string[] = [];
      pushAll(
        paths,
        (await listJsonl(root, FOLDER_DEPTH, { links: true, deeper: (d) => deeper.push(d) })).sort(),
      );
      if (deeper.length > 0)
        warn(
          `${root}: ${deeper.length} ${deeper.length === 1 ? 'folder lies' : 'folders lie'} more than ${FOLDER_DEPTH} levels deep and ${deeper.length === 1 ? 'was' : 'were'} not read ` +
            `(e.g. ${deeper.sort()[0]}); give such a folder as DIR to read it`,
        );
    } else paths.push(root);
  }
  const since = o.since ? new Date(`${o.since}T00:00:00`).getTime() : undefined;
  const out: Found[] = [];
  for (const path of [...new Set(paths)]) {
    try {
      // A dangling link is listed (and reported unreadable by its worker): lstat stands in for its times.
      const s = statSync(path, { throwIfNoEntry: false }) ?? lstatSync(path);
      // Last written before --since: it cannot have started on or after it.
      if (since !== undefined && s.mtimeMs < since) continue;
      out.push({ path, size: s.size, modified: s.mtimeMs, ino: s.ino });
    } catch (e) {
      warn(`${path}: cannot read (${(e as NodeJS.ErrnoException).code ?? e}); skipped`);
    }
  }
  if (o.paths.length === 0 && !roots.some((r) => existsSync(r)))
    warn(`no session folders: ${roots.join(', ')} (give the folders to read)`);
  // Largest first: the long sessions start early and the threads finish together.
  return out.sort((a, b) => b.size - a.size);
}

/** Progress on stderr: a bar redrawn in place on a terminal, a line every few seconds otherwise. */
class Progress {
  private last = 0;
  private readonly tty = Boolean(process.stderr.isTTY);
  private readonly start = performance.now();
  constructor(
    private readonly totalFiles: number,
    private readonly totalBytes: number,
  ) {}

  update(files: number, bytes: number): void {
    const now = performance.now();
    if (now - this.last < (this.tty ? 100 : 5000) && files < this.totalFiles) return;
    this.last = now;
    const share = this.totalBytes > 0 ? bytes / this.totalBytes : 1;
    const width = 24;
    const bar = '#'.repeat(Math.round(share * width)).padEnd(width, '.');
    const line = `report [${bar}] ${files}/${this.totalFiles} sessions, ${(bytes / 1e6).toFixed(0)}/${(this.totalBytes / 1e6).toFixed(0)} MB, ${this.seconds()} s`;
    if (this.tty) process.stderr.write(`\r${line}\x1b[K`);
    else if (files < this.totalFiles) process.stderr.write(`${line}\n`);
  }

  done(): void {
    if (this.tty) process.stderr.write('\r\x1b[K');
  }

  seconds(): string {
    return ((performance.now() - this.start) / 1000).toFixed(1);
  }
}

interface Outcome {
  tokenized: number;
  fromCache: number;
  /** Sessions whose figures were kept from an earlier report. */
  kept: number;
  rows: SessionFigures[];
  /** With --sweep: each session's grid, by path. */
  grids: Map<string, SweepGrid>;
  skipped: { path: string; reason: string }[];
  grew: { path: string; bytes: number }[];
}

/** Runs the sessions through the worker threads (the CLI's own entry runs as the worker: cli.ts dispatches on
 * workerData); token counts they made are added to the stores. */
async function runWorkers(
  found: Found[],
  o: Options,
  names: PolicyName[],
  sweep: ReportWorkerData['sweep'],
  stores: Map<TokenizerName, TokenStore>,
  progress: Progress,
  kept: { results: ReportResults; key: string } | null,
): Promise<Outcome> {
  const out: Outcome = {
    tokenized: 0,
    fromCache: 0,
    kept: 0,
    rows: [],
    grids: new Map(),
    skipped: [],
    grew: [],
  };
  let finished = 0;
  let bytesDone = 0;
  const done = (size: number) => {
    finished++;
    bytesDone += size;
    progress.update(finished, bytesDone);
  };
  // Sessions unchanged since an earlier report under the same engine and settings: their kept figures.
  const need: Found[] = [];
  for (const f of found) {
    const k =
      kept && !o.recompute
        ? kept.results.get(f.path, kept.key, { size: f.size, mtimeMs: f.modified, ino: f.ino })
        : undefined;
    if (!k) {
      need.push(f);
      continue;
    }
    out.kept++;
    out.rows.push(k.row);
    if (k.grid) out.grids.set(f.path, k.grid);
    done(f.size);
  }
  const data: ReportWorkerData = {
    role: REPORT_WORKER,
    names,
    model: o.model,
    sets: o.sets,
    ...(sweep ? { sweep } : {}),
  };
  const byPath = new Map(need.map((f) => [f.path, f]));
  await runHistoryPool(need, {
    script: process.argv[1],
    data,
    threads: o.jobs,
    stores,
    onReply: (reply, file) => {
      out.tokenized += reply.tokenized;
      out.fromCache += reply.fromCache;
      if ('error' in reply) out.skipped.push({ path: file.path, reason: reply.error });
      else {
        out.rows.push(reply.row);
        if (reply.grid) out.grids.set(reply.row.path, reply.grid);
        if (reply.grew || reply.cutPartialLine)
          out.grew.push({ path: reply.row.path, bytes: reply.row.bytes });
        else {
          // Kept as the file was listed (before it was read): a file changed since is replayed next time.
          const f = byPath.get(file.path);
          if (kept && f)
            kept.results.set(
              f.path,
              { size: f.size, mtimeMs: f.modified, ino: f.ino },
              kept.key,
              reply.row,
              reply.grid,
            );
        }
      }
      done(file.size);
    },
    onCrash: (file, error) => {
      out.skipped.push({ path: file.path, reason: `${file.path}: ${error.message}` });
      done(file.size);
    },
  });
  return out;
}

// ---- Output ------------------------------------------------------------------------------------------------------

function cut(s: string, n: number): string {
  const t = terminalText(s.replace(/\s+/g, ' ').trim());
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
}

const money = (x: number) => {
  if (x === 0) return '$0';
  const sign = x < 0 ? '-' : '';
  const a = Math.abs(x);
  return `${sign}$${a.toFixed(a >= 1 ? 2 : 4)}`;
};
const signed = (x: number) => (x > 0 ? `+${money(x)}` : money(x));
const pct = (x: number) => `${x > 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
const int = (x: number) => x.toLocaleString('en-US');

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

function shortProject(p: string): string {
  const parts = p.split(/[\\/]/).filter(Boolean);
  return parts.length > 2 ? `…/${parts.slice(-2).join('/')}` : p;
}

function textReport(
  sessions: SessionFigures[],
  byProject: HistoryRow[],
  byDay: HistoryRow[],
  total: HistoryRow,
  names: PolicyName[],
): string {
  const compared = names.filter((n) => n !== 'none');
  const out: string[] = [];
  const agents = new Map<string, number>();
  for (const s of sessions) agents.set(s.format, (agents.get(s.format) ?? 0) + 1);
  out.push(
    `${int(total.sessions)} sessions (${[...agents].map(([f, n]) => `${n} ${f}`).join(', ') || 'none found'}), ` +
      `${(total.bytes / 1e6).toFixed(1)} MB, ${int(total.requests)} requests; recorded cost ${recordedCell(total)}`,
    `policy columns: the policy's simulated cost minus none's over the same requests (negative: it saves), and that share of none's`,
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
      ['day', 'project', 'session (first prompt)', 'requests', 'recorded', ...compared],
      sessions.map((s) => {
        const r = byPath.get(s.path) as HistoryRow;
        return [
          s.day,
          cut(shortProject(s.project), 24),
          cut(`${s.subAgent ? '[sub-agent] ' : ''}${s.firstPrompt || s.path.split(/[\\/]/).pop()}`, 44),
          int(s.requests),
          recordedCell(r),
          ...compared.map((n) => policyCell(r, n)),
        ];
      }),
      [false, false, false, true, true, ...compared.map(() => true)],
    ),
  );
  const group = (title: string, rows: HistoryRow[], label: (k: string) => string) => {
    out.push('');
    pushAll(
      out,
      table(
        [title, 'sessions', 'requests', 'recorded', ...compared],
        rows.map((r) => [
          cut(label(r.key), 40),
          int(r.sessions),
          int(r.requests),
          recordedCell(r),
          ...compared.map((n) => policyCell(r, n)),
        ]),
        [false, true, true, true, ...compared.map(() => true)],
      ),
    );
  };
  group('project', byProject, shortProject);
  group('day', byDay, (k) => k);
  group('total', [total], () => 'total');
  const best = bestPolicy(total);
  out.push('');
  if (best) {
    const p = total.policies[best]!;
    out.push(
      `best: ${best}, ${signed(p.deltaCost)} (${pct(p.deltaShare)}) against none over ${int(total.sessions)} sessions; ` +
        `${int(p.tokensSaved)} prompt tokens not sent; ` +
        (total.unrecorded < total.sessions
          ? `recorded ${money(total.recordedCost)} → ${money(p.projected)} under ${best}`
          : `none ${money(p.noneCost)} → ${money(p.cost)}`),
    );
  } else if (compared.length > 0) out.push('best: none (no policy costs less than none over these sessions)');
  return `${out.join('\n')}\n`;
}

function csvReport(
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
    lines.push(cells.map(csvCell).join(','));
  };
  for (const s of sessions) emit('session', bySession.get(s.path) as HistoryRow, s);
  for (const r of byProject) emit('project', r);
  for (const r of byDay) emit('day', r);
  emit('total', total);
  return `${lines.join('\n')}\n`;
}

// ---- Sweep --------------------------------------------------------------------------------------------------------

/** The swept policy and the grid's axes: one --sweep is a row, its other axis the other tier constant as set. */
function sweepPlan(o: Options): ReportWorkerData['sweep'] {
  if (o.sweep.length === 0) return undefined;
  const policy = o.names.find((n) => n !== 'none') ?? 'tiered';
  const [rows, second] = o.sweep;
  if (second) return { policy, rows, cols: second };
  const base = buildPolicy({ format: 'claude-code', model: undefined }, policy, o.model, o.sets);
  const other = rows.key === 'tiered.tier1Distance' ? 'tiered.keepRecent' : 'tiered.tier1Distance';
  const value = other === 'tiered.keepRecent' ? base.tiered.keepRecent : base.tiered.tier1Distance;
  return { policy, rows, cols: { key: other, values: [value] } };
}

function sumGrids(
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

const shortKey = (key: string) => key.replace(/^tiered\./, '');

function sweepText(grid: SweepGrid): string {
  const best = bestCell(grid);
  const out = [
    `sweep of ${grid.policy} over ${int(grid.sessions)} sessions (${int(grid.replays)} replays): cost against none ` +
      `over the same requests, and prompt tokens saved; [ ] the current setting, * the best`,
    '',
  ];
  const mark = (i: number, text: string) =>
    i === grid.current ? `[${text}]` : i === best ? `*${text}` : text;
  const grids: [string, (i: number) => string][] = [
    [
      'cost against none',
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
      `best: ${where}: ${signed(c.deltaCost)} (${pct(c.deltaShare)}) against none, ${int(c.tokensSaved)} prompt tokens not sent` +
        (c.deltaCost >= 0 ? ` (every cell costs at least as much as none)` : ''),
    );
    if (grid.current !== null && grid.current !== best) {
      const cur = grid.cells[grid.current];
      if (cur) out.push(`current: ${signed(cur.deltaCost)} (${pct(cur.deltaShare)})`);
    }
  }
  const refused = grid.refused.flatMap((r, i) => (r ? [i] : []));
  if (refused.length > 0)
    out.push(
      `refused: ${refused.length} cells, e.g. ${cellSettings(grid, refused[0])
        .map((c) => `${shortKey(c.key)}=${c.value}`)
        .join(', ')}: ${grid.refused[refused[0]]}`,
    );
  return `${out.join('\n')}\n`;
}

function sweepCsv(grid: SweepGrid): string {
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

// ---- The command -------------------------------------------------------------------------------------------------

export async function runReport(args: string[]): Promise<number> {
  const cache = new TokenCacheOption();
  return withUsageErrors('report', async () => {
    const o = parseArgs(args, cache);
    if (!o) return 0;
    const sweep = sweepPlan(o);
    // A sweep replays one policy over the grid: the rows then show it and none only.
    const names = sweep ? reportPolicies([sweep.policy]) : reportPolicies(o.names);
    const warn = (m: string) => printError(`context-lens report: ${terminalText(m)}\n`);
    const found = await findSessions(o, warn);
    const dir = cache.folder();
    const stores = new Map<TokenizerName, TokenStore>();
    if (dir)
      for (const t of ['o200k_base', 'cl100k_base'] as const)
        stores.set(
          t,
          TokenStore.open(dir, t, { warn: (m) => printError(`context-lens: ${terminalText(m)}\n`) }),
        );
    const totalBytes = found.reduce((a, f) => a + f.size, 0);
    const progress = new Progress(found.length, totalBytes);
    const results = dir ? ReportResults.open(dir, warn) : null;
    const key = createHash('sha256')
      .update(JSON.stringify([engineId(), names, o.model ?? null, o.sets, sweep ?? null]))
      .digest('hex');
    const outcome = await runWorkers(
      found,
      o,
      names,
      sweep,
      stores,
      progress,
      results ? { results, key } : null,
    );
    progress.done();
    for (const s of stores.values()) await s.save();
    const unsaved = await results?.save();
    if (unsaved)
      warn(
        `kept report results: cannot write (${(unsaved as NodeJS.ErrnoException).code ?? unsaved.message}); the next report replays every session`,
      );
    for (const s of outcome.skipped) warn(`${s.reason.replace(/\.$/, '')}; skipped`);
    for (const g of outcome.grew)
      warn(`${g.path} grew while it was read: the figures cover its first ${int(g.bytes)} bytes`);
    const sessions = outcome.rows
      .filter((s) => (!o.since || s.day >= o.since) && (!o.until || s.day <= o.until))
      .sort((a, b) => a.start.localeCompare(b.start) || a.path.localeCompare(b.path));
    const byProject = foldRows(sessions, (s) => s.project, names).sort((a, b) => a.key.localeCompare(b.key));
    const byDay = foldRows(sessions, (s) => s.day, names).sort((a, b) => a.key.localeCompare(b.key));
    const total =
      foldRows(sessions, () => 'total', names)[0] ??
      ({
        key: 'total',
        sessions: 0,
        requests: 0,
        bytes: 0,
        recordedCost: 0,
        unrecorded: 0,
        policies: {},
      } as HistoryRow);
    printError(
      `context-lens report: ${found.length} files in ${progress.seconds()} s (${Math.min(o.jobs, Math.max(1, found.length))} threads), ` +
        `${outcome.skipped.length} skipped, ${outcome.kept} unchanged since an earlier report; token counts: ${int(outcome.tokenized)} texts tokenized, ` +
        `${dir ? `${int(outcome.fromCache)} from the token cache (${dir})` : 'no token cache'}\n`,
    );
    if (sweep) {
      const grid = sumGrids(sessions, outcome.grids, sweep);
      if (o.output === 'json')
        print(
          `${JSON.stringify({ sweep: grid, best: bestCell(grid), sessions, skipped: outcome.skipped, grew: outcome.grew }, null, 2)}\n`,
        );
      else if (o.output === 'csv') print(sweepCsv(grid));
      else print(sweepText(grid));
      return 0;
    }
    if (o.output === 'json')
      print(
        `${JSON.stringify(
          {
            policies: names,
            since: o.since ?? null,
            until: o.until ?? null,
            sessions,
            projects: byProject,
            days: byDay,
            total,
            best: bestPolicy(total),
            skipped: outcome.skipped,
            grew: outcome.grew,
          },
          null,
          2,
        )}\n`,
      );
    else if (o.output === 'csv') print(csvReport(sessions, byProject, byDay, total, names));
    else print(textReport(sessions, byProject, byDay, total, names));
    return 0;
  });
}
