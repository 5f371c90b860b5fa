// The extension host never loads a tokenizer while its workers can count: the tables stay in the host for as long
// as it runs (55–68 MB), where a worker ends once idle. Its own file: each test file runs in a process of its own,
// so nothing else here has loaded a tokenizer before these tests look.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { clonePolicy, DEFAULT_POLICY } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import { analyzeWithPrimedCounts } from '../../../src/core/primedAnalysis';
import { encoderLoaded, TokenCounter } from '../../../src/core/tokens/counter';
import { TokenWorkerPool } from '../../../src/core/tokens/pool';
import { generateClaudeCodeSession } from '../../bench/generate';
import { bundledWorker } from '../bundledWorker';
import { within } from '../within';

const transcript = parseTranscript(
  new TextEncoder().encode(generateClaudeCodeSession(400_000, 5)),
  'generated.jsonl',
);

test('the workers count a transcript, what its analyses write and a few texts after they ended; this thread never loads the tokenizer, then counts in place once it has', async () => {
  // Workers end 50 ms after their last count.
  const pool = new TokenWorkerPool(
    await bundledWorker('tokenWorker', 'src/core/tokens/worker.ts'),
    2,
    undefined,
    50,
  );
  try {
    const counter = new TokenCounter('o200k_base');
    await pool.primeTranscript(transcript, counter);
    const policy = clonePolicy(DEFAULT_POLICY);
    policy.name = 'live-zone';
    policy.replay.trigger = 'everyRequest';
    const options = {
      counter,
      countElsewhere: (texts: string[]) => pool.primeTexts(texts, counter),
      probeSummaries: true,
    };
    const got = await analyzeWithPrimedCounts(transcript, policy, options);
    assert.ok(Object.keys(got.ccr).length > 0, 'the analysis wrote compressed results');
    await within(5_000, () => pool.running === 0);
    const few = ['hello world', 'a b c d'];
    assert.equal(await pool.primeTexts(few, counter), few.length);
    assert.equal(encoderLoaded('o200k_base'), false, 'this thread loaded the tokenizer');
    const loaded = Object.keys(require.cache).filter((m) => /[\\/]tiktoken[\\/]/.test(m));
    assert.deepEqual(loaded, [], 'this thread loaded the package (it compiles its WASM as it loads)');
    assert.equal(counter.misses, 0, 'nothing was tokenized on this thread');

    // The same figures as an analysis counted here (which loads the tokenizer).
    const reference = new TokenCounter('o200k_base');
    assert.deepStrictEqual(got, analyzeSync(transcript, policy, { counter: reference }));
    for (const t of few) assert.equal(counter.countIfKnown(t), reference.count(t));

    // Now that this thread has it, a few texts with the workers ended are counted here: cheaper than a start.
    await within(5_000, () => pool.running === 0);
    const more = ['one more text', 'and another'];
    assert.equal(await pool.primeTexts(more, counter), more.length);
    assert.equal(pool.running, 0, 'no worker was started for them');
    assert.equal(counter.misses, more.length);
  } finally {
    await pool.dispose();
  }
});
