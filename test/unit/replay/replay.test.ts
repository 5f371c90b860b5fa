import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { analyze, analyzeSync } from '../../../src/core/analysis';
import { DEFAULT_POLICY, defaultPolicyFor, type Policy } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import type { RecordedUsage } from '../../../src/core/model';
import { tokenCounter } from '../../../src/core/tokens/counter';
import {
  assistant,
  msg,
  text,
  toolLoop,
  toolResult,
  toolUse,
  transcriptOf,
  usage,
  user,
} from '../transcripts';

const with_ = (over: Partial<Policy>, replay: Partial<Policy['replay']> = {}): Policy => ({
  ...DEFAULT_POLICY,
  ...over,
  replay: { ...DEFAULT_POLICY.replay, ...replay },
});

test('request k sends every message before the k-th assistant message; a pending request follows', () => {
  const r = analyzeSync(toolLoop(3), with_({ name: 'none' }));
  assert.deepEqual(
    r.analysis.requests.map((q) => [q.messageCount, Boolean(q.pending)]),
    [
      [1, false],
      [3, false],
      [5, false],
      [7, false],
      [8, true],
    ],
  );
});

test('no policy: each request reads the previous prompt from cache and writes the rest', () => {
  const r = analyzeSync(toolLoop(5), with_({ name: 'none' }));
  const q = r.analysis.requests;
  assert.equal(q[0].cachedTokens, 0, 'nothing cached before the first request (no hidden prefix measured)');
  for (let k = 1; k < q.length; k++) {
    assert.equal(q[k].cachedTokens, q[k - 1].promptTokens, `request ${k} reads all of request ${k - 1}`);
    assert.equal(q[k].writtenTokens, q[k].promptTokens - q[k].cachedTokens);
    assert.equal(q[k].boundaryMessage, q[k - 1].messageCount);
  }
});

test('Anthropic cost: reads 0.1×, writes 1.25× the input price, output at the output price', () => {
  const r = analyzeSync(toolLoop(2), with_({ name: 'none', model: 'claude-sonnet-4' }));
  for (const q of r.analysis.requests) {
    const expected =
      (q.cachedTokens * 3 * 0.1 + q.writtenTokens * 3 * 1.25 + (q.outputTokens ?? 0) * 15) / 1e6;
    assert.ok(Math.abs(q.cost - expected) < 1e-12);
  }
});

test('OpenAI: prefixes of 1024+ tokens cached in 128-token steps at the cached price', () => {
  const t = toolLoop(12, { result: (i) => `row ${i} value ${i * 7} `.repeat(40) });
  const r = analyzeSync(t, with_({ name: 'none', model: 'gpt-4o' }));
  for (const q of r.analysis.requests) {
    assert.ok(q.cachedTokens === 0 || q.cachedTokens >= 1024);
    assert.equal(q.cachedTokens % 128, 0);
    const expected = (q.cachedTokens * 1.25 + q.writtenTokens * 2.5 + (q.outputTokens ?? 0) * 10) / 1e6;
    assert.ok(Math.abs(q.cost - expected) < 1e-12);
  }
  assert.ok(r.analysis.requests.some((q) => q.cachedTokens > 0));
});

test('Anthropic cache expires after 5 minutes without use (record timestamps)', () => {
  const at = (min: number) => new Date(Date.UTC(2026, 0, 1, 10, min)).toISOString();
  const t = transcriptOf([
    user(text('a '.repeat(100))),
    msg('assistant', [text('one')], { timestamp: at(0) }),
    user(text('b')),
    msg('assistant', [text('two')], { timestamp: at(4) }),
    user(text('c')),
    msg('assistant', [text('three')], { timestamp: at(12) }),
  ]);
  const q = analyzeSync(t, with_({ name: 'none' })).analysis.requests;
  assert.ok(q[1].cachedTokens > 0 && !q[1].cacheExpired);
  assert.equal(q[2].cachedTokens, 0);
  assert.equal(q[2].cacheExpired, true);
  assert.equal(q[2].writtenTokens, q[2].promptTokens);
});

