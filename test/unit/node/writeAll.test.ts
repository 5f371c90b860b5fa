// One export writes all its files or none: a failure while writing or renaming any of them
// leaves the folder as it was, with no output whose markers point at a store that is not there.
import assert from 'node:assert/strict';
import {
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
import { test } from 'node:test';
import { defaultPolicyFor } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import { ccrPathFor, exportCompacted } from '../../../src/node/exportFile';
import { diskOps, type FileOps, OutputExistsError, writeAll } from '../../../src/node/writeAll';

const scratch = () => mkdtempSync(join(tmpdir(), 'context-lens-writeall-'));
const ls = (dir: string) => readdirSync(dir).sort();

/** Disk operations that fail like a full disk at the n-th call of `op` (1-based). */
function failingAt(op: 'create' | 'rename', n: number): FileOps {
  let calls = 0;
  const fail = () => {
    calls++;
    if (calls === n) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
  };
  return {
    ...diskOps,
    create: async (path, data) => {
      if (op === 'create') fail();
      return diskOps.create(path, data);
    },
    rename: async (from, to) => {
      if (op === 'rename') fail();
      return diskOps.rename(from, to);
    },
  };
}

function setup() {
  const dir = scratch();
  const source = join(dir, 'in.jsonl');
  writeFileSync(source, 'source');
  const files = ['out.jsonl', 'out.jsonl.ccr.json', 'report.json'].map((n, i) => ({
    path: join(dir, n),
    data: `new ${i}`,
  }));
  return { dir, source, files };
}

test('writes every file, leaves no temporary or kept file', async () => {
  const { dir, source, files } = setup();
  await writeAll(files, { source, replace: false });
  assert.deepEqual(ls(dir), ['in.jsonl', 'out.jsonl', 'out.jsonl.ccr.json', 'report.json']);
  for (const f of files) assert.equal(readFileSync(f.path, 'utf8'), f.data);
});

for (const [op, n] of [
  ['create', 1],
  ['create', 2],
  ['create', 3],
  ['rename', 1],
  ['rename', 2],
  ['rename', 3],
] as const) {
  test(`a failure at ${op} #${n}: nothing new is left, files that existed keep their content`, async () => {
    const { dir, source, files } = setup();
    await assert.rejects(writeAll(files, { source, replace: true, ops: failingAt(op, n) }), /ENOSPC/);
    assert.deepEqual(ls(dir), ['in.jsonl'], 'no output, no store, no temporary file');

    // The same over an earlier export: each file is back as it was.
    const old = files.map((f, i) => ({ ...f, data: `old ${i}` }));
    await writeAll(old, { source, replace: false });
    await assert.rejects(writeAll(files, { source, replace: true, ops: failingAt(op, n) }), /ENOSPC/);
    assert.deepEqual(ls(dir), ['in.jsonl', 'out.jsonl', 'out.jsonl.ccr.json', 'report.json']);
    for (const f of old) assert.equal(readFileSync(f.path, 'utf8'), f.data);
  });
}

test('refused before any write: the source by path, symlink or hard link; two outputs that are one file', async () => {
  const { dir, source, files } = setup();
  symlinkSync(source, join(dir, 'sym.json'));
  linkSync(source, join(dir, 'hard.json'));
  for (const name of ['in.jsonl', 'sym.json', 'hard.json', './in.jsonl'])
    await assert.rejects(
      writeAll([...files, { path: join(dir, name), data: 'x' }], { source, replace: true }),
      /is the source transcript .* never overwritten/,
    );
  await assert.rejects(
    writeAll([files[0], { path: join(dir, '.', 'out.jsonl'), data: 'x' }], { source, replace: true }),
    /they are the same file/,
  );
  assert.deepEqual(ls(dir), ['hard.json', 'in.jsonl', 'sym.json']);
  assert.equal(readFileSync(source, 'utf8'), 'source');
});

test('an existing output is refused without replace, and replaced with it', async () => {
  const { dir, source, files } = setup();
  writeFileSync(files[1].path, 'earlier store');
  await assert.rejects(
    writeAll(files, { source, replace: false }),
    (e) => e instanceof OutputExistsError && e.paths.length === 1 && /--force replaces/.test(e.message),
  );
  assert.deepEqual(ls(dir), ['in.jsonl', 'out.jsonl.ccr.json']);
  assert.equal(readFileSync(files[1].path, 'utf8'), 'earlier store');
  await writeAll(files, { source, replace: true });
  assert.equal(readFileSync(files[1].path, 'utf8'), files[1].data);
});

test('a directory or a device in the way, or a missing folder, is refused before any write, even with replace', async () => {
  const { dir, source, files } = setup();
  mkdirSync(files[1].path);
  await assert.rejects(writeAll(files, { source, replace: true }), /it is a directory, not a regular file/);
  assert.deepEqual(ls(dir), ['in.jsonl', 'out.jsonl.ccr.json']);
  await assert.rejects(
    writeAll([{ path: '/dev/null', data: 'x' }], { source, replace: true }),
    /it is a character device, not a regular file/,
  );
  await assert.rejects(
    writeAll([files[0], { path: join(dir, 'no', 'such', 'r.json'), data: 'x' }], { source, replace: true }),
    /its folder .* does not exist/,
  );
  assert.deepEqual(ls(dir), ['in.jsonl', 'out.jsonl.ccr.json']);
});

test('exportCompacted: the CCR store fails to write (full disk), so the output with its markers is not left', async () => {
  const dir = scratch();
  const source = join(dir, 'request.json');
  const grep = Array.from({ length: 300 }, (_, i) => `src/m${i % 20}.ts:${i + 1}:compute(${i})`).join('\n');
  const body = JSON.stringify({
    model: 'claude-sonnet-4-20250514',
    messages: [
      { role: 'user', content: 'find compute' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'grep', input: { q: 'x' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: grep }] },
    ],
  });
  writeFileSync(source, body);
  const transcript = parseTranscript(new TextEncoder().encode(body), source);
  const policy = { ...defaultPolicyFor(transcript.format), name: 'live-zone' as const };
  const target = join(dir, 'out.json');
  // The store is the second file written: its rename fails after the output's rename succeeded.
  await assert.rejects(
    exportCompacted({ source, transcript, policy, target, replace: false, ops: failingAt('rename', 2) }),
    /ENOSPC/,
  );
  assert.deepEqual(ls(dir), ['request.json']);
  // The same export without the failure writes both, and the output's markers are in the store.
  const r = await exportCompacted({ source, transcript, policy, target, replace: false });
  assert.equal(r.ccr, ccrPathFor(target));
  const hashes = Object.keys(JSON.parse(readFileSync(r.ccr!, 'utf8')));
  assert.ok(hashes.length > 0 && hashes.every((h) => readFileSync(target, 'utf8').includes(h)));
});
