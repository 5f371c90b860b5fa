// The CLI's options table: what parseArgs' tokens become, the usage errors that name the flag, and the help made
// from the table.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type CommandSpec, helpText, type Option, parseCommand, UsageError } from '../../../src/cli/options';

const OUT: Option<string> = { name: 'out', value: 'FILE', description: 'output file', default: 'beside it' };
const SET: Option<string> = { name: 'set', value: 'key=value', description: 'one constant', multiple: true };
const JSON_: Option<string> = { name: 'json', key: 'output', is: 'json', description: 'as JSON' };
const CSV: Option<string> = { name: 'csv', key: 'output', is: 'csv', description: 'as CSV' };
const N: Option<number> = {
  name: 'jobs',
  value: 'N',
  description: 'threads',
  parse: (v, flag) => {
    if (!/^\d+$/.test(v)) throw new UsageError(`${flag}: expected a number, got "${v}"`);
    return Number(v);
  },
};
const SPEC: CommandSpec = { usage: 'test <file>', options: [OUT, SET, JSON_, CSV, N] };

const parse = (...args: string[]) => parseCommand(SPEC, args);
const refused = (args: string[], message: RegExp) =>
  assert.throws(
    () => parseCommand(SPEC, args),
    (e: unknown) => e instanceof UsageError && message.test(e.message),
  );

describe('parseCommand', () => {
  it('keeps the order of repeated values, and the last of the flags sharing a key', () => {
    const p = parse(
      'a',
      '--set',
      'x=1',
      '--json',
      '--set=y=2',
      '--csv',
      '--jobs',
      '3',
      '--out',
      'o1',
      '--out',
      'o2',
    );
    assert.ok(p);
    assert.deepEqual(p.all(SET), ['x=1', 'y=2']);
    assert.equal(p.get(JSON_), 'csv');
    assert.equal(p.get(N), 3);
    assert.equal(p.get(OUT), 'o2');
    assert.deepEqual(p.positionals, ['a']);
    assert.equal(parse('a')?.has(OUT), false);
  });

  it('takes every word after -- as a file', () => {
    assert.deepEqual(parse('--', '--json', '-x')?.positionals, ['--json', '-x']);
    assert.deepEqual(parse('-')?.positionals, ['-']);
  });

  it('refuses unknown flags, missing values and values given to a switch, naming the flag', () => {
    refused(['--frobnicate'], /^unknown option --frobnicate$/);
    refused(['--frob=3'], /^unknown option --frob=3$/);
    refused(['-x'], /^unknown option -x$/);
    refused(['--out'], /^--out needs a value$/);
    refused(['--out', '--json'], /^--out needs a value$/);
    refused(['--json=yes'], /^--json takes no value$/);
    refused(['--jobs', 'many'], /^--jobs: expected a number, got "many"$/);
    assert.equal(parse('--out=--x')?.get(OUT), '--x', 'a value starting with -- given inline');
  });

  it('prints the help for --help or -h, wherever it stands', () => {
    const write = process.stdout.write;
    let printed = '';
    process.stdout.write = ((s: string) => {
      printed += s;
      return true;
    }) as typeof process.stdout.write;
    try {
      assert.equal(parse('--frobnicate', '-h'), undefined);
      assert.equal(parse('--help'), undefined);
    } finally {
      process.stdout.write = write;
    }
    assert.equal(printed, helpText(SPEC) + helpText(SPEC));
  });
});

describe('helpText', () => {
  it('lists every flag of the table with its value, notes and default, in one column', () => {
    const help = helpText(SPEC);
    assert.match(help, /^usage: test <file>\n\n/);
    assert.match(help, /^ {2}--out FILE {7}output file \(default: beside it\)$/m);
    assert.match(help, /^ {2}--set key=value {2}one constant \(repeatable\)$/m);
    assert.match(help, /^ {2}-h, --help {7}print this help$/m);
    assert.match(help, /^ {2}-- {15}the next word is the file/m);
  });
});
