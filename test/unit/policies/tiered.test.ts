import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze, analyzeSync } from '../../../src/core/analysis';
import { headAndTail, stubArgs, tier1Stub } from '../../../src/core/engine/content';
import { DEFAULT_POLICY, type Policy } from '../../../src/core/engine/policy';
import { extractiveSummarizer, type Summarizer, SummaryCache } from '../../../src/core/engine/summarizer';
import type { Block, ToolResultBlock } from '../../../src/core/model';
import { assistant, text, toolLoop, toolResult, toolUse, transcriptOf, user } from '../transcripts';

const policy = (over: Partial<Policy['tiered']> = {}): Policy => ({
  ...DEFAULT_POLICY,
  tiered: { ...DEFAULT_POLICY.tiered, ...over },
});

function contentOf(
  result: ReturnType<typeof analyzeSync>,
  messageIndex: number,
): string | Block[] | undefined {
  return result.rewrites.find((r) => r.messageIndex === messageIndex)?.content;
}

test('head-and-tail keeps floor(max*3/4) + floor(max/4) code points around the exact marker', () => {
  const s = 'a'.repeat(200) + 'b'.repeat(200);
  assert.equal(
    headAndTail(s, 300),
    `${'a'.repeat(200)}${'b'.repeat(25)}\n\n[... truncated 100 chars ...]\n\n${'b'.repeat(75)}`,
  );
  assert.equal(headAndTail('x'.repeat(300), 300), 'x'.repeat(300), 'content at the limit stays');
  // Code points, not UTF-16 units: 400 emoji are 400 characters.
  const emoji = '😀'.repeat(400);
  assert.equal(
    headAndTail(emoji, 300),
    `${'😀'.repeat(225)}\n\n[... truncated 100 chars ...]\n\n${'😀'.repeat(75)}`,
  );
  assert.equal(headAndTail('abcdefg', 5), 'abc\n\n[... truncated 2 chars ...]\n\ng');
});

test('Tier-1 stub: exact text, args cut to argsChars bytes plus ...', () => {
  assert.equal(
    tier1Stub('bash', '{"command":"ls"}', 42),
    '[bash called with {"command":"ls"}] → [result: 42 chars, snipped]',
  );
  assert.equal(stubArgs({ q: 'x'.repeat(200) }, false, 100), `{"q":"${'x'.repeat(94)}...`);
  assert.equal(stubArgs({ a: 1 }, false, 100), '{"a":1}');
  // A cut never splits a character: "é" is two bytes.
  assert.equal(stubArgs('é'.repeat(10), true, 5), 'éé...');
});

test('nothing happens with keepRecent or fewer tool-result messages', () => {
  const r = analyzeSync(toolLoop(8), policy());
  assert.equal(r.rewrites.length, 0);
  assert.equal(r.analysis.events.length, 0);
  assert.deepEqual(
    r.analysis.messages.filter((m) => m.tier !== null).map((m) => m.tier),
    new Array(8).fill(3),
  );
});

test('distances 0-7 Tier 3, 8-19 Tier 2 (head-and-tail), 20+ Tier 1 (stub)', () => {
  const t = toolLoop(25);
  const r = analyzeSync(t, policy());
  const byDistance = new Map(
    r.analysis.messages.filter((m) => m.distance !== null).map((m) => [m.distance, m]),
  );
  for (let d = 0; d < 25; d++) {
    const m = byDistance.get(d)!;
    assert.equal(m.tier, d < 8 ? 3 : d < 20 ? 2 : 1, `distance ${d}`);
  }
  // Distance 24 is the first tool result (message 2): a Tier-1 stub with the exact text.
  const original = (t.messages[2].blocks[0] as ToolResultBlock).content as string;
  assert.equal(
    contentOf(r, 2),
    `[bash called with {"command":"echo 0"}] → [result: ${original.length} chars, snipped]`,
  );
  // Distance 8 (message 2 + 2*16 = 34): Tier 2.
  const tier2 = (t.messages[34].blocks[0] as ToolResultBlock).content as string;
  assert.equal(contentOf(r, 34), headAndTail(tier2, 300));
  const e = r.analysis.events.find((ev) => ev.messageIndex === 34)!;
  assert.equal(e.action, 'tier2');
  assert.equal(e.tier, 2);
  assert.equal(e.toolUseId, 'toolu_016');
  assert.match(e.oldHash, /^[0-9a-f]{12}$/);
  assert.equal(e.oldLen, tier2.length);
  assert.equal(e.newLen, headAndTail(tier2, 300).length);
});

