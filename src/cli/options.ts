// The CLI's options as data: each command declares one table of options, and both its parsing and its help come
// from that table. Words are split by `node:util`'s parseArgs (its tokens, so that the order of the flags is kept:
// `--set` applies in order, and of `--json --csv` or `--token-cache DIR --no-token-cache` the last wins); the
// checks and the messages are ours, the ones the CLI always gave.
import { parseArgs } from 'node:util';
import { maxOf } from '../core/arrays';
import { print, terminalText } from './terminal';

export class UsageError extends Error {}

/** One flag. V: what it stores (a switch stores `is`, true by default; a flag with a value what `parse` returns). */
export interface Option<V = unknown> {
  /** The long name, without `--`. */
  name: string;
  /** One letter, without `-`. */
  short?: string;
  /** The value's placeholder in the help (e.g. NAME); a flag without one is a switch. */
  value?: string;
  description: string;
  /** The default in words, for the help. */
  default?: string;
  /** Given more than once, every value is kept (in order); otherwise the last one counts. */
  multiple?: boolean;
  /** Where the value goes, when several flags set one thing (`--json` / `--csv`): the last given wins. */
  key?: string;
  /** What a switch stores. */
  is?: V;
  /** Checks and converts a value; throws a UsageError. */
  parse?: (value: string, flag: string) => V;
}

/** A command's synopsis, its text and its table, from which the help is made. */
export interface CommandSpec {
  usage: string;
  about?: string;
  options: readonly Option[];
  /** Paragraphs after the options. */
  notes?: readonly string[];
}

export const HELP: Option<boolean> = { name: 'help', short: 'h', description: 'print this help' };

/** Shown in every command's help: parseArgs ends the options at `--`. */
const END_OF_OPTIONS = {
  flag: '--',
  text: 'the next word is the file, even if it starts with - (and so is every word after it)',
};

export class Parsed {
  constructor(
    private readonly values: Map<string, unknown[]>,
    /** The words that are not options (files, folders), in order. */
    readonly positionals: string[],
  ) {}

  /** The flag's value (the last given), or undefined when it was not given. */
  get<V>(option: Option<V>): V | undefined {
    const all = this.values.get(option.key ?? option.name);
    return all === undefined ? undefined : (all[all.length - 1] as V);
  }

  /** Every value of a repeatable flag, in order. */
  all<V>(option: Option<V>): V[] {
    return (this.values.get(option.key ?? option.name) ?? []) as V[];
  }

  has(option: Option): boolean {
    return this.values.has(option.key ?? option.name);
  }
}

/** Splits `args` by the table: undefined when `--help` was asked for (and printed). Any unknown flag, a value
 * missing (or looking like a flag: `--out --force`) and a value given to a switch are usage errors naming the flag. */
export function parseCommand(spec: CommandSpec, args: string[]): Parsed | undefined {
  const table = [...spec.options, HELP];
  const byName = new Map(table.map((o) => [o.name, o]));
  for (const o of table) if (o.short) byName.set(o.short, o);
  const { tokens } = parseArgs({
    args,
    strict: false,
    allowPositionals: true,
    tokens: true,
    options: Object.fromEntries(
      table.map((o) => [
        o.name,
        { type: o.value ? 'string' : 'boolean', ...(o.short ? { short: o.short } : {}) },
      ]),
    ),
  });
  // Help wins over everything else on the line, as `git` and `npm` do.
  if (tokens.some((t) => t.kind === 'option' && byName.get(t.name) === HELP)) {
    print(helpText(spec));
    return undefined;
  }
  const values = new Map<string, unknown[]>();
  const positionals: string[] = [];
  for (const t of tokens) {
    if (t.kind === 'positional') positionals.push(t.value);
    if (t.kind !== 'option') continue;
    const option = byName.get(t.name);
    if (!option) throw new UsageError(`unknown option ${terminalText(args[t.index])}`);
    const flag = `--${option.name}`;
    let value: unknown;
    if (option.value) {
      // A word after the flag that starts with `--` is a forgotten value, not the value (say `--out=--x` for one).
      if (t.value === undefined || (!t.inlineValue && t.value.startsWith('--')))
        throw new UsageError(`${flag} needs a value`);
      value = option.parse ? option.parse(t.value, flag) : t.value;
    } else {
      if (t.value !== undefined) throw new UsageError(`${flag} takes no value`);
      value = 'is' in option ? option.is : true;
    }
    const key = option.key ?? option.name;
    const list = option.multiple ? (values.get(key) ?? []) : [];
    list.push(value);
    values.set(key, list);
  }
  return new Parsed(values, positionals);
}

const WIDTH = 110;
/** Flags longer than this have their description on the next line, so as not to push every other one right. */
const LONGEST_FLAG = 22;

function wrap(text: string, indent: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && indent + line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines;
}

function flagText(o: Option): string {
  const long = `--${o.name}${o.value ? ` ${o.value}` : ''}`;
  return o.short ? `-${o.short}, ${long}` : long;
}

function descriptionText(o: Option): string {
  const notes = [o.multiple ? 'repeatable' : '', o.default ? `default: ${o.default}` : ''].filter(Boolean);
  return notes.length > 0 ? `${o.description} (${notes.join('; ')})` : o.description;
}

/** The options' lines: flags in a column, descriptions beside them, wrapped. */
export function optionLines(options: readonly Option[]): string[] {
  const rows = [
    ...options.map((o) => ({ flag: flagText(o), text: descriptionText(o) })),
    { flag: flagText(HELP), text: HELP.description },
    END_OF_OPTIONS,
  ];
  const column = 2 + maxOf(rows.map((r) => r.flag.length).filter((n) => n <= LONGEST_FLAG)) + 2;
  const out: string[] = [];
  for (const r of rows) {
    const [first, ...rest] = wrap(r.text, column);
    const head = `  ${r.flag}`;
    if (head.length + 2 > column) out.push(head, `${' '.repeat(column)}${first}`);
    else out.push(`${head.padEnd(column)}${first}`);
    for (const l of rest) out.push(`${' '.repeat(column)}${l}`);
  }
  return out;
}

export function helpText(spec: CommandSpec): string {
  const parts = [`usage: ${spec.usage}`];
  if (spec.about) parts.push(wrap(spec.about, 0).join('\n'));
  parts.push(optionLines(spec.options).join('\n'));
  for (const n of spec.notes ?? []) parts.push(n.includes('\n') ? n : wrap(n, 0).join('\n'));
  return `${parts.join('\n\n')}\n`;
}
