// The export path on disk: same format, CCR store, Anthropic request, atomic writes, never over the source,
// refusal (and nothing written) when tool pairs would break.
import assert from 'node:assert/strict';
import {
  copyFileSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { verifyExport } from '../../../src/core/compact';
import { DEFAULT_POLICY, defaultPolicyFor, type Policy } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import { writeFileAtomic } from '../../../src/node/atomicWrite';
import {
  anthropicRequestPathFor,
  ccrPathFor,
  compactedPathFor,
  ExportRefusedError,
  exportCompacted,
  requestPairBreaks,
} from '../../../src/node/exportFile';

const REAL = join(__dirname, '../../fixtures/real');
const scratch = () => mkdtempSync(join(tmpdir(), 'context-lens-export-'));

function load(path: string) {
  return parseTranscript(new Uint8Array(readFileSync(path)), path);
}

function copyFixture(rel: string): { dir: string; source: string; bytes: Buffer } {
  const dir = scratch();
  const source = join(dir, rel.split('/').pop()!);
  copyFileSync(join(REAL, rel), source);
  return { dir, source, bytes: readFileSync(source) };
}

/** One pass now (`once`): a session's default (`auto`) replays every request, and first touch then keeps each
 * result at the tier it was first met at (distance 1 here: Tier 2), so no Tier-1 stub would be written. */
const aggressive = (p: Policy): Policy => ({
  ...p,
  tiered: { ...p.tiered, keepRecent: 1, tier1Distance: 2 },
  replay: { ...p.replay, trigger: 'once' },
});

test('names: <name>.compacted.<ext> beside the source, <out>.ccr.json, <name>.compacted.anthropic.json', () => {
  assert.equal(compactedPathFor('/a/b/session.jsonl'), '/a/b/session.compacted.jsonl');
  assert.equal(compactedPathFor('/a/x.request.json'), '/a/x.request.compacted.json');
  assert.equal(ccrPathFor('/a/s.compacted.jsonl'), '/a/s.compacted.jsonl.ccr.json');
  assert.equal(anthropicRequestPathFor('/a/s.compacted.jsonl'), '/a/s.compacted.anthropic.json');
});

test('a real Claude Code session: same format, fewer tokens, the source untouched, no temporary file left', async () => {
  const { dir, source, bytes } = copyFixture('claude-code/drmaciver-coverage-test-fix.jsonl');
  const transcript = load(source);
  const policy = aggressive(defaultPolicyFor(transcript.format));
  const r = await exportCompacted({ source, transcript, policy, replace: false });
  assert.equal(r.target, join(dir, 'drmaciver-coverage-test-fix.compacted.jsonl'));
  assert.ok(r.rewrites > 0, 'the policy rewrote blocks');
  assert.ok(r.tokensAfter < r.tokensBefore, `${r.tokensBefore} → ${r.tokensAfter}`);
  assert.ok(r.saved > 0 && r.saved < 1);
  assert.equal(r.ccr, undefined, 'the tiered policy writes no CCR markers');
  assert.deepEqual(readFileSync(source), bytes, 'the source is byte-identical');
  const out = load(r.target);
  assert.equal(out.format, 'claude-code');
  assert.equal(out.messages.length, transcript.messages.length);
  assert.ok(readFileSync(r.target).length < bytes.length);
  assert.deepEqual(readdirSync(dir).sort(), [
    'drmaciver-coverage-test-fix.compacted.jsonl',
    'drmaciver-coverage-test-fix.jsonl',
  ]);
});

test('never over the source: the same path, a symlink to it, or a hard link are refused before any work', async () => {
  const { dir, source, bytes } = copyFixture('claude-code/drmaciver-hello-world-script.jsonl');
  const transcript = load(source);
  await assert.rejects(
    exportCompacted({ source, transcript, replace: false, policy: DEFAULT_POLICY, target: source }),
    /never overwritten/,
  );
  const link = join(dir, 'link.jsonl');
  symlinkSync(source, link);
  await assert.rejects(
    exportCompacted({ source, transcript, replace: false, policy: DEFAULT_POLICY, target: link }),
    /never overwritten/,
  );
  const hard = join(dir, 'hard.jsonl');
  linkSync(source, hard);
  await assert.rejects(
    exportCompacted({ source, transcript, replace: false, policy: DEFAULT_POLICY, target: hard }),
    /never overwritten/,
  );
  assert.deepEqual(readFileSync(source), bytes);
  assert.deepEqual(readdirSync(dir).sort(), [
    'drmaciver-hello-world-script.jsonl',
    'hard.jsonl',
    'link.jsonl',
  ]);
});

/** An Anthropic request whose live zone holds a long JSON array: live-zone compression writes a CCR marker. */
function liveZoneRequest(): string {
  const rows = Array.from({ length: 60 }, (_, i) => ({
    id: i,
    name: `item-${i}`,
    status: i === 41 ? 'error: disk full' : 'ok',
    size: 1000 + i,
  }));
  return JSON.stringify(
    {
      model: 'claude-sonnet-4-20250514',
      system: 'You are a helpful agent.',
      tools: [
        { name: 'list_items', description: 'Lists items', input_schema: { type: 'object', properties: {} } },
      ],
      messages: [
        { role: 'user', content: 'List the items.' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'list_items', input: {} }] },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: JSON.stringify(rows) }],
        },
      ],
    },
    null,
    2,
  );
}