test('floor tools: at distance 20+ a floor tool gets Tier 2 and is marked floored', () => {
  const t = toolLoop(25, { name: (i) => (i === 0 ? 'file_read' : i === 1 ? 'browser_click' : 'bash') });
  const r = analyzeSync(t, policy());
  const m2 = r.analysis.messages[2];
  assert.equal(m2.tier, 2);
  assert.equal(m2.floored, true);
  assert.equal(r.analysis.messages[4].tier, 2, 'browser_* matches by prefix');
  assert.equal(r.analysis.messages[6].tier, 1);
  assert.equal(r.analysis.messages[6].floored, false);
});

test('a message with one floor-tool result among several is floored as a whole', () => {
  const messages = [user(text('go'))];
  messages.push(assistant(toolUse('a', 'grep', { p: 'x' }), toolUse('b', 'bash', {})));
  messages.push(user(toolResult('a', 'g'.repeat(500)), toolResult('b', 'b'.repeat(500))));
  for (let i = 0; i < 21; i++) {
    messages.push(assistant(toolUse(`t${i}`, 'bash', {})));
    messages.push(user(toolResult(`t${i}`, 'ok')));
  }
  const r = analyzeSync(transcriptOf(messages), policy());
  assert.equal(r.analysis.messages[2].tier, 2);
  assert.equal(r.analysis.messages[2].floored, true);
  const rewrites = r.rewrites.filter((w) => w.messageIndex === 2);
  assert.deepEqual(
    rewrites.map((w) => w.content),
    [headAndTail('g'.repeat(500), 300), headAndTail('b'.repeat(500), 300)],
  );
});

test('an unpaired tool_result is stubbed as unknown', () => {
  const messages = [user(text('go')), user(toolResult('orphan', 'orphan output '.repeat(40)))];
  for (let i = 0; i < 20; i++) {
    messages.push(assistant(toolUse(`t${i}`, 'bash', {})));
    messages.push(user(toolResult(`t${i}`, 'ok')));
  }
  const r = analyzeSync(transcriptOf(messages), policy());
  assert.equal(contentOf(r, 1), '[unknown called with {}] → [result: 560 chars, snipped]');
});

test('Tier 2 with nested blocks: images become text, text blocks truncated one by one', () => {
  const nested: Block[] = [
    text('n'.repeat(400)),
    { type: 'image', mediaType: 'image/png', dataLength: 1000 },
    text('short'),
  ];
  const t = toolLoop(12, { result: (i) => (i === 0 ? nested : 'ok') });
  const r = analyzeSync(t, policy());
  assert.deepEqual(contentOf(r, 2), [
    { type: 'text', text: headAndTail('n'.repeat(400), 300) },
    { type: 'text', text: '[image removed to save context]' },
    { type: 'text', text: 'short' },
  ]);
});

test('Tier-1 <N> counts the nested text blocks in code points', () => {
  const t = toolLoop(21, {
    result: (i) => (i === 0 ? [text('😀'.repeat(40)), text('abc '.repeat(40))] : 'ok'),
  });
  const r = analyzeSync(t, policy());
  assert.equal(contentOf(r, 2), '[bash called with {"command":"echo 0"}] → [result: 200 chars, snipped]');
});

test('first touch: a block first met at Tier 2 stays Tier 2 forever, even a small unchanged one', () => {
  const t = toolLoop(40, { result: (i) => (i === 0 ? 'tiny' : `long ${i} `.repeat(60)) });
  const replay = analyzeSync(t, {
    ...policy(),
    replay: {
      trigger: 'everyRequest',
      pressureFraction: 0.95,
      cacheTtl: 'auto',
      openaiCacheRetention: 'auto',
      baseline: 'as-logged',
    },
  });
  // Met at distance 8 in request 9: marked Tier 2 (no bytes changed, so no event), never stubbed later.
  assert.equal(replay.analysis.messages[2].tier, 2);
  assert.equal(
    replay.rewrites.some((w) => w.messageIndex === 2),
    false,
  );
  assert.equal(
    replay.analysis.events.some((e) => e.messageIndex === 2),
    false,
  );
  // Nothing ever reaches Tier 1 in a replay with default distances: everything is met at distance 8.
  assert.equal(replay.analysis.totals.tiers['1'].count, 0);
  // Run once over the final transcript, the same block is Tier 1.
  const once = analyzeSync(t, policy());
  assert.equal(once.analysis.messages[2].tier, 1);
  // ...though its stub would be longer than "tiny" (SPEC §2 no growth): it keeps its bytes.
  assert.equal(contentOf(once, 2), undefined);
  assert.deepEqual(
    once.analysis.why?.notShorter.map((f) => [f.message, f.action]),
    [[2, 'tier1']],
  );
});

