// Long texts end to end: a 50 MB tool result through parse and analysis, and long texts through the worker
// pool the editor counts with (tiktoken alone threw "unreachable" on them).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { DEFAULT_POLICY } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import { encodeUtf8 } from '../../../src/core/formats/text';
import { TokenCounter } from '../../../src/core/tokens/counter';
import { TokenWorkerPool } from '../../../src/node/tokenPool';
import { bundledWorker as bundleWorker } from '../bundledWorker';

/** 50 MB of output made of long runs (a progress bar, blank lines, padding) around a few log lines. */
function bigResult(): string {
  const lines = 'build step 1 of 3: ok\nbuild step 2 of 3: ok\n'.repeat(1000);
  const mb = 1024 * 1024;
  return `${lines}${'='.repeat(20 * mb)}\n${'\n'.repeat(10 * mb)}${' '.repeat(10 * mb)}${'x'.repeat(10 * mb)}${lines}`;
}

test('a transcript with a 50 MB tool result is parsed and analysed', () => {
  const content = bigResult();
  assert.ok(content.length > 50 * 1024 * 1024);
  const body = {
    model: 'claude-sonnet-4-20250514',
    max_tokens: 1024,
    messages: [
      { role: 'user', content: 'Build it.' },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'make' } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content }] },
      { role: 'assistant', content: 'Done.' },
    ],
  };
  const t = parseTranscript(encodeUtf8(JSON.stringify(body)), 'big.request.json');
  assert.equal(t.diagnostics.filter((d) => d.severity === 'error').length, 0);
  const counter = new TokenCounter('o200k_base');
  const { analysis } = analyzeSync(t, DEFAULT_POLICY, { counter });
  const result = analysis.messages[2];
  assert.ok(result.tokensBefore >= counter.count(content));
  assert.ok(Number.isFinite(analysis.totals.tokensBefore) && Number.isFinite(analysis.totals.cost));
  assert.ok(result.tokensAfter <= result.tokensBefore);
});

test('the worker pool counts long texts as the main thread does', async () => {
  const pool = new TokenWorkerPool(await bundledWorker(), 2);
  try {
    const texts = ['\n'.repeat(1_000_000), ' '.repeat(1_000_000), 'ab'.repeat(300_000), 'short'];
    const counts = await pool.countMany('o200k_base', texts);
    const main = new TokenCounter('o200k_base');
    assert.deepEqual(
      counts,
      texts.map((s) => main.count(s)),
    );
  } finally {
    await pool.dispose();
  }
});

const bundledWorker = () => bundleWorker('tokenWorker', 'src/node/tokenWorker.ts');
