// Reading a session log that an agent may be writing: whole lines only, a finished last line kept.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readSessionSync } from '../../../src/node/sessionRead';

const dir = mkdtempSync(join(tmpdir(), 'context-lens-session-read-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

test('a last line still being written is left out; the lines before it are read', () => {
  const r = readSessionSync(file('partial.jsonl', '{"a":1}\n{"b":2}\n{"c":'));
  assert.equal(Buffer.from(r.bytes).toString(), '{"a":1}\n{"b":2}\n');
  assert.equal(r.cutPartialLine, true);
  assert.equal(r.grew, false);
});

test('a whole last record without a final newline is kept, and so is a file that ends with one', () => {
  for (const text of ['{"a":1}\n{"b":2}', '{"a":1}\n{"b":2}\n', '']) {
    const r = readSessionSync(file('whole.jsonl', text));
    assert.equal(Buffer.from(r.bytes).toString(), text);
    assert.equal(r.cutPartialLine, false);
  }
});

test('a JSON document (not JSONL) is read whole', () => {
  const r = readSessionSync(file('body.json', '{"messages": ['));
  assert.equal(Buffer.from(r.bytes).toString(), '{"messages": [');
});
