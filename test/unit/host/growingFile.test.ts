import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { CHECKED_BYTES, GrowingFile } from '../../../src/host/growingFile';

const scratch = () => join(mkdtempSync(join(tmpdir(), 'context-lens-growing-')), 'session.jsonl');
const line = (i: number, pad = 0) => `{"n":${i},"text":"${'x'.repeat(pad)}"}\n`;

test('after the first read only the appended bytes are read; the bytes are always the whole file', async () => {
  const path = scratch();
  writeFileSync(path, line(0) + line(1));
  const file = new GrowingFile(path);
  const first = await file.read();
  assert.equal(first?.from, 0);
  assert.deepEqual(Buffer.from(first!.bytes), readFileSync(path));
  assert.equal(await file.read(), null, 'nothing changed');
  const size = readFileSync(path).length;
  appendFileSync(path, line(2));
  const grown = await file.read();
  assert.equal(grown?.from, size);
  assert.deepEqual(Buffer.from(grown!.bytes), readFileSync(path));
  // Far more than the room kept for growth: the buffer grows, the earlier bytes stay.
  for (let i = 3; i < 40; i++) appendFileSync(path, line(i, 100_000));
  const big = await file.read();
  assert.equal(big?.from, grown!.bytes.length);
  assert.deepEqual(Buffer.from(big!.bytes), readFileSync(path));
});

test('a file read whole hands its first bytes over before the rest is read; a smaller one, or an append, does not', async () => {
  const path = scratch();
  for (let i = 0; i < 20; i++) appendFileSync(path, line(i, 10_000));
  const whole = readFileSync(path);
  const file = new GrowingFile(path);
  const handed: { beginning: Buffer; size: number; complete: boolean }[] = [];
  let read = false;
  const start = {
    bytes: 25_000,
    read: (beginning: Uint8Array, size: number) =>
      handed.push({ beginning: Buffer.from(beginning), size, complete: read }),
  };
  const first = file.read(start).then((r) => {
    read = true;
    return r;
  });
  assert.deepEqual(Buffer.from((await first)!.bytes), whole);
  assert.deepEqual(handed, [{ beginning: whole.subarray(0, 25_000), size: whole.length, complete: false }]);
  appendFileSync(path, line(20, 50_000));
  assert.equal((await file.read(start))?.from, whole.length);
  const small = new GrowingFile(path);
  await small.read({ ...start, bytes: readFileSync(path).length });
  assert.equal(handed.length, 1, 'neither the append nor a file no longer than the beginning');
});

test('a file read whole is held without spare room; once it grew, it has room for the next appends', async () => {
  const path = scratch();
  writeFileSync(path, line(0, 1000) + line(1, 1000));
  const file = new GrowingFile(path);
  const first = await file.read();
  assert.equal(
    first?.bytes.buffer.byteLength,
    readFileSync(path).length,
    'no room kept for a file read once',
  );
  appendFileSync(path, line(2));
  const grown = await file.read();
  assert.ok(grown!.bytes.buffer.byteLength > grown!.bytes.length, 'room to grow once it grew');
  appendFileSync(path, line(3));
  const again = await file.read();
  assert.equal(again?.bytes.buffer, grown?.bytes.buffer, 'a small append fits the room: no copy');
  assert.deepEqual(Buffer.from(again!.bytes), readFileSync(path));
});

test('a file that shrank, was replaced, or changed before its old end is read whole again', async () => {
  const path = scratch();
  const body = Array.from({ length: 200 }, (_, i) => line(i, 50)).join('');
  assert.ok(body.length > 3 * CHECKED_BYTES, 'the middle must be outside the checked windows');
  const cases: [string, (s: string) => void][] = [
    ['shrank', () => writeFileSync(path, body.slice(0, 100))],
    ['same size, first byte changed', () => writeFileSync(path, ` ${body.slice(1)}`)],
    [
      'last line rewritten, then more appended',
      () => writeFileSync(path, `${body.slice(0, -10)}"changed}\n${line(999)}`),
    ],
    [
      'replaced by a new file with the same start',
      () => {
        writeFileSync(`${path}.new`, body + line(1000));
        renameSync(`${path}.new`, path);
      },
    ],
  ];
  for (const [name, change] of cases) {
    writeFileSync(path, body);
    const file = new GrowingFile(path);
    assert.equal((await file.read())?.from, 0);
    change(body);
    const again = await file.read();
    assert.equal(again?.from, 0, name);
    assert.deepEqual(Buffer.from(again!.bytes), readFileSync(path), name);
  }
});

test('something that is not a regular file is refused with its path', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-growing-'));
  await assert.rejects(new GrowingFile(dir).read(), (e: Error) =>
    e.message.startsWith(`${dir} is a directory, not a regular file`),
  );
});

test('a FIFO without a writer is refused at once, never waited on', {
  skip: process.platform === 'win32',
}, async () => {
  const fifo = join(mkdtempSync(join(tmpdir(), 'context-lens-growing-')), 'pipe.jsonl');
  execFileSync('mkfifo', [fifo]);
  await assert.rejects(new GrowingFile(fifo).read(), (e: Error) =>
    e.message.startsWith(`${fifo} is a FIFO (named pipe), not a regular file`),
  );
});

test('bytes let go of are read again, whole, when the file grows; an append is still told from a rewrite', async () => {
  const path = scratch();
  writeFileSync(path, line(0, 10_000) + line(1, 10_000));
  const file = new GrowingFile(path);
  const first = await file.read();
  const size = first!.bytes.length;
  file.release();
  assert.equal(file.bytes.length, 0, 'nothing held');
  assert.equal(await file.read(), null, 'nothing changed');
  appendFileSync(path, line(2));
  const grown = await file.read();
  assert.equal(grown?.from, size, 'an append');
  assert.deepEqual(Buffer.from(grown!.bytes), readFileSync(path));
  file.release();
  // The same size and more, but the first line changed: a rewrite, read whole.
  const text = readFileSync(path, 'utf8');
  writeFileSync(path, `${text.replace('"n":0', '"n":9')}${line(3)}`);
  const rewritten = await file.read();
  assert.equal(rewritten?.from, 0);
  assert.deepEqual(Buffer.from(rewritten!.bytes), readFileSync(path));
});
