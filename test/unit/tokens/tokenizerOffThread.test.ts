// The extension host loads no tokenizer while its workers count a session and what its first analysis writes:
// the package compiles its WASM as it loads (~16 MB), the tables take 55–68 MB more, and both stay for as long as
// the host runs. Its own file: each test file runs in a process of its own, so nothing else here has loaded it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { clonePolicy, DEFAULT_POLICY } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import { analyzeWithPrimedCounts } from '../../../src/core/primedAnalysis';
import { encoderLoaded, TokenCounter } from '../../../src/core/tokens/counter';
import { TokenWorkerPool } from '../../../src/node/tokenPool';
import { generateClaudeCodeSession } from '../../bench/generate';
import { bundledWorker } from '../bundledWorker';

const transcript = parseTranscript(
  new TextEncoder().encode(generateClaudeCodeSession(1_500_000, 5)),
  'generated.jsonl',
);

test('the workers count a transcript and what its analysis writes; this thread loads no tokenizer', async () => {
  const pool = new TokenWorkerPool(await bundledWorker('tokenWorker', 'src/node/tokenWorker.ts'), 2);
  try {
    const counter = new TokenCounter('o200k_base');
    await pool.primeTranscript(transcript, counter);
    const policy = clonePolicy(DEFAULT_POLICY);
    policy.name = 'live-zone';
    policy.replay.trigger = 'everyRequest';
    // As the editor runs the open's first analysis while the workers run: nothing counted in place.
    const got = await analyzeWithPrimedCounts(transcript, policy, {
      counter,
      countElsewhere: (texts: string[]) => pool.primeTexts(texts, counter),
      probeSummaries: true,
      inPlaceBudget: 0,
    });
    assert.ok(Object.keys(got.ccr).length > 0, 'the analysis wrote compressed results');
    assert.equal(encoderLoaded('o200k_base'), false, 'this thread loaded the tokenizer');
    assert.equal(counter.misses, 0, 'nothing was tokenized on this thread');
    const loaded = Object.keys(require.cache).filter((m) => /[\\/]tiktoken[\\/]/.test(m));
    assert.deepEqual(loaded, [], 'this thread loaded the package (it compiles its WASM as it loads)');
    // The same figures as an analysis counted here (which loads the tokenizer).
    assert.deepStrictEqual(got, analyzeSync(transcript, policy, { counter: new TokenCounter('o200k_base') }));
  } finally {
    await pool.dispose();
  }
});
