// Compaction (engine/compaction.ts): the threshold, the summarization request as it is paid, what the next request
// sends, the kept messages, and the log's own compactions, on small transcripts with exact figures.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { analyzeSync } from '../../../src/core/analysis';
import { keptFrom, loggedCompactions } from '../../../src/core/engine/compaction';
import { clonePolicy, DEFAULT_POLICY, type Policy } from '../../../src/core/engine/policy';
import { prepareTranscript, probePreparation } from '../../../src/core/engine/prepare';
import { billedCost, tablePrices } from '../../../src/core/engine/prices';
import type { Message, Transcript } from '../../../src/core/model';
import { tokenCounter } from '../../../src/core/tokens/counter';
import { compactedSession } from '../compactedSession';
import { assistant, text, toolLoop, toolResult, toolUse, transcriptOf, user } from '../transcripts';

const WINDOW = 200_000;

function compaction(over: Partial<Policy['compaction']> = {}, name: Policy['name'] = 'compaction') {
  const p = clonePolicy(DEFAULT_POLICY);
  p.name = name;
  p.model = 'claude-sonnet-4';
  p.replay.trigger = 'everyRequest';
  p.compaction = { ...p.compaction, ...over };
  return p;
}

const t10 = toolLoop(10);
const none = analyzeSync(t10, compaction({}, 'none')).analysis;
const P = none.requests.map((r) => r.promptTokens);

test('no compaction below the threshold: the requests are none’s', () => {
  const r = analyzeSync(t10, compaction({ threshold: (P[11] + 1) / WINDOW })).analysis;
  assert.deepEqual(r.requests, none.requests);
  assert.deepEqual(r.compactions, { simulated: [], recorded: [] });
});

test('the threshold: before the first request whose context reaches it, the conversation is summarized', () => {
  // Request 6's context is none's prompt of request 6 (no usage recorded: the previous prompt and what came since).
  const r = analyzeSync(t10, compaction({ threshold: P[6] / WINDOW, summaryTokens: 500 })).analysis;
  assert.deepEqual(r.compactions?.simulated, [6]);
  const q = r.requests;
  for (const k of [0, 1, 2, 3, 4, 5]) assert.deepEqual(q[k], none.requests[k]);
  const s = q[6].compaction!;
  // The summarization request: the conversation so far, the previous prompt read from cache, the summary out.
  assert.deepEqual(
    [s.contextTokens, s.promptTokens, s.cachedTokens, s.writtenTokens, s.outputTokens, s.fromLog, s.keptFrom],
    [P[6], P[6], P[5], P[6] - P[5], 500, false, 13],
  );
  const prices = tablePrices(q[6].model!)!;
  const bill = (cacheRead: number, cacheWrite5m: number, output: number) =>
    billedCost(prices, { input: 0, cacheRead, cacheWrite5m, cacheWrite1h: 0, output });
  assert.ok(Math.abs(s.cost - bill(P[5], P[6] - P[5], 500)) < 1e-12);
  // Request 6 sends the summary alone (keepRecentMessages 0): written anew, nothing of the old prefix cached.
  assert.equal(q[6].promptTokens, 500);
  assert.equal(q[6].cachedTokens, 0);
  assert.equal(q[6].firstMessage, 13);
  assert.ok(Math.abs(q[6].cost - s.cost - bill(0, 500, q[6].outputTokens ?? 0)) < 1e-12);
  // Then the conversation grows again from the summary.
  assert.equal(q[7].promptTokens, 500 + (P[7] - P[6]));
  assert.equal(q[7].cachedTokens, 500);
  // The totals count the summarization requests too.
  const sum = (f: (x: (typeof q)[number]) => number) =>
    q.filter((x) => !x.pending).reduce((a, x) => a + f(x), 0);
  assert.equal(
    r.totals.promptTokens,
    sum((x) => x.promptTokens + (x.compaction?.promptTokens ?? 0)),
  );
});

test('keepRecentMessages: the newest messages follow the summary, a tool result never without its call', () => {
  const r = analyzeSync(
    t10,
    compaction({ threshold: P[6] / WINDOW, summaryTokens: 500, keepRecentMessages: 1 }),
  ).analysis;
  // Request 6 sends [0, 13): the newest message (12) is a tool result: its call (11) comes with it.
  assert.equal(r.requests[6].firstMessage, 11);
  assert.equal(r.requests[6].promptTokens, 500 + (P[6] - P[5]));
  const keep3 = analyzeSync(
    t10,
    compaction({ threshold: P[6] / WINDOW, summaryTokens: 500, keepRecentMessages: 3 }),
  ).analysis;
  assert.equal(keep3.requests[6].firstMessage, 9);
});

/** A Claude Code-shaped session that compacted before request 3, with the summary as a message of its own. */
const loggedSession = (preTokens: number): Transcript => compactedSession(3, preTokens);

