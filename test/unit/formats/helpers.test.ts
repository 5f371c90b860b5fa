// The shared ground: safe JSON with a depth limit, cutting a member before parsing, UTF-8, line positions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import {
  findValue,
  jsonErrorAt,
  nestingTooDeepAt,
  parseJson,
  parseRecordWithout,
} from '../../../src/core/formats/json';
import { firstInvalidUtf8, LineIndex, utf8Length } from '../../../src/core/formats/text';
import { bytes } from './helpers';

describe('parseRecordWithout', () => {
  const KEY = 'toolUseResult';

  it('leaves out the top-level member wherever it sits, and nothing else', () => {
    const record = fc.dictionary(
      fc.oneof(fc.string(), fc.constant(KEY), fc.constant(`"${KEY}":`)),
      fc.jsonValue(),
      { maxKeys: 6 },
    );
    fc.assert(
      fc.property(record, fc.jsonValue(), fc.nat(6), fc.boolean(), (r, copy, at, pretty) => {
        const entries = Object.entries(r).filter(([k]) => k !== KEY);
        entries.splice(Math.min(at, entries.length), 0, [KEY, copy]);
        const obj = Object.fromEntries(entries);
        const text = pretty ? JSON.stringify(obj, null, 2) : JSON.stringify(obj);
        const parsed = parseRecordWithout(text, KEY);
        assert.ok(parsed.ok);
        const expected = Object.fromEntries(entries.filter(([k]) => k !== KEY));
        assert.deepEqual(parsed.value, expected);
      }),
      { seed: 7, numRuns: 500 },
    );
  });

  it('keeps the key when it only appears inside strings or deeper objects', () => {
    const text = JSON.stringify({ a: `"${KEY}":{"x":1}`, b: { [KEY]: 2 }, c: [`\\"${KEY}\\":`] });
    assert.deepEqual(parseRecordWithout(text, KEY), { ok: true, value: JSON.parse(text) });
  });

  it('reports errors at positions of the whole text', () => {
    const text = `{"a":1,"${KEY}":{"x":1},"b":}`;
    const parsed = parseRecordWithout(text, KEY);
    assert.ok(!parsed.ok);
    assert.equal(parsed.offset, text.length - 1);
  });
});

describe('findValue', () => {
  /** Every path into a value, so that the property visits each node. */
  function paths(value: unknown, prefix: (string | number)[] = []): (string | number)[][] {
    const out = [prefix];
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) out.push(...paths(value[i], [...prefix, i]));
    } else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
    return out;
  }

  it('finds the same range as a full jsonc tree, for every path, compact or indented', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), fc.constantFrom(undefined, 2, '\t'), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        const root = parseTree(text);
        for (const path of paths(value)) {
          const node = root && findNodeAtLocation(root, path);
          const found = findValue(text, path);
          assert.ok(
            node && found,
            `path ${JSON.stringify(path)}: jsonc ${node ? 'found' : 'missed'} it, findValue ${found ? 'found' : 'missed'} it`,
          );
          assert.deepEqual(found, { start: node.offset, end: node.offset + node.length });
        }
        assert.equal(findValue(text, ['no such key', 0]), undefined);
      }),
      { seed: 11, numRuns: 400 },
    );
  });
});

describe('safe JSON', () => {
  it('finds a nesting bomb without recursion, skipping brackets inside strings', () => {
    assert.equal(nestingTooDeepAt('['.repeat(1_000_000), 256), 256);
    assert.equal(nestingTooDeepAt(`{"a":"${'['.repeat(1000)}"}`, 256), -1);
    assert.equal(nestingTooDeepAt(`{"a":"\\\\","b":${'['.repeat(300)}`, 256), 13 + 256);
    const bomb = parseJson(`${'['.repeat(5000)}${']'.repeat(5000)}`);
    assert.ok(!bomb.ok && /nested deeper than 256/.test(bomb.message));
  });

  it('places syntax errors where they are', () => {
    assert.deepEqual(jsonErrorAt('{"a":1,}').offset, 7);
    assert.equal(jsonErrorAt('{"a":"unterminated').offset, 18);
    assert.match(jsonErrorAt('{"a" 1}').message, /colon expected/);
    assert.match(jsonErrorAt('{"a":1').message, /truncated/);
  });
});

describe('text positions', () => {
  it('finds the first invalid UTF-8 byte', () => {
    assert.equal(firstInvalidUtf8(bytes('café 🙂')), -1);
    assert.equal(firstInvalidUtf8(new Uint8Array([0x61, 0xc3])), 1); // cut sequence
    assert.equal(firstInvalidUtf8(new Uint8Array([0x61, 0xc0, 0x80])), 1); // overlong
    assert.equal(firstInvalidUtf8(new Uint8Array([0xed, 0xa0, 0x80])), 0); // surrogate
    assert.equal(firstInvalidUtf8(new Uint8Array([0x61, 0x62, 0xff])), 2);
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        (s) => firstInvalidUtf8(bytes(s)) === -1 && utf8Length(s) === bytes(s).length,
      ),
    );
  });

  it('turns byte offsets into 1-based lines and UTF-16 columns', () => {
    const raw = bytes('ab\ncé🙂x\r\nlast');
    const index = new LineIndex(raw);
    assert.equal(index.lineCount, 3);
    const x = raw.indexOf(0x78);
    assert.deepEqual(index.position(x), { line: 2, column: 5 }); // c, é, and the emoji's two UTF-16 units
    assert.deepEqual(index.span(1), { index: 1, start: 3, end: x + 1 });
    assert.deepEqual(index.position(raw.length), { line: 3, column: 5 });
  });
});
