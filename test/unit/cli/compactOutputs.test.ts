// `context-lens compact`, run as a process: every file it writes (output, --report, CCR store) goes through the
// editor's export guard, an existing output needs --force, and the files of one run are written together or
// not at all.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cliArgs } from '../cliProcess';

const ROOT = join(import.meta.dirname, '..', '..', '..');
const FIXTURE = join(ROOT, 'test', 'fixtures', 'real', 'claude-code', 'drmaciver-hello-world-script.jsonl');

function compact(...args: string[]) {
  const run = spawnSync(process.execPath, [...cliArgs, 'compact', ...args], {
    encoding: 'utf8',
    cwd: ROOT,
    timeout: 60_000,
  });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

function scratch(): { dir: string; input: string; bytes: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-compact-'));
  const input = join(dir, 'in.jsonl');
  copyFileSync(FIXTURE, input);
  return { dir, input, bytes: readFileSync(input) };
}

/** A request body whose grep result the live zone turns into a marker (so a CCR store is written). */
function liveZoneInput(dir: string, name: string): string {
  const grep = Array.from({ length: 300 }, (_, i) => `src/m${i % 20}.ts:${i + 1}:compute(${i})`).join('\n');
  const path = join(dir, name);
  writeFileSync(
    path,
    JSON.stringify({
      model: 'claude-sonnet-4-20250514',
      messages: [
        { role: 'user', content: 'find compute' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'grep', input: { q: 'x' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: grep }] },
      ],
    }),
  );
  return path;
}

const ls = (dir: string) => readdirSync(dir).sort();

describe('context-lens compact: what it writes', () => {
  it('--report naming the input is refused, and the input is untouched', () => {
    const { dir, input, bytes } = scratch();
    const r = compact(input, '--out', join(dir, 'o.jsonl'), '--report', input);
    assert.equal(r.code, 2);
    assert.match(r.err, /refusing to write .*in\.jsonl: it is the source transcript/);
    assert.deepEqual(readFileSync(input), bytes);
    assert.deepEqual(ls(dir), ['in.jsonl']);
  });

  it('--report as a symbolic link or a hard link to the input is refused', () => {
    const { dir, input, bytes } = scratch();
    symlinkSync(input, join(dir, 'sym.json'));
    linkSync(input, join(dir, 'hard.json'));
    for (const name of ['sym.json', 'hard.json']) {
      const r = compact(input, '--force', '--report', join(dir, name));
      assert.equal(r.code, 2, name);
      assert.match(r.err, /it is the source transcript/);
    }
    assert.deepEqual(readFileSync(input), bytes);
    assert.deepEqual(ls(dir), ['hard.json', 'in.jsonl', 'sym.json']);
  });

  it('a CCR store that would land on the input is refused (compact v.ccr.json --out v)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'context-lens-compact-'));
    const input = liveZoneInput(dir, 'v.ccr.json');
    const bytes = readFileSync(input);
    const r = compact(input, '--policy', 'live-zone', '--out', join(dir, 'v'));
    assert.equal(r.code, 2);
    assert.match(r.err, /refusing to write .*v\.ccr\.json: it is the source transcript/);
    assert.deepEqual(readFileSync(input), bytes);
    assert.deepEqual(ls(dir), ['v.ccr.json']);
  });

  it('--report and --out naming one file are refused', () => {
    const { dir, input } = scratch();
    const r = compact(input, '--out', join(dir, 'o.jsonl'), '--report', join(dir, 'o.jsonl'));
    assert.equal(r.code, 2);
    assert.match(r.err, /they are the same file/);
    assert.deepEqual(ls(dir), ['in.jsonl']);
  });

  it('an existing output is replaced only with --force (the default name, --out, --report)', () => {
    const { dir, input } = scratch();
    const out = join(dir, 'in.compacted.jsonl');
    const report = join(dir, 'report.json');
    assert.equal(compact(input, '--report', report).code, 0);
    const first = readFileSync(out);
    writeFileSync(report, 'mine');
    const again = compact(input, '--report', report);
    assert.equal(again.code, 2);
    assert.match(
      again.err,
      /in\.compacted\.jsonl, .*report\.json exist: refusing to replace them \(--force replaces\)/,
    );
    assert.equal(readFileSync(report, 'utf8'), 'mine');
    const forced = compact(input, '--report', report, '--force');
    assert.equal(forced.code, 0, forced.err);
    assert.deepEqual(readFileSync(out), first);
    assert.ok(JSON.parse(readFileSync(report, 'utf8')).totals, 'the report was replaced');
    assert.deepEqual(ls(dir), ['in.compacted.jsonl', 'in.jsonl', 'report.json']);
  });

  it('a directory in the way of the CCR store: refused before writing, so no output points at a missing store', () => {
    const dir = mkdtempSync(join(tmpdir(), 'context-lens-compact-'));
    const input = liveZoneInput(dir, 'request.json');
    mkdirSync(join(dir, 'out.json.ccr.json'));
    const r = compact(input, '--policy', 'live-zone', '--out', join(dir, 'out.json'), '--force');
    assert.equal(r.code, 2);
    assert.match(r.err, /out\.json\.ccr\.json: it is a directory, not a regular file/);
    assert.equal(existsSync(join(dir, 'out.json')), false);
    assert.deepEqual(ls(dir), ['out.json.ccr.json', 'request.json']);
  });

  it('--report in a folder that does not exist: nothing is written (not the output, not the store)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'context-lens-compact-'));
    const input = liveZoneInput(dir, 'request.json');
    const r = compact(
      input,
      '--policy',
      'live-zone',
      '--out',
      join(dir, 'out.json'),
      '--report',
      join(dir, 'no', 'r.json'),
    );
    assert.equal(r.code, 2);
    assert.match(r.err, /its folder .*no does not exist/);
    assert.deepEqual(ls(dir), ['request.json']);
  });

  it('--help lists --force and --', () => {
    const r = compact('--help');
    assert.equal(r.code, 0);
    assert.match(r.out, /--force {2,}replace output files that exist/);
    assert.match(r.out, /-- {2,}the next word is the file/);
  });
});
