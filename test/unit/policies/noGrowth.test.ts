// SPEC §2 "no growth": a rewrite that would not make the block shorter in tokens is not made, in every policy. The
// block keeps its bytes (and so the cache its prefix), its tier stays as first touch classified it, and the fact is
// kept for the why-line. Real engine and tokenizer; transcripts built in memory.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { DEFAULT_POLICY, type Policy } from '../../../src/core/engine/policy';
import { toolLoop } from '../transcripts';

const once = (over: Partial<Policy> = {}): Policy => ({
  ...DEFAULT_POLICY,
  ...over,
  replay: { ...DEFAULT_POLICY.replay, trigger: 'once' },
});

/** 25 results: the first "ok" (its Tier-1 stub would be 23 tokens), the 17th just over maxResultChars (its
 * head-and-tail adds the marker), the rest long enough for every rule to shrink them. */
const session = () =>
  toolLoop(25, {
    result: (i) =>
      i === 0
        ? 'ok'
        : i === 16
          ? 'The build finished; 12 files were written. '.repeat(8).slice(0, 310)
          : `line ${i} of the output `.repeat(30),
  });

test('tiered: a Tier-1 stub of a short result and a head-and-tail that adds its marker are not made', () => {
  const r = analyzeSync(session(), once());
  // Message 2 is the first result (distance 24), message 34 the 17th (distance 8).
  assert.deepEqual(r.analysis.why?.notShorter, [
    { message: 2, block: 0, action: 'tier1', request: 26, tokens: 1, rewriteTokens: 23 },
    { message: 34, block: 0, action: 'tier2', request: 26, tokens: 72, rewriteTokens: 77 },
  ]);
  for (const m of [2, 34]) {
    assert.equal(r.analysis.events.filter((e) => e.messageIndex === m).length, 0, `no event for ${m}`);
    assert.equal(r.analysis.messages[m].rewritten, false);
    assert.equal(r.analysis.messages[m].tokensAfter, r.analysis.messages[m].tokensBefore);
    assert.ok(!r.rewrites.some((w) => w.messageIndex === m), `export writes nothing for ${m}`);
  }
  // First touch still classified them: the tier is the rule's, only the bytes are kept.
  assert.equal(r.analysis.messages[2].tier, 1);
  assert.equal(r.analysis.messages[34].tier, 2);
  // Their neighbours, long enough, are rewritten as before.
  assert.deepEqual(
    r.analysis.events.filter((e) => e.messageIndex === 4 || e.messageIndex === 32).map((e) => e.action),
    ['tier1', 'tier2'],
  );
});

test('every request: a kept-back rewrite is tried once (first touch), and the cache is not broken for it', () => {
  const policy: Policy = { ...DEFAULT_POLICY, replay: { ...DEFAULT_POLICY.replay, trigger: 'everyRequest' } };
  const r = analyzeSync(session(), policy);
  // Under a replay message 2 is first met at distance 8 (Tier 2: "ok" is within maxResultChars, nothing to try);
  // message 34 is first met at distance 8 too, and its head-and-tail is kept back once.
  assert.deepEqual(
    r.analysis.why?.notShorter.map((f) => [f.message, f.action]),
    [[34, 'tier2']],
  );
  assert.ok(!r.analysis.events.some((e) => e.messageIndex === 34));
});

test('observation window: the elision of a short observation is not made, a long one is', () => {
  const t = toolLoop(5, {
    name: () => 'screenshot',
    result: (i) => (i === 0 ? 'ok' : `page ${i} `.repeat(10)),
  });
  const r = analyzeSync(
    t,
    once({ name: 'observation', observation: { ...DEFAULT_POLICY.observation, keep: 1 } }),
  );
  assert.deepEqual(r.analysis.why?.notShorter, [
    { message: 2, block: 0, action: 'obs_window', request: 6, tokens: 1, rewriteTokens: 13 },
  ]);
  assert.deepEqual(
    r.rewrites.map((w) => [w.messageIndex, w.content]),
    [
      [4, `[elided browser observation: screenshot, was ${'page 1 '.repeat(10).length} chars]`],
      [6, `[elided browser observation: screenshot, was ${'page 2 '.repeat(10).length} chars]`],
      [8, `[elided browser observation: screenshot, was ${'page 3 '.repeat(10).length} chars]`],
    ],
  );
});

test('policy none tries no rewrite at all', () => {
  const r = analyzeSync(session(), once({ name: 'none' }));
  assert.deepEqual(r.analysis.why?.notShorter ?? [], []);
  assert.equal(r.analysis.events.length, 0);
});
