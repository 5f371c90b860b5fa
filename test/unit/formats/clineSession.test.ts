// Cline's sessions since its SDK (`~/.cline/data/sessions/<id>/<id>.messages.json`): a real one (Cline's own test
// fixture of a recorded run, shipped under its licence: test/fixtures/real/PROVENANCE.md) read with every reply's
// recorded usage and the agent's own cost, its tools' structured outputs as the text sent, written back spliced, and
// found where the agent keeps its sessions.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { clonePolicy, DEFAULT_POLICY } from '../../../src/core/engine/policy';
import { detectFormat, parseTranscript, writeTranscript } from '../../../src/core/formats/index';
import { adapterFor } from '../../../src/core/formats/registry';
import { summarizeTranscript } from '../../../src/core/formats/summary';
import { recordedUsage } from '../../../src/core/recordedUsage';
import { parseTranscriptFile } from '../../../src/node/parseFile';
import { sessionsOf } from '../../../src/node/sessionFiles';
import { sessionWatches } from '../../../src/node/sessionWatches';
import { cliArgs } from '../cliProcess';
import { bytes, fixture, text } from './helpers';

const FILE = 'cline-session/cline-sdk-fixture-session.messages.json';
type Json = Record<string, unknown>;
const raw = () => JSON.parse(text(fixture(FILE))) as { messages: Json[]; sessionId: string };

