// GitHub Copilot CLI sessions: an events.jsonl shaped as the agent's event schema defines it, read, written back
// and found where the agent keeps them.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildPolicy } from '../../../src/cli/policyArgs';
import { analyzeSync } from '../../../src/core/analysis';
import { detectFormat, parseTranscript, writeTranscript } from '../../../src/core/formats/index';
import { adapterFor } from '../../../src/core/formats/registry';
import { recordedUsage } from '../../../src/core/recordedUsage';
import { sessionsDir, sessionsOf } from '../../../src/node/sessionFiles';
import { copilotSession } from './copilotEvents';
import { bytes, fixture, jsonl, text } from './helpers';

const log = () => text(jsonl(copilotSession()));
const shape = (m: { role: string; blocks: { type: string }[] }) =>
  `${m.role}:${m.blocks.map((b) => b.type).join('+')}`;

describe('GitHub Copilot CLI', () => {
  it('is detected by its events, under any name', () => {
    const d = detectFormat(bytes(log()), 'notes.txt');
    assert.equal(d.format, 'copilot-cli');
    assert.ok('reason' in d);
    assert.match(d.reason, /GitHub Copilot CLI session/);
    assert.match(d.reason, /producer "copilot-agent"/);
    const claude = `${JSON.stringify({ type: 'user', uuid: 'a', sessionId: 's', message: { role: 'user', content: 'hi' } })}\n`;
    assert.equal(detectFormat(bytes(claude)).format, 'claude-code');
  });

  it('reads messages, calls paired with their results, the model per reply, the compaction and the sub-agent', () => {
    const t = parseTranscript(bytes(log()), 'events.jsonl');
    assert.equal(t.format, 'copilot-cli');
    assert.equal(t.system, 'You are the GitHub Copilot CLI.');
    assert.deepEqual(t.messages.map(shape), [
      'user:text',
      'assistant:thinking+text+tool_use+tool_use',
      'user:tool_result+tool_result',
      'user:text',
      'assistant:text+text+tool_use',
      'user:tool_result',
      'assistant:text',
    ]);
    const [prompt, first, results, , chunked, , last] = t.messages;
    // What the model was sent: the transformed prompt.
    assert.ok(prompt.blocks[0].type === 'text');
    assert.match(prompt.blocks[0].text, /^<current_datetime>/);
    assert.equal(prompt.source?.line, 3);
    assert.equal(first.model, 'claude-sonnet-4.5');
    assert.equal(chunked.model, 'gpt-5.2');
    assert.equal(last.model, 'gpt-5.2');
    const [view, bash] = first.blocks.slice(2);
    const [ok, failed] = results.blocks;
    assert.ok(view.type === 'tool_use' && bash.type === 'tool_use');
    assert.ok(ok.type === 'tool_result' && failed.type === 'tool_result');
    assert.deepEqual([view.name, view.input], ['view', { path: 'test/cart.test.ts' }]);
    assert.deepEqual(
      [ok.toolUseId, ok.content, ok.isError],
      ['toolu_1', '1. import { cart } from "../cart";', false],
    );
    assert.deepEqual(
      [failed.toolUseId, failed.content, failed.isError],
      ['toolu_2', 'npm test exited with code 1', true],
    );
    // The compaction starts a segment, with the summary the agent sends in place of the older messages.
    const compaction = t.markers.find((m) => m.kind === 'compaction');
    assert.deepEqual(
      [compaction?.beforeMessage, compaction?.preTokens, compaction?.summary, compaction?.source?.line],
      [3, 110000, 'The user asked to fix a failing cart test; the test file was read.', 11],
    );
    // The sub-agent's reply is its own conversation.
    assert.deepEqual(
      t.sidechains.map((c) => [c.id, c.messages.map(shape), c.messages[0].model]),
      [['call_3', ['assistant:text'], 'claude-haiku-4.5']],
    );
    assert.equal(t.model, 'gpt-5.2');
  });

  it('records no usage per request: the shutdown totals are said, and the cost is estimated', () => {
    const t = parseTranscript(bytes(log()), 'events.jsonl');
    assert.equal(t.replies, undefined);
    assert.ok(t.messages.every((m) => m.usage === undefined));
    assert.equal(recordedUsage(t), null);
    const info = t.diagnostics.find((d) => d.code === 'copilot-log');
    assert.match(info?.message ?? '', /20 events, 3 replies in the main conversation, 1 sub-agents/);
    assert.match(info?.message ?? '', /2 requests to claude-sonnet-4\.5 \(input 210000 with the cache/);
    assert.match(info?.message ?? '', /costs are estimated/);
  });

  it("real sessions: the part of each request the log does not hold (tools) fitted to the shutdown's totals", () => {
    for (const [file, model, requests, prompt, read] of [
      [
        'copilot-cli/copilot-session-viewer-demo-1.0.55.events.jsonl',
        'claude-opus-4.7-1m-internal',
        3,
        81666,
        54064,
      ],
      ['copilot-cli/copilot-session-viewer-medium-1.0.49.events.jsonl', 'claude-sonnet-4.6', 2, 48243, 24072],
    ] as const) {
      const t = parseTranscript(fixture(file), file);
      assert.ok(
        t.recordedTotals?.some(
          (x) => x.model === model && x.requests === requests && x.promptTokens === prompt,
        ),
      );
      const a = analyzeSync(t, buildPolicy(t, 'none', undefined, [])).analysis;
      const sent = a.requests.filter((r) => !r.pending);
      assert.equal(sent.length, requests);
      assert.match(a.hiddenPrefix?.source ?? '', /from the session's recorded totals/);
      // The prompt is fitted to the total; its split into cache reads and writes is the replay's own.
      const total = (f: (r: (typeof sent)[number]) => number) => sent.reduce((x, r) => x + f(r), 0);
      assert.ok(Math.abs(total((r) => r.promptTokens) - prompt) <= requests);
      assert.ok(Math.abs(total((r) => r.cachedTokens) - read) / read < 0.01);
    }
    // A model whose totals count calls the main thread does not hold (the sub-agent's) is not fitted from them; the
    // other model is.
    const t = parseTranscript(bytes(log()), 'events.jsonl');
    const a = analyzeSync(t, buildPolicy(t, 'none', undefined, [])).analysis;
    assert.deepEqual(
      a.hiddenPrefix?.byModel?.map((m) => m.model),
      ['gpt-5.2'],
    );
    assert.match(
      a.hiddenPrefix?.source ?? '',
      /^system prompt and tools from the file; no recorded usage; fitted/,
    );
  });

  it("a compaction's summarizing call is read with the usage the agent recorded for it", () => {
    const t = parseTranscript(bytes(log()), 'events.jsonl');
    assert.deepEqual(t.summarizations, [
      {
        file: "the compaction's record, line 11",
        replies: [
          {
            thread: 'main',
            onBranch: true,
            // inputTokens counts the cache reads: the uncached input is the rest.
            usage: {
              inputTokens: 100000,
              outputTokens: 900,
              cacheReadInputTokens: 0,
              cacheCreationInputTokens: 0,
            },
            line: 11,
            model: 'claude-sonnet-4.5',
            timestamp: '2026-05-06T08:41:11.000Z',
          },
        ],
      },
    ]);
    // "As logged" pays it from the record, not an estimate.
    const a = analyzeSync(t, buildPolicy(t, 'none', undefined, [])).analysis;
    const paid = a.requests.flatMap((r) => (r.compaction ? [r.compaction] : []));
    assert.equal(paid.length, 1);
    assert.equal(paid[0].estimated, false);
  });

  it('a broken line is reported at its line and column, and kept', () => {
    const broken = log().replace('"messageId":"m-2"', '"messageId":"m-2",,');
    const t = parseTranscript(bytes(broken), 'events.jsonl');
    const d = t.diagnostics.find((x) => x.code === 'invalid-json');
    assert.equal(d?.line, 14);
    assert.equal(d?.column, 55);
    assert.ok(t.markers.some((m) => m.label === 'malformed line' && m.source?.line === 14));
    assert.deepEqual(writeTranscript(t, []), bytes(broken));
  });

  it("exports in its own format: a result rewritten in its event's content, every other byte kept", () => {
    const raw = log();
    const t = parseTranscript(bytes(raw), 'events.jsonl');
    const out = text(writeTranscript(t, [{ messageIndex: 2, blockIndex: 0, content: '[view: 33 chars]' }]));
    const before = raw.split('\n');
    const after = out.split('\n');
    assert.equal(after.length, before.length);
    for (let i = 0; i < before.length; i++) if (i !== 6) assert.equal(after[i], before[i], `line ${i + 1}`);
    const event = JSON.parse(after[6]);
    assert.equal(event.data.result.content, '[view: 33 chars]');
    const again = parseTranscript(bytes(out), 'events.jsonl');
    const r = again.messages[2].blocks[0];
    assert.ok(r.type === 'tool_result');
    assert.equal(r.content, '[view: 33 chars]');
  });
});

describe('GitHub Copilot CLI sessions on disk', () => {
  const root = mkdtempSync(join(tmpdir(), 'context-lens-copilot-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('under $COPILOT_HOME/session-state/<id>/events.jsonl (else ~/.copilot), named by its working directory', async () => {
    const format = adapterFor('copilot-cli');
    assert.equal(sessionsDir(format, { HOME: root }).endsWith(join('.copilot', 'session-state')), true);
    const home = join(root, 'copilot-home');
    const env = { COPILOT_HOME: home };
    assert.equal(sessionsDir(format, env), join(home, 'session-state'));
    const dir = join(home, 'session-state', '0cb916db-26aa-40f2-86b5-1ba81b225fd2');
    mkdirSync(join(dir, 'checkpoints'), { recursive: true });
    writeFileSync(join(dir, 'events.jsonl'), log());
    writeFileSync(join(dir, 'workspace.yaml'), 'id: 0cb916db\ncwd: /home/dev/shop\n');
    writeFileSync(join(dir, 'checkpoints', '001-fix.md'), '# checkpoint');
    // A session of the builds before 2026: one flat file per session.
    const older = copilotSession().map((e) =>
      e.type === 'user.message' ? { ...e, data: { content: 'an older session' } } : e,
    );
    writeFileSync(join(home, 'session-state', '7d0e.jsonl'), jsonl(older));
    const found = (await sessionsOf(format, env)).sort((a, b) => (a.path < b.path ? -1 : 1));
    assert.deepEqual(
      found.map((f) => [f.path.slice(home.length + 1), f.project, f.firstPrompt]),
      [
        [
          join('session-state', '0cb916db-26aa-40f2-86b5-1ba81b225fd2', 'events.jsonl'),
          '/home/dev/shop',
          'fix the failing test',
        ],
        [join('session-state', '7d0e.jsonl'), '/home/dev/shop', 'an older session'],
      ],
    );
  });
});
