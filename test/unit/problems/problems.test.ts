// The Problems-panel rules on the real fixtures and on hand-made broken transcripts.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_POLICY, defaultPolicyFor, type Policy } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import {
  contentBearingReason,
  fileProblems,
  floorProblems,
  PROBLEM_CODES,
  readResults,
  transcriptProblems,
} from '../../../src/core/problems';
import { ClaudeSession, FIXTURES, fixturePaths } from '../formats/helpers';
import { countTimerTurns } from '../timerTurns';
import { toolLoop } from '../transcripts';

const enc = (s: string) => new TextEncoder().encode(s);

/** A Claude Code session, one record per entry; `raw` lines are written as they are. */
function claudeSession(
  entries: ({ role: 'user' | 'assistant'; content: unknown } | { raw: string })[],
): string {
  let parent: string | null = null;
  return `${entries
    .map((e, i) => {
      if ('raw' in e) return e.raw;
      const uuid = `u${i}`;
      const rec = {
        parentUuid: parent,
        isSidechain: false,
        type: e.role,
        uuid,
        timestamp: `2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z`,
        message:
          e.role === 'assistant'
            ? { id: `msg_${i}`, role: 'assistant', content: e.content }
            : { role: 'user', content: e.content },
      };
      parent = uuid;
      return JSON.stringify(rec);
    })
    .join('\n')}\n`;
}

const use = (id: string, name: string) => ({ type: 'tool_use', id, name, input: { path: `/src/${id}.ts` } });
const result = (id: string, text = `contents of ${id}`) => ({
  type: 'tool_result',
  tool_use_id: id,
  content: text,
});

test('the real fixtures: under their format defaults, no pairing problem and no missing floor', () => {
  const files = fixturePaths().filter((f) => /\.jsonl?$/.test(f));
  assert.ok(files.length >= 8, `found ${files.length} fixtures`);
  for (const f of files) {
    const t = parseTranscript(new Uint8Array(readFileSync(f)), f);
    const problems = transcriptProblems(t, defaultPolicyFor(t.format));
    const ours = problems.filter((p) => Object.values(PROBLEM_CODES).includes(p.code as never));
    // One was copied while its last reply's two Bash calls still ran: said so, and nothing else.
    const running = f.endsWith('session-share-images-rewritten-chain.jsonl') ? ['25 Bash', '26 Bash'] : [];
    assert.deepEqual(
      ours.map((p) => `${p.line} ${/\((\w+)\) has no tool_result yet/.exec(p.message)?.[1] ?? p.code}`),
      running,
      f,
    );
    // The reader's own diagnostics are all there, with advice where there is any.
    assert.equal(problems.length, t.diagnostics.length + ours.length, f);
  }
});

test('a real Claude Code session: Read, Glob and Edit without floors are flagged once per tool', () => {
  const f = join(FIXTURES, 'claude-code/drmaciver-coverage-test-fix.jsonl');
  const t = parseTranscript(new Uint8Array(readFileSync(f)), f);
  const base = defaultPolicyFor(t.format);
  const policy: Policy = {
    ...base,
    tiered: { ...base.tiered, keepRecent: 1, tier1Distance: 1, floorTools: [] },
  };
  const floors = transcriptProblems(t, policy).filter((p) => p.code === PROBLEM_CODES.floorMissing);
  const tools = floors.map((p) => /of (\w+) would be stubbed/.exec(p.message)?.[1]).sort();
  // Edit by what its results hold (a numbered snippet of the edited file), Glob and Read by their names.
  assert.deepEqual(tools, ['Edit', 'Glob', 'Read']);
  for (const p of floors) {
    assert.equal(p.severity, 'warning');
    assert.match(p.message, /contextLens\.tiered\.floorTools/);
    assert.ok(p.line > 1);
  }
  // With the preset's floors back (and Edit floored), nothing is flagged.
  const fixed: Policy = {
    ...policy,
    tiered: { ...policy.tiered, floorTools: [...base.tiered.floorTools, 'Edit'] },
  };
  assert.deepEqual(
    transcriptProblems(t, fixed).filter((p) => p.code === PROBLEM_CODES.floorMissing),
    [],
  );
  // A policy without the tiered pass stubs nothing.
  assert.deepEqual(
    transcriptProblems(t, { ...policy, name: 'live-zone' }).filter(
      (p) => p.code === PROBLEM_CODES.floorMissing,
    ),
    [],
  );
});