describe("Cline's SDK sessions", () => {
  it("a real session: detected by its content, every reply with its recorded usage and the agent's own cost", () => {
    const d = detectFormat(fixture(FILE), 'anything.json');
    assert.equal(d.format, 'cline-session');
    assert.ok('reason' in d && /16 of 32 with the agent's metrics/.test(d.reason));
    const t = parseTranscript(fixture(FILE), FILE);
    const s = summarizeTranscript(t);
    assert.deepEqual(s.messages.byRole, { user: 16, assistant: 16 });
    assert.deepEqual(s.toolCalls.byName, { read_files: 6, editor: 4, run_commands: 1 });
    assert.deepEqual(s.pairing, []);
    // The replies' metrics, read off the file here: `inputTokens` is the whole prompt, reads and writes included.
    const metrics = raw().messages.flatMap((m) => (m.metrics ? [m.metrics as Record<string, number>] : []));
    assert.equal(t.replies?.length, metrics.length);
    const sum = (f: (m: Record<string, number>) => number) => metrics.reduce((a, m) => a + f(m), 0);
    const usage = recordedUsage(t);
    assert.equal(usage?.replies, 16);
    assert.equal(
      usage?.inputTokens,
      sum((m) => m.inputTokens - m.cacheReadTokens - m.cacheWriteTokens),
    );
    assert.equal(
      usage?.cacheReadInputTokens,
      sum((m) => m.cacheReadTokens),
    );
    assert.equal(
      usage?.outputTokens,
      sum((m) => m.outputTokens),
    );
    assert.equal(usage?.agentCost?.toFixed(6), sum((m) => m.cost).toFixed(6));
    assert.equal(t.replies?.[0].model, 'anthropic/claude-opus-4.8-fast');
    assert.equal(t.replies?.at(-1)?.model, 'mistralai/voxtral-small-24b-2507');
    assert.match(t.system ?? '', /^You are Cline/);
    // The last request, to a model of a smaller window, sent far less than the file holds: said where.
    const falls = t.diagnostics.find((x) => x.code === 'prompt-falls');
    assert.match(falls?.message ?? '', /at 1 of 16 requests .*51852 → 12238 tokens/);
  });

  it('replayed with no policy, the requests read what the log read: its models report no cache writes', () => {
    const t = parseTranscript(fixture(FILE), FILE);
    const none = clonePolicy(DEFAULT_POLICY);
    none.name = 'none';
    const requests = analyzeSync(t, none).analysis.requests.filter((r) => !r.pending);
    assert.equal(requests.length, 16);
    const read = raw().messages.reduce(
      (a, m) => a + ((m.metrics as Record<string, number>)?.cacheReadTokens ?? 0),
      0,
    );
    const cached = requests.reduce((a, r) => a + r.cachedTokens, 0);
    // Cline's gateway reports no cache writes for either model: both are replayed under the automatic cache, each
    // request reading the one before.
    assert.ok(Math.abs(cached - read) < 0.05 * read, `cached ${cached} against the log's ${read}`);
    assert.ok(requests[1].cachedTokens > 0.9 * requests[0].promptTokens);
  });

  it("a tool's structured output is the JSON text it was sent as, and an export splices a rewrite into it", () => {
    const t = parseTranscript(fixture(FILE), FILE);
    const reads = t.messages.find((m) =>
      m.blocks.some(
        (b) => b.type === 'tool_result' && typeof b.content === 'string' && b.content.startsWith('[{"query"'),
      ),
    );
    assert.ok(reads, 'a read_files result is its [{query, result, success}] as text');
    const at = reads.index;
    const out = writeTranscript(t, [{ messageIndex: at, blockIndex: 0, content: '[read_files: cleared]' }]);
    const back = JSON.parse(text(out)) as { messages: Json[] };
    const block = (back.messages[at].content as Json[])[0];
    assert.equal(block.content, '[read_files: cleared]');
    assert.equal(block.tool_use_id, ((raw().messages[at].content as Json[])[0] as Json).tool_use_id);
    // Every other byte as it was: the file read again is the same session with one result rewritten.
    const again = parseTranscript(out, FILE);
    assert.equal(again.format, 'cline-session');
    assert.equal(again.messages.length, t.messages.length);
    assert.equal(again.replies?.length, 16);
  });

  it("a compaction's summary (the message Cline's compaction leaves first) is a compaction marker", () => {
    const doc = raw() as Json & { messages: Json[] };
    const summary = {
      role: 'user',
      metadata: { kind: 'compaction_summary', summary: 'Goal: …' },
      content: [{ type: 'text', text: 'Context summary: …' }],
    };
    const compacted = { ...doc, messages: [summary, ...doc.messages.slice(-2)] };
    const t = parseTranscript(bytes(JSON.stringify(compacted, null, 1)), 'c.messages.json');
    assert.deepEqual(
      t.markers.map((m) => [m.kind, m.beforeMessage, m.source?.line]),
      [['compaction', 0, 7]],
    );
    assert.equal(t.replies?.length, 1);
  });

  it('the compaction state beside it: the requests after it send its messages in place of those it compacted', () => {
    // Made from the state's schema (cline/cline session-compaction.ts): the 30 messages before the last prompt
    // compacted into one summary, as the last request (12,238 tokens recorded) was sent.
    const dir = mkdtempSync(join(tmpdir(), 'context-lens-cline-compaction-'));
    const file = join(dir, 's.messages.json');
    writeFileSync(file, fixture(FILE));
    const whole = parseTranscriptFile(fixture(FILE), file);
    const summary = `Context summary:\n\n## Goal\nAlign the sidebar's spacing. ${'The filter icon, the Sessions button and Show more were aligned. '.repeat(40)}`;
    writeFileSync(
      join(dir, 's.compaction.json'),
      JSON.stringify({
        version: 1,
        updated_at: '2026-07-15T05:40:00.000Z',
        source_message_count: 30,
        messages: [{ role: 'user', content: [{ type: 'text', text: summary }] }],
      }),
    );
    const t = parseTranscriptFile(fixture(FILE), file);
    // Broken, it is said where, and left out.
    writeFileSync(
      join(dir, 's.compaction.json'),
      '{"version": 1,\n "source_message_count": 30,\n "messages": [}',
    );
    const broken = parseTranscriptFile(fixture(FILE), file);
    rmSync(dir, { recursive: true });
    assert.deepEqual(broken.markers, []);
    assert.match(
      broken.diagnostics.find((x) => x.code === 'compaction-unreadable')?.message ?? '',
      /^s\.compaction\.json beside it is broken at line 3, column 15 /,
    );
    assert.deepEqual(
      t.markers.map((m) => [m.kind, m.label, m.beforeMessage, m.summary === summary]),
      [['compaction', 'compaction state', 30, true]],
    );
    assert.equal(
      t.diagnostics.find((x) => x.code === 'prompt-falls'),
      undefined,
      'the fall is explained',
    );
    const none = clonePolicy(DEFAULT_POLICY);
    none.name = 'none';
    const prompt = (x: typeof t) =>
      analyzeSync(x, none).analysis.requests.filter((r) => !r.pending)[15].promptTokens;
    assert.ok(prompt(whole) > 40_000, `the whole history: ${prompt(whole)}`);
    assert.ok(prompt(t) < 20_000, `the compacted one: ${prompt(t)}`);
  });

  it('a broken file is reported at its line and column', () => {
    const whole = text(fixture(FILE));
    const t = parseTranscript(bytes(whole.slice(0, 2000)), 'x.messages.json');
    assert.equal(t.format, 'cline-session');
    const broken = t.diagnostics.find((x) => x.code === 'invalid-json');
    assert.ok(broken && broken.line > 1 && broken.column >= 1, JSON.stringify(t.diagnostics));
    // A bare Anthropic request body is not a Cline session.
    const body = JSON.stringify({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] });
    assert.notEqual(detectFormat(bytes(body), 'x.json').format, 'cline-session');
  });

  describe('on disk', () => {
    const root = mkdtempSync(join(tmpdir(), 'context-lens-cline-sessions-'));
    after(() => rmSync(root, { recursive: true, force: true }));

    it("under ~/.cline/data/sessions/<id>/ (or $CLINE_DATA_DIR/sessions): the messages file only, as Cline's", async () => {
      const format = adapterFor('cline-session');
      const data = join(root, 'data');
      const { sessionId } = raw();
      const dir = join(data, 'sessions', sessionId);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${sessionId}.messages.json`), fixture(FILE));
      // Beside it, the agent's manifest (its working directory: the session's project) and a log of its own: not
      // sessions. A session without a manifest is under no project.
      writeFileSync(
        join(dir, `${sessionId}.json`),
        JSON.stringify({ version: 1, session_id: sessionId, cwd: '/Users/example/dev/cline' }),
      );
      writeFileSync(join(dir, `${sessionId}.hooks.jsonl`), '{"hook":"x"}\n');
      mkdirSync(join(data, 'sessions', 'bare'));
      writeFileSync(join(data, 'sessions', 'bare', 'bare.messages.json'), fixture(FILE));
      const env = { CLINE_DATA_DIR: data };
      const found = (await sessionsOf(format, env)).sort((a, b) => (a.path < b.path ? -1 : 1));
      assert.deepEqual(
        found.map((f) => [f.path.slice(data.length + 1), f.agent ?? format.session?.agent, f.project]),
        [
          [join('sessions', sessionId, `${sessionId}.messages.json`), 'Cline', '/Users/example/dev/cline'],
          [join('sessions', 'bare', 'bare.messages.json'), 'Cline', '(unknown project)'],
        ],
      );
      assert.equal(found[0].sessionId, sessionId);
      rmSync(join(data, 'sessions', 'bare'), { recursive: true });
      assert.match(found[0].firstPrompt ?? '', /^can you update @apps\/examples/);
      assert.ok(
        sessionWatches(env).some(
          ([d, glob]) => d === join(data, 'sessions') && glob === '**/*.messages.json',
        ),
      );
      // `report` reads it from there too (its agent's folder, the hook log beside it left out).
      const r = spawnSync(process.execPath, [...cliArgs, 'report', '--json'], {
        encoding: 'utf8',
        env: { ...process.env, HOME: root, CLINE_DATA_DIR: data, XDG_CACHE_HOME: join(root, 'cache') },
      });
      assert.equal(r.status, 0, r.stderr);
      const report = JSON.parse(r.stdout) as { sessions: { path: string; requests: number }[] };
      assert.deepEqual(
        report.sessions.map((x) => [x.path, x.requests]),
        [[found[0].path, 16]],
      );
    });
  });
});
