// Only a regular file is read as a transcript: devices that never end, a FIFO without a
// writer (which would block forever), a directory are refused with a message, before a byte is read.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { NotRegularFileError, readRegularFile, readRegularFileSync } from '../../../src/node/readRegularFile';

const dir = mkdtempSync(join(tmpdir(), 'context-lens-read-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const fifo = join(dir, 'pipe.jsonl');
const made = spawnSync('mkfifo', [fifo]);
assert.equal(made.status, 0, `mkfifo: ${made.stderr}`);
const folder = join(dir, 'folder.jsonl');
mkdirSync(folder);
const file = join(dir, 'file.jsonl');
writeFileSync(file, '{"a":1}\n');
symlinkSync(file, join(dir, 'link.jsonl'));
symlinkSync('/dev/zero', join(dir, 'zero.jsonl'));

const refused: [string, RegExp][] = [
  ['/dev/zero', /is a character device/],
  ['/dev/urandom', /is a character device/],
  [join(dir, 'zero.jsonl'), /is a character device/],
  [fifo, /is a FIFO \(named pipe\)/],
  [folder, /is a directory/],
];

for (const [path, kind] of refused) {
  const expected = (e: unknown) =>
    e instanceof NotRegularFileError && kind.test(e.message) && e.message.startsWith(path);
  test(`${path}: refused at once, sync and async`, { timeout: 10_000 }, async () => {
    assert.throws(() => readRegularFileSync(path), expected);
    await assert.rejects(readRegularFile(path), expected);
  });
}

test('a regular file, and a symbolic link to one, are read whole', async () => {
  for (const p of [file, join(dir, 'link.jsonl')]) {
    assert.equal(new TextDecoder().decode(readRegularFileSync(p)), '{"a":1}\n');
    assert.equal(new TextDecoder().decode(await readRegularFile(p)), '{"a":1}\n');
  }
});

test('a missing file keeps the system error (ENOENT)', async () => {
  assert.throws(() => readRegularFileSync(join(dir, 'none')), { code: 'ENOENT' });
  await assert.rejects(readRegularFile(join(dir, 'none')), { code: 'ENOENT' });
});
