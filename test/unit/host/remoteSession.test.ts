// The session in its worker thread (sessionWorker.ts), asked through the host's proxy (remoteSession.ts): the
// same messages as the session run in place, the views' questions answered, the Problems panel's problems found
// there, and the thread ended once the view closes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../../src/core/analysis';
import { parseTranscript } from '../../../src/core/formats';
import { readResults, transcriptProblems } from '../../../src/core/problems';
import { defaultsFor } from '../../../src/host/policySettings';
import { RemoteSession } from '../../../src/host/remoteSession';
import { TranscriptSession } from '../../../src/host/session';
import { registerSummarizer } from '../../../src/host/summarizers';
import { type HostMessage, parseHostMessage } from '../../../src/protocol';
import { generateClaudeCodeSession } from '../../bench/generate';
import { REAL_FIXTURES } from '../../sharedFixtures';
import { bundledWorker } from '../bundledWorker';

const file = join(REAL_FIXTURES, 'claude-code', 'drmaciver-coverage-test-fix.jsonl');
const NAME = 'coverage-test-fix.jsonl';

let script: Promise<string> | undefined;
const sessionScript = () => {
  script ??= bundledWorker('sessionWorker', 'src/host/sessionWorker.ts');
  return script;
};

/** Without the figures that depend on the time taken. */
const timeless = (m: HostMessage | null) =>
  JSON.parse(JSON.stringify(m, (k, v) => (k === 'elapsedMs' ? 0 : v)));

/** A message from the worker as the view takes it: what crosses as bytes (`packed`) unpacked and checked. */
function viewed(m: HostMessage): HostMessage {
  if (m.type !== 'packed') return m;
  const parsed = parseHostMessage(m);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  return parsed.value;
}

test('the session in its worker makes the messages the session in place makes, and answers the views', async () => {
  const bytes = readFileSync(file);
  const remoteSent: HostMessage[] = [];
  const crossed: string[] = [];
  const remote = new RemoteSession(await sessionScript(), NAME, { path: file, settings: {} }, (m) => {
    crossed.push(m.type);
    remoteSent.push(viewed(m));
  });
  const localSent: HostMessage[] = [];
  const local = new TranscriptSession(
    NAME,
    { parse: parseTranscript, analyze: async (t, p) => analyze(t, p) },
    (m) => localSent.push(m),
    (e) => assert.fail(String(e)),
    file,
  );
  try {
    const changes: unknown[] = [];
    remote.onDidChangeAnalysis((a) => changes.push(a?.policyName));
    // Moved to the worker, as a file's last parse is (fileSource.ts): nothing of them stays here.
    const moving = new Uint8Array(bytes);
    const shown = await remote.loadAsync(moving, 0, undefined, false, true);
    assert.equal(moving.length, 0, 'the bytes moved to the worker');
    const here = await local.loadAsync(new Uint8Array(bytes));
    assert.ok(shown && here);
    // The worker's transcript message crosses as the bytes the view decodes: the message made in place.
    assert.ok(shown.json instanceof Uint8Array);
    assert.deepStrictEqual(parseHostMessage(shown), { ok: true, value: here });
    assert.deepStrictEqual(await remote.transcriptMessage(), shown);
    assert.equal(remote.model?.format, 'claude-code');
    assert.equal(remote.showsWholeFile, true);

    const policy = defaultsFor(local.model);
    await remote.request(policy, 'none', 3);
    await local.request(policy, 'none', 3);
    // (The runs ahead that follow, on the real clock, are each session's own.)
    const answers = (sent: HostMessage[]) => sent.filter((m) => m.type !== 'ahead').map(timeless);
    assert.deepStrictEqual(answers(remoteSent), answers(localSent));
    assert.ok(remoteSent.some((m) => m.type === 'analysis'));
    // The analyses crossed as bytes, for the host to forward as they are.
    assert.ok(crossed.includes('packed') && !crossed.includes('analysis'), crossed.join(', '));
    assert.deepStrictEqual(changes, [policy.name]);
    assert.deepStrictEqual(remote.analysis?.totals, local.analysis?.totals);

    // A message's details cross as bytes too.
    const details = await remote.details(1);
    assert.equal(details?.type, 'packed');
    assert.deepStrictEqual(details && viewed(details), local.details(1));
    assert.deepStrictEqual(await remote.find(4, 'test'), local.find(4, 'test'));
    assert.deepStrictEqual(await remote.source(2), local.source(2));
    assert.deepStrictEqual(timeless(await remote.complete()), timeless(local.complete()));
    const model = local.model;
    assert.ok(model);
    await readResults(model, 16);
    assert.deepStrictEqual(await remote.problems(policy), transcriptProblems(model, policy));
  } finally {
    remote.dispose();
    local.dispose();
  }
});

