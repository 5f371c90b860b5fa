// The one escaping helper for untrusted text in the editor's UI outside the webview.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ERROR_MAX_CHARS, UNTRUSTED_MAX_CHARS, untrusted, untrustedError } from '../../../src/host/escape';
import { HOSTILE, icons, notificationLinks, visible } from './editorText';

test('a command link, an https link and a file link in a value are no link any more, and read the same', () => {
  for (const value of [
    HOSTILE,
    '[click](https://example.invalid/x)',
    '[open](file:///etc/passwd)',
    '[X](COMMAND:workbench.action.terminal.new)',
    'see [a](command:a) and [b](command:b "title")',
  ]) {
    assert.ok(notificationLinks(value).length > 0, `the vector must be a link as written: ${value}`);
    const out = untrusted(value);
    assert.deepEqual(notificationLinks(out), [], out);
    assert.equal(visible(out), value);
  }
});

test('no link forms across the edge of two escaped values, nor with the text around them', () => {
  const pieces: [string, string][] = [
    ['[x]', '(command:foo)'],
    ['[x', '](command:foo)'],
    ['[', 'x](command:foo)'],
  ];
  for (const [a, b] of pieces) {
    assert.ok(notificationLinks(a + b).length > 0);
    assert.deepEqual(notificationLinks(untrusted(a) + untrusted(b)), [], `${a} + ${b}`);
    assert.deepEqual(notificationLinks(`${untrusted(a)}${b.slice(b.indexOf('('))}`), []);
  }
});

test('icons: $(name) in a value is no icon any more, and reads the same', () => {
  const value = '$(zap) $(sync~spin) build';
  assert.deepEqual(icons(value), ['zap', 'sync~spin']);
  const out = untrusted(value);
  assert.deepEqual(icons(out), []);
  assert.equal(visible(out), value);
});

test('line breaks become spaces; control and bidirectional characters are shown as \\uXXXX', () => {
  assert.equal(untrusted('a\nb\r\n\tc\u2028d'), 'a b c d');
  assert.equal(untrusted('evil\u202Egnp.exe'), 'evil\\u202egnp.exe');
  assert.equal(untrusted('nul\u0000 bell\u0007 del\u007f'), 'nul\\u0000 bell\\u0007 del\\u007f');
  assert.equal(untrusted('\uFEFFbom'), '\\ufeffbom');
  assert.equal(
    untrusted('lone \uD800 high, lone \uDC00 low, pair 😀'),
    'lone \uFFFD high, lone \uFFFD low, pair 😀',
  );
});

test('long values are cut with an ellipsis, never inside a surrogate pair; errors get more room', () => {
  const long = 'k'.repeat(10_000);
  assert.equal(untrusted(long).length, UNTRUSTED_MAX_CHARS);
  assert.ok(untrusted(long).endsWith('…'));
  const emoji = `${'a'.repeat(UNTRUSTED_MAX_CHARS - 2)}😀😀`;
  assert.doesNotMatch(untrusted(emoji), /[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  assert.equal(untrustedError(new Error(long)).length, ERROR_MAX_CHARS);
});

test('any value: a string out, never a link or an icon, never a line break (property)', () => {
  const alphabet = fc.constantFrom(
    '[',
    ']',
    '(',
    ')',
    '$',
    'x',
    'command:',
    'https://',
    'file:',
    ' ',
    '\n',
    '"',
  );
  fc.assert(
    fc.property(fc.array(fc.oneof(alphabet, fc.string()), { maxLength: 40 }), (parts) => {
      const value = parts.join('');
      const out = untrusted(value, 10_000);
      assert.deepEqual(notificationLinks(out), []);
      assert.deepEqual(icons(out), []);
      assert.doesNotMatch(out, /[\n\r]/);
      // Two values side by side, with our own words between or not.
      const half = Math.floor(value.length / 2);
      assert.deepEqual(notificationLinks(untrusted(value.slice(0, half)) + untrusted(value.slice(half))), []);
    }),
    { numRuns: 500 },
  );
});

test('non-strings: errors, numbers, objects whose toString throws', () => {
  assert.equal(untrustedError(new Error(`bad ${HOSTILE}`)), `bad ${untrusted(HOSTILE)}`);
  assert.equal(untrustedError('thrown string'), 'thrown string');
  assert.equal(untrusted(42), '42');
  assert.equal(
    untrusted({
      toString() {
        throw new Error('no');
      },
    }),
    '[object Object]'.replace(']', ']\u200B'),
  );
});