function countingSummarizer(fail: (n: number) => boolean): Summarizer & { calls: string[] } {
  const calls: string[] = [];
  const summarizeSync = (tool: string, content: string) => {
    calls.push(tool);
    if (fail(calls.length)) throw new Error('model unavailable');
    return `summary of ${content.length} chars`;
  };
  return {
    id: `test-${Math.random()}`,
    calls,
    summarize: async (a, b) => summarizeSync(a, b),
    summarizeSync,
  };
}

test('summaries: attempts counted first and capped per pass, failures fall back to head-and-tail', () => {
  const t = toolLoop(14, { result: (i) => `line ${i} `.repeat(300) });
  const s = countingSummarizer((n) => n === 1);
  const r = analyzeSync(t, policy(), { summarizer: s });
  assert.equal(s.calls.length, 2, 'summariesPerPass = 2 attempts, the failure included');
  assert.equal(r.analysis.totals.summarizerAttempts, 2);
  assert.equal(r.analysis.totals.summarizerFailures, 1);
  const first = (t.messages[2].blocks[0] as ToolResultBlock).content as string;
  assert.equal(contentOf(r, 2), headAndTail(first, 300), 'failed attempt: head-and-tail');
  const second = (t.messages[4].blocks[0] as ToolResultBlock).content as string;
  assert.equal(contentOf(r, 4), `[micro-compact] summary of ${second.length} chars`);
  const third = (t.messages[6].blocks[0] as ToolResultBlock).content as string;
  assert.equal(contentOf(r, 6), headAndTail(third, 300), 'budget spent: head-and-tail');
});

test('summaries: no-summary tools, short results and existing summaries are never offered', () => {
  const results = [
    'x'.repeat(2000),
    `[micro-compact] ${'y'.repeat(3000)}`,
    'z'.repeat(3000),
    'w'.repeat(3000),
  ];
  const names = ['bash', 'bash', 'file_read', 'think'];
  const t = toolLoop(12, { result: (i) => results[i] ?? 'ok', name: (i) => names[i] ?? 'bash' });
  const s = countingSummarizer(() => false);
  const r = analyzeSync(t, policy(), { summarizer: s });
  assert.equal(s.calls.length, 0);
  assert.equal(r.analysis.totals.summarizerAttempts, 0);
});

test('summarizer none gives exactly the head-and-tail results', () => {
  const t = toolLoop(14, { result: (i) => `line ${i} `.repeat(300) });
  const r = analyzeSync(t, policy(), { summarizer: null });
  for (const w of r.rewrites) {
    const original = (t.messages[w.messageIndex].blocks[0] as ToolResultBlock).content as string;
    assert.equal(w.content, headAndTail(original, 300));
  }
  assert.equal(r.rewrites.length, 6);
});

test('extractive summarizer keeps error, path, URL and number lines within maxResultChars', () => {
  const content = [
    'Compiling project...',
    ...Array.from({ length: 300 }, () => 'progress step'),
    'error: cannot find module ./src/app.ts',
    'see https://example.org/help',
    'done',
  ].join('\n');
  const t = toolLoop(10, { result: (i) => (i === 0 ? content : 'ok') });
  const r = analyzeSync(t, policy(), { summarizer: extractiveSummarizer(300) });
  assert.equal(
    contentOf(r, 2),
    '[micro-compact] error: cannot find module ./src/app.ts\nsee https://example.org/help',
  );
});

test('analyze awaits a model-backed summarizer; summaries are cached by (content, summarizer, prompt)', async () => {
  const t = toolLoop(10, { result: (i) => `entry ${i} `.repeat(400) });
  let calls = 0;
  const lm: Summarizer = {
    id: 'test-lm:model-a',
    summarize: async (tool, content) => {
      calls++;
      // Answers on a later turn, as a model would, with no wait on the clock.
      await new Promise((r) => setImmediate(r));
      return `${tool} printed ${content.length} chars`;
    },
  };
  const cache = new SummaryCache();
  const first = await analyze(t, policy(), { summarizer: lm, summaryCache: cache });
  assert.equal(calls, 2);
  assert.equal(first.analysis.totals.summarizerAttempts, 2);
  const content = (t.messages[2].blocks[0] as ToolResultBlock).content as string;
  assert.equal(contentOf(first, 2), `[micro-compact] bash printed ${content.length} chars`);
  const again = await analyze(t, policy(), { summarizer: lm, summaryCache: cache });
  assert.equal(calls, 2, 'the second analysis asked nothing');
  assert.deepEqual(again.rewrites, first.rewrites);
  assert.throws(
    () => analyzeSync(t, policy(), { summarizer: lm, summaryCache: new SummaryCache() }),
    /no synchronous form/,
  );
});
