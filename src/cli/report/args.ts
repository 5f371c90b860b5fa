// `report`'s options: its table (the help comes from it) and the checks made once, before any worker starts.
import { availableParallelism } from 'node:os';
import type { PolicyName } from '../../core/engine/policy';
import { parseSweepAxis, type SweepAxis } from '../../core/sweep';
import { type CommandSpec, type Option, parseCommand, UsageError } from '../options';
import { buildPolicy, JSON_OUTPUT, MODEL, POLICY, POLICY_HELP, SET } from '../policyArgs';
import { printError } from '../terminal';
import { TOKEN_CACHE_OPTIONS, TokenCacheOption } from '../tokenCache';

export interface Options {
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

function parseDay(v: string, flag: string): string {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(v);
  if (!m || Number.isNaN(Date.parse(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`)))
    throw new UsageError(`${flag}: expected a day as YYYY-MM-DD or YYYYMMDD, got "${v}"`);
  return `${m[1]}-${m[2]}-${m[3]}`;
}

const SINCE: Option<string> = {
  name: 'since',
  value: 'DAY',
  description: 'sessions started on or after DAY (YYYY-MM-DD or YYYYMMDD, local time)',
  parse: parseDay,
};
const UNTIL: Option<string> = {
  name: 'until',
  value: 'DAY',
  description: 'sessions started on or before DAY',
  parse: parseDay,
};
const OUTPUT = 'output';
const JSON_ROWS: Option<Options['output']> = {
  name: JSON_OUTPUT.name,
  key: OUTPUT,
  is: 'json',
  description: 'print the rows as JSON',
};
const CSV_ROWS: Option<Options['output']> = {
  name: 'csv',
  key: OUTPUT,
  is: 'csv',
  description: 'print the rows as CSV (one line per session, project, day and the total)',
};
const JOBS: Option<number> = {
  name: 'jobs',
  value: 'N',
  description: 'most worker threads (default: one per core); one is started per 8 MB of sessions to replay',
  parse: (v, flag) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 1)
      throw new UsageError(`${flag}: expected a whole number ≥ 1, got "${v}"`);
    // A thread holds its tokenizer's tables and a whole session: more threads than cores add memory (300: 6.4 GB)
    // and no speed to work that is all computing.
    const most = availableParallelism();
    if (n > most)
      printError(
        `context-lens report: --jobs ${n} capped at ${most} (one thread per core: more would only take memory)\n`,
      );
    return Math.min(n, most);
  },
};
const RECOMPUTE: Option<boolean> = {
  name: 'recompute',
  description: 'replay every session, even one whose figures were kept from an earlier report',
};
const SWEEP: Option<SweepAxis> = {
  name: 'sweep',
  value: 'key=A..B[:STEP]',
  multiple: true,
  description:
    'replay the policy (the first --policy, default tiered) over a grid of settings instead (at most two, e.g. ' +
    "--sweep tiered.keepRecent=4..16 --sweep tiered.tier1Distance=10..40:5): each cell's cost against the baseline and " +
    'tokens saved, summed over the sessions, best named',
  parse: (v) => {
    try {
      return parseSweepAxis(v);
    } catch (e) {
      throw new UsageError((e as Error).message.replace(/^--sweep /, ''));
    }
  },
};

export const SPEC: CommandSpec = {
  usage: 'context-lens report [DIR|FILE]... [options]',
  about:
    "Every session log under the folders (default: every agent's own, where the README's formats table says: " +
    '~/.claude/projects, ~/.codex/sessions, …), replayed under every policy, each against the baseline (`replay.baseline`: "as ' +
    'logged" by default, or "none") over the same requests; per session, per project, per day and in total.',
  options: [
    { ...POLICY, default: 'every policy the engine knows' },
    { ...SET, description: 'change one constant for every policy' },
    {
      ...MODEL,
      description: 'price every request at one preset',
      default: 'the model that answered it',
    },
    SINCE,
    UNTIL,
    JSON_ROWS,
    CSV_ROWS,
    JOBS,
    RECOMPUTE,
    SWEEP,
    ...TOKEN_CACHE_OPTIONS,
  ],
  notes: [
    'A file that cannot be read or parsed is reported on stderr and skipped; a file that grows meanwhile is read ' +
      'as it was when opened. Folders are read 8 levels deep; deeper ones are named on stderr. Progress goes to stderr.',
    POLICY_HELP,
  ],
};

/** The report's options and its token cache, or undefined when the help was printed. */
export function parseReportArgs(args: string[]): { o: Options; tokenCache: TokenCacheOption } | undefined {
  const parsed = parseCommand(SPEC, args);
  if (!parsed) return undefined;
  const o: Options = {
    paths: parsed.positionals,
    names: parsed.all(POLICY),
    sets: parsed.all(SET),
    model: parsed.get(MODEL),
    since: parsed.get(SINCE),
    until: parsed.get(UNTIL),
    output: parsed.get(JSON_ROWS) ?? 'table',
    jobs: parsed.get(JOBS) ?? availableParallelism(),
    sweep: parsed.all(SWEEP),
    recompute: parsed.has(RECOMPUTE),
  };
  if (o.sweep.length > 2) throw new UsageError("--sweep: at most two (the grid's rows and columns)");
  if (o.sweep.length === 2 && o.sweep[0].key === o.sweep[1].key)
    throw new UsageError(`--sweep: ${o.sweep[0].key} twice; sweep two different constants`);
  if (o.since && o.until && o.since > o.until)
    throw new UsageError(`--since ${o.since} is after --until ${o.until}`);
  // Every --set and --model checked once here, not in each worker (what they may say depends on no format).
  buildPolicy({}, o.names[0], o.model, o.sets);
  return { o, tokenCache: TokenCacheOption.from(parsed) };
}
