// A command-line argument Node could not decode (a file name that is not UTF-8) is found again by its own bytes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { argPath, undecodedNameHint } from '../../../src/node/argPath';

const latin1 = Buffer.from([0x2f, 0x74, 0x2f, 0x63, 0x61, 0x66, 0xe9]); // "/t/caf" + é in Latin-1
const decoded = latin1.toString('utf8'); // "/t/caf\uFFFD"
const cmdline =
  (...words: (string | Buffer)[]) =>
  () =>
    Buffer.concat(words.flatMap((w) => [Buffer.from(w), Buffer.from([0])]));

test('an argument with U+FFFD is the raw bytes of the same argument on the command line', () => {
  const argv = ['/usr/bin/node', '/x/cli.js', 'inspect', decoded];
  // node's own options come before the script: the arguments are matched from the end.
  const raw = argPath(decoded, {
    argv,
    cmdline: cmdline('node', '--import', 'tsx', '/x/cli.js', 'inspect', latin1),
  });
  assert.ok(Buffer.isBuffer(raw));
  assert.deepEqual(raw, latin1);
});

test('a decodable argument, or no raw command line, is the argument as given', () => {
  assert.equal(argPath('/t/café.jsonl'), '/t/café.jsonl');
  const none = argPath(decoded, {
    argv: ['node', 'cli', decoded],
    cmdline: () => {
      throw new Error('no /proc here');
    },
  });
  assert.equal(none, decoded);
  assert.match(undecodedNameHint(decoded, none), /not UTF-8 .* rename the file/);
  assert.equal(undecodedNameHint('/t/café.jsonl', '/t/café.jsonl'), '');
});

test('a real U+FFFD in the name (valid UTF-8) is kept as it is', () => {
  const real = '/t/caf\uFFFD';
  const r = argPath(real, { argv: ['node', 'cli', real], cmdline: cmdline('node', 'cli', real) });
  assert.equal(r, real);
});
