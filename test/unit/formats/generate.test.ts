// The generated Claude Code session that benchmarks and samples use: deterministic, and a session this
// parser reads without a complaint (every call paired, compactions and sub-agents where they were written).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTranscript } from '../../../src/core/formats/index';
import { summarizeTranscript } from '../../../src/core/formats/summary';
import { generateClaudeCodeSession } from '../../bench/generate';
import { bytes } from './helpers';

describe('generateClaudeCodeSession', () => {
  it('gives the same bytes for the same seed, other bytes for another', () => {
    const a = generateClaudeCodeSession(300_000, 7);
    assert.equal(a, generateClaudeCodeSession(300_000, 7));
    assert.notEqual(a, generateClaudeCodeSession(300_000, 8));
    const size = bytes(a).length;
    assert.ok(size >= 300_000 && size < 300_000 + 400_000, `size ${size}`);
  });

  it('parses cleanly, with the record types and tools of real sessions', () => {
    const t = parseTranscript(
      bytes(generateClaudeCodeSession(2_000_000, 3, { compactEvery: 5 })),
      'generated.jsonl',
    );
    const s = summarizeTranscript(t);
    assert.equal(t.format, 'claude-code');
    assert.deepEqual(t.diagnostics, []);
    assert.deepEqual(s.pairing, []);
    assert.equal(s.toolResults, s.toolCalls.total);
    for (const tool of ['Read', 'Bash', 'Edit', 'Grep', 'Glob', 'Write', 'TodoWrite', 'WebFetch'])
      assert.ok(s.toolCalls.byName[tool] > 0, tool);
    assert.ok((s.markers.byLabel.compact_boundary ?? 0) > 0);
    assert.equal(s.markers.byLabel.compact_boundary, s.markers.byLabel.isCompactSummary);
    assert.ok(t.messages.some((m) => m.blocks.some((b) => b.type === 'tool_result' && b.isError)));
    assert.ok((s.recordedUsage?.replies ?? 0) > 0);
  });
});
