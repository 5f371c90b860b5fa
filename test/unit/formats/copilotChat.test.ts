// GitHub Copilot Chat sessions: the editor's log and its older document, read, written back and found in the
// editors' workspace storage.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { detectFormat, parseTranscript, writeTranscript } from '../../../src/core/formats/index';
import { adapterFor } from '../../../src/core/formats/registry';
import { summarizeTranscript } from '../../../src/core/formats/summary';
import type { Transcript } from '../../../src/core/model';
import { recordedUsage } from '../../../src/core/recordedUsage';
import { sessionsOf } from '../../../src/node/sessionFiles';
import { chatDocument, chatLog } from '../../copilotChatSession';
import { bytes, fixture, jsonl, text } from './helpers';

const log = () => text(jsonl(chatLog()));
const doc = () => JSON.stringify(chatDocument(), null, 2);
const shape = (m: { role: string; blocks: { type: string }[] }) =>
  `${m.role}:${m.blocks.map((b) => b.type).join('+')}`;

function sameConversation(t: Transcript): void {
  assert.deepEqual(t.messages.map(shape), [
    'user:text',
    'assistant:text+tool_use',
    'user:tool_result',
    'assistant:text',
    'user:text',
    'assistant:text',
  ]);
  const [prompt, first, results, , , ask] = t.messages;
  assert.ok(prompt.blocks[0].type === 'text');
  assert.equal(prompt.blocks[0].text, 'why does the build fail?');
  assert.equal(prompt.timestamp, '2026-04-02T09:00:00.000Z');
  const use = first.blocks[1];
  const result = results.blocks[0];
  assert.ok(use.type === 'tool_use' && result.type === 'tool_result');
  assert.deepEqual([use.id, use.name, use.input], ['toolu_1', 'read_file', { filePath: '/w/tsconfig.json' }]);
  assert.deepEqual(
    [result.toolUseId, result.content],
    ['toolu_1', '{ "compilerOptions": { "target": "es3" } }'],
  );
  assert.deepEqual(
    t.messages.filter((m) => m.role === 'assistant').map((m) => m.model),
    ['claude-sonnet-4', 'claude-sonnet-4', 'gpt-4.1'],
  );
  assert.ok(ask.blocks[0].type === 'text');
  assert.equal(ask.blocks[0].text, 'Set "target" to "es2022".');
  // No token counts in the file: the costs are estimated.
  assert.equal(t.replies, undefined);
  assert.equal(recordedUsage(t), null);
}

