// OpenCode sessions as `opencode export` writes them: steps as requests with their recorded tokens and the agent's own
// cost, tool results paired, a compaction starting a segment, written back in place.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildPolicy } from '../../../src/cli/policyArgs';
import { analyzeSync } from '../../../src/core/analysis';
import { parseTranscript, writeTranscript } from '../../../src/core/formats/index';
import { recordedUsage } from '../../../src/core/recordedUsage';
import { bytes, text } from './helpers';
import { openCodeExport } from './opencodeExport';

const raw = `${JSON.stringify(openCodeExport(), null, 2)}\n`;

describe('OpenCode export', () => {
  it('is detected by its content and read: steps, results, usage net of the cache, reasoning as output', () => {
    const t = parseTranscript(bytes(raw), 'session.json');
    assert.equal(t.format, 'opencode');
    assert.match(t.formatReason, /an OpenCode session as `opencode export` writes it \(5 messages\)/);
    assert.deepEqual(
      t.messages.map((m) => `${m.role}:${m.blocks.map((b) => b.type).join('+')}`),
      [
        'user:text',
        'assistant:thinking+tool_use',
        'user:tool_result',
        'assistant:text',
        'user:text+text',
        'assistant:text',
      ],
    );
    const use = t.messages[1].blocks[1];
    const result = t.messages[2].blocks[0];
    assert.ok(use.type === 'tool_use' && result.type === 'tool_result');
    assert.equal(result.toolUseId, use.id);
    assert.deepEqual(t.messages[1].usage, {
      inputTokens: 12000,
      outputTokens: 60,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 11990,
      reasoningOutputTokens: 20,
    });
    assert.equal(t.model, 'claude-sonnet-4-5');
  });

  it("the agent's own cost beside the list-price one; ccusage 20.0.24 gives the agent's figure", () => {
    const u = recordedUsage(parseTranscript(bytes(raw), 'session.json'));
    assert.ok(u);
    assert.equal(u.replies, 3);
    // ccusage opencode session --json --offline on the same messages and parts laid out as storage/: $0.0574.
    assert.ok(Math.abs((u.agentCost ?? 0) - 0.0574) < 1e-9, String(u.agentCost));
    // At claude-sonnet-4-5's list prices (3 input, 3.75 write, 0.30 read, 15 output $/MTok).
    const list =
      (12000 * 3 +
        11990 * 3.75 +
        60 * 15 +
        5 * 3 +
        11990 * 0.3 +
        800 * 3.75 +
        12 * 15 +
        3 * 3 +
        12790 * 0.3 +
        50 * 3.75 +
        30 * 15) /
      1e6;
    assert.ok(Math.abs(u.cost - list) < 1e-9, `${u.cost} vs ${list}`);
  });

  it('a compaction starts a segment; its summarizing call is paid for but no request of the replay', () => {
    const t = parseTranscript(bytes(raw), 'session.json');
    assert.deepEqual(
      t.markers.map((m) => [m.kind, m.beforeMessage]),
      [['compaction', 4]],
    );
    assert.deepEqual(t.messages[5].flags, ['compaction-call']);
    const requests = analyzeSync(t, buildPolicy(t, 'none', undefined, [])).analysis.requests.filter(
      (r) => !r.pending,
    );
    assert.equal(requests.length, 2);
  });

  it('exports in its own format: a tool output rewritten in place, every other byte kept', () => {
    const t = parseTranscript(bytes(raw), 'session.json');
    const out = text(
      writeTranscript(t, [{ messageIndex: 2, blockIndex: 0, content: '[README.md: 750 chars]' }]),
    );
    const doc = JSON.parse(out);
    assert.equal(doc.messages[1].parts[2].state.output, '[README.md: 750 chars]');
    const before = raw.split('\n');
    const after = out.split('\n');
    assert.equal(after.length, before.length);
    assert.equal(after.filter((l, i) => l !== before[i]).length, 1);
  });

  it('a broken export is reported at its line and column', () => {
    const broken = raw.replace('"role": "assistant",', '"role": "assistant"');
    const t = parseTranscript(bytes(broken), 'session.json');
    assert.equal(t.format, 'opencode');
    const d = t.diagnostics.find((x) => x.code === 'invalid-json');
    const line = broken.split('\n').findIndex((l) => l.includes('"role": "assistant"')) + 2;
    assert.equal(d?.line, line);
    // Found where the next member of the message's info starts (indented 8).
    assert.equal(d?.column, 9);
  });
});
