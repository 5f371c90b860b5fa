// Found by the fuzzer: a 263 MB string in a Claude Code `parentUuid` was quoted whole in the "missing-parent"
// diagnostic, and `inspect --json` then failed with "Invalid string length". Every diagnostic is bounded.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseTranscript } from '../../../src/core/formats';
import { summarizeTranscript } from '../../../src/core/formats/summary';
import { DIAGNOSTIC_MAX_CHARS } from '../../../src/core/formats/types';

test('a huge id quoted in a diagnostic is cut, and the summary stays small', () => {
  const parent = `p${'x'.repeat(5_000_000)}`;
  const lines = [
    {
      type: 'user',
      uuid: 'u1',
      parentUuid: parent,
      sessionId: 's',
      message: { role: 'user', content: 'hi' },
    },
    {
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      sessionId: 's',
      message: {
        id: 'm1',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'yo' }],
      },
    },
  ];
  const t = parseTranscript(Buffer.from(lines.map((l) => JSON.stringify(l)).join('\n')), 'huge-parent.jsonl');
  const d = t.diagnostics.find((x) => x.code === 'missing-parent');
  assert.ok(d, JSON.stringify(t.diagnostics.map((x) => x.code)));
  assert.ok(d.message.length <= DIAGNOSTIC_MAX_CHARS + 40, `${d.message.length} characters`);
  assert.match(d.message, /^parentUuid px{59}… \(5000001 characters\) is not in this file/);
  assert.ok(JSON.stringify(summarizeTranscript(t)).length < 10_000);
});
