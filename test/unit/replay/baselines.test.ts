// The two baselines (core/vsNone.ts, engine/loggedSummarization.ts): "as logged" pays the log's compactions'
// summarization requests, from the agent's own file where it was read, else estimated and marked so; "none" does
// not compact as long as the window allows. On hand-made sessions with exact figures, and on the real six-compaction
// session (skipped where ../shared is absent).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { readThread } from '../../../src/cli/policyArgs';
import { analyzeSync } from '../../../src/core/analysis';
import { clonePolicy, DEFAULT_POLICY, defaultPolicyFor, type Policy } from '../../../src/core/engine/policy';
import { prepareTranscript } from '../../../src/core/engine/prepare';
import { billedCost, tablePrices } from '../../../src/core/engine/prices';
import type { LoggedSummarization, RecordedReply, Transcript } from '../../../src/core/model';
import { replyCost } from '../../../src/core/recordedUsage';
import { MAIN_THREAD } from '../../../src/core/threads';
import { compareWithNone, nonePolicy } from '../../../src/core/vsNone';
import { loggedSummarizations } from '../../../src/node/summarizationFiles';
import { REAL_LONG_DIR } from '../../sharedFixtures';
import { compactedSession } from '../compactedSession';
import { ClaudeSession } from '../formats/helpers';
import { msg, text, transcriptOf, user } from '../transcripts';

function policy(name: Policy['name'], baseline: Policy['replay']['baseline'] = 'as-logged'): Policy {
  const p = clonePolicy(DEFAULT_POLICY);
  p.name = name;
  p.model = 'claude-sonnet-4';
  p.replay.trigger = 'everyRequest';
  p.replay.baseline = baseline;
  return p;
}

/** A Claude Code-shaped session that compacted before request 3 (message 7 holds the summary). */
function compacted(summarizations?: LoggedSummarization[]): Transcript {
  const t = compactedSession(3);
  if (summarizations) t.summarizations = summarizations;
  return t;
}

const reply: RecordedReply = {
  thread: 'acompact-1',
  onBranch: true,
  model: 'claude-sonnet-4-5',
  usage: {
    inputTokens: 12,
    cacheReadInputTokens: 4_000,
    cacheCreationInputTokens: 350,
    outputTokens: 640,
  },
  line: 3,
};
const FILE: LoggedSummarization = { file: 'agent-acompact-1.jsonl', replies: [reply] };

test('"as logged" without the file: the summarization request is estimated from the conversation so far, marked so', () => {
  const t = compacted();
  const a = analyzeSync(t, policy('none')).analysis;
  const q = a.requests;
  const s = q[3].compaction;
  assert.ok(s, 'the request after the compaction carries its summarization');
  for (const k of [0, 1, 2, 4]) assert.equal(q[k].compaction, undefined);
  const prep = prepareTranscript(t, 'o200k_base');
  const tokens = (from: number, to: number) => prep.messageTokens.slice(from, to).reduce((x, y) => x + y, 0);
  // No recorded usage: no hidden prefix, count factor 1 (request 0 sends message 0 alone).
  assert.equal(q[0].promptTokens, tokens(0, 1));
  assert.deepEqual(
    [
      s.estimated,
      s.file,
      s.fromLog,
      s.contextTokens,
      s.promptTokens,
      s.cachedTokens,
      s.outputTokens,
      s.keptFrom,
    ],
    // It sends what came before the compaction (messages 0–6), reads what request 2 wrote, answers the summary.
    [true, undefined, true, 150_000, tokens(0, 7), q[2].promptTokens, tokens(7, 8), 7],
  );
  assert.equal(s.writtenTokens, s.promptTokens - s.cachedTokens);
  // Its cost is the request's, and the totals count it.
  const sent = q.filter((r) => !r.pending);
  assert.equal(
    a.totals.promptTokens,
    sent.reduce((x, r) => x + r.promptTokens + (r.compaction?.promptTokens ?? 0), 0),
  );
  assert.ok(Math.abs(a.totals.cost - sent.reduce((x, r) => x + r.cost, 0)) < 1e-12);
});