test('hand-made breakage: broken line, unknown record, orphan result, unanswered call, duplicate ids', () => {
  const text = claudeSession([
    { role: 'user', content: 'start' },
    { role: 'assistant', content: [use('t1', 'Bash'), use('t2', 'Bash')] },
    { role: 'user', content: [result('t1'), result('t9')] },
    { raw: '{"type":"user","message": {"role":"user", "content": "cut off' },
    { raw: '{"type":"mystery-record","value":1}' },
    { role: 'assistant', content: [use('t1', 'Bash')] },
    { role: 'user', content: [result('t1'), result('t1')] },
    { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
  ]);
  const t = parseTranscript(enc(text), 'broken.jsonl');
  const problems = transcriptProblems(t, DEFAULT_POLICY);
  const at = (code: string) => problems.filter((p) => p.code === code).map((p) => `${p.line}:${p.severity}`);
  assert.deepEqual(at('invalid-json'), ['4:error']);
  const broken = problems.find((p) => p.code === 'invalid-json')!;
  assert.ok(broken.column > 1, 'the column of the break, not of the line');
  assert.match(broken.message, /repair or delete this line/);
  assert.deepEqual(at('unknown-record'), ['5:info']);
  assert.deepEqual(at(PROBLEM_CODES.toolResultWithoutUse), ['3:warning']);
  assert.match(problems.find((p) => p.code === PROBLEM_CODES.toolResultWithoutUse)!.message, /t9/);
  assert.deepEqual(at(PROBLEM_CODES.toolUseWithoutResult), ['2:warning']);
  assert.match(problems.find((p) => p.code === PROBLEM_CODES.toolUseWithoutResult)!.message, /t2 \(Bash\)/);
  assert.deepEqual(at(PROBLEM_CODES.duplicateToolUseId), ['6:warning']);
  // t1 is answered three times in all (line 3 once, line 7 twice).
  assert.deepEqual(at(PROBLEM_CODES.duplicateToolResult), ['7:warning']);
  assert.match(
    problems.find((p) => p.code === PROBLEM_CODES.duplicateToolResult)!.message,
    /3 tool_results \(lines 3, 7\)/,
  );
  // In file order.
  const lines = problems.map((p) => p.line);
  assert.deepEqual(
    lines,
    [...lines].sort((a, b) => a - b),
  );
});

test('a call in the last message without a result is in flight (info), not a defect', () => {
  const t = parseTranscript(
    enc(
      claudeSession([
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [use('t1', 'Bash')] },
      ]),
    ),
    'live.jsonl',
  );
  const p = transcriptProblems(t, DEFAULT_POLICY).filter(
    (x) => x.code === PROBLEM_CODES.toolUseWithoutResult,
  );
  assert.equal(p.length, 1);
  assert.equal(p[0].severity, 'info');
  assert.match(p[0].message, /still be running/);
});

test('content-bearing: shipped floor patterns are firm, name words are hints, others are not flagged', () => {
  assert.equal(contentBearingReason('Read')?.firm, true);
  assert.equal(contentBearingReason('mcp__playwright__browser_click')?.firm, true);
  assert.equal(contentBearingReason('read_file')?.firm, true);
  assert.equal(contentBearingReason('WebSearch')?.firm, false);
  assert.equal(contentBearingReason('fetch_url')?.firm, false);
  assert.equal(contentBearingReason('Bash'), null);
  assert.equal(contentBearingReason('Edit'), null);
  assert.equal(contentBearingReason('thread_reply'), null, '"read" inside a word is not a word');
});