test('where the log compacted before the same request, its own summary is the one sent', () => {
  const t = loggedSession(150_000);
  const logged = analyzeSync(t, compaction({}, 'none')).analysis.requests;
  const r = analyzeSync(t, compaction({ threshold: 0.7 })).analysis;
  assert.deepEqual(r.compactions, {
    simulated: [3],
    recorded: [{ request: 3, beforeMessage: 7, preTokens: 150_000 }],
  });
  const s = r.requests[3].compaction!;
  assert.equal(s.fromLog, true);
  assert.equal(s.contextTokens, 150_000, 'the agent’s own count');
  const summaryTokens = prepareTranscript(t, 'o200k_base').messageTokens[7];
  assert.equal(s.outputTokens, summaryTokens);
  assert.equal(s.keptFrom, 7);
  // What follows is what the log sent.
  for (const k of [3, 4]) assert.equal(r.requests[k].promptTokens, logged[k].promptTokens);
});

test('where the simulation does not compact, the log’s summary is not sent and the history stays', () => {
  const t = loggedSession(150_000);
  const r = analyzeSync(t, compaction({ threshold: 0.9 })).analysis;
  assert.deepEqual(r.compactions?.simulated, []);
  const prep = prepareTranscript(t, 'o200k_base');
  const all = (end: number) => prep.messageTokens.slice(0, end).reduce((a, b) => a + b, 0);
  // Request 3 sends messages 0-7 without the summary message 7.
  assert.equal(r.requests[3].promptTokens, all(8) - prep.messageTokens[7]);
  assert.equal(r.requests[3].firstMessage, undefined);
});

test('a compaction elsewhere than the log’s sends a summary of summaryTokens', () => {
  const t = loggedSession(150_000);
  const prep = prepareTranscript(t, 'o200k_base');
  const at2 = prep.messageTokens.slice(0, 5).reduce((a, b) => a + b, 0);
  const r = analyzeSync(t, compaction({ threshold: at2 / WINDOW, summaryTokens: 321 })).analysis;
  assert.deepEqual(r.compactions?.simulated, [2]);
  assert.equal(r.requests[2].compaction?.fromLog, false);
  assert.equal(r.requests[2].compaction?.outputTokens, 321);
  assert.equal(r.requests[2].promptTokens, 321);
});

// ---- Property: a compaction never parts a tool_use from its tool_result -------------------------------------

const session = fc
  .array(fc.tuple(fc.integer({ min: 1, max: 3 }), fc.boolean()), { minLength: 1, maxLength: 25 })
  .map((rounds) => {
    const messages: Omit<Message, 'index'>[] = [user(text('go'))];
    rounds.forEach(([calls, userText], r) => {
      const ids = Array.from({ length: calls }, (_, i) => `t${r}_${i}`);
      messages.push(assistant(...ids.map((id) => toolUse(id, 'bash'))));
      messages.push(user(...ids.map((id) => toolResult(id, `out ${id} `.repeat(20 + ((r * 7) % 50))))));
      if (userText) {
        messages.push(assistant(text(`step ${r}`)));
        messages.push(user(text(`next ${r}`)));
      }
    });
    messages.push(assistant(text('end')));
    return transcriptOf(messages);
  });

/** Every tool_result in [from, end) answers a call in [from, end); every call there is answered there or later. */
function pairsWhole(t: Transcript, from: number, end: number): boolean {
  const uses = new Set<string>();
  for (let m = from; m < end; m++)
    for (const b of t.messages[m].blocks) {
      if (b.type === 'tool_use') uses.add(b.id);
      if (b.type === 'tool_result' && !uses.has(b.toolUseId)) return false;
    }
  return true;
}

test('property: the kept messages after a summary never part a call from its result', () => {
  fc.assert(
    fc.property(session, fc.nat({ max: 12 }), fc.integer({ min: 1, max: 60 }), (t, keep, at) => {
      const prep = prepareTranscript(t, 'o200k_base');
      for (const end of prep.requestEnds) assert.ok(pairsWhole(t, keptFrom(prep, 0, end, keep), end));
      const P = analyzeSync(t, compaction({}, 'none')).analysis.requests.map((r) => r.promptTokens);
      const threshold = Math.min(1, (P[Math.min(P.length - 1, at % P.length)] + 1) / WINDOW);
      const r = analyzeSync(
        t,
        compaction({ threshold, summaryTokens: 50, keepRecentMessages: keep }),
      ).analysis;
      for (const q of r.requests)
        assert.ok(pairsWhole(t, q.firstMessage ?? 0, q.messageCount), `request ${q.index}`);
    }),
    { numRuns: 80, seed: 20260601 },
  );
});

test('the log’s compactions are worked out once per preparation and kept on it, not by the module', () => {
  const t = toolLoop(4);
  t.markers = [
    { kind: 'compaction', label: 'compact_boundary', beforeMessage: 5, preTokens: 900 },
    { kind: 'compaction', label: 'compact_boundary', beforeMessage: 2 },
  ];
  const counter = tokenCounter('o200k_base');
  const prep = prepareTranscript(t, 'o200k_base', counter);
  const list = loggedCompactions(prep);
  assert.deepEqual(
    list.map((c) => [c.beforeMessage, c.preTokens]),
    [
      [2, undefined],
      [5, 900],
    ],
  );
  assert.equal(loggedCompactions(prep), list, 'kept on the preparation');
  const probe = probePreparation(t, 'o200k_base', tokenCounter('o200k_base'), counter);
  assert.notEqual(loggedCompactions(probe), list, 'a probe’s preparation works them out for itself');
  assert.deepEqual(loggedCompactions(probe), list);
});