test('live zone: the CCR store is written beside the export and holds every marker hash of the output', async () => {
  const dir = scratch();
  const source = join(dir, 'items.request.json');
  writeFileSync(source, liveZoneRequest());
  const transcript = load(source);
  const policy: Policy = { ...defaultPolicyFor(transcript.format), name: 'live-zone' };
  const r = await exportCompacted({ source, transcript, replace: false, policy, anthropicRequest: true });
  assert.equal(r.ccr, join(dir, 'items.request.compacted.json.ccr.json'));
  const store = JSON.parse(readFileSync(r.ccr!, 'utf8')) as Record<string, string>;
  const output = readFileSync(r.target, 'utf8');
  const hashes = [...output.matchAll(/<<ccr:([0-9a-f]{24})/g)].map((m) => m[1]);
  assert.ok(hashes.length > 0, 'a marker was written');
  for (const h of hashes) assert.ok(h in store, `hash ${h} is in the store`);
  // The store holds the original text.
  assert.ok(Object.values(store).some((v) => v.includes('item-59')));
  // The request carries the rewrite, the system prompt and the tools.
  const request = JSON.parse(readFileSync(r.request!, 'utf8'));
  assert.equal(request.system, 'You are a helpful agent.');
  assert.equal(request.tools[0].name, 'list_items');
  assert.match(request.messages[2].content[0].content, /<<ccr:/);
  assert.deepEqual(requestPairBreaks(request), []);
});

test('the Anthropic request of a real session carries the Tier-1 stubs and keeps every pair adjacent', async () => {
  const { source } = copyFixture('claude-code/drmaciver-coverage-test-fix.jsonl');
  const transcript = load(source);
  const r = await exportCompacted({
    source,
    transcript,
    policy: aggressive(defaultPolicyFor(transcript.format)),
    anthropicRequest: true,
    replace: false,
  });
  const request = JSON.parse(readFileSync(r.request!, 'utf8'));
  const roles = request.messages.map((m: { role: string }) => m.role);
  for (let i = 1; i < roles.length; i++) assert.notEqual(roles[i], roles[i - 1], 'roles alternate');
  assert.equal(roles[0], 'user');
  assert.deepEqual(requestPairBreaks(request), []);
  const text = JSON.stringify(request);
  assert.match(text, /called with .* → \[result: \d+ chars, snipped\]/);
  // The same number of tool_use blocks as the transcript.
  const uses = transcript.messages.flatMap((m) => m.blocks.filter((b) => b.type === 'tool_use')).length;
  assert.equal((text.match(/"type":"tool_use"/g) ?? []).length, uses);
});

test('a request whose pairs would break is refused with the reason, and nothing at all is written', async () => {
  const dir = scratch();
  const source = join(dir, 'gap.json');
  // Paired by id in the log, but a user turn came between the call and its result: the API would refuse it.
  writeFileSync(
    source,
    JSON.stringify({
      messages: [
        { role: 'user', content: 'go' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_9', name: 'Bash', input: { command: 'ls' } }],
        },
        { role: 'user', content: 'wait' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'a\nb' }] },
      ],
    }),
  );
  const transcript = load(source);
  await assert.rejects(
    exportCompacted({ source, transcript, replace: false, policy: DEFAULT_POLICY, anthropicRequest: true }),
    (e: unknown) =>
      e instanceof ExportRefusedError && /toolu_9/.test(e.message) && /pairs would break/.test(e.message),
  );
  assert.deepEqual(readdirSync(dir), ['gap.json']);
  // Without the request, the same-format export is fine (the log keeps its own order).
  const r = await exportCompacted({ source, transcript, replace: false, policy: DEFAULT_POLICY });
  assert.ok(readFileSync(r.target).length > 0);
});