test('floor rule follows the tier rule: near results and floored messages are not flagged', () => {
  // 30 tool-result messages of WebSearch: with defaults, distances 20..29 (10 messages) would be stubbed.
  const entries: Parameters<typeof claudeSession>[0] = [{ role: 'user', content: 'search' }];
  for (let i = 0; i < 30; i++) {
    entries.push({ role: 'assistant', content: [use(`s${i}`, 'WebSearch')] });
    entries.push({ role: 'user', content: [result(`s${i}`)] });
  }
  const t = parseTranscript(enc(claudeSession(entries)), 'search.jsonl');
  const floors = transcriptProblems(t, DEFAULT_POLICY).filter((p) => p.code === PROBLEM_CODES.floorMissing);
  assert.equal(floors.length, 1);
  assert.match(floors[0].message, /^10 results of WebSearch/);
  assert.equal(
    floors[0].severity,
    'warning',
    'stubbing what the agent reads is a warning, whatever the name',
  );
  assert.equal(floors[0].line, 3, 'at the first stubbed result');
  const floored: Policy = {
    ...DEFAULT_POLICY,
    tiered: { ...DEFAULT_POLICY.tiered, floorTools: [...DEFAULT_POLICY.tiered.floorTools, 'Web*'] },
  };
  assert.deepEqual(
    transcriptProblems(t, floored).filter((p) => p.code === PROBLEM_CODES.floorMissing),
    [],
  );
  // Asked again on the same transcript with other settings, the answer follows them.
  const at = (tiered: Partial<Policy['tiered']>) =>
    floorProblems(t, { ...DEFAULT_POLICY, tiered: { ...DEFAULT_POLICY.tiered, ...tiered } });
  assert.match(at({ tier1Distance: 25 })[0].message, /^5 results of WebSearch/);
  assert.match(at({ keepRecent: 12 })[0].message, /^10 results of WebSearch/, 'keepRecent moves no stub');
  assert.deepEqual(at({ keepRecent: 30 }), [], 'no pass at 30 results or fewer');
  assert.match(at({})[0].message, /^10 results of WebSearch/);
});

test('a sub-agent conversation is paired on its own and named in the message', () => {
  const main = claudeSession([
    { role: 'user', content: 'go' },
    { role: 'assistant', content: [use('m1', 'Task')] },
    { role: 'user', content: [result('m1')] },
    { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
  ]);
  const side = JSON.stringify({
    parentUuid: null,
    isSidechain: true,
    agentId: 'agent7',
    type: 'assistant',
    uuid: 's1',
    timestamp: '2026-01-01T00:01:00.000Z',
    message: { id: 'msg_s1', role: 'assistant', content: [use('s1', 'Bash')] },
  });
  const side2 = JSON.stringify({
    parentUuid: 's1',
    isSidechain: true,
    agentId: 'agent7',
    type: 'user',
    uuid: 's2',
    timestamp: '2026-01-01T00:01:01.000Z',
    message: { role: 'user', content: 'stop' },
  });
  const t = parseTranscript(enc(`${main}${side}\n${side2}\n`), 'with-agent.jsonl');
  assert.equal(t.sidechains.length, 1);
  const p = transcriptProblems(t, DEFAULT_POLICY).filter(
    (x) => x.code === PROBLEM_CODES.toolUseWithoutResult,
  );
  assert.equal(p.length, 1);
  assert.match(p[0].message, /^In the sub-agent conversation \S+: tool_use s1 \(Bash\) has no tool_result\./);
  assert.equal(p[0].line, 5);
});

test('calls after the last user message are all in flight, even across several assistant messages', () => {
  const t = parseTranscript(
    enc(
      claudeSession([
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [use('t1', 'TodoWrite')] },
        { role: 'assistant', content: [use('t2', 'Write')] },
      ]),
    ),
    'live2.jsonl',
  );
  const p = transcriptProblems(t, DEFAULT_POLICY).filter(
    (x) => x.code === PROBLEM_CODES.toolUseWithoutResult,
  );
  assert.deepEqual(
    p.map((x) => x.severity),
    ['info', 'info'],
  );
});

