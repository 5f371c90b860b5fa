// Gemini CLI sessions: the real document, and logs shaped as the agent's recording service writes them (message
// records re-appended on update, `$set` updates and history checkpoints, `$rewindTo`), read, priced, written back
// and found where the agent keeps them.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildPolicy } from '../../../src/cli/policyArgs';
import { analyzeSync } from '../../../src/core/analysis';
import { parseTranscript, writeTranscript } from '../../../src/core/formats/index';
import { adapterFor } from '../../../src/core/formats/registry';
import type { Transcript } from '../../../src/core/model';
import { recordedUsage } from '../../../src/core/recordedUsage';
import { sessionsDir, sessionsOf } from '../../../src/node/sessionFiles';
import { bytes, fixture, text } from './helpers';

const REAL = 'gemini-cli-json/kvsankar-real-session-01-redacted.json';

const meta = { sessionId: 's-1', projectHash: 'ab12', startTime: '2026-05-01T10:00:00.000Z', kind: 'main' };
const user = (id: string, t: string, ts = '2026-05-01T10:00:01.000Z') => ({
  id,
  timestamp: ts,
  type: 'user',
  content: [{ text: t }],
});
const tokens = (input: number, cached: number, output: number, thoughts = 0) => ({
  input,
  output,
  cached,
  thoughts,
  tool: 0,
  total: input + output + thoughts,
});
const read = {
  id: 'call-1',
  name: 'read_file',
  args: { file_path: 'a.txt' },
  result: [{ functionResponse: { id: 'call-1', name: 'read_file', response: { output: 'CONTENT OF A' } } }],
  status: 'success',
  timestamp: '2026-05-01T10:00:03.000Z',
};

/** A log as the recording service writes it: the reply first without usage, then again with its tokens and calls. */
function log(): string {
  const reply = {
    id: 'g-1',
    timestamp: '2026-05-01T10:00:02.000Z',
    type: 'gemini',
    content: 'I will read a.txt.',
    model: 'gemini-2.5-pro',
  };
  return `${[
    meta,
    user('u-1', 'read a.txt please'),
    { $set: { lastUpdated: '2026-05-01T10:00:01.500Z' } },
    reply,
    { ...reply, tokens: tokens(5000, 0, 20, 30), thoughts: [{ subject: 'Reading', description: 'x' }] },
    { ...reply, tokens: tokens(5000, 0, 20, 30), toolCalls: [read] },
    {
      id: 'g-2',
      timestamp: '2026-05-01T10:00:04.000Z',
      type: 'gemini',
      content: 'It says CONTENT OF A.',
      model: 'gemini-2.5-pro',
      tokens: tokens(5100, 4096, 10),
    },
    user('u-2', '/stats', '2026-05-01T10:00:05.000Z'),
    { id: 'i-1', timestamp: '2026-05-01T10:00:05.100Z', type: 'info', content: 'Request cancelled.' },
  ]
    .map((r) => JSON.stringify(r))
    .join('\n')}\n`;
}

function parse(s: string, name = 'session-2026-05-01T10-00-s1.jsonl'): Transcript {
  return parseTranscript(bytes(s), name);
}

