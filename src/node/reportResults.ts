// Each session's figures kept between reports: a session log that has not changed since (same size, modification
// time and inode), replayed by the same engine under the same settings, has the same figures, so the next report
// reads them instead of replaying it. Most of a history does not change from one day to the next.
//
// The engine is identified by the bytes of the running code (the CLI bundle, or the sources under its folder when
// it runs from source), so that any change of the code replays everything again. The file is a cache: written
// whole to a temporary file and renamed; unreadable, damaged or from another version, it is ignored and rebuilt;
// two reports saving at once keep the later one's figures (the other's are replayed next time). Like every file a
// user or another process can touch, it is read only if it is a regular file of plausible size, and each entry is
// checked for the shape of the figures it stands for: a damaged entry is dropped (its session replayed) with a note,
// never trusted and never fatal.
import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { POLICY_NAMES, type PolicyName } from '../core/engine/policy';
import { FORMATS } from '../core/formats/registry';
import type { PolicyFigures, SessionFigures } from '../core/history';
import { MAX_AXIS_VALUES, type SweepAxis, type SweepGrid } from '../core/sweep';
import type { CostAgainstNone } from '../core/vsNone';
import { FileTooLargeError, NotRegularFileError, readRegularFileSync, refusalWords } from './readRegularFile';

const VERSION = 2;
/** Bound on the sessions kept (the least recently used go first). */
const MAX_ENTRIES = 20_000;
/** A larger file is not read (rebuilt instead): more than JSON.parse holds comfortably, far more than 20,000 rows. */
export const MAX_RESULTS_BYTES = 256 * 1024 * 1024;

export interface KeptResult {
  size: number;
  mtimeMs: number;
  ino: number;
  /** The engine and the settings the figures were computed with. */
  key: string;
  usedAt: number;
  row: SessionFigures;
  grid?: SweepGrid;
}

interface ResultsFile {
  version: number;
  entries: Record<string, KeptResult>;
}

