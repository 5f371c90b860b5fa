// Qwen Code sessions: logs shaped as the agent's recording service writes them (`ChatRecord` lines chained by
// parentUuid, Gemini API Content messages, usageMetadata on each reply, telemetry repeating it, chat compressions),
// read, priced, written back and found where the agent keeps them.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { billedCost, tablePrices } from '../../../src/core/engine/prices';
import { detectFormat, parseTranscript, writeTranscript } from '../../../src/core/formats/index';
import { qwenUsage } from '../../../src/core/formats/qwen/records';
import { adapterFor } from '../../../src/core/formats/registry';
import { recordedUsage } from '../../../src/core/recordedUsage';
import { sessionsDir, sessionsOf } from '../../../src/node/sessionFiles';
import { bytes, text } from './helpers';
import { CWD, qwenSession, rec } from './qwenSession';

const log = (records: Record<string, unknown>[]) => `${records.map((r) => JSON.stringify(r)).join('\n')}\n`;
const parse = (raw: string) => parseTranscript(bytes(raw), 'q-1.jsonl');

describe('Qwen Code sessions', () => {
  it('is detected by its content, and Claude Code does not take it', () => {
    const d = detectFormat(bytes(log(qwenSession())), 'anything.txt');
    assert.equal(d.format, 'qwen-code');
    assert.ok('reason' in d);
    assert.match(d.reason, /a Qwen Code session \(5 of the first 5 records\)/);
    // Claude Code's own records are not Qwen Code's.
    const claude = `${JSON.stringify({ type: 'user', uuid: 'a', parentUuid: null, sessionId: 's', message: { role: 'user', content: 'hi' } })}\n`;
    assert.equal(detectFormat(bytes(claude), 'x.jsonl').format, 'claude-code');
    // Nor a Claude Code log of system records alone (they carry no systemPayload).
    const system = `${JSON.stringify({ type: 'system', subtype: 'compact_boundary', uuid: 'b', parentUuid: null, sessionId: 's', content: 'Conversation compacted' })}\n`;
    assert.equal(detectFormat(bytes(system), 'x.jsonl').format, 'claude-code');
  });

  it('reads the prompt, the reply and its call, the result and the answer, with their usage', () => {
    const t = parse(log(qwenSession()));
    assert.equal(t.format, 'qwen-code');
    assert.equal(t.model, 'qwen3-coder-plus');
    assert.deepEqual(
      t.messages.map((m) => [m.role, m.blocks.map((b) => b.type), m.source?.line]),
      [
        ['user', ['text'], 1],
        ['assistant', ['thinking', 'text', 'tool_use'], 3],
        ['user', ['tool_result'], 4],
        ['assistant', ['text'], 5],
      ],
    );
    const use = t.messages[1].blocks[2];
    const result = t.messages[2].blocks[0];
    assert.ok(use.type === 'tool_use' && result.type === 'tool_result');
    assert.deepEqual(
      [use.id, use.name, result.toolUseId, result.content],
      ['call_1', 'read_file', 'call_1', 'CONTENT OF A'],
    );
    // The telemetry repeats the first reply's usage: counted once. The completion includes the reasoning (the
    // record's total is prompt + candidates).
    assert.deepEqual(
      t.replies?.map((r) => [
        r.line,
        r.onBranch,
        r.usage.inputTokens,
        r.usage.cacheReadInputTokens,
        r.usage.outputTokens,
      ]),
      [
        [3, true, 6009, 12000, 47],
        [5, true, 100, 18000, 9],
      ],
    );
    const u = recordedUsage(t);
    assert.equal(u?.replies, 2);
    assert.equal(u?.inputTokens, 6109);
    assert.equal(u?.cacheReadInputTokens, 30000);
  });

  it('is priced at the rates ccusage 20.0.24 bills Qwen models at; the free sign-in model stays unpriced', () => {
    const u = recordedUsage(parse(log(qwenSession())));
    // qwen3-coder-plus at 1, 0.1 (cache reads) and 5 $/MTok: 6,109 input, 30,000 cache reads, 56 output. ccusage
    // on the same log with each reply's prompt less its cached part gives $0.009389.
    assert.deepEqual(u?.unpriced, []);
    assert.equal(u?.cost.toFixed(6), '0.009389');
    // A provider prefix does not change the model.
    const prefixed = qwenSession().map((r) => (r.model ? { ...r, model: 'dashscope/qwen3-coder-plus' } : r));
    assert.equal(recordedUsage(parse(log(prefixed)))?.cost.toFixed(6), '0.009389');
    // A model billed at a higher rate past a prompt length bills the whole request at it, as ccusage does: 40,000
    // tokens sent (10,000 uncached) and 1,000 out cost 10,000 × 2.7 + 30,000 × 0.15 + 1,000 × 13.5 $/MTok.
    const coder = tablePrices('qwen3-coder-480b-a35b-instruct');
    assert.ok(coder);
    const t40k = { input: 10_000, cacheRead: 30_000, cacheWrite5m: 0, cacheWrite1h: 0, output: 1_000 };
    assert.equal(billedCost(coder, t40k).toFixed(6), '0.045000');
    // 31,000 sent: every rate the lower one (1.5, 0.15, 7.5).
    assert.equal(billedCost(coder, { ...t40k, input: 1_000 }).toFixed(6), '0.013500');
    // Qwen Code's `coder-model` (its free sign-in tier) has no list price: said, as ccusage leaves it unpriced too.
    const free = qwenSession().map((r) => (r.model ? { ...r, model: 'coder-model' } : r));
    assert.deepEqual(recordedUsage(parse(log(free)))?.unpriced, ['coder-model']);
  });

  it('adds the thoughts to the output where the total counts them apart (Gemini API)', () => {
    const gemini = {
      promptTokenCount: 1000,
      candidatesTokenCount: 20,
      thoughtsTokenCount: 80,
      totalTokenCount: 1100,
      cachedContentTokenCount: 900,
    };
    assert.deepEqual(qwenUsage(gemini), {
      inputTokens: 100,
      outputTokens: 100,
      cacheReadInputTokens: 900,
      cacheCreationInputTokens: 0,
      reasoningOutputTokens: 80,
    });
    assert.equal(qwenUsage({ ...gemini, totalTokenCount: 1020 })?.outputTokens, 20);
  });

  it('a rewound turn is paid for but not sent: the branch is the chain of parents from the last record', () => {
    const records = qwenSession();
    // The user rewound to the first prompt and asked again: the old turn stays in the file, off the branch.
    const retry = rec('user', null, { message: { role: 'user', parts: [{ text: 'no, b.txt' }] } });
    const answer = rec('assistant', retry.uuid, {
      model: 'qwen3-coder-plus',
      message: { role: 'model', parts: [{ text: 'b.txt is empty.' }] },
      usageMetadata: { promptTokenCount: 500, candidatesTokenCount: 5, totalTokenCount: 505 },
    });
    const t = parse(log([...records, retry, answer]));
    assert.deepEqual(
      t.messages.map((m) => m.source?.line),
      [6, 7],
    );
    assert.deepEqual(
      t.replies?.map((r) => [r.line, r.onBranch]),
      [
        [3, false],
        [5, false],
        [7, true],
      ],
    );
  });

  it('a chat compression starts a segment holding the history the agent wrote for it', () => {
    const records = qwenSession();
    const compression = rec('system', records[4].uuid as string, {
      subtype: 'chat_compression',
      systemPayload: {
        info: { originalTokenCount: 18109, newTokenCount: 900, compressionStatus: 1 },
        compressedHistory: [
          { role: 'user', parts: [{ text: '<state_snapshot>read a.txt</state_snapshot>' }] },
          { role: 'model', parts: [{ text: 'Got it.' }] },
        ],
      },
    });
    const next = rec('user', compression.uuid, { message: { role: 'user', parts: [{ text: 'now b.txt' }] } });
    const t = parse(log([...records, compression, next]));
    const m = t.markers.find((x) => x.kind === 'compaction');
    assert.equal(m?.beforeMessage, 4);
    assert.equal(m?.text, '18109 → 900 tokens');
    assert.deepEqual(
      t.messages.slice(4).map((x) => [x.role, x.flags ?? [], x.source?.line]),
      [
        ['user', ['synthetic'], 6],
        ['assistant', ['synthetic'], 6],
        ['user', [], 7],
      ],
    );
  });

  it('a broken line is reported at its line and column, and kept', () => {
    const raw = log(qwenSession()).replace('"uuid":"r4",', '"uuid":"r4",,');
    const t = parse(raw);
    const d = t.diagnostics.find((x) => x.code === 'invalid-json');
    assert.deepEqual([d?.line, d?.column], [4, 14]);
    assert.ok(t.markers.some((m) => m.label === 'malformed line' && m.source?.line === 4));
    assert.deepEqual(writeTranscript(t, []), bytes(raw));
  });

  it('exports in its own format: a result rewritten in its record, every other line kept', () => {
    const raw = log(qwenSession());
    const t = parse(raw);
    const out = text(writeTranscript(t, [{ messageIndex: 2, blockIndex: 0, content: '[a.txt: 12 chars]' }]));
    const before = raw.split('\n');
    const after = out.split('\n');
    for (let i = 0; i < before.length; i++) if (i !== 3) assert.equal(after[i], before[i], `line ${i + 1}`);
    assert.equal(JSON.parse(after[3]).message.parts[0].functionResponse.response.output, '[a.txt: 12 chars]');
  });
});