test('"as logged" with the agent’s file: the summarization request is priced as recorded there', () => {
  const a = analyzeSync(compacted([FILE]), policy('none')).analysis;
  const s = a.requests[3].compaction!;
  assert.deepEqual(
    [s.estimated, s.file, s.promptTokens, s.cachedTokens, s.writtenTokens, s.outputTokens],
    [false, 'agent-acompact-1.jsonl', 4_362, 4_000, 362, 640],
  );
  assert.ok(Math.abs(s.cost - replyCost(tablePrices('claude-sonnet-4-5')!, reply)) < 1e-12);
  const without = analyzeSync(compacted(), policy('none')).analysis;
  const estimated = without.requests[3].compaction!;
  assert.ok(
    Math.abs(a.totals.cost - without.totals.cost - (s.cost - estimated.cost)) < 1e-9,
    'only the summarization request differs',
  );
});

test('compaction where the log compacted costs what "as logged" costs, with the file or without', () => {
  for (const files of [undefined, [FILE]]) {
    const t = compacted(files);
    const logged = analyzeSync(t, policy('none')).analysis;
    const p = policy('compaction');
    p.compaction.threshold = 0.7;
    const c = analyzeSync(t, p).analysis;
    assert.deepEqual(c.compactions?.simulated, [3]);
    assert.deepEqual(c.requests[3].compaction, logged.requests[3].compaction);
    assert.ok(Math.abs(c.totals.cost - logged.totals.cost) < 1e-12);
    assert.equal(c.totals.promptTokens, logged.totals.promptTokens);
    const v = compareWithNone(c, logged, 'as-logged');
    assert.equal(v.baseline, 'as-logged');
    assert.ok(Math.abs(v.deltaCost) < 1e-12);
  }
});

/** The same session compacted twice before request 3: the agent summarized, the user added a note, and it
 * summarized again before sending anything (messages 7 and 9 hold the summaries). */
function compactedTwice(summarizations?: LoggedSummarization[]): Transcript {
  const t = compacted();
  const messages = t.messages.map(({ index: _, ...m }) => m);
  messages.splice(
    8,
    0,
    user(text(`Note before compacting again: ${'keep the tests '.repeat(40)}`)),
    msg('user', [text(`This session is being continued. Summary: ${'shorter facts '.repeat(90)}`)], {
      flags: ['isCompactSummary'],
    }),
  );
  const twice = transcriptOf(messages, {
    format: 'claude-code',
    markers: [
      { kind: 'compaction', label: 'compact_boundary', beforeMessage: 7, preTokens: 150_000 },
      { kind: 'compaction', label: 'compact_boundary', beforeMessage: 9, preTokens: 1_400 },
    ],
  });
  if (summarizations) twice.summarizations = summarizations;
  return twice;
}

test('two compactions between two requests pay two summarization requests, each of its own segment', () => {
  const t = compactedTwice();
  const a = analyzeSync(t, policy('none')).analysis;
  const q = a.requests;
  const prep = prepareTranscript(t, 'o200k_base');
  const tokens = (from: number, to: number) => prep.messageTokens.slice(from, to).reduce((x, y) => x + y, 0);
  assert.deepEqual(
    q.map((r) => r.firstMessage ?? 0),
    [0, 0, 0, 9, 9, 9],
  );
  const s = q[3].compaction!;
  // The first sends messages 0–6 (reading what request 2 wrote) and answers the first summary (message 7); the
  // second sends that summary and the note (messages 7–8), nothing of it cached, and answers the second (message 9).
  const first = { prompt: tokens(0, 7), cached: q[2].promptTokens, output: tokens(7, 8) };
  const second = { prompt: tokens(7, 9), cached: 0, output: tokens(9, 10) };
  assert.deepEqual(
    [
      s.requests,
      s.estimated,
      s.fromLog,
      s.contextTokens,
      s.promptTokens,
      s.cachedTokens,
      s.writtenTokens,
      s.outputTokens,
      s.keptFrom,
    ],
    [
      2,
      true,
      true,
      150_000,
      first.prompt + second.prompt,
      first.cached,
      first.prompt - first.cached + second.prompt,
      first.output + second.output,
      9,
    ],
  );
  const prices = tablePrices('claude-sonnet-4-5')!;
  const cost = (r: typeof first) =>
    billedCost(prices, {
      input: 0,
      cacheRead: r.cached,
      cacheWrite5m: r.prompt - r.cached,
      cacheWrite1h: 0,
      output: r.output,
    });
  assert.ok(
    Math.abs(s.cost - cost(first) - cost(second)) < 1e-12,
    `${s.cost} against ${cost(first) + cost(second)}`,
  );
  // The numbers themselves, so that a change in how they are counted is seen.
  assert.deepEqual(
    [first.prompt, first.cached, first.output, second.prompt, second.output],
    [tokens(0, 7), tokens(0, 5), tokens(7, 8), tokens(7, 9), tokens(9, 10)],
  );
  assert.deepEqual([tokens(0, 7), tokens(7, 8), tokens(8, 9), tokens(9, 10)], [1846, 213, 131, 193]);
  // The session's totals count both.
  const sent = q.filter((r) => !r.pending);
  assert.equal(
    a.totals.promptTokens,
    sent.reduce((x, r) => x + r.promptTokens + (r.compaction?.promptTokens ?? 0), 0),
  );
});