describe('Gemini CLI', () => {
  it('the real document: one request, its recorded usage and cost as ccusage 20.0.24 gives it', () => {
    const t = parseTranscript(fixture(REAL), REAL);
    assert.equal(t.format, 'gemini-cli-json');
    assert.match(t.formatReason, /JSON document \{sessionId, projectHash, messages/);
    assert.deepEqual(
      t.messages.map((m) => m.role),
      ['user', 'assistant'],
    );
    assert.deepEqual(t.messages[1].usage, {
      inputTokens: 4383,
      outputTokens: 36,
      cacheReadInputTokens: 0,
      cacheCreationInputTokens: 0,
      reasoningOutputTokens: 28,
    });
    assert.equal(t.model, 'gemini-2.5-flash');
    // ccusage gemini session --json --offline on this file: $0.0014049 (4383 input at $0.30/M, 8 + 28 thought
    // tokens as output at $2.50/M).
    const u = recordedUsage(t);
    assert.ok(u);
    assert.ok(Math.abs(u.cost - 0.0014049) < 1e-9, String(u.cost));
    assert.deepEqual(u.unpriced, []);
    // The message's lines in the document.
    assert.equal(t.messages[1].source?.line, 17);
  });

  it('a real log: each reply once (its updates read last), calls paired, every request within 5% of its usage', () => {
    const file = 'gemini-cli/vibecodingtracker-gemini-3-flash-init.jsonl';
    const t = parseTranscript(fixture(file), file);
    assert.equal(t.format, 'gemini-cli');
    // The log's gemini records, each id once (later copies update it), all with tokens.
    const ids = new Set(
      text(fixture(file))
        .split('\n')
        .filter((l) => l.includes('"type":"gemini"'))
        .map((l) => JSON.parse(l).id),
    );
    assert.equal(t.replies?.length, ids.size);
    assert.deepEqual(
      t.messages.filter((m) => m.role === 'assistant').map((m) => m.model),
      [...Array(5).fill('gemini-3-flash-preview'), 'gemini-3.1-pro-preview'],
    );
    const a = analyzeSync(t, buildPolicy(t, 'none', undefined, [])).analysis;
    for (const r of a.requests.filter((q) => q.recorded)) {
      const rec = r.recorded as NonNullable<typeof r.recorded>;
      const p = rec.inputTokens + rec.cacheReadInputTokens + rec.cacheCreationInputTokens;
      assert.ok(Math.abs(r.promptTokens - p) / p < 0.05, `request ${r.index}: ${r.promptTokens} for ${p}`);
    }
  });

  it('a log: the last copy of each record, usage net of the cache, results paired, commands and info not sent', () => {
    const t = parse(log());
    assert.equal(t.format, 'gemini-cli');
    assert.deepEqual(
      t.messages.map((m) => `${m.role}:${m.blocks.map((b) => b.type).join('+')}`),
      ['user:text', 'assistant:text+tool_use', 'user:tool_result', 'assistant:text'],
    );
    const [, first, results, second] = t.messages;
    assert.equal(first.source?.line, 6, 'the last copy of g-1');
    assert.equal(first.usage?.inputTokens, 5000);
    assert.equal(first.usage?.outputTokens, 50);
    assert.equal(second.usage?.inputTokens, 5100 - 4096);
    assert.equal(second.usage?.cacheReadInputTokens, 4096);
    const use = first.blocks[1];
    const result = results.blocks[0];
    assert.ok(use.type === 'tool_use' && result.type === 'tool_result');
    assert.equal(use.name, 'read_file');
    assert.equal(result.toolUseId, use.id);
    assert.equal(result.content, 'CONTENT OF A');
    assert.deepEqual(
      t.markers.map((m) => m.label),
      ['command', 'info'],
    );
    assert.equal(t.replies?.length, 2);
    const info = t.diagnostics.find((d) => d.code === 'gemini-log');
    assert.match(info?.message ?? '', /7 message records \(2 of them updates/);
    assert.match(info?.message ?? '', /1 metadata, 1 \$set, 0 \$rewindTo/);
  });

  it('newer logs: a result in a user record of its own is sent once, not again from toolCalls', () => {
    const call = { ...read };
    const lines = [
      meta,
      user('u-1', 'read it'),
      {
        id: 'g-1',
        timestamp: '2026-05-01T10:00:02.000Z',
        type: 'gemini',
        content: [{ functionCall: { id: 'call-1', name: 'read_file', args: { file_path: 'a.txt' } } }],
        toolCalls: [call],
        tokens: tokens(4000, 0, 5),
        model: 'gemini-3-flash-preview',
      },
      { id: 'u-2', timestamp: '2026-05-01T10:00:03.000Z', type: 'user', content: call.result },
    ];
    const t = parse(`${lines.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const uses = t.messages.flatMap((m) => m.blocks).filter((b) => b.type === 'tool_use');
    const results = t.messages.flatMap((m) => m.blocks).filter((b) => b.type === 'tool_result');
    assert.equal(uses.length, 1);
    assert.equal(results.length, 1);
    assert.equal(results[0].source?.line, 4);
  });

  it('a rewind drops what followed (still paid for); a replaced history starts a segment, its copies no request', () => {
    const lines = [
      meta,
      user('u-1', 'first'),
      {
        id: 'g-1',
        timestamp: '2026-05-01T10:00:02.000Z',
        type: 'gemini',
        content: 'one',
        tokens: tokens(3000, 0, 5),
      },
      user('u-2', 'second'),
      {
        id: 'g-2',
        timestamp: '2026-05-01T10:00:04.000Z',
        type: 'gemini',
        content: 'two',
        tokens: tokens(3100, 0, 5),
      },
      { $rewindTo: 'u-2' },
      user('u-3', 'other second', '2026-05-01T10:00:05.000Z'),
      {
        id: 'g-3',
        timestamp: '2026-05-01T10:00:06.000Z',
        type: 'gemini',
        content: 'three',
        tokens: tokens(3200, 0, 5),
      },
      {
        $set: {
          messages: [
            {
              id: 's-1',
              timestamp: '2026-05-01T10:00:07.000Z',
              type: 'user',
              content: [{ text: '<state_snapshot>…' }],
            },
            {
              id: 'g-3',
              timestamp: '2026-05-01T10:00:06.000Z',
              type: 'gemini',
              content: 'three',
              tokens: tokens(3200, 0, 5),
            },
          ],
        },
      },
      user('u-4', 'go on', '2026-05-01T10:00:08.000Z'),
      {
        id: 'g-4',
        timestamp: '2026-05-01T10:00:09.000Z',
        type: 'gemini',
        content: 'four',
        tokens: tokens(900, 0, 5),
      },
    ];
    const t = parse(`${lines.map((r) => JSON.stringify(r)).join('\n')}\n`);
    const said = (m: Transcript['messages'][number]) =>
      m.blocks[0]?.type === 'text' ? m.blocks[0].text : '';
    assert.deepEqual(t.messages.map(said), [
      'first',
      'one',
      'other second',
      'three',
      '<state_snapshot>…',
      'three',
      'go on',
      'four',
    ]);
    const compaction = t.markers.find((m) => m.kind === 'compaction');
    assert.equal(compaction?.beforeMessage, 4);
    assert.equal(compaction?.source?.line, 9);
    assert.match(compaction?.label ?? '', /chat compression/);
    assert.deepEqual(t.messages[5].flags, ['synthetic']);
    assert.equal(t.messages[5].usage, undefined);
    // g-1, g-3 and g-4 on the branch; g-2, rewound, paid for.
    assert.deepEqual(
      t.replies?.map((r) => [r.line, r.onBranch]),
      [
        [3, true],
        [5, false],
        [8, true],
        [11, true],
      ],
    );
  });

  it('a broken line is reported at its line and column, and kept', () => {
    const broken = log().replace('"id":"g-2"', '"id":"g-2",,');
    const t = parse(broken);
    const d = t.diagnostics.find((x) => x.code === 'invalid-json');
    assert.equal(d?.line, 7);
    assert.equal(d?.column, 13);
    assert.ok(t.markers.some((m) => m.label === 'malformed line' && m.source?.line === 7));
    assert.deepEqual(writeTranscript(t, []), bytes(broken));
  });

  it('a broken document is reported at its line and column', () => {
    const doc = text(fixture(REAL)).replace('"output": 8,', '"output": 8');
    const t = parseTranscript(bytes(doc), 'session.json');
    assert.equal(t.format, 'gemini-cli-json');
    const d = t.diagnostics.find((x) => x.code === 'invalid-json');
    // The comma missing after line 31 is found where the next member starts.
    assert.deepEqual([d?.line, d?.column], [32, 9]);
  });

  it('exports in its own format: a result rewritten in the last copy of its record, every other byte kept', () => {
    const raw = log();
    const t = parse(raw);
    const m = t.messages.findIndex((x) => x.blocks[0]?.type === 'tool_result');
    const out = text(writeTranscript(t, [{ messageIndex: m, blockIndex: 0, content: '[a.txt: 12 chars]' }]));
    const before = raw.split('\n');
    const after = out.split('\n');
    assert.equal(after.length, before.length);
    for (let i = 0; i < before.length; i++) if (i !== 5) assert.equal(after[i], before[i], `line ${i + 1}`);
    const again = parse(out);
    const r = again.messages[m].blocks[0];
    assert.ok(r.type === 'tool_result');
    assert.equal(r.content, '[a.txt: 12 chars]');
    // The document too.
    const doc = parseTranscript(fixture(REAL), REAL);
    const written = text(writeTranscript(doc, [{ messageIndex: 1, blockIndex: 0, content: 'short' }]));
    assert.equal(JSON.parse(written).messages[1].content, 'short');
  });

  it('is not taken for Claude Code, nor Claude Code for it', () => {
    assert.equal(parse(log()).format, 'gemini-cli');
    const claude = `${JSON.stringify({ type: 'user', uuid: 'a', sessionId: 's', message: { role: 'user', content: 'hi' } })}\n`;
    assert.equal(parse(claude).format, 'claude-code');
  });
});

describe('Gemini CLI sessions on disk', () => {
  const root = mkdtempSync(join(tmpdir(), 'context-lens-gemini-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('under $GEMINI_CLI_HOME/.gemini/tmp/<project>/chats/, the project named by its folder', async () => {
    const format = adapterFor('gemini-cli');
    const env = { GEMINI_CLI_HOME: root };
    assert.equal(sessionsDir(format, env), join(root, '.gemini', 'tmp'));
    const chats = join(root, '.gemini', 'tmp', 'my-app', 'chats');
    mkdirSync(join(chats, 's-1'), { recursive: true });
    writeFileSync(join(chats, 'session-2026-05-01T10-00-s1.jsonl'), log());
    const sub = [{ ...meta, sessionId: 'sub-1', kind: 'subagent' }, user('x', 'look around')];
    writeFileSync(join(chats, 's-1', 'sub-1.jsonl'), `${sub.map((r) => JSON.stringify(r)).join('\n')}\n`);
    writeFileSync(join(root, '.gemini', 'tmp', 'my-app', 'logs.json'), '[]');
    // An older session: the whole document, listed by its name, its head read from its first lines.
    writeFileSync(join(chats, 'session-2026-06-05T04-59-dcbe78d3.json'), fixture(REAL));
    writeFileSync(join(chats, 'checkpoint-x.json'), '[]');
    const found = (await sessionsOf(format, env)).sort((a, b) => (a.path < b.path ? -1 : 1));
    assert.deepEqual(
      found.map((f) => [f.path.slice(chats.length + 1), f.project, f.firstPrompt, f.subAgent ?? false]),
      [
        [join('s-1', 'sub-1.jsonl'), 'my-app', 'look around', true],
        ['session-2026-05-01T10-00-s1.jsonl', 'my-app', 'read a.txt please', false],
        ['session-2026-06-05T04-59-dcbe78d3.json', 'my-app', '[REDACTED_PROMPT]', false],
      ],
    );
  });
});