describe('Qwen Code sessions on disk', () => {
  const root = mkdtempSync(join(tmpdir(), 'context-lens-qwen-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('under ~/.qwen/projects/<project>/chats/ (or $QWEN_RUNTIME_DIR, else $QWEN_HOME), the project its working directory', async () => {
    const format = adapterFor('qwen-code');
    const home = join(root, 'home');
    assert.equal(sessionsDir(format, { HOME: home }).endsWith(join('.qwen', 'projects')), true);
    const runtime = join(root, 'runtime');
    const env = { QWEN_RUNTIME_DIR: runtime };
    assert.equal(sessionsDir(format, env), join(runtime, 'projects'));
    // The runtime folder follows the settings' folder when only that one is moved; the runtime's own wins.
    const settings = join(root, 'settings');
    assert.equal(sessionsDir(format, { QWEN_HOME: settings }), join(settings, 'projects'));
    assert.equal(sessionsDir(format, { ...env, QWEN_HOME: settings }), join(runtime, 'projects'));
    const chats = join(runtime, 'projects', '-home-dev-my-app', 'chats');
    mkdirSync(chats, { recursive: true });
    writeFileSync(join(chats, 'q-1.jsonl'), log(qwenSession()));
    writeFileSync(join(runtime, 'projects', '-home-dev-my-app', 'notes.txt'), 'not a session');
    const found = await sessionsOf(format, env);
    assert.deepEqual(
      found.map((f) => [f.path.slice(runtime.length + 1), f.project, f.firstPrompt, f.sessionId]),
      [[join('projects', '-home-dev-my-app', 'chats', 'q-1.jsonl'), CWD, 'read a.txt please', 'q-1']],
    );
    assert.equal(format.session?.agent, 'Qwen Code');
  });
});