/** What identifies the running engine: the hash of the CLI bundle, or of every source file beside the entry. */
export function engineId(script: string = process.argv[1] ?? ''): string {
  const hash = createHash('sha256');
  try {
    if (script.endsWith('.ts')) {
      const root = dirname(script);
      const files = readdirSync(root, { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith('.ts'))
        .sort();
      for (const f of files) hash.update(f).update(readFileSync(join(root, f)));
    } else hash.update(readFileSync(script));
  } catch {
    // Nothing to identify it by: a key no saved figures can have.
    hash.update(randomBytes(16));
  }
  return hash.digest('hex').slice(0, 32);
}

export class ReportResults {
  private readonly entries: Record<string, KeptResult>;
  private changed = false;
  hits = 0;

  private constructor(
    private readonly file: string,
    entries: Record<string, KeptResult>,
  ) {
    this.entries = entries;
  }

  /** The kept figures in `dir`; `warn` is told (once each) of a file that could not be used and of entries dropped
   * for their shape. */
  static open(dir: string, warn: (message: string) => void = () => {}): ReportResults {
    const file = join(dir, `report-results.v${VERSION}.json`);
    const entries: Record<string, KeptResult> = Object.create(null);
    let parsed: unknown;
    try {
      const bytes = readRegularFileSync(file, { maxBytes: MAX_RESULTS_BYTES });
      parsed = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
    } catch (e) {
      // Absent, unreadable or damaged: every session is replayed, and the file rebuilt.
      if (e instanceof NotRegularFileError || e instanceof FileTooLargeError)
        warn(`kept report results: ${refusalWords(e)}; ignored, every session replayed and the file rebuilt`);
      else if (e instanceof SyntaxError)
        warn(
          `kept report results ${file}: not JSON (${e.message}); ignored, every session replayed and the file rebuilt`,
        );
      else if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
        warn(
          `kept report results ${file}: cannot read (${(e as NodeJS.ErrnoException).code ?? e}); every session replayed`,
        );
      return new ReportResults(file, entries);
    }
    const kept =
      isObject(parsed) && parsed.version === VERSION && isObject(parsed.entries) ? parsed.entries : null;
    if (!kept) {
      // Another version's file (or none of ours): replaced at the next save, without a word.
      return new ReportResults(file, entries);
    }
    let dropped = 0;
    let example = '';
    for (const [id, value] of Object.entries(kept)) {
      const why = entryProblem(id, value);
      if (why === null) entries[id] = value as KeptResult;
      else {
        dropped++;
        example ||= why;
      }
    }
    if (dropped > 0)
      warn(
        `kept report results ${file}: ${dropped} ${dropped === 1 ? 'entry' : 'entries'} of the wrong shape dropped ` +
          `(e.g. ${example}); their sessions are replayed`,
      );
    const results = new ReportResults(file, entries);
    // Written again without them even if nothing else changes.
    if (dropped > 0) results.changed = true;
    return results;
  }

  /** The kept figures of `path` if the file (`stat`, as listed now) is as it was and the key is the same. */
  get(
    path: string,
    key: string,
    stat: { size: number; mtimeMs: number; ino: number },
  ): KeptResult | undefined {
    const id = `${key}\u0000${path}`;
    const e = Object.hasOwn(this.entries, id) ? this.entries[id] : undefined;
    if (!e || e.key !== key) return undefined;
    if (stat.size !== e.size || stat.mtimeMs !== e.mtimeMs || stat.ino !== e.ino) return undefined;
    e.usedAt = Date.now();
    this.changed = true;
    this.hits++;
    return e;
  }

  /** Keeps the figures of `path` as it stood at `stat` (taken before it was read). */
  set(
    path: string,
    stat: { size: number; mtimeMs: number; ino: number },
    key: string,
    row: SessionFigures,
    grid?: SweepGrid,
  ): void {
    const e: KeptResult = { ...stat, key, usedAt: Date.now(), row };
    if (grid) e.grid = grid;
    // Per settings and file: reports under other settings keep theirs.
    this.entries[`${key}\u0000${path}`] = e;
    this.changed = true;
  }

  /** Writes the kept figures (whole, or not at all); returns the error when it could not. */
  async save(): Promise<Error | null> {
    if (!this.changed) return null;
    let list = Object.entries(this.entries);
    if (list.length > MAX_ENTRIES)
      list = list.sort((a, b) => b[1].usedAt - a[1].usedAt).slice(0, MAX_ENTRIES);
    const body: ResultsFile = { version: VERSION, entries: Object.fromEntries(list) };
    const tmp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    try {
      await fsp.mkdir(dirname(this.file), { recursive: true });
      await fsp.writeFile(tmp, JSON.stringify(body), { flag: 'wx' });
      await fsp.rename(tmp, this.file);
      this.changed = false;
      return null;
    } catch (e) {
      await fsp.rm(tmp, { force: true });
      return e as Error;
    }
  }
}

// ---- The shape of an entry ----------------------------------------------------------------------------------------

const FORMAT_IDS: readonly string[] = FORMATS.map((f) => f.id);

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Bounds no real session comes near (a quadrillion tokens, a trillion dollars): a figure beyond them is damage,
 * and summed with others it would make the totals Infinity. */
const MAX_COUNT = 1e15;
const MAX_FIGURE = 1e12;
const isCount = (v: unknown): v is number => typeof v === 'number' && v >= 0 && v <= MAX_COUNT;
const isNumber = (v: unknown): v is number => typeof v === 'number' && Math.abs(v) <= MAX_FIGURE;
/** The file's identity (times, inode): any finite number. */
const isStamp = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;
const isDay = (v: unknown) => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v);

/** The first field of `o` not of its kind, as "name: what it is", or null. */
function fieldProblem(
  o: Record<string, unknown>,
  where: string,
  fields: Record<string, (v: unknown) => boolean>,
  optional: Record<string, (v: unknown) => boolean> = {},
): string | null {
  for (const [k, ok] of Object.entries(fields)) if (!ok(o[k])) return `${where}${k} is ${describe(o[k])}`;
  for (const [k, ok] of Object.entries(optional))
    if (o[k] !== undefined && !ok(o[k])) return `${where}${k} is ${describe(o[k])}`;
  return null;
}

function describe(v: unknown): string {
  if (v === undefined) return 'missing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'an object';
  return `${typeof v === 'string' ? 'the text' : typeof v} ${JSON.stringify(v).slice(0, 40)}`;
}

function policyFiguresProblem(name: string, v: unknown): string | null {
  if (!isObject(v)) return `row.policies.${name} is ${describe(v)}`;
  return fieldProblem(
    v,
    `row.policies.${name}.`,
    { promptTokens: isCount, cachedTokens: isCount, writtenTokens: isCount, cost: isNumber, events: isCount },
    { deltaCost: isNumber, deltaShare: isNumber, tokensSaved: isNumber, extraWritten: isNumber },
  );
}