test('two compactions between two requests: each file read is paid, and compaction where the log compacted costs the same', () => {
  const second: RecordedReply = {
    ...reply,
    thread: 'acompact-2',
    usage: { ...reply.usage, outputTokens: 300 },
  };
  const files = [FILE, { file: 'agent-acompact-2.jsonl', replies: [second] }];
  const t = compactedTwice(files);
  const logged = analyzeSync(t, policy('none')).analysis;
  const s = logged.requests[3].compaction!;
  const prices = tablePrices('claude-sonnet-4-5')!;
  assert.deepEqual(
    [s.requests, s.estimated, s.file, s.promptTokens, s.cachedTokens, s.writtenTokens, s.outputTokens],
    [2, false, 'agent-acompact-1.jsonl, agent-acompact-2.jsonl', 2 * 4_362, 2 * 4_000, 2 * 362, 640 + 300],
  );
  assert.ok(Math.abs(s.cost - replyCost(prices, reply) - replyCost(prices, second)) < 1e-12);
  for (const f of [undefined, files]) {
    const u = compactedTwice(f);
    const l = analyzeSync(u, policy('none')).analysis;
    const p = policy('compaction');
    p.compaction.threshold = 0.7;
    const c = analyzeSync(u, p).analysis;
    assert.deepEqual(c.compactions?.simulated, [3]);
    assert.deepEqual(c.requests[3].compaction, l.requests[3].compaction);
    assert.ok(Math.abs(c.totals.cost - l.totals.cost) < 1e-12);
    assert.equal(c.totals.promptTokens, l.totals.promptTokens);
  }
});

test('"none": no compaction while the window allows, so no summarization request; the comparison names it', () => {
  const t = compacted([FILE]);
  const none = analyzeSync(t, nonePolicy(policy('tiered', 'none'))).analysis;
  assert.deepEqual(none.compactions?.simulated, []);
  assert.ok(none.requests.every((r) => !r.compaction));
  const prep = prepareTranscript(t, 'o200k_base');
  const tokens = (from: number, to: number) => prep.messageTokens.slice(from, to).reduce((x, y) => x + y, 0);
  // Request 3 sends the whole history, without the log's summary.
  assert.equal(none.requests[3].promptTokens, tokens(0, 8) - tokens(7, 8));
  assert.equal(none.requests[3].firstMessage, undefined);
  const logged = analyzeSync(t, nonePolicy(policy('tiered'))).analysis;
  assert.ok(logged.requests[3].compaction, '"as logged" compacts as the log did');
  const v = compareWithNone(logged, none, 'none');
  assert.equal(v.baseline, 'none');
  // A session that never compacted: both baselines are the same run.
  const plain = compacted();
  plain.markers = [];
  plain.messages[7].flags = undefined;
  const a = analyzeSync(plain, nonePolicy(policy('tiered'))).analysis;
  const n = analyzeSync(plain, nonePolicy(policy('tiered', 'none'))).analysis;
  assert.deepEqual(
    n.requests.map((r) => [r.promptTokens, r.cachedTokens, r.cost]),
    a.requests.map((r) => [r.promptTokens, r.cachedTokens, r.cost]),
  );
});

