// The Anthropic request export is the request the agent would send next: the live segment (the last compaction's
// summary and what follows), with the system prompt and tools as far as the file holds them, and notes saying what
// it does not hold.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseTranscript } from '../../../src/core/formats';
import { toAnthropicRequest } from '../../../src/core/formats/toAnthropicRequest';
import { requestPairBreaks } from '../../../src/node/exportFile';
import { REAL_FIXTURES, REAL_LONG_DIR } from '../../sharedFixtures';
import { ClaudeSession, jsonl } from '../formats/helpers';

const SYSTEM_MISSING =
  'system: the file does not hold the system prompt the agent sent; the request has none (the agent adds its own)';
const TOOLS_MISSING =
  'tools: the file does not hold the tool definitions the agent sent; the request declares none but the CCR tool when it needs it (the agent adds its own)';

const SUMMARY =
  'This session is being continued from a previous conversation that ran out of context. Primary Request and Intent: fix the parser.';

/** A Claude Code session: a prompt and a tool call, a compaction, its summary, then one more turn. */
function compactedSession(): Uint8Array {
  const s = new ClaudeSession();
  s.user('read the parser');
  s.assistant('m1', [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: 'parser.ts' } }]);
  s.result('toolu_1', 'export function parse() {}\n'.repeat(20));
  s.assistant('m2', [{ type: 'text', text: 'It is a stub.' }]);
  const boundary = s.add(
    {
      type: 'system',
      subtype: 'compact_boundary',
      content: 'Conversation compacted',
      compactMetadata: { trigger: 'auto', preTokens: 1200 },
    },
    null,
  );
  s.user(SUMMARY, { isCompactSummary: true }, boundary);
  s.user('now fix it');
  s.assistant('m3', [{ type: 'tool_use', id: 'toolu_2', name: 'Edit', input: { file_path: 'parser.ts' } }]);
  s.result('toolu_2', 'edited');
  return s.bytes();
}

test('after a compaction the request holds the summary and what follows, and says what the file does not hold', () => {
  const t = parseTranscript(compactedSession(), 'session.jsonl');
  const from = t.markers.find((m) => m.kind === 'compaction')!.beforeMessage;
  assert.ok(from > 0);
  const { request, liveNotes: notes } = toAnthropicRequest(t);
  assert.deepEqual(
    request.messages.map((m) => [m.role, m.content.map((b) => b.type)]),
    [
      ['user', ['text', 'text']],
      ['assistant', ['tool_use']],
      ['user', ['tool_result']],
    ],
  );
  assert.equal(request.messages[0].content[0].text, SUMMARY);
  assert.equal(request.messages[0].content[1].text, 'now fix it');
  // Nothing of the compacted-away segment: its tool call is not sent, and every pair in the request is whole.
  assert.ok(!JSON.stringify(request).includes('toolu_1'));
  assert.deepEqual(requestPairBreaks(request), []);
  assert.equal(request.system, undefined);
  assert.equal(request.tools, undefined);
  assert.deepEqual(notes, [
    `the live segment only: messages ${from}–${t.messages.length - 1}, from the last of 1 compaction(s) on; the ${from} message(s) before it were compacted away and are not sent`,
    SYSTEM_MISSING,
    TOOLS_MISSING,
  ]);
});

test('a Codex compaction whose summary no message holds: the summary is sent first, as the user', () => {
  const bytes = jsonl([
    {
      timestamp: 't',
      type: 'session_meta',
      payload: { id: 's', base_instructions: { text: 'You are Codex.' } },
    },
    {
      timestamp: 't',
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'old question' }] },
    },
    {
      timestamp: 't',
      type: 'response_item',
      payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'old answer' }] },
    },
    { timestamp: 't', type: 'compacted', payload: { message: 'summary of the earlier turns' } },
    {
      timestamp: 't',
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'new question' }] },
    },
  ]);
  const t = parseTranscript(bytes, 'rollout.jsonl');
  assert.equal(t.format, 'codex');
  const { request, liveNotes: notes } = toAnthropicRequest(t);
  assert.equal(request.system, 'You are Codex.');
  assert.deepEqual(
    request.messages.map((m) => [m.role, m.content.map((b) => b.text)]),
    [['user', ['summary of the earlier turns', 'new question']]],
  );
  assert.ok(!notes.includes(SYSTEM_MISSING), 'the file holds the system prompt');
  assert.ok(notes.includes(TOOLS_MISSING));
});

test('a request body holds its system and tools: no note says they are missing, every message is sent', () => {
  const rel = 'anthropic/pydantic-ai-cassette-text-editor-toolset.request.json';
  const t = parseTranscript(new Uint8Array(readFileSync(join(REAL_FIXTURES, rel))), rel);
  const { request, liveNotes: notes } = toAnthropicRequest(t);
  assert.ok(request.tools?.length);
  assert.ok(!notes.includes(TOOLS_MISSING));
  assert.ok(!notes.some((n) => n.startsWith('the live segment only')));
  assert.equal(request.system, t.system);
  assert.ok(!notes.includes(SYSTEM_MISSING));
  // No compaction: every message is sent (system messages go to `system`, turns of one role are merged).
  assert.ok(request.messages.length > 0);
});

const SIX = join(REAL_LONG_DIR, 'claude-code');
const six = existsSync(SIX) ? readdirSync(SIX).find((f) => f.includes('six-compactions')) : undefined;

test('a real session with six compactions: only the last summary and what follows', { skip: !six }, () => {
  const path = join(SIX, six!);
  const t = parseTranscript(new Uint8Array(readFileSync(path)), path);
  const starts = t.markers.filter((m) => m.kind === 'compaction').map((m) => m.beforeMessage);
  const from = Math.max(...starts);
  const { request, liveNotes: notes } = toAnthropicRequest(t);
  // The first message the request sends is the last summary; no earlier summary is in it.
  const first = request.messages[0].content[0];
  assert.equal(first.type, 'text');
  assert.match(String(first.text), /^This session is being continued from a previous conversation/);
  const summaries = request.messages
    .flatMap((m) => m.content)
    .filter((b) => b.type === 'text' && String(b.text).startsWith('This session is being continued'));
  assert.equal(summaries.length, 1);
  // Every tool call it sends was made after the compaction, and each has its result.
  const sentIds = new Set(
    request.messages
      .flatMap((m) => m.content)
      .filter((b) => b.type === 'tool_use')
      .map((b) => String(b.id)),
  );
  const laterIds = new Set(
    t.messages.slice(from).flatMap((m) => m.blocks.flatMap((b) => (b.type === 'tool_use' ? [b.id] : []))),
  );
  assert.deepEqual(sentIds, laterIds);
  assert.deepEqual(requestPairBreaks(request), []);
  assert.ok(request.messages.length < t.messages.length - from + 1);
  assert.ok(notes.includes(SYSTEM_MISSING));
  assert.ok(notes.includes(TOOLS_MISSING));
  assert.ok(
    notes[0].startsWith(
      `the live segment only: messages ${from}–${t.messages.length - 1}, from the last of 6 compaction(s) on`,
    ),
  );
});