test('verifyExport: an output that lost a tool_result is reported by message, so export refuses it', () => {
  const path = join(REAL, 'claude-code/drmaciver-hello-world-script.jsonl');
  const t = load(path);
  const result = analyzeSync(t, DEFAULT_POLICY);
  const broken = load(path);
  const m = broken.messages.find((x) => x.blocks.some((b) => b.type === 'tool_result'))!;
  m.blocks = m.blocks.filter((b) => b.type !== 'tool_result');
  const problems = verifyExport(t, result, broken);
  assert.equal(problems.length, 1);
  assert.match(problems[0], new RegExp(`message ${m.index}: blocks \\[tool_result:toolu_`));
  assert.deepEqual(verifyExport(t, result, load(path)), []);
});

test('atomic write: replaces the target whole; a failed write leaves the target and no temporary file', async () => {
  const dir = scratch();
  const target = join(dir, 'out.jsonl');
  writeFileSync(target, 'old\n');
  await writeFileAtomic(target, 'new\n');
  assert.equal(readFileSync(target, 'utf8'), 'new\n');
  // Renaming a file over a non-empty folder fails: the folder stays, and the temporary file is gone.
  const busy = join(dir, 'busy');
  mkdirSync(busy);
  writeFileSync(join(busy, 'x'), 'x');
  await assert.rejects(writeFileAtomic(busy, 'data'));
  assert.deepEqual(readdirSync(dir).sort(), ['busy', 'out.jsonl']);
  assert.deepEqual(readdirSync(busy), ['x']);
});

test('an export cancelled while summaries were asked writes nothing', async () => {
  const { dir, source } = copyFixture('claude-code/drmaciver-coverage-test-fix.jsonl');
  const transcript = load(source);
  const abort = new AbortController();
  abort.abort();
  await assert.rejects(
    exportCompacted({
      source,
      transcript,
      replace: false,
      policy: DEFAULT_POLICY,
      compact: { signal: abort.signal },
    }),
    /cancelled: nothing was written/,
  );
  assert.deepEqual(readdirSync(dir), ['drmaciver-coverage-test-fix.jsonl']);
});

test('context editing: the request carries the context_management block, the notes name the beta header', async () => {
  const { source } = copyFixture('claude-code/drmaciver-hello-world-script.jsonl');
  const transcript = load(source);
  const policy: Policy = {
    ...defaultPolicyFor(transcript.format),
    name: 'tiered+anthropic-context-editing',
    contextEditing: { ...DEFAULT_POLICY.contextEditing, trigger: 1, keep: 1, clearAtLeast: 10 },
  };
  const r = await exportCompacted({ source, transcript, replace: false, policy, anthropicRequest: true });
  const request = JSON.parse(readFileSync(r.request!, 'utf8'));
  const thinking = transcript.messages.some((m) => m.blocks.some((b) => b.type === 'thinking'));
  const tools = {
    type: 'clear_tool_uses_20250919',
    trigger: { type: 'input_tokens', value: 1 },
    keep: { type: 'tool_uses', value: 1 },
    clear_at_least: { type: 'input_tokens', value: 10 },
  };
  assert.deepEqual(request.context_management, {
    edits: thinking ? [{ type: 'clear_thinking_20251015', keep: 'all' }, tools] : [tools],
  });
  assert.match(r.requestNotes[0], /anthropic-beta: context-management-2025-06-27/);
  // What the API requires of the file as written: a reply limit, and thinking on wherever thinking is cleared.
  assert.ok(Number.isInteger(request.max_tokens) && request.max_tokens > 0);
  if (thinking) assert.ok(['enabled', 'adaptive'].includes(request.thinking?.type));
  // The server's clearings are not in what the client sends: the export holds tiered's rewrites alone.
  const tiered = await exportCompacted({
    source,
    transcript,
    replace: true,
    policy: { ...policy, name: 'tiered' },
    anthropicRequest: true,
  });
  assert.deepEqual(
    JSON.parse(readFileSync(tiered.request!, 'utf8')).messages,
    request.messages,
    'the same messages as tiered alone',
  );
  assert.doesNotMatch(JSON.stringify(request.messages), /\[cleared\]/);
  assert.ok(
    r.analysis.events.some((e) => e.action === 'context_edit'),
    'the server did clear',
  );
});
