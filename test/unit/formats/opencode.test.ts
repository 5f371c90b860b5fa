// OpenCode sessions as `opencode export` writes them: steps as requests with their recorded tokens and the agent's own
// cost, tool results paired, a compaction starting a segment, written back in place.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildPolicy } from '../../../src/cli/policyArgs';
import { analyzeSync } from '../../../src/core/analysis';
import { parseTranscript, writeTranscript } from '../../../src/core/formats/index';
import type { Transcript } from '../../../src/core/model';
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

  it('a compaction that kept a tail (`tail_start_id`) sends it after the summary; the requests before it, all', () => {
    const doc = openCodeExport() as {
      messages: { info: { id: string }; parts: Record<string, unknown>[] }[];
    };
    doc.messages[3].parts[1].tail_start_id = 'msg_002';
    const t = parseTranscript(bytes(JSON.stringify(doc)), 'session.json');
    // msg_002 is the reply at message 1 (the read and its result): kept from there.
    assert.deepEqual(
      t.markers.map((m) => [m.kind, m.beforeMessage, m.keptFrom]),
      [['compaction', 4, 1]],
    );
    const none = (x: Transcript) => analyzeSync(x, buildPolicy(x, 'none', undefined, [])).analysis;
    const a = none(t);
    const plain = none(parseTranscript(bytes(raw), 'session.json'));
    // The next request sends the tail on; the requests before the compaction sent everything.
    assert.equal(a.liveFrom, 1);
    assert.equal(plain.liveFrom, 4);
    assert.deepEqual(
      a.requests.slice(0, 2).map((r) => r.promptTokens),
      plain.requests.slice(0, 2).map((r) => r.promptTokens),
    );
  });

  it("an export as `opencode export > file` writes it (its CLI's line first) is read, the line kept", () => {
    const printed = `Exporting session: ses_test0001\n${raw}`;
    const t = parseTranscript(bytes(printed), 'export.json');
    const plain = parseTranscript(bytes(raw), 'export.json');
    assert.equal(t.format, 'opencode');
    assert.match(t.formatReason, /after the "Exporting session:" line/);
    assert.deepEqual(
      t.messages.map((m) => m.blocks.map((b) => b.type)),
      plain.messages.map((m) => m.blocks.map((b) => b.type)),
    );
    // Positions are the file's: each message a line further down.
    assert.deepEqual(
      t.messages.map((m) => m.source?.line),
      plain.messages.map((m) => (m.source?.line ?? 0) + 1),
    );
    assert.deepEqual(writeTranscript(t, []), bytes(printed));
    assert.equal(t.diagnostics.filter((d) => d.severity !== 'info').length, 0);
    // A rewrite is spliced in place, the line kept.
    const out = writeTranscript(t, [{ messageIndex: 0, blockIndex: 0, content: 'read it' }]);
    assert.ok(text(out).startsWith('Exporting session: ses_test0001\n{'));
    const again = parseTranscript(out, 'export.json').messages[0].blocks[0];
    assert.equal(again.type === 'text' ? again.text : again.type, 'read it');
  });

  it('an attachment held inline (a PDF as a data: URL) is counted as an attachment, not as its base64', () => {
    const doc = openCodeExport() as { messages: { parts: Record<string, unknown>[] }[] };
    const pdf = `data:application/pdf;base64,${'JVBERi0xLjcK'.repeat(20_000)}`;
    doc.messages[0].parts.push({
      id: 'prt_pdf',
      type: 'file',
      mime: 'application/pdf',
      filename: 'a.pdf',
      url: pdf,
    });
    const t = parseTranscript(bytes(JSON.stringify(doc)), 'session.json');
    const plain = parseTranscript(bytes(raw), 'session.json');
    // The first message's own tokens (a prompt would be fitted to the recorded usage).
    const first = (x: typeof t) =>
      analyzeSync(x, buildPolicy(x, 'none', undefined, [])).analysis.messages[0].tokensBefore;
    const added = first(t) - first(plain);
    // ~240,000 characters of base64 were ~100,000 tokens; the attachment and its name are ~1,600.
    assert.ok(added > 1_000 && added < 2_500, `the PDF added ${added} tokens`);
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
