import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../src/core/analysis';
import { parseTranscript } from '../../src/core/formats';
import { defaultsFor } from '../../src/host/policySettings';
import { TranscriptSession } from '../../src/host/session';
import { type HostMessage, parseHostMessage, parseWebviewMessage } from '../../src/protocol';

const fixture = join(
  import.meta.dirname,
  '..',
  'fixtures',
  'real',
  'codex',
  'simonw-sample-codex-session-0.77.jsonl',
);

test('the messages the host builds from a real transcript pass the webview-side checks', async () => {
  const sent: HostMessage[] = [];
  const session = new TranscriptSession(
    'rollout.jsonl',
    { parse: parseTranscript, analyze: (t, p) => analyze(t, p) },
    (m) => sent.push(m),
    (e) => assert.fail(String(e)),
  );
  sent.push(session.load(readFileSync(fixture)));
  await session.request(defaultsFor(session.model), 'none', 3);
  sent.push(session.details(1)!);
  assert.deepEqual(
    sent.map((m) => m.type),
    ['transcript', 'analysis', 'details'],
  );
  for (const m of sent)
    assert.deepEqual(parseHostMessage(JSON.parse(JSON.stringify(m))), {
      ok: true,
      value: JSON.parse(JSON.stringify(m)),
    });
});

test('malformed host messages are refused with the path of the problem', () => {
  assert.deepEqual(parseHostMessage({ type: 'nope' }), {
    ok: false,
    error: 'unknown host message type "nope"',
  });
  assert.equal(parseHostMessage(null).ok, false);
  const r = parseHostMessage({
    type: 'details',
    messageIndex: 1,
    blocks: [{ blockIndex: 0, kind: 'text', original: 5, compressed: null }],
    events: [],
  });
  assert.deepEqual(r, {
    ok: false,
    error: 'invalid host message: details.blocks[0].original: expected a string, got number 5',
  });
  const wrongTier = parseHostMessage({ type: 'loading', fileName: 'x', phase: 'p', fraction: 'half' });
  assert.match(wrongTier.ok ? '' : wrongTier.error, /loading\.fraction: expected a finite number/);
});

test('the host refuses webview messages that are not in the protocol', () => {
  assert.equal(parseWebviewMessage({ type: 'ready' }).ok, true);
  assert.equal(parseWebviewMessage({ type: 'selectThread', thread: 'ag1' }).ok, true);
  assert.equal(parseWebviewMessage({ type: 'selectThread', thread: 7 }).ok, false);
  assert.equal(
    parseWebviewMessage({ type: 'updateSettings', seq: 1, changes: [{ key: 'tiered.keepRecent', value: 3 }] })
      .ok,
    true,
  );
  const unknownKey = parseWebviewMessage({
    type: 'updateSettings',
    seq: 1,
    changes: [{ key: 'editor.fontSize', value: 3 }],
  });
  assert.match(unknownKey.ok ? '' : unknownKey.error, /changes\[0\]\.key: expected one of "policy"/);
  const badSeq = parseWebviewMessage({ type: 'resetSettings', seq: 1.5 });
  assert.match(badSeq.ok ? '' : badSeq.error, /resetSettings\.seq: expected an integer/);
  const proto = parseWebviewMessage(JSON.parse('{"type":"__proto__"}'));
  assert.equal(proto.ok, false);
  assert.equal(parseWebviewMessage({ type: 'revealInSource', messageIndex: '1' }).ok, false);
});