test('results that read like file contents are a warning when stubbed, whatever the tool is called', () => {
  const file = Array.from(
    { length: 40 },
    (_, i) => `${String(i + 1).padStart(6)}→const line${i} = ${i};`,
  ).join('\n');
  const entries: Parameters<typeof claudeSession>[0] = [{ role: 'user', content: 'look' }];
  for (let i = 0; i < 30; i++) {
    entries.push({ role: 'assistant', content: [use(`x${i}`, 'Zork')] });
    entries.push({ role: 'user', content: [result(`x${i}`, file)] });
  }
  const t = parseTranscript(enc(claudeSession(entries)), 'zork.jsonl');
  const floors = transcriptProblems(t, DEFAULT_POLICY).filter((p) => p.code === PROBLEM_CODES.floorMissing);
  assert.equal(floors.length, 1);
  assert.equal(floors[0].severity, 'warning');
  assert.match(floors[0].message, /10 of its 10 results read like file contents/);
  // Short plain results of the same unknown tool say nothing.
  const plain: Parameters<typeof claudeSession>[0] = [{ role: 'user', content: 'look' }];
  for (let i = 0; i < 30; i++) {
    plain.push({ role: 'assistant', content: [use(`x${i}`, 'Zork')] });
    plain.push({ role: 'user', content: [result(`x${i}`, 'done')] });
  }
  const quiet = parseTranscript(enc(claudeSession(plain)), 'zork2.jsonl');
  assert.deepEqual(
    transcriptProblems(quiet, DEFAULT_POLICY).filter((p) => p.code === PROBLEM_CODES.floorMissing),
    [],
  );
});

test('a model the price table does not know is a warning at its first reply, naming the preset that prices it', () => {
  const s = new ClaudeSession();
  s.user('q');
  s.assistant('msg_1', [{ type: 'text', text: 'a' }], { input_tokens: 1, output_tokens: 1 });
  s.user('q2');
  s.assistant('msg_2', [{ type: 'text', text: 'b' }], { input_tokens: 1, output_tokens: 1 });
  const names = ['claude-sonnet-4-6', 'claude-opus-9-9-preview'];
  let k = 0;
  for (const r of s.records)
    if (r.type === 'assistant') (r.message as Record<string, unknown>).model = names[k++];
  const t = parseTranscript(s.bytes(), 'models.jsonl');
  const p = fileProblems(t).filter((x) => x.code === PROBLEM_CODES.unpricedModel);
  assert.equal(p.length, 1);
  assert.equal(p[0].severity, 'warning');
  assert.equal(p[0].line, 4);
  assert.match(p[0].message, /claude-opus-9-9-preview is not in the price table: .*Opus/);
});

test('reading the results for the floors gives way to other work and leaves the same problems to find', async () => {
  const reads = (i: number) => `     ${i + 1}→const line${i} = ${i};\n`.repeat(40);
  const transcript = toolLoop(300, { name: () => 'Peek', result: (i) => reads(i) });
  const policy = DEFAULT_POLICY;
  const inPlace = floorProblems(toolLoop(300, { name: () => 'Peek', result: (i) => reads(i) }), policy);
  assert.equal(inPlace.length, 1, 'the file-like results of Peek would be stubbed');
  const stop = countTimerTurns();
  await readResults(transcript, 0);
  const turns = stop();
  assert.ok(turns >= 10, `the timer ran ${turns} times while the results were read`);
  assert.deepEqual(floorProblems(transcript, policy), inPlace);
});