test('everyRequest: a rewrite moves the cache boundary to its message and names the event', () => {
  const r = analyzeSync(toolLoop(12), with_({}, { trigger: 'everyRequest' }));
  const q = r.analysis.requests;
  // Request 9 sends 9 tool results: the oldest (message 2) reaches distance 8 and is truncated.
  assert.equal(q[9].boundaryMessage, 2);
  assert.equal(q[9].boundaryEvents.length, 1);
  const e = r.analysis.events[q[9].boundaryEvents[0]];
  assert.deepEqual([e.action, e.messageIndex, e.requestIndex], ['tier2', 2, 9]);
  assert.ok(q[9].cachedTokens < q[8].promptTokens);
});

test('once: the recorded requests are untouched and the pending request carries the pass', () => {
  const r = analyzeSync(toolLoop(12), with_({}));
  const q = r.analysis.requests;
  assert.ok(q.slice(0, -1).every((x) => x.passRan === false));
  assert.equal(q.at(-1)?.passRan, true);
  assert.equal(r.analysis.cacheBoundary, 2);
  assert.ok(r.analysis.events.every((e) => e.requestIndex === q.length - 1));
});

test('pressure: a pass runs only when the request reaches the fraction of the context window', () => {
  const t = toolLoop(12, { result: (i) => `word${i} `.repeat(4000) });
  const none = analyzeSync(t, with_({}, { trigger: 'pressure', pressureFraction: 1 })).analysis;
  assert.equal(none.requests.filter((q) => q.passRan).length, 1, 'only the pending pass');
  const low = analyzeSync(t, with_({}, { trigger: 'pressure', pressureFraction: 0.2 })).analysis;
  const ran = low.requests.filter((q) => q.passRan);
  assert.ok(ran.length > 1);
  for (const q of ran.filter((x) => !x.pending)) assert.ok(q.promptTokens >= 0.2 * 200_000);
});

test('the hidden prefix and calibration are estimated from recorded usage and labelled', () => {
  const messages = [user(text('start'))];
  for (let i = 0; i < 6; i++) {
    messages.push(
      msg('assistant', [toolUse(`t${i}`, 'bash', { i })], { usage: usage(3, 15000 + 100 * i, 100) }),
    );
    messages.push(user(toolResult(`t${i}`, `output ${i} `.repeat(20))));
  }
  const r = analyzeSync(transcriptOf(messages), with_({ name: 'none' }));
  const h = r.analysis.hiddenPrefix!;
  assert.ok(h.samples === 6 && h.hiddenTokens > 10_000);
  assert.match(h.source, /recorded usage/);
  assert.ok(r.analysis.recorded);
});

test('real Claude Code fixture: the "none" simulation within 10% of the recorded cache totals', () => {
  const file = 'test/fixtures/real/claude-code/drmaciver-coverage-test-fix.jsonl';
  const t = parseTranscript(readFileSync(file), file);
  const p = { ...defaultPolicyFor(t.format), name: 'none' as const, model: 'claude-opus-4.5' };
  const c = analyzeSync(t, { ...p, replay: { ...p.replay, trigger: 'everyRequest' } }).analysis.recorded!;
  assert.equal(c.requests, 14);
  assert.ok(Math.abs(c.cachedError) < 0.1, `cached error ${c.cachedError}`);
  assert.ok(Math.abs(c.writtenError) < 0.1, `written error ${c.writtenError}`);
});

test('after a compaction a request sends the summary and the later messages, and reads nothing but the hidden prefix', () => {
  const t = transcriptOf(
    [
      user(text('old question '.repeat(200))),
      assistant(text('old answer '.repeat(200))),
      user(text('continue')),
      assistant(text('first reply after compaction')),
      user(text('and then')),
      assistant(text('second reply')),
    ],
    {
      markers: [
        { kind: 'compaction', label: 'compact_boundary', beforeMessage: 2, text: 'compaction (auto)' },
        {
          kind: 'compaction',
          label: 'isCompactSummary',
          beforeMessage: 2,
          text: 'Summary: the user asked old questions.',
        },
      ],
    },
  );
  const q = analyzeSync(t, with_({ name: 'none' })).analysis.requests;
  assert.ok(q[0].promptTokens > 400);
  assert.ok(q[1].promptTokens < 40, `request 1 sends the summary and one message, got ${q[1].promptTokens}`);
  assert.equal(q[1].boundaryMessage, 2);
  assert.equal(q[1].cachedTokens, 0, 'nothing in the file was cached before the compaction request');
  assert.equal(q[2].cachedTokens, q[1].promptTokens, 'the next request reads the compacted prompt');
});

