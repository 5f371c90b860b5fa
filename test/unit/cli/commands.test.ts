// The CLI commands as a user runs them: files written, names, refusals, the report's fields.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { headAndTail } from '../../../src/core/engine/content';
import { parseTranscript } from '../../../src/core/formats';
import { cliArgs } from '../cliProcess';

const FIXTURE = 'test/fixtures/real/claude-code/drmaciver-coverage-test-fix.jsonl';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [...cliArgs, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-cli-'));
  copyFileSync(FIXTURE, join(dir, 'session.jsonl'));
  return join(dir, 'session.jsonl');
}

test('compact writes <name>.compacted.<ext> and the report, and leaves the input alone', () => {
  const file = scratch();
  const before = readFileSync(file);
  const report = `${file}.report.json`;
  const r = cli(
    'compact',
    file,
    '--set',
    'tiered.keepRecent=2',
    '--set',
    'tiered.tier1Distance=5',
    '--report',
    report,
  );
  assert.equal(r.code, 0, r.err);
  const out = file.replace(/\.jsonl$/, '.compacted.jsonl');
  assert.ok(existsSync(out));
  assert.deepEqual(readFileSync(file), before, 'the input is never written');
  assert.equal(existsSync(`${out}.ccr.json`), false, 'no marker, no CCR store');
  const a = JSON.parse(readFileSync(report, 'utf8'));
  for (const key of ['index', 'role', 'tier', 'floored', 'zone', 'tokensBefore', 'tokensAfter', 'rewritten'])
    assert.ok(key in a.messages[0], key);
  for (const key of [
    'action',
    'messageIndex',
    'blockIndex',
    'toolUseId',
    'oldHash',
    'newHash',
    'oldLen',
    'newLen',
  ])
    assert.ok(key in a.events[0], key);
  for (const key of ['promptTokens', 'cachedTokens', 'writtenTokens', 'boundaryMessage', 'cost'])
    assert.ok(key in a.requests[0], key);
  assert.ok(a.totals.tokensAfter < a.totals.tokensBefore);
  // Summarizer none: every Tier-2 block is exactly the head-and-tail of its original.
  const original = parseTranscript(readFileSync(file), file);
  const compacted = parseTranscript(readFileSync(out), out);
  for (const e of a.events.filter((x: { action: string }) => x.action === 'tier2')) {
    const was = original.messages[e.messageIndex].blocks[e.blockIndex];
    const now = compacted.messages[e.messageIndex].blocks[e.blockIndex];
    assert.ok(was.type === 'tool_result' && now.type === 'tool_result');
    if (typeof was.content === 'string') assert.equal(now.content, headAndTail(was.content, 300));
  }
});

test('compact writes the CCR store next to the output when the live zone leaves a marker', () => {
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-cli-'));
  const file = join(dir, 'request.json');
  const grep = Array.from({ length: 300 }, (_, i) => `src/m${i % 20}.ts:${i + 1}:compute(${i})`).join('\n');
  writeFileSync(
    file,
    JSON.stringify({
      model: 'claude-sonnet-4-20250514',
      messages: [
        { role: 'user', content: 'find compute' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'grep', input: { q: 'compute' } }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: grep }] },
      ],
    }),
  );
  const out = join(dir, 'out.json');
  const r = cli('compact', file, '--policy', 'live-zone', '--out', out);
  assert.equal(r.code, 0, r.err);
  const store = JSON.parse(readFileSync(`${out}.ccr.json`, 'utf8'));
  const [hash] = Object.keys(store);
  assert.match(hash, /^[0-9a-f]{24}$/);
  assert.equal(store[hash], grep);
  assert.match(readFileSync(out, 'utf8'), new RegExp(`Retrieve more: hash=${hash}`));
});

test('compact refuses bad settings, unknown options and writing over the input', () => {
  const file = scratch();
  const bad = cli('compact', file, '--set', 'tiered.tier1Distance=3');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /tiered\.tier1Distance: must be at least tiered\.keepRecent \(8\), got 3/);
  assert.equal(cli('compact', file, '--frobnicate').code, 2);
  const over = cli('compact', file, '--out', file);
  assert.equal(over.code, 2);
  assert.match(over.err, /is the source transcript .* never overwritten/);
});

test('simulate prints the policies side by side and the recorded usage comparison', () => {
  const r = cli('simulate', FIXTURE);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /none: prompt\/cached\/written \| tiered: prompt\/cached\/written \| live-zone/);
  assert.match(r.out, /recorded vs the "as logged" simulation over 14 requests/);
  assert.match(r.out, /hidden prefix \(not in the file: system prompt, tools\): \d+ tokens; calibration ×/);
});
