import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FORMATS, parseTranscript } from '../../../src/core/formats';
import { ParsedLines, reuseParsedLines } from '../../../src/core/formats/parsedLines';
import { chatLog } from '../../copilotChatSession';
import { copilotSession } from './copilotEvents';
import { fixture, fixtureFiles, jsonl } from './helpers';
import { qwenSession } from './qwenSession';

/** Line starts of a file, to cut it where an agent's append would end. */
function lineEnds(b: Uint8Array): number[] {
  const ends: number[] = [];
  for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) ends.push(i + 1);
  return ends;
}

const jsonlFixtures = fixtureFiles().filter((f) => f.endsWith('.jsonl'));

/** A log of each JSONL format the repository holds no real log of (the real Gemini CLI session it ships is the older
 * JSON document), shaped as the agent writes it. */
const MADE_LOGS: Record<string, Record<string, unknown>[]> = {
  'gemini-cli': [
    { sessionId: 's', projectHash: 'h', startTime: '2026-05-01T10:00:00.000Z', kind: 'main' },
    { id: 'u', timestamp: '2026-05-01T10:00:01.000Z', type: 'user', content: [{ text: 'hi' }] },
    { $set: { lastUpdated: '2026-05-01T10:00:01.000Z' } },
  ],
  'copilot-cli': copilotSession(),
  'copilot-chat': chatLog(),
  'qwen-code': qwenSession(),
};

test('a JSONL session parsed as it grows, with its parsed lines kept, equals a fresh parse at every step', () => {
  assert.ok(jsonlFixtures.length >= 5);
  for (const file of jsonlFixtures) {
    const whole = fixture(file);
    const ends = lineEnds(whole);
    // Cuts at a few line ends, mid-line, and the whole file: as an agent's appends are read.
    const cuts = [
      ends[0],
      ends[Math.floor(ends.length / 3)],
      ends[Math.floor(ends.length / 2)] + 7,
      ends[ends.length - 2],
      whole.length,
    ].filter((c, i, all) => c !== undefined && c <= whole.length && (i === 0 || c > all[i - 1]));
    const lines = new ParsedLines();
    for (const cut of cuts) {
      // A new view of the grown bytes each time, as the host's growing buffer hands them out.
      const view = whole.slice(0, cut);
      reuseParsedLines(view, lines);
      const grown = parseTranscript(view, file);
      const fresh = parseTranscript(whole.slice(0, cut), file);
      assert.deepStrictEqual(grown, fresh, `${file} cut at ${cut}`);
    }
    assert.ok(lines.size > 0, `${file}: no line was kept`);
  }
});

test('kept lines are used: a parse of the grown file does not parse the earlier lines again', () => {
  const a = { type: 'user', message: { role: 'user', content: 'hello' }, uuid: 'a', parentUuid: null };
  const b = { type: 'assistant', message: { role: 'assistant', content: 'hi' }, uuid: 'b', parentUuid: 'a' };
  const first = jsonl([a]);
  const lines = new ParsedLines();
  reuseParsedLines(first, lines);
  parseTranscript(first, 'x.jsonl');
  assert.equal(lines.size, 1);
  const grown = new Uint8Array([...first, ...jsonl([b])]);
  reuseParsedLines(grown, lines);
  // Proof that the first line is not parsed again: its kept record is what the parse sees.
  const kept = lines.at(0, 0, 'toolUseResult') ?? lines.at(0, 0, undefined);
  assert.ok(kept);
  (kept.value.message as { content: string }).content = 'from the kept record';
  const t = parseTranscript(grown, 'x.jsonl');
  assert.equal(t.messages.length, 2);
  assert.match(JSON.stringify(t.messages[0]), /from the kept record/);
});

test('a line that grew, or that has a diagnostic, is parsed again', () => {
  const head = '{"type":"user","message":{"role":"user","content":"caf\xe9"},"uuid":"a"}\n';
  const done = '{"type":"user","message":{"role":"user","content":"hello"},"uuid":"b","parentUuid":"a"}\n';
  // The first line holds invalid UTF-8 (a lone 0xE9); the second is cut mid-record, as a read during a write.
  const enc = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
  const partial = enc(head + done.slice(0, 40));
  const whole = enc(head + done);
  const lines = new ParsedLines();
  reuseParsedLines(partial, lines);
  const before = parseTranscript(partial, 'x.jsonl');
  assert.deepStrictEqual(
    before.diagnostics.map((d) => d.code),
    ['invalid-utf8', 'invalid-json'],
  );
  assert.equal(lines.size, 0, 'neither line is kept');
  reuseParsedLines(whole, lines);
  const after = parseTranscript(whole, 'x.jsonl');
  assert.deepStrictEqual(after, parseTranscript(whole.slice(), 'x.jsonl'));
  assert.deepStrictEqual(
    after.diagnostics.map((d) => d.code),
    ['invalid-utf8'],
    'the diagnostic of the first line is said again',
  );
  assert.equal(after.messages.length, 2);
});

test('every JSONL format reads its lines through readJsonl (the kept lines apply to all of them)', () => {
  const shapes = FORMATS.filter((f) => f.shape === 'jsonl').map((f) => f.id);
  for (const id of shapes) {
    const file = jsonlFixtures.find((f) => parseTranscript(fixture(f), f).format === id);
    const made = MADE_LOGS[id];
    assert.ok(file ?? made, `no fixture of ${id}`);
    const b = file ? fixture(file) : jsonl(made as Record<string, unknown>[]);
    const lines = new ParsedLines();
    reuseParsedLines(b, lines);
    assert.equal(parseTranscript(b, file).format, id);
    assert.ok(lines.size > 0, id);
  }
});
