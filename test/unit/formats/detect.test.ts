// Detection by content: the format chosen and why, and for anything else why each format said no.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { detectFormat, parseTranscript, UnrecognizedTranscriptError } from '../../../src/core/formats/index';
import { FORMATS } from '../../../src/core/formats/registry';
import { bytes, fixture, fixtureFiles, jsonl } from './helpers';

describe('detectFormat', () => {
  it('finds every fixture by its content, even under a misleading name', () => {
    for (const file of fixtureFiles().filter((f) => !f.endsWith('.md'))) {
      const byName = detectFormat(fixture(file), file);
      const misnamed = detectFormat(fixture(file), 'transcript.txt');
      assert.ok(byName.format, file);
      assert.equal(misnamed.format, byName.format, file);
      assert.ok('reason' in byName && byName.reason.length > 20);
    }
  });

  it('tells Chat from Anthropic from Responses by their own fields', () => {
    const chat = {
      messages: [
        { role: 'user', content: 'x' },
        { role: 'assistant', content: null, tool_calls: [] },
      ],
    };
    const anthropic = { system: 's', messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }] };
    const responses = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'x' }] }];
    assert.equal(detectFormat(bytes(JSON.stringify(chat))).format, 'openai-chat');
    assert.equal(detectFormat(bytes(JSON.stringify(anthropic))).format, 'anthropic-messages');
    assert.equal(detectFormat(bytes(JSON.stringify(responses))).format, 'openai-responses');
    // One line of JSON is both a JSON document and a JSONL file: the content decides.
    const oneLine = detectFormat(bytes(`${JSON.stringify(chat)}\n`), 'x.jsonl');
    assert.equal(oneLine.format, 'openai-chat');
    assert.ok('reason' in oneLine && /\.jsonl/.test(oneLine.reason));
  });

  it('rejects other files and says why for each format', () => {
    const d = detectFormat(jsonl([{ level: 'info', msg: 'a log line' }]), 'app.log');
    assert.equal(d.format, null);
    assert.ok('rejected' in d);
    assert.deepEqual(d.rejected.map((r) => r.format).sort(), [
      'anthropic-messages',
      'claude-code',
      'codex',
      'gemini-cli',
      'gemini-cli-json',
      'openai-chat',
      'openai-responses',
      'opencode',
    ]);
    assert.match(d.rejected.find((r) => r.format === 'claude-code')?.reason ?? '', /keys \[level, msg\]/);
  });

  it('parseTranscript throws UnrecognizedTranscriptError with what was expected, only when nothing fits', () => {
    for (const input of [
      bytes(''),
      bytes('hello world\n'),
      bytes('{"a": 1}'),
      new Uint8Array([0xff, 0xfe, 0x00]),
    ]) {
      assert.throws(
        () => parseTranscript(input, 'f.json'),
        (e: unknown) =>
          e instanceof UnrecognizedTranscriptError &&
          /Expected one of/.test(e.message) &&
          /Claude Code session/.test(e.message) &&
          e.rejected.length === FORMATS.length,
      );
    }
  });
});
