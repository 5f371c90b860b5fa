// The webview's link: requests get their seq from it and their replies back as promises, matched by seq and by the
// reply's type; whatever answers no request reaches the listener; nothing invalid reaches either.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_POLICY } from '../../src/core/engine/policy';
import { packed } from '../../src/host/sessionProtocol';
import { type HostMessage, REGISTRY_DESCRIPTORS, type WebviewMessage } from '../../src/protocol';
import { createHostLink } from '../../webview/hostLink';

function link() {
  const posted: WebviewMessage[] = [];
  const target = new EventTarget();
  const host = createHostLink(
    { postMessage: (m) => posted.push(m as WebviewMessage) },
    target as unknown as Window,
    REGISTRY_DESCRIPTORS,
  );
  const heard: HostMessage[] = [];
  const invalid: string[] = [];
  const off = host.subscribe(
    (m) => heard.push(m),
    (e) => invalid.push(e),
  );
  const send = (data: unknown) => target.dispatchEvent(new MessageEvent('message', { data }));
  return { host, posted, heard, invalid, send, off };
}

/** What `p` resolved to so far (a function, so that an assertion on one reading does not narrow the next). */
const settled = <T>(p: Promise<T>) => {
  let value: T | undefined;
  void p.then((v) => {
    value = v;
  });
  return () => value;
};
const tick = () => new Promise((r) => setImmediate(r));

test('each request goes with a seq of its own, and its reply comes back by that seq, not to the listener', async () => {
  const { host, posted, heard, send } = link();
  const a = host.request({ type: 'find', query: 'alpha' });
  const b = host.request({ type: 'find', query: 'beta' });
  assert.notEqual(a.seq, b.seq);
  assert.deepEqual(posted, [
    { type: 'find', query: 'alpha', seq: a.seq },
    { type: 'find', query: 'beta', seq: b.seq },
  ]);
  const ra = settled(a.reply);
  const rb = settled(b.reply);
  send({ type: 'found', seq: b.seq, query: 'beta', messages: [2] });
  await tick();
  assert.equal(ra(), undefined);
  assert.deepEqual(rb(), { type: 'found', seq: b.seq, query: 'beta', messages: [2] });
  send({ type: 'found', seq: a.seq, query: 'alpha', messages: [] });
  await tick();
  assert.deepEqual(ra()?.messages, []);
  assert.deepEqual(heard, []);
});

test('a sweep reports its progress to the callback and resolves with its grid', async () => {
  const { host, send } = link();
  const progress: number[] = [];
  const s = host.request(
    {
      type: 'sweep',
      rows: { key: 'tiered.keepRecent', values: [4] },
      cols: { key: 'tiered.tier1Distance', values: [10] },
    },
    (m) => progress.push(m.done),
  );
  const r = settled(s.reply);
  send({ type: 'sweepGrid', seq: s.seq, done: 0, total: 1 });
  await tick();
  assert.deepEqual(progress, [0]);
  assert.equal(r(), undefined);
  send({ type: 'sweepGrid', seq: s.seq, done: 1, total: 1, error: 'the transcript is not loaded yet' });
  await tick();
  assert.deepEqual(progress, [0]);
  assert.equal(r()?.error, 'the transcript is not loaded yet');
});

test('a message of the seq of a request but of another type, a broadcast and a late reply go to the listener', async () => {
  const { host, heard, send } = link();
  const u = host.request({ type: 'updateSettings', changes: [{ key: 'tiered.keepRecent', value: 3 }] });
  const r = settled(u.reply);
  const settings = {
    type: 'settings',
    policy: DEFAULT_POLICY,
    summarizer: 'none',
    models: [],
    scope: 'global',
  };
  // A find's reply cannot answer a settings change, whatever its seq.
  send({ type: 'found', seq: u.seq, query: 'x', messages: [] });
  send(settings);
  send({ ...settings, seq: u.seq });
  send({ ...settings, seq: u.seq });
  await tick();
  assert.equal(r()?.type, 'settings');
  assert.deepEqual(
    heard.map((m) => [m.type, 'seq' in m ? m.seq : undefined]),
    [
      ['found', u.seq],
      ['settings', undefined],
      ['settings', u.seq],
    ],
  );
});

test('an invalid message is refused with its path and reaches neither the request nor the listener', async () => {
  const { host, heard, invalid, send } = link();
  const f = host.request({ type: 'find', query: 'q' });
  const r = settled(f.reply);
  const error = console.error;
  console.error = () => {};
  try {
    send({ type: 'found', seq: f.seq, query: 'q', messages: ['one'] });
  } finally {
    console.error = error;
  }
  await tick();
  assert.equal(r(), undefined);
  assert.deepEqual(heard, []);
  assert.deepEqual(invalid, [
    'invalid host message: found.messages[0]: expected an integer, got the string "one"',
  ]);
});

test('commands go as they are, without a seq', () => {
  const { host, posted } = link();
  host.post({ type: 'ready' });
  host.post({ type: 'requestDetails', messageIndex: 4 });
  assert.deepEqual(posted, [{ type: 'ready' }, { type: 'requestDetails', messageIndex: 4 }]);
});

test('a packed list reaches the listener as the transcript message its bytes hold; bad bytes reach nobody', async () => {
  const { heard, invalid, send } = link();
  const transcript: HostMessage = {
    type: 'transcript',
    fileName: 'a.jsonl',
    format: 'claude-code',
    formatReason: 'test',
    messages: [{ index: 0, role: 'user', preview: '<b>not markup</b>', blockKinds: ['text'], line: 1 }],
    markers: [],
    diagnostics: [],
    sidechains: 0,
    revision: 1,
  };
  send(packed(transcript));
  send({ ...packed(transcript), json: new TextEncoder().encode('{"columns":') });
  await tick();
  assert.deepEqual(heard, [transcript]);
  assert.equal(invalid.length, 1);
  assert.match(invalid[0], /not UTF-8 JSON/);
});
