import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseTranscript } from '../../../src/core/formats';
import { ListsSent } from '../../../src/host/listsSent';
import { transcriptMessage } from '../../../src/host/summaries';
import { REAL_FIXTURES } from '../../sharedFixtures';

const file = join(REAL_FIXTURES, 'claude-code', 'drmaciver-coverage-test-fix.jsonl');

test('a view is posted each transcript once, again after it restarts; other messages always', () => {
  const t = parseTranscript(readFileSync(file), 'a.jsonl');
  const first = transcriptMessage(t, 'a.jsonl', 1);
  const lists = new ListsSent<'a' | 'b'>();
  assert.equal(lists.due('a', first), true);
  // The same transcript made again (asked by the view while it was being sent): not posted again.
  assert.equal(lists.due('a', transcriptMessage(t, 'a.jsonl', 1)), false);
  assert.equal(lists.due('b', first), true);
  // The next one adopted (the whole file after its beginning, the file grown) is.
  assert.equal(lists.due('a', transcriptMessage(t, 'a.jsonl', 2)), true);
  assert.equal(lists.due('a', { type: 'loading', fileName: 'a.jsonl', phase: 'x' }), true);
  assert.equal(lists.due('a', { type: 'loading', fileName: 'a.jsonl', phase: 'x' }), true);
  lists.forget('a');
  assert.equal(lists.due('a', transcriptMessage(t, 'a.jsonl', 2)), true);
});
