// Positions in one-line JSON request bodies: computed from a checkpoint index instead of from the start of the
// line (quadratic: a 3 MB one-line Anthropic body took 41 s), and still exactly what measuring gives.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTree } from 'jsonc-parser';
import { parseTranscript } from '../../../src/core/formats';
import { DocPositions } from '../../../src/core/formats/jsonDoc';
import { decodeUtf8, encodeUtf8, LineIndex, utf8Length } from '../../../src/core/formats/text';
import type { JsonDocument } from '../../../src/core/formats/types';

/** An Anthropic body with `turns` tool round trips, multi-byte text included (é, 😀, 中). */
function anthropicBody(turns: number, pad = ''): string {
  const messages: unknown[] = [{ role: 'user', content: `start é😀中 ${pad}` }];
  for (let k = 0; k < turns; k++) {
    messages.push({
      role: 'assistant',
      content: [{ type: 'tool_use', id: `toolu_${k}`, name: 'Read', input: { path: `/src/😀${k}.ts` } }],
    });
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: `toolu_${k}`, content: `résultat ${k} 中文 ${pad}` }],
    });
  }
  return JSON.stringify({ model: 'claude-sonnet-4-20250514', max_tokens: 1024, messages });
}

/** What DocPositions computed before: every offset measured from the start of its line. */
function slowPosition(text: string, lines: LineIndex, offset: number) {
  const lineStart = offset === 0 ? 0 : text.lastIndexOf('\n', offset - 1) + 1;
  const line = text.slice(0, lineStart).split('\n').length;
  return {
    line,
    column: offset - lineStart + 1,
    byte: lines.starts[line - 1] + utf8Length(text, lineStart, offset),
  };
}

test('positions equal the slow measurement at every offset of a small document, across checkpoints', () => {
  // Pretty-printed and one-line, with surrogate pairs placed across the 1,024-unit checkpoints.
  for (const text of [
    anthropicBody(6, '😀'.repeat(300)),
    JSON.stringify(JSON.parse(anthropicBody(8)), null, 2),
  ]) {
    const raw = encodeUtf8(text);
    const doc = { text: decodeUtf8(raw).text, root: parseTree(text) } as JsonDocument;
    const pos = new DocPositions(doc, raw);
    const lines = new LineIndex(raw);
    for (let offset = 0; offset <= text.length; offset++) {
      const c = text.charCodeAt(offset);
      if (c >= 0xdc00 && c <= 0xdfff) continue; // never an offset jsonc-parser gives
      assert.deepEqual(pos.position(offset), slowPosition(text, lines, offset), `offset ${offset}`);
    }
  }
});

test('a 3 MB one-line body with 1,500 turns parses with the right line and column for every message', () => {
  const text = anthropicBody(1500, 'x'.repeat(1900));
  assert.ok(text.length > 3_000_000 && !text.includes('\n'));
  const t = parseTranscript(encodeUtf8(text), 'body.json');
  assert.equal(t.messages.length, 3001);
  const last = t.messages[3000].source;
  assert.ok(last);
  const at = text.lastIndexOf('{"role":"user"');
  assert.equal(last.line, 1);
  assert.equal(last.column, at + 1);
  assert.equal(last.start, utf8Length(text, 0, at));
  assert.equal(last.endColumn, text.length - 2 + 1); // the message closes before `]}`
});

test('bytes that are not UTF-8 (one U+FFFD for 1–3 of them) do not shift the positions after them', () => {
  const text = anthropicBody(4);
  const at = text.indexOf('"content"');
  // A lone 0xff (1 byte), a cut 3-byte sequence (2 bytes) and a valid U+FFFD (3 bytes) before the content.
  const raw = new Uint8Array([
    ...encodeUtf8(text.slice(0, at)),
    0xff,
    0x20,
    0xe2,
    0x82,
    0x20,
    0xef,
    0xbf,
    0xbd,
    0x20,
    ...encodeUtf8(text.slice(at)),
  ]);
  const decoded = decodeUtf8(raw).text;
  const doc = { text: decoded, root: parseTree(decoded) } as JsonDocument;
  const pos = new DocPositions(doc, raw);
  const from = decoded.indexOf('"content"');
  const byte = pos.position(from).byte;
  assert.equal(new TextDecoder().decode(raw.subarray(byte, byte + 9)), '"content"');
  assert.equal(byte, encodeUtf8(text.slice(0, at)).length + 9);
});