test('the cached prefix extends into a rewritten message up to its first rewritten block', () => {
  const messages = [user(text('go'))];
  messages.push(assistant(toolUse('a', 'bash', {}), toolUse('b', 'bash', {})));
  messages.push(
    user(toolResult('a', 'first result '.repeat(20)), toolResult('b', 'second result '.repeat(100))),
  );
  for (let i = 0; i < 8; i++) {
    messages.push(assistant(toolUse(`t${i}`, 'bash', {})));
    messages.push(user(toolResult(`t${i}`, 'ok')));
  }
  messages.push(assistant(text('done')));
  const r = analyzeSync(transcriptOf(messages), with_({}, { trigger: 'everyRequest' }));
  const q = r.analysis.requests;
  const k = q.findIndex((x) => x.boundaryEvents.length > 0);
  assert.equal(r.analysis.events[q[k].boundaryEvents[0]].blockIndex, 1, 'only the second result changed');
  assert.equal(q[k].boundaryMessage, 2);
  const m = r.analysis.messages;
  const before = m[0].tokensBefore + m[1].tokensBefore;
  const counter = tokenCounter('o200k_base');
  const firstBlock = counter.count('a') + counter.count('first result '.repeat(20));
  assert.equal(
    q[k].cachedTokens,
    before + 4 + firstBlock,
    'messages 0-1, the framing and the untouched first result',
  );
});

test('a once replay that reuses the recorded requests of an earlier analysis gives what a fresh one gives', () => {
  const files = [
    'test/fixtures/real/claude-code/kvsankar-real-session-01-redacted-v2.1.152.jsonl',
    'test/fixtures/real/codex/kvsankar-real-session-01-redacted.jsonl',
  ];
  const cases = [...files.map((f) => parseTranscript(readFileSync(f), f)), toolLoop(30)];
  for (const t of cases) {
    const base = defaultPolicyFor(t.format);
    const policies: Policy[] = [
      base,
      { ...base, tiered: { ...base.tiered, keepRecent: 2 } },
      { ...base, name: 'tiered+live-zone', liveZone: { ...base.liveZone, keepTurns: 1 } },
      { ...base, model: base.model === 'gpt-5' ? 'claude-sonnet-4' : 'gpt-5' },
      { ...base, name: 'none' },
    ];
    for (const p of policies) {
      // The shared transcript hits the memo from the second policy on; a copy of it is a new transcript.
      const reused = analyzeSync(t, p).analysis;
      const fresh = analyzeSync(structuredClone(t), p).analysis;
      assert.deepStrictEqual(
        reused,
        fresh,
        `${t.format} ${p.name} ${p.model} keepRecent ${p.tiered.keepRecent}`,
      );
    }
  }
});

test('a run that may be stopped gives way once it held the thread for its slice, gives the same analysis, and stops when asked', async () => {
  const t = toolLoop(700);
  const policy = with_({ name: 'tiered' }, { trigger: 'everyRequest' });
  const whole = analyzeSync(t, policy).analysis;
  assert.ok(whole.requests.length > 512);
  const stoppable = await analyze(t, policy, { signal: new AbortController().signal });
  assert.deepEqual(stoppable.analysis.requests, whole.requests);
  assert.deepEqual(stoppable.analysis.totals, whole.totals);

  // Stopped while it runs: it gives way (here at every pause: a slice of 0 ms), sees the signal and rejects; other
  // work ran meanwhile.
  const stop = new AbortController();
  let ranMeanwhile = false;
  const run = analyze(t, policy, { signal: stop.signal, giveWayEveryMs: 0 });
  setTimeout(() => {
    ranMeanwhile = true;
    stop.abort();
  }, 0);
  await assert.rejects(run, { name: 'AbortError' });
  assert.ok(ranMeanwhile);
});