test('a sweep in the worker posts its grid to the view that asked', async () => {
  const bytes = readFileSync(file);
  const remote = new RemoteSession(await sessionScript(), NAME, { path: file, settings: {} }, () => {});
  try {
    await remote.loadAsync(new Uint8Array(bytes));
    const policy = { ...defaultsFor(parseTranscript(bytes, NAME)), name: 'tiered' as const };
    const posted: HostMessage[] = [];
    await remote.sweep(
      {
        type: 'sweep',
        seq: 7,
        rows: { key: 'tiered.keepRecent', values: [2, 4] },
        cols: { key: 'tiered.tier1Distance', values: [3, 6] },
      },
      policy,
      (m) => posted.push(m),
    );
    const last = posted.at(-1);
    assert.ok(last?.type === 'sweepGrid' && last.seq === 7 && !last.error && last.grid, JSON.stringify(last));
  } finally {
    remote.dispose();
  }
});

test('a closed view is answered what it asked before, then its thread ends and nothing more is asked', async () => {
  const remote = new RemoteSession(await sessionScript(), NAME, { path: file, settings: {} }, () => {});
  await remote.loadAsync(new Uint8Array(readFileSync(file)));
  const asked = remote.transcriptMessage();
  remote.dispose();
  assert.equal((await asked)?.type, 'list');
  await assert.rejects(remote.complete(), /closed/);
});

test("when the session's thread cannot run, the views are told and every question fails with why", async () => {
  const sent: HostMessage[] = [];
  const remote = new RemoteSession(
    join(tmpdir(), 'no-such-session-worker.js'),
    NAME,
    { path: file, settings: {} },
    (m) => sent.push(m),
  );
  await assert.rejects(remote.loadAsync(new Uint8Array(readFileSync(file))), /session's thread/);
  await assert.rejects(remote.complete(), /session's thread/);
  assert.equal(sent.length, 1);
  assert.ok(sent[0].type === 'error' && sent[0].message.startsWith(`${NAME}: the session's thread`));
  remote.dispose();
});

test("a language model's summaries are asked of the host, under the host's summarizer id", async () => {
  const asked: string[] = [];
  const registered = registerSummarizer('vscode-lm', () => ({
    id: 'vscode-lm:test-model',
    summarize: async (toolName) => {
      asked.push(toolName);
      return `summary of a ${toolName} result`;
    },
  }));
  const sent: HostMessage[] = [];
  const remote = new RemoteSession(await sessionScript(), NAME, { path: file, settings: {} }, (m) =>
    sent.push(viewed(m)),
  );
  try {
    const bytes = readFileSync(file);
    await remote.loadAsync(new Uint8Array(bytes));
    // Every result but the last summarised (none is far enough to become a stub).
    const base = defaultsFor(parseTranscript(bytes, NAME));
    const policy = {
      ...base,
      name: 'tiered' as const,
      tiered: { ...base.tiered, keepRecent: 1, tier1Distance: 1000, summaryMinChars: 1, noSummaryTools: [] },
    };
    await remote.request(policy, 'vscode-lm', 1);
    const analysis = sent.find((m) => m.type === 'analysis');
    assert.ok(analysis?.type === 'analysis', JSON.stringify(sent.filter((m) => m.type === 'error')));
    assert.ok(asked.length > 0, 'the host was asked for summaries');
    assert.equal(remote.analysis?.summarizer, 'vscode-lm:test-model');
  } finally {
    remote.dispose();
    registered.dispose();
  }
});

test("a view that starts while a file's last parse holds the worker's thread is answered the list it had at once, not after the parse", async () => {
  const whole = new TextEncoder().encode(generateClaudeCodeSession(12_000_000, 3));
  const cut = whole.lastIndexOf(0x0a, 1024 * 1024) + 1;
  const remote = new RemoteSession(await sessionScript(), NAME, { path: file, settings: {} }, () => {});
  try {
    const beginning = await remote.loadAsync(whole.slice(0, cut), 0, whole.length);
    assert.ok(beginning);
    const order: string[] = [];
    const rest = remote.loadAsync(whole, cut, undefined, false, true).then((list) => {
      order.push('whole');
      return list;
    });
    const shown = await remote.transcriptMessage();
    order.push('shown');
    assert.deepStrictEqual(shown, beginning);
    const list = await rest;
    assert.deepStrictEqual(order, ['shown', 'whole']);
    assert.ok(list && list.messages > beginning.messages);
    // Once loaded, the worker answers again.
    assert.deepStrictEqual(await remote.transcriptMessage(), list);
  } finally {
    remote.dispose();
  }
});
