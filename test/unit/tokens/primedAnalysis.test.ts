import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { clonePolicy, DEFAULT_POLICY, type PolicyName } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import { analyzeWithPrimedCounts } from '../../../src/core/primedAnalysis';
import { TokenCounter } from '../../../src/core/tokens/counter';
import { IN_PLACE_BUDGET_CHARS } from '../../../src/core/tokens/primedCounters';
import { transcriptTexts } from '../../../src/core/tokens/texts';
import { generateClaudeCodeSession } from '../../bench/generate';

// A session with logs, diffs and search results (what the live zone compresses) and long tool results.
const transcript = parseTranscript(
  new TextEncoder().encode(generateClaudeCodeSession(1_500_000, 11)),
  'generated.jsonl',
);

/** A counter primed with the transcript's own texts, as the worker pool leaves it, that records what it tokenized
 * itself (in place) and what was counted "elsewhere". */
function primedCounter() {
  const counter = new TokenCounter('o200k_base');
  const reference = new TokenCounter('o200k_base');
  const texts = [...new Set(transcriptTexts(transcript))];
  counter.prime(
    texts,
    texts.map((t) => reference.count(t)),
  );
  const inPlace: string[] = [];
  const count = counter.count.bind(counter);
  counter.count = (text: string) => {
    if (!counter.has(text)) inPlace.push(text);
    return count(text);
  };
  const elsewhere: string[] = [];
  const countElsewhere = async (more: string[]) => {
    elsewhere.push(...more);
    counter.prime(
      more,
      more.map((t) => reference.count(t)),
    );
  };
  return { counter, inPlace, elsewhere, countElsewhere };
}

const policies: PolicyName[] = [
  'live-zone',
  'tiered',
  'tiered+live-zone',
  'observation',
  'anthropic-context-editing',
  'compaction',
];

for (const name of policies)
  for (const inPlaceBudget of [IN_PLACE_BUDGET_CHARS, 500])
    test(`${name}, ${inPlaceBudget} characters in place: the analysis with counts made elsewhere equals the one counted in place`, async () => {
      const policy = clonePolicy(DEFAULT_POLICY);
      policy.name = name;
      policy.replay.trigger = 'everyRequest';
      const expected = analyzeSync(transcript, policy, { counter: new TokenCounter('o200k_base') });
      const { counter, inPlace, elsewhere, countElsewhere } = primedCounter();
      const got = await analyzeWithPrimedCounts(transcript, policy, {
        counter,
        countElsewhere,
        probeSummaries: true,
        inPlaceBudget,
      });
      assert.deepStrictEqual(got, expected);
      const inPlaceChars = inPlace.reduce((n, t) => n + t.length, 0);
      // Each run may tokenize up to the budget in place; a run that needs more stops, and the rest is counted
      // elsewhere. Three runs at most (two probes), so three budgets at most.
      assert.ok(inPlaceChars <= 3 * inPlaceBudget, `${inPlaceChars} characters tokenized in place`);
      if (name.includes('live-zone') && inPlaceBudget < IN_PLACE_BUDGET_CHARS)
        assert.ok(elsewhere.length > 0, 'the compressed results were counted elsewhere');
    });

test('a live-zone analysis beyond its budget counts its compressed results elsewhere, not in place', async () => {
  const policy = clonePolicy(DEFAULT_POLICY);
  policy.name = 'live-zone';
  policy.replay.trigger = 'everyRequest';
  const { counter, inPlace, elsewhere, countElsewhere } = primedCounter();
  const got = await analyzeWithPrimedCounts(transcript, policy, {
    counter,
    countElsewhere,
    probeSummaries: true,
    inPlaceBudget: 500,
  });
  const compressed = Object.keys(got.ccr).length;
  assert.ok(compressed > 20, `${compressed} compressed results`);
  assert.ok(elsewhere.length >= compressed / 2, `${elsewhere.length} texts counted elsewhere`);
  assert.ok(inPlace.length < elsewhere.length, `${inPlace.length} in place, ${elsewhere.length} elsewhere`);
});

test('a run stopped while its texts are counted elsewhere gives way at once; the counts still land', async () => {
  const policy = clonePolicy(DEFAULT_POLICY);
  policy.name = 'live-zone';
  policy.replay.trigger = 'everyRequest';
  const { counter, countElsewhere } = primedCounter();
  let release = () => {};
  const counting = new Promise<void>((r) => {
    release = r;
  });
  let asked: string[] = [];
  let landed: Promise<void> | undefined;
  const stop = new AbortController();
  const run = analyzeWithPrimedCounts(transcript, policy, {
    counter,
    signal: stop.signal,
    // Counting that does not end until released (workers busy with seconds of texts).
    countElsewhere: (more) => {
      asked = more;
      stop.abort(new Error('a change'));
      landed = counting.then(() => countElsewhere(more));
      return landed;
    },
    probeSummaries: true,
    inPlaceBudget: 500,
  });
  await assert.rejects(run, /a change/);
  assert.ok(asked.length > 0 && !counter.has(asked[0]), 'stopped before the counts landed');
  release();
  await landed;
  assert.ok(counter.has(asked[0]), 'the counts landed after');
});
