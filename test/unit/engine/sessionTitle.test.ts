import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseTranscript } from '../../../src/core/formats';
import { sessionTitle } from '../../../src/core/sessionTitle';

test('a session is titled by its project and first prompt, not its file name', () => {
  const path = 'test/fixtures/real/claude-code/drmaciver-coverage-test-fix.jsonl';
  const t = parseTranscript(readFileSync(path), path);
  assert.equal(
    sessionTitle(t, '/home/u/.claude/projects/-home-u-work-mathlib/0b9e0f9a-1d2c.jsonl'),
    'mathlib · Add a function called multiply_numbers(a: int, b: int) -> int that multiplies t…',
  );
  assert.match(sessionTitle(t, path), /^claude-code · Add a function called multiply_numbers/);
});