test('the agent’s summarization files are read beside the session and matched to their compaction by time', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cl-acompact-'));
  try {
    const s = new ClaudeSession();
    s.user('before compaction');
    const last = s.assistant('msg_1', [{ type: 'text', text: 'old answer' }], {
      input_tokens: 5,
      output_tokens: 10,
      cache_read_input_tokens: 1000,
      cache_creation_input_tokens: 200,
    });
    const boundary = s.add(
      {
        type: 'system',
        subtype: 'compact_boundary',
        logicalParentUuid: last,
        content: 'Conversation compacted',
        compactMetadata: { trigger: 'auto', preTokens: 155000 },
      },
      null,
    );
    s.user('This session is being continued… summary text', { isCompactSummary: true }, boundary);
    s.user('after compaction');
    s.assistant('msg_2', [{ type: 'text', text: 'new answer' }]);
    const session = join(dir, 's1.jsonl');
    writeFileSync(session, s.bytes());
    mkdirSync(join(dir, 's1', 'subagents'), { recursive: true });
    // Written just before the boundary (its timestamp is the third record's): the summary's reply.
    const compact = [
      {
        type: 'user',
        isSidechain: true,
        agentId: 'acompact-1',
        sessionId: 's1',
        uuid: 'c-1',
        parentUuid: null,
        timestamp: '2026-01-01T00:00:02Z',
        message: {
          role: 'user',
          content: 'Your task is to create a detailed summary of the conversation so far',
        },
      },
      {
        type: 'assistant',
        isSidechain: true,
        agentId: 'acompact-1',
        sessionId: 's1',
        uuid: 'c-2',
        parentUuid: 'c-1',
        timestamp: '2026-01-01T00:00:03Z',
        message: {
          id: 'msg_c',
          role: 'assistant',
          model: 'claude-sonnet-4-5',
          content: [{ type: 'text', text: 'summary text' }],
          usage: {
            input_tokens: 8,
            output_tokens: 420,
            cache_read_input_tokens: 1200,
            cache_creation_input_tokens: 90,
          },
        },
      },
    ];
    writeFileSync(
      join(dir, 's1', 'subagents', 'agent-acompact-1.jsonl'),
      `${compact.map((r) => JSON.stringify(r)).join('\n')}\n`,
    );
    // Another sub-agent's file is not a summarization.
    writeFileSync(join(dir, 's1', 'subagents', 'agent-a1234567.jsonl'), `${JSON.stringify(compact[1])}\n`);
    const t = readThread(session, MAIN_THREAD);
    assert.deepEqual(
      loggedSummarizations(t, session)?.map((f) => [f.file, f.replies.map((r) => r.usage.outputTokens)]),
      [['agent-acompact-1.jsonl', [420]]],
    );
    const a = analyzeSync(t, nonePolicy(defaultPolicyFor(t.format))).analysis;
    const c = a.requests.find((r) => r.compaction)?.compaction;
    assert.deepEqual(
      [c?.estimated, c?.file, c?.promptTokens, c?.cachedTokens, c?.outputTokens],
      [false, 'agent-acompact-1.jsonl', 1298, 1200, 420],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const LAF = join(REAL_LONG_DIR, 'claude-code', 'laf-us-05541cb5-six-compactions-v2.1.92.jsonl');

test('the six-compaction session: compaction at the log’s threshold costs what "as logged" costs, within 1%', {
  skip: existsSync(LAF) ? false : 'the real long sessions are not beside the repository',
}, () => {
  const t = readThread(LAF, MAIN_THREAD);
  const base = defaultPolicyFor(t.format);
  base.replay.trigger = 'everyRequest';
  const logged = analyzeSync(t, nonePolicy(base)).analysis;
  const c = analyzeSync(t, { ...base, name: 'compaction' }).analysis;
  const recorded = c.compactions?.recorded.map((r) => r.request);
  assert.equal(recorded?.length, 6);
  assert.deepEqual(c.compactions?.simulated, recorded, 'it compacts where the log did');
  // Each of the log's compactions is paid under "as logged" too (no file kept beside it: estimated).
  const paid = logged.requests.filter((r) => r.compaction);
  assert.deepEqual(
    paid.map((r) => r.index),
    recorded,
  );
  assert.ok(paid.every((r) => r.compaction?.estimated));
  const v = compareWithNone(c, logged, 'as-logged');
  assert.ok(
    Math.abs(v.deltaShare) < 0.01,
    `compaction against "as logged": ${(100 * v.deltaShare).toFixed(2)}%`,
  );
});
