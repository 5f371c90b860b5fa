// The view's sanity flags are counted on the baseline run, as the CLI counts them, whatever the policy shown: a
// request over the window is one the agent really sent, even where the policy shown would have sent it smaller.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze, analyzeSync } from '../../../src/core/analysis';
import type { Analysis } from '../../../src/core/analysisTypes';
import { defaultPolicyFor, type Policy } from '../../../src/core/engine/policy';
import type { Transcript } from '../../../src/core/model';
import { sanityFlags } from '../../../src/core/sanity';
import { nonePolicy } from '../../../src/core/vsNone';
import { TranscriptSession } from '../../../src/host/session';
import { FakeClock } from '../fakeClock';
import { toolLoop } from '../transcripts';

test("a flag whose count differs between none and the policy shown: the view gives none's, as the CLI does", async () => {
  // ~300k tokens in the first result, beyond a Claude window of 200k, then small ones: none sends it with every
  // later request; tiered stubs it once it is old enough, so fewer of its requests are over the window.
  const t: Transcript = toolLoop(8, {
    result: (i) => (i === 0 ? 'alpha beta gamma delta '.repeat(75_000) : `ok ${i}`),
  });
  const base = defaultPolicyFor(t.format);
  const tiered: Policy = {
    ...base,
    name: 'tiered',
    tiered: { ...base.tiered, keepRecent: 1, tier1Distance: 2 },
    replay: { ...base.replay, trigger: 'everyRequest' },
  };
  const over = (a: Analysis) => sanityFlags(a).find((f) => f.kind === 'beyond-window')?.message ?? '';
  const none = over(analyzeSync(t, nonePolicy(tiered)).analysis);
  const own = over(analyzeSync(t, tiered).analysis);
  assert.match(none, /^8 requests \(the first: request 2\) exceed/);
  assert.notEqual(own, none, 'the policy alone counts another number of requests over the window');

  let shown: Analysis | null = null;
  const clock = new FakeClock(() => s.settled());
  const s: TranscriptSession = new TranscriptSession(
    'crafted.jsonl',
    { parse: () => t, analyze: (x, p) => analyze(x, p) },
    () => {},
    (e) => assert.fail(String(e)),
    undefined,
    undefined,
    { clock },
  );
  s.onDidChangeAnalysis((a) => {
    shown = a;
  });
  s.load(new Uint8Array());
  await s.request(tiered, 'none', 1);
  await clock.advance(0);
  const flags = (shown as Analysis | null)?.flags ?? [];
  assert.equal(flags.find((f) => f.kind === 'beyond-window')?.message, none);
});
