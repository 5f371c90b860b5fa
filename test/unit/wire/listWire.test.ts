// The transcript message crosses to the view once, in a compact form made in the session's thread: its bytes are
// what the view decodes and checks into the very message the session made, smaller than that message's JSON,
// and anything else is refused with where it is wrong.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseTranscript } from '../../../src/core/formats';
import { ListsSent } from '../../../src/host/listsSent';
import { packed } from '../../../src/host/sessionProtocol';
import { transcriptMessage } from '../../../src/host/summaries';
import { type HostMessage, parseHostMessage } from '../../../src/protocol';
import { encodeList } from '../../../src/protocol/listWire';
import { REAL_FIXTURES } from '../../sharedFixtures';

const transcriptOf = (dir: string, file: string) =>
  transcriptMessage(parseTranscript(readFileSync(join(REAL_FIXTURES, dir, file)), file), file, 1);
const bytesOf = (x: unknown) => new TextEncoder().encode(JSON.stringify(x));
const listOf = (x: unknown): HostMessage => ({ type: 'list', key: 'k', messages: 0, json: bytesOf(x) });

test('a packed transcript message is checked and decoded into the message the session made, in fewer bytes', () => {
  for (const [dir, file] of [
    ['claude-code', 'drmaciver-coverage-test-fix.jsonl'],
    ['codex', 'simonw-sample-codex-session-0.77.jsonl'],
  ]) {
    const message = transcriptOf(dir, file);
    const list = packed(message);
    assert.equal(list.messages, message.messages.length);
    const parsed = parseHostMessage(list);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
    assert.deepStrictEqual(parsed.value, message);
    const whole = bytesOf(message).length;
    assert.ok(list.json.length < whole, `${file}: ${list.json.length} bytes packed, ${whole} as JSON`);
  }
});

test('a list whose bytes are not a transcript message is refused, saying where', () => {
  const message = transcriptOf('claude-code', 'drmaciver-coverage-test-fix.jsonl');
  const wire = encodeList(message);
  const refusal = (list: HostMessage) => {
    const parsed = parseHostMessage(list);
    assert.ok(!parsed.ok, 'refused');
    return parsed.error;
  };
  assert.match(
    refusal({ type: 'list', key: 'k', messages: 0, json: new Uint8Array([0xff, 0xfe]) }),
    /not UTF-8 JSON/,
  );
  assert.match(
    refusal(listOf({ ...wire, columns: { ...wire.columns, preview: wire.columns.preview.slice(1) } })),
    /list\.columns\.preview: \d+ entries for \d+ messages/,
  );
  assert.match(
    refusal(listOf({ ...wire, columns: { ...wire.columns, role: wire.columns.role.map(() => 7) } })),
    /list\.columns\.role\[0\]: no role 7/,
  );
  const kinds = wire.columns.blockKinds.map(() => [wire.columns.kinds.length]);
  assert.match(
    refusal(listOf({ ...wire, columns: { ...wire.columns, blockKinds: kinds } })),
    /out of the table/,
  );
  assert.match(refusal(listOf({ type: 'error', message: 'x', columns: wire.columns })), /holds a transcript/);
  // The decoded message is checked as any transcript message.
  assert.match(refusal(listOf({ ...wire, revision: 'one' })), /transcript\.revision: expected an integer/);
  // Bytes, not an object standing for them (what an editor that serialised them would send).
  assert.match(refusal({ ...packed(message), json: { 0: 1 } } as never), /list\.json: expected bytes/);
});

test('a view is posted a transcript once whether it was made in place or packed, again once it restarts', () => {
  const message = transcriptOf('claude-code', 'drmaciver-coverage-test-fix.jsonl');
  const lists = new ListsSent<'a'>();
  assert.equal(lists.due('a', packed(message)), true);
  assert.equal(lists.due('a', packed(message)), false);
  assert.equal(lists.due('a', message), false, 'the same transcript, made in place');
  assert.equal(lists.due('a', packed({ ...message, revision: 2 })), true);
  lists.forget('a');
  assert.equal(lists.due('a', packed({ ...message, revision: 2 })), true);
});
