import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { parseTranscript } from '../../../src/core/formats';
import { sessionTitle } from '../../../src/core/sessionTitle';

test('a session is titled by its project and first prompt, not its file name', () => {
  const path = 'test/fixtures/real/claude-code/drmaciver-coverage-test-fix.jsonl';
  const t = parseTranscript(readFileSync(path), path);
  const at = '.claude/projects/-repos-acme-mathlib/0b9e0f9a-1d2c.jsonl';
  assert.equal(
    sessionTitle(t, at, 'repos/acme/mathlib'),
    '…/acme/mathlib · Add a function called multiply_numbers(a: int, b: int) -> int that multiplies t…',
  );
  // No working directory read: the folder the log sits in, as the Sessions view lists it.
  assert.match(sessionTitle(t, at), /^-repos-acme-mathlib · Add a function called multiply_numbers/);
  assert.match(sessionTitle(t, path), /^claude-code · Add a function called multiply_numbers/);
});

test('a Codex session is titled by the first prompt a person typed, not the AGENTS.md or plugin text sent first', () => {
  const rollout = (text: string) => ({
    timestamp: 't',
    type: 'response_item',
    payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text }] },
  });
  const bytes = new TextEncoder().encode(
    `${[
      rollout('# AGENTS.md instructions for repos/app\n\n<INSTRUCTIONS>\nUse pnpm.\n</INSTRUCTIONS>'),
      rollout('<recommended_plugins>\nHere is a list of plugins\n</recommended_plugins>'),
      rollout('<environment_context>\n  <cwd>repos/app</cwd>\n</environment_context>'),
      rollout('please execute this plan docs/plan.md'),
    ]
      .map((r) => JSON.stringify(r))
      .join('\n')}\n`,
  );
  const t = parseTranscript(bytes, 'rollout.jsonl');
  assert.match(
    sessionTitle(t, '.codex/sessions/2026/01/01/rollout.jsonl'),
    / · please execute this plan docs\/plan\.md$/,
  );
});