function rowProblem(v: unknown): string | null {
  if (!isObject(v)) return `row is ${describe(v)}`;
  const problem = fieldProblem(
    v,
    'row.',
    {
      path: (x) => typeof x === 'string',
      format: (x) => typeof x === 'string' && FORMAT_IDS.includes(x),
      project: (x) => typeof x === 'string',
      firstPrompt: (x) => typeof x === 'string',
      start: (x) => typeof x === 'string',
      end: (x) => typeof x === 'string',
      day: isDay,
      bytes: isCount,
      messages: isCount,
      requests: isCount,
      model: (x) => typeof x === 'string',
      recordedCost: (x) => x === null || isNumber(x),
      recordedReplies: isCount,
      policies: isObject,
    },
    { subAgent: (x) => typeof x === 'boolean', sessionId: (x) => typeof x === 'string' },
  );
  if (problem) return problem;
  for (const [name, figures] of Object.entries(v.policies as Record<string, unknown>)) {
    if (!POLICY_NAMES.includes(name as PolicyName))
      return `row.policies holds "${name.slice(0, 40)}", no policy`;
    const p = policyFiguresProblem(name, figures);
    if (p) return p;
  }
  return null;
}

function axisProblem(where: string, v: unknown): string | null {
  if (!isObject(v)) return `${where} is ${describe(v)}`;
  if (typeof v.key !== 'string') return `${where}.key is ${describe(v.key)}`;
  const values = v.values;
  if (
    !Array.isArray(values) ||
    values.length === 0 ||
    values.length > MAX_AXIS_VALUES ||
    !values.every(isNumber)
  )
    return `${where}.values is not a list of numbers`;
  return null;
}

function cellProblem(v: unknown): boolean {
  if (v === null) return false;
  if (!isObject(v)) return true;
  const cell: Record<keyof CostAgainstNone, unknown> = v as Record<keyof CostAgainstNone, unknown>;
  return ![
    cell.cost,
    cell.noneCost,
    cell.deltaCost,
    cell.deltaShare,
    cell.tokensSaved,
    cell.extraWritten,
  ].every(isNumber);
}

function gridProblem(v: unknown): string | null {
  if (!isObject(v)) return `grid is ${describe(v)}`;
  if (!POLICY_NAMES.includes(v.policy as PolicyName)) return `grid.policy is ${describe(v.policy)}`;
  const axes = axisProblem('grid.rows', v.rows) ?? axisProblem('grid.cols', v.cols);
  if (axes) return axes;
  const n = (v.rows as SweepAxis).values.length * (v.cols as SweepAxis).values.length;
  if (!Array.isArray(v.cells) || v.cells.length !== n || v.cells.some(cellProblem))
    return 'grid.cells is not a cell per setting';
  if (
    !Array.isArray(v.refused) ||
    v.refused.length !== n ||
    v.refused.some((r) => r !== null && typeof r !== 'string')
  )
    return 'grid.refused is not a reason per setting';
  if (
    v.current !== null &&
    !(Number.isInteger(v.current) && (v.current as number) >= 0 && (v.current as number) < n)
  )
    return `grid.current is ${describe(v.current)}`;
  if (!isCount(v.sessions) || !isCount(v.replays)) return 'grid.sessions or grid.replays is not a count';
  return null;
}

/** Why the entry kept under `id` is not the figures of a session (null: it is), so that a damaged file bends no
 * report: every number a number, every text a text, the row the one of the file it is kept for. */
export function entryProblem(id: string, v: unknown): string | null {
  if (!isObject(v)) return `the entry is ${describe(v)}`;
  const problem =
    fieldProblem(v, '', {
      size: isCount,
      mtimeMs: isStamp,
      ino: isStamp,
      key: (x) => typeof x === 'string',
      usedAt: isStamp,
    }) ??
    rowProblem(v.row) ??
    (v.grid === undefined ? null : gridProblem(v.grid));
  if (problem) return problem;
  if (id !== `${v.key}\u0000${(v.row as SessionFigures).path}`)
    return 'the entry is kept under another file or key';
  return null;
}

// The figures the checks above stand for: a field added to them without a check here fails to compile.
type Checked<T> = { [K in keyof Required<T>]: unknown };
const _figures: Checked<PolicyFigures> = {
  promptTokens: 0,
  cachedTokens: 0,
  writtenTokens: 0,
  cost: 0,
  events: 0,
  deltaCost: 0,
  deltaShare: 0,
  tokensSaved: 0,
  extraWritten: 0,
};
void _figures;
