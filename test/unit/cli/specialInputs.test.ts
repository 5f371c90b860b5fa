// The CLI reads only regular files: /dev/zero and /dev/urandom (never end), a FIFO without a
// writer (would block forever) and a directory are refused with a message before any byte is read; `--` ends
// the options, so a file whose name starts with `--` can be read.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { cliArgs } from '../cliProcess';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'real', 'claude-code', 'drmaciver-hello-world-script.jsonl');

function cli(...args: string[]) {
  // The timeout is the test: before the fix a FIFO hung the process and /dev/zero ate memory without end.
  const run = spawnSync(process.execPath, [...cliArgs, ...args], {
    encoding: 'utf8',
    cwd: ROOT,
    timeout: 30_000,
  });
  return { code: run.status, signal: run.signal, out: run.stdout, err: run.stderr };
}

const dir = mkdtempSync(join(tmpdir(), 'context-lens-special-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const fifo = join(dir, 'pipe.jsonl');
assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
const folder = join(dir, 'folder.jsonl');
mkdirSync(folder);

const special: [string, string, RegExp][] = [
  ['/dev/zero', '/dev/zero', /\/dev\/zero is a character device, not a regular file/],
  ['/dev/urandom', '/dev/urandom', /\/dev\/urandom is a character device, not a regular file/],
  ['a FIFO with no writer', fifo, /pipe\.jsonl is a FIFO \(named pipe\), not a regular file/],
  ['a directory', folder, /folder\.jsonl is a directory, not a regular file/],
];

describe('special inputs are refused before they are read', () => {
  for (const [what, path, message] of special) {
    it(`compact ${what}`, () => {
      const r = cli('compact', path, '--out', join(dir, 'out.jsonl'));
      assert.equal(r.signal, null, 'the process ended by itself');
      assert.equal(r.code, 2);
      assert.match(r.err, message);
    });
    it(`inspect ${what}`, () => {
      const r = cli('inspect', path);
      assert.equal(r.signal, null, 'the process ended by itself');
      assert.equal(r.code, 1);
      assert.match(r.err, message);
    });
  }
  it('simulate a FIFO with no writer', () => {
    const r = cli('simulate', fifo);
    assert.equal(r.signal, null, 'the process ended by itself');
    assert.equal(r.code, 2);
    assert.match(r.err, special[2][2]);
  });
});

describe('`--` ends the options', () => {
  const odd = join(dir, '--json');
  copyFileSync(FIXTURE, odd);
  it('inspect -- --json reads the file named --json', () => {
    const r = cli('inspect', '--', odd.replace(`${dir}/`, ''));
    assert.equal(r.code, 1, 'relative to the repo it does not exist: the name was taken as a file');
    assert.match(r.err, /cannot read --json \(ENOENT/);
    const abs = cli('inspect', '--json', '--', odd);
    assert.equal(abs.code, 0, abs.err);
    assert.equal(JSON.parse(abs.out).format, 'claude-code');
  });
  it('compact and simulate: a file named --x after --', () => {
    const named = join(dir, '--x.jsonl');
    copyFileSync(FIXTURE, named);
    const out = join(dir, 'x.compacted.jsonl');
    const r = cli('compact', '--out', out, '--', named);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /--x\.jsonl: claude-code/);
    const s = cli('simulate', '--policy', 'none', '--', named);
    assert.equal(s.code, 0, s.err);
    assert.equal(cli('compact', '--frobnicate').code, 2, 'before --, an unknown option is still an error');
    assert.match(cli('compact', '--', named, 'second').err, /only one file/);
  });
});

describe('a file whose name is not UTF-8 (Latin-1 "café") is read by its own bytes', () => {
  const latin1 = Buffer.concat([Buffer.from(`${dir}/caf`), Buffer.from([0xe9]), Buffer.from('.jsonl')]);
  copyFileSync(FIXTURE, latin1);
  // Given as bytes, the way a shell passes it (spawn's arguments are strings, which Node would encode as UTF-8).
  const named = (...args: string[]) => {
    const run = spawnSync(
      'sh',
      [
        '-c',
        // The node arguments that start the CLI come joined by newlines (none holds one), split back by the shell.
        `node=$0 cli=$1 command=$2 folder=$3; shift 3; IFS='\n'; exec "$node" $cli "$command" "$(printf '%s/caf\\351.jsonl' "$folder")" "$@"`,
        process.execPath,
        cliArgs.join('\n'),
        ...args,
      ],
      { encoding: 'utf8', cwd: ROOT, timeout: 60_000 },
    );
    return { code: run.status, out: run.stdout, err: run.stderr };
  };
  it('inspect', () => {
    const r = named('inspect', dir, '--json');
    assert.equal(r.code, 0, r.err);
    assert.equal(JSON.parse(r.out).format, 'claude-code');
  });
  it('simulate', () => {
    const r = named('simulate', dir, '--no-token-cache', '--json');
    assert.equal(r.code, 0, r.err);
    assert.ok(JSON.parse(r.out).none);
  });
  it('compact, with --out (its outputs are named from the input by default, which --out replaces)', () => {
    const out = join(dir, 'cafe.compacted.jsonl');
    const refused = named('compact', dir, '--no-token-cache');
    assert.equal(refused.code, 2);
    assert.match(
      refused.err,
      /caf\uFFFD\.jsonl: its name holds bytes that are not UTF-8 .* give it with --out/,
    );
    const r = named('compact', dir, '--no-token-cache', '--out', out);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /wrote .*cafe\.compacted\.jsonl/);
  });
  it('report, inside a folder it walks: a Latin-1 file, and one in a Latin-1 folder, both replayed', () => {
    const walked = join(dir, 'walked');
    mkdirSync(walked);
    const byte = (name: string) => Buffer.concat([Buffer.from(`${walked}/`), Buffer.from(name, 'latin1')]);
    copyFileSync(FIXTURE, byte('caf\u00e9.jsonl'));
    mkdirSync(byte('proj\u00e8t'));
    copyFileSync(FIXTURE, byte('proj\u00e8t/s.jsonl'));
    const run = cli('report', walked, '--no-token-cache', '--policy', 'tiered', '--json');
    assert.equal(run.code, 0, run.err);
    assert.match(run.err, / 0 skipped/);
    const paths = (JSON.parse(run.out).sessions as { path: string }[]).map((r) => r.path).sort();
    assert.deepEqual(paths, [join(walked, 'caf\uFFFD.jsonl'), join(walked, 'proj\uFFFDt', 's.jsonl')]);
  });
  it('report, given a Latin-1 folder', () => {
    const folderBytes = Buffer.concat([Buffer.from(`${dir}/d`), Buffer.from([0xe9])]);
    mkdirSync(folderBytes);
    copyFileSync(FIXTURE, Buffer.concat([folderBytes, Buffer.from('/s.jsonl')]));
    const run = spawnSync(
      'sh',
      [
        '-c',
        // As in `named`: the node arguments that start the CLI, joined by newlines, split back by the shell.
        `node=$0 cli=$1; IFS='\n'; exec "$node" $cli report "$(printf '%s/d\\351' "$2")" --no-token-cache --policy tiered --json`,
        process.execPath,
        cliArgs.join('\n'),
        dir,
      ],
      { encoding: 'utf8', cwd: ROOT, timeout: 60_000 },
    );
    assert.equal(run.status, 0, run.stderr);
    assert.equal(JSON.parse(run.stdout).sessions.length, 1, run.stderr);
  });
});