describe('GitHub Copilot Chat', () => {
  it('the log and the document are detected by their content, under any name', () => {
    const a = detectFormat(bytes(log()), 'x.txt');
    const b = detectFormat(bytes(doc()), 'x.txt');
    assert.equal(a.format, 'copilot-chat');
    assert.equal(b.format, 'copilot-chat-json');
    assert.ok('reason' in a && 'reason' in b);
    assert.match(a.reason, /5 changes \{kind: 1\|2\|3/);
    assert.match(b.reason, /GitHub Copilot Chat session of the editor \(2 requests\)/);
  });

  it('the log replayed as the editor replays it: each round a call of the model, results paired', () => {
    const t = parseTranscript(bytes(log()), 'chat.jsonl');
    sameConversation(t);
    // Each block lies in the line that last wrote it: the prompt in the push of line 2, the rounds in line 4.
    assert.deepEqual(
      t.messages.map((m) => m.source?.line),
      [2, 4, 4, 4, 5, 5],
    );
    const info = t.diagnostics.find((d) => d.code === 'copilot-chat');
    assert.match(
      info?.message ?? '',
      /1 whole session, 2 values set, 3 pushes, 0 deletions; 2 requests, 3 calls/,
    );
    assert.match(info?.message ?? '', /costs are estimated/);
  });

  it('the document read the same way, each message at its line', () => {
    const t = parseTranscript(bytes(doc()), 'chat.json');
    sameConversation(t);
    // The prompt at its request (line 10), each round and its results at the round (48, 60), the ask at its
    // request (83).
    assert.deepEqual(
      t.messages.map((m) => m.source?.line),
      [10, 48, 48, 60, 83, 83],
    );
  });

  it('a summarized round starts a segment with its summary', () => {
    const d = chatDocument() as {
      requests: { result: { metadata: { toolCallRounds: { summary?: string }[] } } }[];
    };
    d.requests[0].result.metadata.toolCallRounds[0].summary = 'The user asked why the build fails.';
    const t = parseTranscript(bytes(JSON.stringify(d)), 'chat.json');
    const m = t.markers.find((x) => x.kind === 'compaction');
    assert.deepEqual([m?.beforeMessage, m?.summary], [3, 'The user asked why the build fails.']);
  });

  it("the agent's workspace context, kept with the first request, opens the conversation as it does every request", () => {
    const d = chatDocument() as { requests: { result: { metadata?: Record<string, unknown> } }[] };
    const rendered = (t: string) => [
      { type: 1, text: t },
      { type: 3, cacheType: 'ephemeral' },
    ];
    const first = d.requests[0].result.metadata ?? {};
    first.renderedGlobalContext = rendered('<environment_info>Linux, fish</environment_info>');
    first.renderedUserMessage = rendered(
      '<context>date</context><userRequest>why does the build fail?</userRequest>',
    );
    // A later request's own copy is not the conversation's (the agent keeps the first turn's).
    d.requests[1].result.metadata = {
      renderedGlobalContext: rendered('<environment_info>macOS</environment_info>'),
    };
    const t = parseTranscript(bytes(JSON.stringify(d)), 'chat.json');
    const texts = (i: number) => t.messages[i].blocks.map((b) => (b.type === 'text' ? b.text : b.type));
    assert.deepEqual(texts(0), [
      '<environment_info>Linux, fish</environment_info>',
      '<context>date</context><userRequest>why does the build fail?</userRequest>',
    ]);
    assert.deepEqual(texts(4), ['and how do I fix it?']);
    assert.deepEqual(t.messages[0].blocks[0].location?.path, [
      'requests',
      0,
      'result',
      'metadata',
      'renderedGlobalContext',
      0,
      'text',
    ]);
    // A rendered part rewritten is written in place: the file still holds the agent's parts.
    const out = writeTranscript(t, [
      { messageIndex: 0, blockIndex: 1, content: '<userRequest>why?</userRequest>' },
    ]);
    const again = parseTranscript(out, 'chat.json');
    assert.deepEqual(
      again.messages[0].blocks.map((b) => (b.type === 'text' ? b.text : b.type)),
      ['<environment_info>Linux, fish</environment_info>', '<userRequest>why?</userRequest>'],
    );
  });

  it('a result kept as a prompt-tsx tree is the text it renders to, and is written back as a text part', () => {
    const d = chatDocument() as {
      requests: { result: { metadata: { toolCallResults: Record<string, unknown> } } }[];
    };
    const chunk = (text: string, lineBreakBefore = false) => ({
      type: 2,
      priority: 1,
      text,
      lineBreakBefore,
    });
    const piece = (...children: unknown[]) => ({ type: 1, ctor: 2, ctorName: 'x', children, props: {} });
    // As Copilot's tools write them: a heading chunk, then lines that each ask for a line break before them; a
    // piece's first chunk breaks the line unless it follows a chunk of its own parent.
    const tree = piece(
      piece(chunk('2 matches', true)),
      piece(chunk('<match line=3>'), chunk('a();')),
      piece(chunk('</match>')),
      chunk(' end'),
    );
    d.requests[0].result.metadata.toolCallResults.toolu_1 = {
      $mid: 20,
      content: [{ $mid: 23, value: { node: tree } }],
    };
    const t = parseTranscript(bytes(JSON.stringify(d, null, 1)), 'chat.json');
    const result = t.messages[2].blocks[0];
    assert.ok(result.type === 'tool_result' && Array.isArray(result.content));
    assert.deepEqual(
      result.content.map((b) => (b.type === 'text' ? b.text : b.type)),
      ['2 matches\n<match line=3>a();\n</match> end'],
    );
    const stub = '[read_file called with {}] → [result: 38 chars, snipped]';
    const out = writeTranscript(t, [{ messageIndex: 2, blockIndex: 0, content: stub }]);
    const again = parseTranscript(out, 'chat.json');
    const written = JSON.parse(new TextDecoder().decode(out)).requests[0].result.metadata.toolCallResults
      .toolu_1;
    assert.deepEqual(written, { $mid: 20, content: [{ $mid: 21, value: stub }] });
    assert.deepEqual(again.messages[2].blocks[0], { ...again.messages[2].blocks[0], content: stub });
    // A part truncated in place is a text part too.
    const cut = writeTranscript(t, [
      { messageIndex: 2, blockIndex: 0, content: [{ type: 'text', text: '2 matches […]' }] },
    ]);
    const part = JSON.parse(new TextDecoder().decode(cut)).requests[0].result.metadata.toolCallResults
      .toolu_1;
    assert.deepEqual(part.content, [{ $mid: 21, value: '2 matches […]' }]);
  });

  it("a real session (Copilot Chat's agent, 2025-11): every call and result read, each result the text sent", () => {
    const file = 'copilot-chat-json/splitrail-copilot-chat-agent-haiku-4.5.json';
    const doc = JSON.parse(text(fixture(file))) as {
      requests: {
        result: { metadata: { toolCallRounds: { toolCalls: unknown[] }[]; toolCallResults: object } };
      }[];
    };
    const rounds = doc.requests.flatMap((r) => r.result.metadata.toolCallRounds);
    const t = parseTranscript(fixture(file), file);
    const s = summarizeTranscript(t);
    assert.equal(t.format, 'copilot-chat-json');
    assert.deepEqual(s.messages.byRole, { user: 11, assistant: rounds.length });
    assert.equal(s.toolCalls.total, rounds.flatMap((r) => r.toolCalls).length);
    assert.deepEqual(s.pairing, []);
    // Every result was a prompt-tsx tree: read as its text, with none of the tree's JSON left in it.
    const results = t.messages.flatMap((m) => m.blocks.filter((b) => b.type === 'tool_result'));
    assert.equal(
      results.length,
      doc.requests.flatMap((r) => Object.keys(r.result.metadata.toolCallResults)).length,
    );
    for (const r of results) {
      assert.ok(r.type === 'tool_result' && Array.isArray(r.content) && !r.fixed);
      for (const b of r.content) assert.ok(b.type === 'text' && !b.text.includes('"$mid"'));
    }
    assert.match(
      t.messages[0].blocks[0].type === 'text' ? t.messages[0].blocks[0].text : '',
      /^<environment_info>/,
    );
  });

  it('a broken line or document is reported at its line and column', () => {
    const broken = log().replace('{"kind":1,"k":["customTitle"]', '{"kind":1,,"k":["customTitle"]');
    const t = parseTranscript(bytes(broken), 'chat.jsonl');
    const d = t.diagnostics.find((x) => x.code === 'invalid-json');
    assert.deepEqual([d?.line, d?.column], [6, 11]);
    assert.deepEqual(writeTranscript(t, []), bytes(broken));
    const badDoc = doc().replace('"initialLocation": "panel",', '"initialLocation": "panel"');
    const u = parseTranscript(bytes(badDoc), 'chat.json');
    assert.equal(u.format, 'copilot-chat-json');
    const e = u.diagnostics.find((x) => x.code === 'invalid-json');
    assert.deepEqual([e?.line, e?.column], [6, 3]);
  });

  it('exports in its own format: a result rewritten in the line that last wrote it, every other byte kept', () => {
    const raw = log();
    const t = parseTranscript(bytes(raw), 'chat.jsonl');
    const out = text(
      writeTranscript(t, [{ messageIndex: 2, blockIndex: 0, content: '[tsconfig: 41 chars]' }]),
    );
    const before = raw.split('\n');
    const after = out.split('\n');
    for (let i = 0; i < before.length; i++) if (i !== 3) assert.equal(after[i], before[i], `line ${i + 1}`);
    assert.equal(
      JSON.parse(after[3]).v.metadata.toolCallResults.toolu_1.content[0].value,
      '[tsconfig: 41 chars]',
    );
    const again = parseTranscript(bytes(out), 'chat.jsonl');
    const r = again.messages[2].blocks[0];
    assert.ok(r.type === 'tool_result');
    assert.equal(r.content, '[tsconfig: 41 chars]');
    // The document too.
    const d = parseTranscript(bytes(doc()), 'chat.json');
    const written = JSON.parse(
      text(writeTranscript(d, [{ messageIndex: 2, blockIndex: 0, content: 'short' }])),
    );
    assert.equal(written.requests[0].result.metadata.toolCallResults.toolu_1.content[0].value, 'short');
  });
});

describe('GitHub Copilot Chat sessions on disk', () => {
  const root = mkdtempSync(join(tmpdir(), 'context-lens-copilot-chat-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it("in each workspace's chatSessions/ of the editors' storage, named by the workspace's folder; a window's without a folder too", async () => {
    const format = adapterFor('copilot-chat');
    const env = { HOME: root, XDG_CONFIG_HOME: join(root, '.config') };
    const storage = join(root, '.config', 'Code', 'User', 'workspaceStorage');
    const ws = join(storage, '0f3a9b');
    mkdirSync(join(ws, 'chatSessions'), { recursive: true });
    mkdirSync(join(ws, 'GitHub.copilot-chat', 'transcripts'), { recursive: true });
    writeFileSync(join(ws, 'workspace.json'), JSON.stringify({ folder: 'file:///home/dev/my%20app' }));
    writeFileSync(join(ws, 'chatSessions', '5d1c2d8e-chat.jsonl'), log());
    writeFileSync(join(ws, 'chatSessions', '11aa-older.json'), doc());
    // Another extension's files in the workspace's storage are not chat sessions.
    writeFileSync(join(ws, 'GitHub.copilot-chat', 'transcripts', 'x.jsonl'), '{}\n');
    // A workspace without chats, and a remote server's storage with one.
    mkdirSync(join(storage, 'empty'), { recursive: true });
    const remote = join(root, '.vscode-server', 'data', 'User', 'workspaceStorage', 'r1', 'chatSessions');
    mkdirSync(remote, { recursive: true });
    writeFileSync(join(remote, 'r.json'), doc());
    // A window opened without a folder: the editor's global storage, and the folder it used before.
    const empty = join(root, '.config', 'Code', 'User', 'globalStorage', 'emptyWindowChatSessions');
    mkdirSync(empty, { recursive: true });
    writeFileSync(join(empty, '9e0f-nofolder.jsonl'), log());
    mkdirSync(join(storage, 'no-workspace', 'chatSessions'), { recursive: true });
    writeFileSync(join(storage, 'no-workspace', 'chatSessions', '7b2c.json'), doc());
    // Another extension's global storage holds no chat sessions.
    mkdirSync(join(empty, '..', 'github.copilot-chat'), { recursive: true });
    writeFileSync(join(empty, '..', 'github.copilot-chat', 'x.jsonl'), '{}\n');
    const found = (await sessionsOf(format, env)).sort((a, b) => (a.path < b.path ? -1 : 1));
    assert.deepEqual(
      found.map((f) => [f.path.slice(root.length + 1), f.project, f.firstPrompt, f.agent]),
      [
        [
          join('.config', 'Code', 'User', 'globalStorage', 'emptyWindowChatSessions', '9e0f-nofolder.jsonl'),
          '(no folder)',
          'why does the build fail?',
          'GitHub Copilot Chat',
        ],
        [
          join('.config', 'Code', 'User', 'workspaceStorage', '0f3a9b', 'chatSessions', '11aa-older.json'),
          '/home/dev/my app',
          'why does the build fail?',
          'GitHub Copilot Chat',
        ],
        [
          join(
            '.config',
            'Code',
            'User',
            'workspaceStorage',
            '0f3a9b',
            'chatSessions',
            '5d1c2d8e-chat.jsonl',
          ),
          '/home/dev/my app',
          'why does the build fail?',
          'GitHub Copilot Chat',
        ],
        [
          join('.config', 'Code', 'User', 'workspaceStorage', 'no-workspace', 'chatSessions', '7b2c.json'),
          '(no folder)',
          'why does the build fail?',
          'GitHub Copilot Chat',
        ],
        [
          join('.vscode-server', 'data', 'User', 'workspaceStorage', 'r1', 'chatSessions', 'r.json'),
          '(no folder)',
          'why does the build fail?',
          'GitHub Copilot Chat',
        ],
      ],
    );
  });
});

describe('GitHub Copilot sessions in report', () => {
  const root = mkdtempSync(join(tmpdir(), 'context-lens-copilot-report-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('report finds the CLI sessions and the editor chats of the home it runs in', async () => {
    const { findSessions } = await import('../../../src/cli/report/files');
    const { copilotSession } = await import('./copilotEvents');
    const home = join(root, 'home');
    const cliSession = join(home, '.copilot', 'session-state', '0cb916db', 'events.jsonl');
    const chats = join(home, '.config', 'Code', 'User', 'workspaceStorage', 'ab12', 'chatSessions');
    mkdirSync(join(home, '.copilot', 'session-state', '0cb916db'), { recursive: true });
    mkdirSync(chats, { recursive: true });
    writeFileSync(cliSession, jsonl(copilotSession()));
    writeFileSync(join(chats, '..', 'workspace.json'), JSON.stringify({ folder: 'file:///w/app' }));
    writeFileSync(join(chats, 'a.jsonl'), log());
    writeFileSync(join(chats, 'b.json'), doc());
    const noFolder = join(
      home,
      '.config',
      'Code',
      'User',
      'globalStorage',
      'emptyWindowChatSessions',
      'c.jsonl',
    );
    mkdirSync(join(noFolder, '..'), { recursive: true });
    writeFileSync(noFolder, log());
    const keys = [
      'HOME',
      'XDG_CONFIG_HOME',
      'CLAUDE_CONFIG_DIR',
      'CODEX_HOME',
      'GEMINI_CLI_HOME',
      'COPILOT_HOME',
    ];
    const saved = Object.fromEntries(keys.map((k) => [k, process.env[k]]));
    for (const k of keys) delete process.env[k];
    Object.assign(process.env, {
      HOME: home,
      CLAUDE_CONFIG_DIR: join(home, 'none'),
      CODEX_HOME: join(home, 'none'),
      GEMINI_CLI_HOME: join(home, 'none'),
    });
    try {
      const found = await findSessions(
        { paths: [] } as unknown as Parameters<typeof findSessions>[0],
        () => {},
      );
      assert.deepEqual(found.map((f) => f.path).sort(), [
        noFolder,
        join(chats, 'a.jsonl'),
        join(chats, 'b.json'),
        cliSession,
      ]);
      const { sessionHead } = await import('../../../src/node/sessionRead');
      for (const f of found) {
        const bytes = new Uint8Array(readFileSync(f.path));
        const t = parseTranscript(bytes, f.path);
        assert.match(t.format, /^copilot-/, f.path);
        // The project as report names it: the CLI's working directory, a chat's workspace folder, none for a
        // window without a folder.
        const project = sessionHead(f.path, bytes, t.format).project;
        const expected =
          t.format === 'copilot-cli' ? '/home/dev/shop' : f.path === noFolder ? '(no folder)' : '/w/app';
        assert.equal(project, expected, f.path);
      }
    } finally {
      for (const [k, v] of Object.entries(saved))
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
    }
  });
});