test("Anthropic: what a request sent past its last cache breakpoint (the log's input_tokens) is not read by the next", () => {
  const model = 'claude-sonnet-4-5';
  const build = (u: (RecordedUsage | undefined)[] = []) =>
    transcriptOf(
      [
        user(text('question '.repeat(20000))),
        msg('assistant', [toolUse('t1', 'Read')], { model, usage: u[0] }),
        user(toolResult('t1', 'file '.repeat(3000))),
        msg('assistant', [toolUse('t2', 'Read')], { model, usage: u[1] }),
        user(toolResult('t2', 'ok')),
        msg('assistant', [text('done')], { model, usage: u[2] }),
      ],
      { model },
    );
  const none = with_({ name: 'none' });
  const [p0, p1, p2] = analyzeSync(build(), none).analysis.requests.map((r) => r.promptTokens);
  // The second request's breakpoint stood before the file it read: those tokens went as input, never written; the
  // third read what the second read and wrote (20,050 of 23,000: above the share that makes a read a miss).
  const tail = p1 - p0 - 50;
  const t = build([usage(8, 0, p0 - 8), usage(tail, p0, 50), usage(8, p0 + 50, p2 - p0 - 58)]);
  const q = analyzeSync(t, none).analysis.requests;
  assert.ok(!q[2].recordedCacheBreak, 'not a miss by the log');
  assert.ok(
    Math.abs(q[2].cachedTokens - (q[1].promptTokens - tail)) < 100,
    `${q[2].cachedTokens} read of ${q[1].promptTokens}, ${tail} of it never written`,
  );
});

test('an endpoint that cached nothing, its whole prompt input, leaves nothing cached and never less than nothing', () => {
  // A local model priced at a Claude preset: the log's input_tokens are each whole prompt, in the model's own
  // tokenizer, no read, no write; one request's figure beyond what the fit gives it.
  const model = 'claude-sonnet-4-5';
  const t = transcriptOf(
    [
      user(text('question '.repeat(2000))),
      msg('assistant', [toolUse('t1', 'Read')], { model, usage: usage(9000, 0, 0) }),
      user(toolResult('t1', 'file '.repeat(500))),
      msg('assistant', [toolUse('t2', 'Read')], { model, usage: usage(20000, 0, 0) }),
      user(toolResult('t2', 'ok')),
      msg('assistant', [text('done')], { model, usage: usage(10050, 0, 0) }),
    ],
    { model },
  );
  const q = analyzeSync(t, with_({ name: 'none' })).analysis.requests;
  for (const r of q)
    assert.ok(
      r.cachedTokens >= 0 && r.cachedTokens <= r.promptTokens,
      `request ${r.index}: ${r.cachedTokens}`,
    );
});

test("a switch of the agent's mode reads nothing of the cache: each mode sends a system prompt of its own", () => {
  const model = 'claude-sonnet-4-5';
  const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 10, 0, s)).toISOString();
  const reply = (id: string, agentMode: string, s: number) =>
    msg('assistant', [toolUse(id, 'Read')], { model, agentMode, timestamp: at(s) });
  const t = transcriptOf(
    [
      user(text('question '.repeat(2000))),
      reply('t1', 'code', 1),
      user(toolResult('t1', 'file '.repeat(500))),
      reply('t2', 'code', 2),
      user(toolResult('t2', 'file '.repeat(500))),
      reply('t3', 'orchestrator', 3),
      user(toolResult('t3', 'ok')),
      msg('assistant', [text('done')], { model, agentMode: 'orchestrator', timestamp: at(4) }),
    ],
    { model },
  );
  const q = analyzeSync(t, with_({ name: 'none' })).analysis.requests;
  assert.ok(q[1].cachedTokens > 0, 'the same mode reads the prompt before');
  assert.equal(q[2].cachedTokens, 0);
  assert.ok(q[3].cachedTokens > 0, 'the new mode caches its own prompt');
});
