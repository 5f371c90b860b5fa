// Write-back: rewrites spliced into the original bytes, for every format; nothing else changes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { locateBlock, parseTranscript, writeTranscript } from '../../../src/core/formats/index';
import type { Block, Rewrite, Transcript } from '../../../src/core/model';
import { bytes, ClaudeSession, fixture, jsonl, lines, text } from './helpers';

/** Only the bytes of the rewritten value differ: everything before and after it is the original. */
function assertOnlyValueChanged(
  t: Transcript,
  out: Uint8Array,
  messageIndex: number,
  blockIndex: number,
): void {
  const range = locateBlock(t, messageIndex, blockIndex, true);
  assert.ok(range, 'the value can be located');
  const raw = t.raw;
  assert.deepEqual(out.subarray(0, range.start), raw.subarray(0, range.start));
  const tail = raw.length - range.end;
  assert.deepEqual(out.subarray(out.length - tail), raw.subarray(range.end));
}

function resultContent(t: Transcript, m: number, b: number): string | Block[] {
  const block = t.messages[m].blocks[b];
  assert.equal(block.type, 'tool_result');
  return block.type === 'tool_result' ? block.content : '';
}

describe('writeTranscript', () => {
  it('claude-code: a rewritten result changes its own line only, and only inside the value', () => {
    const file = 'claude-code/drmaciver-coverage-test-fix.jsonl';
    const t = parseTranscript(fixture(file), file);
    const out = writeTranscript(t, [
      {
        messageIndex: 2,
        blockIndex: 0,
        content: '[Glob called with {"pattern":"**/*.py"}] → [result: 6 files, snipped]',
      },
    ]);
    assertOnlyValueChanged(t, out, 2, 0);
    const before = lines(t.raw);
    const after = lines(out);
    assert.equal(after.length, before.length);
    const changed = after.map((l, i) => (l === before[i] ? -1 : i + 1)).filter((n) => n !== -1);
    assert.deepEqual(changed, [5]);
    // The touched record keeps its key order: only the value differs.
    const a = JSON.parse(before[4]);
    const b = JSON.parse(after[4]);
    assert.deepEqual(Object.keys(b), Object.keys(a));
    a.message.content[0].content = b.message.content[0].content;
    assert.deepEqual(b, a);
    const again = parseTranscript(out, file);
    assert.equal(
      resultContent(again, 2, 0),
      '[Glob called with {"pattern":"**/*.py"}] → [result: 6 files, snipped]',
    );
    assert.equal(again.messages.length, t.messages.length);
  });

  it('claude-code: two results of one message live on two lines; each rewrite lands on its own', () => {
    const file = 'claude-code/drmaciver-coverage-test-fix.jsonl';
    const t = parseTranscript(fixture(file), file);
    const out = writeTranscript(t, [
      { messageIndex: 4, blockIndex: 1, content: 'second' },
      { messageIndex: 4, blockIndex: 0, content: 'first' },
      { messageIndex: 1, blockIndex: 0, content: 'a new text' },
    ]);
    const before = lines(t.raw);
    const after = lines(out);
    assert.deepEqual(
      after.map((l, i) => (l === before[i] ? -1 : i + 1)).filter((n) => n !== -1),
      [3, 8, 9],
    );
    const again = parseTranscript(out, file);
    assert.equal(resultContent(again, 4, 0), 'first');
    assert.equal(resultContent(again, 4, 1), 'second');
    assert.deepEqual(again.messages[1].blocks[0], {
      ...again.messages[1].blocks[0],
      type: 'text',
      text: 'a new text',
    });
  });

  it('claude-code: dropToolUseResult removes the runtime copy from touched records only', () => {
    const file = 'claude-code/drmaciver-coverage-test-fix.jsonl';
    const t = parseTranscript(fixture(file), file);
    const out = writeTranscript(t, [{ messageIndex: 2, blockIndex: 0, content: 'short' }], {
      dropToolUseResult: true,
    });
    const after = lines(out).filter((l) => l !== '');
    assert.equal('toolUseResult' in JSON.parse(after[4]), false);
    assert.equal('toolUseResult' in JSON.parse(after[7]), true);
    assert.deepEqual(
      after.slice(5),
      lines(t.raw)
        .filter((l) => l !== '')
        .slice(5),
    );
  });

  it('claude-code: byte offsets hold after multi-byte characters, and a string content becomes blocks', () => {
    const s = new ClaudeSession();
    s.user('café 🙂 naïve');
    const a = s.assistant('msg_1', [{ type: 'tool_use', id: 't1', name: 'shot', input: { note: '日本語' } }]);
    s.result(
      't1',
      [
        { type: 'text', text: 'ünïcödé' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
      ],
      a,
    );
    const t = parseTranscript(s.bytes());
    const original = resultContent(t, 2, 0) as Block[];
    const out = writeTranscript(t, [
      {
        messageIndex: 2,
        blockIndex: 0,
        content: [{ type: 'text', text: '[image removed to save context] 🙂' }, original[1]],
      },
    ]);
    assertOnlyValueChanged(t, out, 2, 0);
    const again = parseTranscript(out);
    const content = resultContent(again, 2, 0) as Block[];
    assert.deepEqual(
      content.map((b) => b.type),
      ['text', 'image'],
    );
    assert.ok(content[0].type === 'text' && content[0].text === '[image removed to save context] 🙂');
    assert.ok(
      content[1].type === 'image' && content[1].dataLength === 4 && content[1].mediaType === 'image/png',
    );
    const line = JSON.parse(lines(out)[2]);
    assert.deepEqual(line.message.content[0].content[1], {
      type: 'image',
      source: { type: 'base64', media_type: 'image/png', data: 'AAAA' },
    });
  });

  it('codex: a function_call_output rewrite', () => {
    const raw = jsonl([
      {
        timestamp: 't',
        type: 'response_item',
        payload: { type: 'function_call', name: 'shell', arguments: '{}', call_id: 'c1' },
      },
      {
        timestamp: 't',
        type: 'response_item',
        payload: { type: 'function_call_output', call_id: 'c1', output: 'long output' },
      },
      { timestamp: 't', type: 'event_msg', payload: { type: 'task_complete' } },
    ]);
    const t = parseTranscript(raw);
    const out = writeTranscript(t, [
      { messageIndex: 1, blockIndex: 0, content: [{ type: 'text', text: 'short' }] },
    ]);
    assertOnlyValueChanged(t, out, 1, 0);
    assert.deepEqual(JSON.parse(lines(out)[1]).payload.output, [{ type: 'input_text', text: 'short' }]);
    const again = parseTranscript(out);
    const c = resultContent(again, 1, 0);
    assert.ok(Array.isArray(c) && c[0].type === 'text' && c[0].text === 'short');
    assert.deepEqual(lines(out)[0], lines(raw)[0]);
    assert.deepEqual(lines(out)[2], lines(raw)[2]);
  });

  it('openai-chat: the tool message content, inside a pretty-printed document', () => {
    const file = 'openai-chat/pydantic-ai-cassette-tool-output.request.json';
    const t = parseTranscript(fixture(file), file);
    const out = writeTranscript(t, [{ messageIndex: 2, blockIndex: 0, content: 'Mexico (rewritten)' }]);
    assertOnlyValueChanged(t, out, 2, 0);
    assert.equal(resultContent(parseTranscript(out, file), 2, 0), 'Mexico (rewritten)');
    assert.equal(text(out).split('\n').length, text(t.raw).split('\n').length);
  });

  it('openai-responses: the function_call_output output', () => {
    const file = 'openai-responses/pydantic-ai-cassette-simple-response-with-tool-call.request.json';
    const t = parseTranscript(fixture(file), file);
    const out = writeTranscript(t, [{ messageIndex: 2, blockIndex: 0, content: 'Potato Town' }]);
    assertOnlyValueChanged(t, out, 2, 0);
    assert.equal(resultContent(parseTranscript(out, file), 2, 0), 'Potato Town');
  });

  it('anthropic: nested blocks are written in Anthropic shape, indented like the document', () => {
    const file = 'anthropic/pydantic-ai-cassette-text-editor-toolset.request.json';
    const t = parseTranscript(fixture(file), file);
    const out = writeTranscript(t, [
      { messageIndex: 2, blockIndex: 0, content: [{ type: 'text', text: 'snipped' }] },
    ]);
    assertOnlyValueChanged(t, out, 2, 0);
    const doc = JSON.parse(text(out));
    assert.deepEqual(doc.messages[2].content[0].content, [{ type: 'text', text: 'snipped' }]);
    assert.match(
      text(out),
      /"content": \[\n {12}\{\n {14}"type": "text",\n {14}"text": "snipped"\n {12}\}\n {10}\]/,
    );
    const again = parseTranscript(out, file);
    const c = resultContent(again, 2, 0);
    assert.ok(Array.isArray(c) && c[0].type === 'text' && c[0].text === 'snipped');
  });

  it('a tool_result without content gets one; only text and tool_result blocks can be rewritten', () => {
    const t = parseTranscript(
      bytes(
        JSON.stringify({
          messages: [
            { role: 'assistant', content: [{ type: 'tool_use', id: 'x', name: 'n', input: {} }] },
            { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'x' }] },
          ],
        }),
      ),
    );
    const out = writeTranscript(t, [{ messageIndex: 1, blockIndex: 0, content: 'filled' }]);
    assert.equal(resultContent(parseTranscript(out), 1, 0), 'filled');
    const bad: [Rewrite, RegExp][] = [
      [{ messageIndex: 0, blockIndex: 0, content: 'x' }, /only tool_result and text blocks/],
      [{ messageIndex: 5, blockIndex: 0, content: 'x' }, /no such block/],
    ];
    for (const [rewrite, message] of bad) assert.throws(() => writeTranscript(t, [rewrite]), message);
    assert.throws(
      () =>
        writeTranscript(t, [
          { messageIndex: 1, blockIndex: 0, content: 'a' },
          { messageIndex: 1, blockIndex: 0, content: 'b' },
        ]),
      /rewritten twice/,
    );
  });

  it('no rewrites: a copy of the input, byte for byte', () => {
    const raw = fixture('codex/simonw-sample-codex-session-0.77.jsonl');
    const t = parseTranscript(raw);
    const out = writeTranscript(t, []);
    assert.deepEqual(out, raw);
    assert.notEqual(out.buffer, raw.buffer);
  });
});

describe('byte-order mark', () => {
  const BOM = [0xef, 0xbb, 0xbf];
  for (const file of [
    'claude-code/drmaciver-hello-world-script.jsonl',
    'openai-chat/pydantic-ai-cassette-tool-output.request.json',
  ]) {
    it(`${file} with a BOM: read, located and rewritten at the right bytes`, () => {
      const raw = new Uint8Array([...BOM, ...fixture(file)]);
      const t = parseTranscript(raw, file);
      const plain = parseTranscript(fixture(file), file);
      assert.equal(t.messages.length, plain.messages.length);
      assert.equal(t.diagnostics.length, 0);
      assert.deepEqual(writeTranscript(t, []), raw);
      const m = t.messages.findIndex((msg) => msg.blocks.some((b) => b.type === 'tool_result'));
      const out = writeTranscript(t, [{ messageIndex: m, blockIndex: 0, content: 'rewritten' }]);
      assertOnlyValueChanged(t, out, m, 0);
      assert.deepEqual(out.subarray(0, 3), raw.subarray(0, 3));
      assert.equal(resultContent(parseTranscript(out, file), m, 0), 'rewritten');
    });
  }
});
