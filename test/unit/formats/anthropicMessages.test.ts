// Anthropic Messages request bodies, hand-made.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { clonePolicy, DEFAULT_POLICY } from '../../../src/core/engine/policy';
import { parseTranscript, writeTranscript } from '../../../src/core/formats/index';
import { bytes } from './helpers';

const noPolicy = clonePolicy(DEFAULT_POLICY);
noPolicy.name = 'none';

describe('anthropic-messages', () => {
  it('system blocks, nested tool_result content, images, thinking and unknown blocks', () => {
    const body = {
      model: 'claude-sonnet-4-5',
      system: [
        { type: 'text', text: 'line one' },
        { type: 'text', text: 'line two' },
      ],
      messages: [
        { role: 'user', content: 'hi' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'consider', signature: 's' },
            { type: 'redacted_thinking', data: 'xyz' },
            { type: 'tool_use', id: 't1', name: 'screenshot', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              is_error: false,
              content: [
                { type: 'text', text: 'here' },
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'QUJD' } },
              ],
            },
            { type: 'document', source: { type: 'text', data: 'doc' } },
          ],
        },
      ],
    };
    const t = parseTranscript(bytes(JSON.stringify(body)));
    assert.equal(t.format, 'anthropic-messages');
    assert.equal(t.system, 'line one\nline two');
    const [thinking, redacted] = t.messages[1].blocks;
    assert.ok(thinking.type === 'thinking' && thinking.text === 'consider' && !thinking.redacted);
    assert.ok(redacted.type === 'thinking' && redacted.redacted);
    const result = t.messages[2].blocks[0];
    assert.ok(result.type === 'tool_result' && Array.isArray(result.content));
    assert.deepEqual(
      result.content.map((b) => b.type),
      ['text', 'image'],
    );
    const image = result.content[1];
    assert.ok(image.type === 'image' && image.mediaType === 'image/png' && image.dataLength === 4);
    const doc = t.messages[2].blocks[1];
    assert.ok(doc.type === 'other' && doc.kind === 'document' && JSON.parse(doc.raw).source.data === 'doc');
    assert.ok(t.diagnostics.some((d) => d.code === 'unknown-block' && d.severity === 'info'));
  });

  it('a bare array of plain messages is read as Anthropic, and says why', () => {
    const t = parseTranscript(
      bytes(
        JSON.stringify([
          { role: 'user', content: 'a' },
          { role: 'assistant', content: 'b' },
        ]),
      ),
    );
    assert.equal(t.format, 'anthropic-messages');
    assert.match(t.formatReason, /plain role\/content/);
  });

  it('a reply with a compaction block: the requests after it send its summary and what follows, not the turns before', () => {
    const old = 'an old tool output '.repeat(400);
    const summary = 'The user asked for a refactor; the parser is done.';
    const body = {
      model: 'claude-sonnet-4-6',
      messages: [
        { role: 'user', content: 'refactor the parser' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { path: 'a.ts' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: old }] },
        {
          role: 'assistant',
          content: [
            { type: 'compaction', content: summary },
            { type: 'tool_use', id: 't2', name: 'Read', input: { path: 'b.ts' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: 'short' }] },
      ],
    };
    const t = parseTranscript(bytes(JSON.stringify(body)));
    assert.deepEqual(t.diagnostics, [], 'a compaction block is known');
    assert.deepEqual(
      t.markers.map((m) => [m.kind, m.label, m.beforeMessage, m.summary]),
      [['compaction', 'compaction block', 4, `${summary}\n\nRead\n\n{"path":"b.ts"}`]],
    );
    const { requests } = analyzeSync(t, noPolicy).analysis;
    assert.equal(requests.length, 3);
    assert.ok(requests[1].promptTokens > 1000, 'the reply that compacted was asked with the whole history');
    assert.ok(
      requests[2].promptTokens < 100,
      `the request after it sends the summary on (${requests[2].promptTokens})`,
    );
  });
});

describe('anthropic-messages, hostile input', () => {
  it('a nesting bomb inside the document is cut off and reported; the messages still read and write', () => {
    const bomb = `${'['.repeat(50000)}${']'.repeat(50000)}`;
    const text = `{"metadata":${bomb},"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":"long"}]}]}`;
    const raw = bytes(text);
    const t = parseTranscript(raw);
    assert.equal(t.format, 'anthropic-messages');
    assert.equal(t.messages.length, 1);
    const d = t.diagnostics.find((x) => x.code === 'invalid-json');
    assert.match(d?.message ?? '', /nested deeper than 256/i);
    assert.equal(d?.column, 12 + 256); // the 256th '[' is level 257, counting the outer object
    assert.deepEqual(writeTranscript(t, []), raw);
    const out = new TextDecoder().decode(
      writeTranscript(t, [{ messageIndex: 0, blockIndex: 0, content: 'short' }]),
    );
    assert.equal(out, text.replace('"content":"long"', '"content":"short"'));
  });
});
