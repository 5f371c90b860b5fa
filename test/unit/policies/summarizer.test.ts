import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  SUMMARY_MAX_OUTPUT_TOKENS,
  SUMMARY_TEMPERATURE,
  summaryPrompt,
} from '../../../src/core/engine/summarizer';

test('the summary request is the SPEC §2 instruction, then the tool name and the result', () => {
  assert.equal(
    summaryPrompt('Bash', 'exit 1\nerror: ENOENT /tmp/x'),
    'Summarize this tool result in 1-2 sentences. Preserve exact error strings, file paths, URLs, IDs, and numbers when present. Focus on the final outcome or conclusion.' +
      '\n\nTool: Bash\nResult:\nexit 1\nerror: ENOENT /tmp/x',
  );
});

test('summaries are asked for at temperature 0 with at most 200 output tokens', () => {
  assert.equal(SUMMARY_TEMPERATURE, 0);
  assert.equal(SUMMARY_MAX_OUTPUT_TOKENS, 200);
});
