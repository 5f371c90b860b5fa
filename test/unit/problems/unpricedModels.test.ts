// A model the price table does not know, or none at all (`gpt-9-ultra`, "", 42, {}): the replies are priced as a
// preset and every figure from them says it is an estimate, never $0 in silence.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { defaultPolicyFor } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import { fileProblems } from '../../../src/core/problems';
import { recordedUsage } from '../../../src/core/recordedUsage';
import { cliArgs } from '../cliProcess';
import { ClaudeSession } from '../formats/helpers';

const ROOT = join(import.meta.dirname, '..', '..', '..');

function sessionWithModel(model: unknown): Uint8Array {
  const s = new ClaudeSession();
  s.user('Please read the file.');
  for (let k = 0; k < 3; k++) {
    s.assistant(
      `msg_${k}`,
      [{ type: 'tool_use', id: `t${k}`, name: 'Read', input: { file_path: `/f${k}` } }],
      {
        input_tokens: 5,
        cache_read_input_tokens: k === 0 ? 0 : 4000 + 100 * k,
        cache_creation_input_tokens: k === 0 ? 4000 : 100,
        output_tokens: 50,
      },
    );
    s.result(`t${k}`, `contents ${k} `.repeat(40));
  }
  for (const r of s.records) if (r.type === 'assistant') (r.message as Record<string, unknown>).model = model;
  return s.bytes();
}

const MODELS: [string, unknown][] = [
  ['gpt-9-ultra', 'gpt-9-ultra'],
  ['""', ''],
  ['42', 42],
  ['{}', {}],
];

for (const [label, model] of MODELS)
  test(`model ${label}: priced as a preset, an estimate said in the usage, the view's header and the Problems`, () => {
    const t = parseTranscript(sessionWithModel(model), `s-${label}.jsonl`);
    const u = recordedUsage(t)!;
    assert.ok(u.cost > 0, `cost ${u.cost}`);
    assert.equal(u.unpricedCost, u.cost);
    assert.equal(u.unpriced.length, 1);
    assert.ok(u.unpricedAs[u.unpriced[0]], JSON.stringify(u));
    const problems = fileProblems(t).filter((p) => p.code === 'unpriced-model');
    assert.equal(problems.length, 1, JSON.stringify(fileProblems(t)));
    assert.match(problems[0].message, /priced as the .* preset .*an estimate/);
    const a = analyzeSync(t, { ...defaultPolicyFor(t.format), name: 'none' }).analysis;
    assert.equal(a.recorded?.sessionCostEstimate?.cost, u.cost);
    assert.equal(a.recorded?.sessionCost, u.cost);
  });

test('inspect and simulate say the cost is an estimate, and inspect lists the problem', () => {
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-unpriced-'));
  const file = join(dir, 's.jsonl');
  writeFileSync(file, sessionWithModel('gpt-9-ultra'));
  const run = (...args: string[]) =>
    spawnSync(process.execPath, [...cliArgs, ...args], {
      encoding: 'utf8',
      cwd: ROOT,
      timeout: 60_000,
    });
  const inspect = run('inspect', file);
  assert.equal(inspect.status, 0, inspect.stderr);
  assert.match(inspect.stdout, /an estimate: \$[\d.]+ of the cost .* gpt-9-ultra as the .* preset/);
  assert.doesNotMatch(inspect.stdout, /problems: none/);
  assert.match(inspect.stdout, /unpriced-model: model gpt-9-ultra is not in the price table/);
  const simulate = run('simulate', file, '--policy', 'none');
  assert.equal(simulate.status, 0, simulate.stderr);
  assert.match(simulate.stdout, /the session cost \$[\d.]+ at list prices \(\$[\d.]+ of it an estimate/);
});
