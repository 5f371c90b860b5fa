// A small seeded sample of the fuzzing of real logs (the full run: `npm run fuzz`, test/unit/fuzz/fuzz.ts):
// every mutation kind on the small real fixtures, through inspect, compact --policy none and simulate, and the
// editor's session and protocol check.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fuzzCases, REAL_DIRS, realLogs } from './cases';
import { MUTATIONS, SAMPLE_SIZES } from './mutate';
import { runCase } from './runCase';

const SEED = 20260113;

test('mutated real logs: no throw, no stack trace, --policy none byte-identical, views accept every message', async () => {
  // Three small logs (one JSONL per agent, one request body), every mutation once.
  const logs = realLogs([REAL_DIRS[0]]).filter((p) =>
    /drmaciver-hello-world|kvsankar-real-session-01-redacted\.jsonl$|pydantic-ai-cassette-tool-output/.test(
      p,
    ),
  );
  assert.equal(logs.length, 3);
  const failures: string[] = [];
  let cases = 0;
  for (const c of fuzzCases(logs, SEED, SAMPLE_SIZES, 1, MUTATIONS)) {
    cases++;
    const result = await runCase(c);
    if (result.problems.length) failures.push(`${c.name}:\n  ${result.problems.join('\n  ')}`);
  }
  assert.ok(cases >= 30, `${cases} cases`);
  assert.deepEqual(failures, []);
});
