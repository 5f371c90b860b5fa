// Anthropic context editing (engine/contextEditing.ts): each documented rule on small transcripts, with the exact
// blocks cleared, the request that cleared them, and what the prompt cache then reads and writes.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import { analyzeSync } from '../../../src/core/analysis';
import { compactTranscriptSync } from '../../../src/core/compact';
import {
  CLEARED_TOOL_INPUT,
  CLEARED_TOOL_RESULT,
  contextManagementBlock,
} from '../../../src/core/engine/contextEditing';
import { clonePolicy, DEFAULT_POLICY, type Policy } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import type { Block, Message, Transcript } from '../../../src/core/model';
import { tokenCounter } from '../../../src/core/tokens/counter';
import { REAL_LONG_DIR } from '../../sharedFixtures';
import { assistant, msg, text, toolLoop, toolResult, toolUse, transcriptOf, user } from '../transcripts';

const counter = tokenCounter('o200k_base');

function editing(
  over: Partial<Policy['contextEditing']> = {},
  name: Policy['name'] = 'anthropic-context-editing',
) {
  const p = clonePolicy(DEFAULT_POLICY);
  p.name = name;
  p.model = 'claude-sonnet-4';
  p.replay.trigger = 'everyRequest';
  p.contextEditing = { ...p.contextEditing, ...over };
  return p;
}
const none = () => editing({}, 'none');

/** [message, block, request, kind] of every cleared block. */
const clearedOf = (p: Policy, t = toolLoop(6)) =>
  (analyzeSync(t, p).analysis.why?.cleared ?? []).map((c) => [c.message, c.block, c.request, c.kind]);

// toolLoop(6): message 0 the prompt, then call i at message 2i+1 and its result at 2i+2; request k sends messages
// [0, 2k+1), so it holds the calls 0..k-1.
const prompts = analyzeSync(toolLoop(6), none()).analysis.requests.map((r) => r.promptTokens);

test('trigger (input tokens): nothing is cleared until the prompt exceeds it, then all but the newest keep', () => {
  // Request 4 is the first whose prompt exceeds the prompt of request 3.
  const p = editing({ trigger: prompts[3], keep: 2 });
  assert.deepEqual(clearedOf(p), [
    [2, 0, 4, 'tool_result'],
    [4, 0, 4, 'tool_result'],
    [6, 0, 5, 'tool_result'],
    [8, 0, 6, 'tool_result'],
  ]);
  // A prompt equal to the trigger does not exceed it (request 7 is the next one, after the final reply).
  assert.deepEqual(clearedOf(editing({ trigger: prompts[7], keep: 2 })), []);
  assert.deepEqual(clearedOf(editing({ trigger: prompts[7] - 1, keep: 2 })), [
    [2, 0, 7, 'tool_result'],
    [4, 0, 7, 'tool_result'],
    [6, 0, 7, 'tool_result'],
    [8, 0, 7, 'tool_result'],
  ]);
});

test('a cleared result reads as the placeholder; the export and the client keep the original', () => {
  const t = toolLoop(6);
  const r = analyzeSync(t, editing({ trigger: prompts[3], keep: 2 }));
  assert.deepEqual(r.rewrites, [], 'the server clears: the client sends its history unchanged');
  const placeholder = counter.count(CLEARED_TOOL_RESULT);
  const result = t.messages[2].blocks[0] as Extract<Block, { type: 'tool_result' }>;
  const m = r.analysis.messages[2];
  assert.equal(m.tokensBefore - m.tokensAfter, counter.count(result.content as string) - placeholder);
  assert.equal(m.rewritten, true);
  const e = r.analysis.events.filter((x) => x.action === 'context_edit');
  assert.deepEqual(
    e.map((x) => [x.messageIndex, x.requestIndex, x.toolUseId, x.newLen]),
    [
      [2, 4, 'toolu_000', CLEARED_TOOL_RESULT.length],
      [4, 4, 'toolu_001', CLEARED_TOOL_RESULT.length],
      [6, 5, 'toolu_002', CLEARED_TOOL_RESULT.length],
      [8, 6, 'toolu_003', CLEARED_TOOL_RESULT.length],
    ],
  );
});

test('each clearing rewrites the prompt from the first newly cleared result: the cache is written again from there', () => {
  const baseline = analyzeSync(toolLoop(6), none()).analysis;
  const base = baseline.requests;
  const q = analyzeSync(toolLoop(6), editing({ trigger: prompts[3], keep: 2 })).analysis.requests;
  for (const k of [0, 1, 2, 3]) assert.deepEqual(q[k], base[k], `request ${k} is none's`);
  // Request 4 clears the results at messages 2 and 4: the prompt differs from message 2's first block on, so the
  // cache holds messages 0 and 1 and the framing of message 2.
  const [m0, m1] = baseline.messages;
  assert.equal(q[4].boundaryMessage, 2);
  assert.equal(q[4].cachedTokens, m0.tokensBefore + m1.tokensBefore + 4);
  assert.equal(q[4].writtenTokens, q[4].promptTokens - q[4].cachedTokens);
  // Request 5 clears message 6 anew: the cache reads the edited prompt of request 4 up to it.
  assert.equal(q[5].boundaryMessage, 6);
  assert.ok(q[5].cachedTokens < q[4].promptTokens && q[5].cachedTokens > q[4].cachedTokens);
  assert.equal(q[6].boundaryMessage, 8);
  // The prompt is smaller from request 4 on by exactly the cleared results less their placeholders.
  assert.ok(q[4].promptTokens < base[4].promptTokens);
  assert.equal(q[4].boundaryEvents.length, 1, 'the boundary names the clearing that moved it');
});

test('keep: the newest keep tool uses stay; keep 0 clears every result; a keep of all uses clears none', () => {
  assert.deepEqual(
    clearedOf(editing({ trigger: 1, keep: 0 })).filter((c) => c[2] === 1),
    [[2, 0, 1, 'tool_result']],
  );
  assert.equal(clearedOf(editing({ trigger: 1, keep: 0 })).length, 6);
  assert.deepEqual(clearedOf(editing({ trigger: 1, keep: 6 })), []);
  assert.deepEqual(clearedOf(editing({ trigger: 1, keep: 5 })), [[2, 0, 6, 'tool_result']]);
});

test('trigger in tool uses: clearing starts once the request holds more tool uses than it', () => {
  assert.deepEqual(clearedOf(editing({ triggerType: 'tool_uses', trigger: 4, keep: 1 })), [
    [2, 0, 5, 'tool_result'],
    [4, 0, 5, 'tool_result'],
    [6, 0, 5, 'tool_result'],
    [8, 0, 5, 'tool_result'],
    [10, 0, 6, 'tool_result'],
  ]);
});

test('clear_at_least: an edit that frees fewer tokens is not applied; a later, larger one is, all at once', () => {
  const t = toolLoop(6);
  const per =
    counter.count((t.messages[2].blocks[0] as { content: string }).content) -
    counter.count(CLEARED_TOOL_RESULT);
  // Request 4's edit frees two results, request 5's three.
  const p = editing({ trigger: prompts[3], keep: 2, clearAtLeast: 2 * per + 1 });
  assert.deepEqual(clearedOf(p, t), [
    [2, 0, 5, 'tool_result'],
    [4, 0, 5, 'tool_result'],
    [6, 0, 5, 'tool_result'],
    [8, 0, 6, 'tool_result'],
  ]);
  const facts = analyzeSync(t, p).analysis.why?.clearings ?? [];
  assert.deepEqual(
    facts.map((f) => [f.request, f.freedTokens]),
    [
      [5, 3 * per],
      [6, 4 * per],
    ],
  );
});

test('exclude_tools: excluded calls are never cleared, yet count in keep', () => {
  const t = toolLoop(6, { name: (i) => (i % 2 === 0 ? 'Read' : 'bash') });
  assert.deepEqual(clearedOf(editing({ trigger: 1, keep: 2, excludeTools: ['Read'] }), t), [
    [4, 0, 4, 'tool_result'],
    [8, 0, 6, 'tool_result'],
  ]);
});

test('clear_tool_inputs: the cleared calls lose their input too; the export still holds it', () => {
  const t = toolLoop(4, { input: (i) => ({ command: `echo ${'x'.repeat(200)} ${i}` }) });
  const r = analyzeSync(t, editing({ trigger: 1, keep: 2, clearToolInputs: true }));
  assert.deepEqual(
    (r.analysis.why?.cleared ?? []).map((c) => [c.message, c.block, c.request, c.kind]),
    [
      [2, 0, 3, 'tool_result'],
      [1, 0, 3, 'tool_input'],
      [4, 0, 4, 'tool_result'],
      [3, 0, 4, 'tool_input'],
    ],
  );
  const input = r.analysis.events.find((e) => e.messageIndex === 1)!;
  assert.equal(input.newLen, CLEARED_TOOL_INPUT.length);
  assert.deepEqual(r.rewrites, []);
  // Request 3 clears the call at message 1 (before its result): the prompt differs from message 1 on.
  assert.equal(r.analysis.requests[3].boundaryMessage, 1);
});

test('clear_thinking: the thinking of all but the newest keep turns is removed', () => {
  const think = (s: string): Block => ({ type: 'thinking', text: `${s} `.repeat(60), redacted: false });
  const t = transcriptOf([
    user(text('first question')),
    assistant(think('one'), text('answer one')),
    user(text('second question')),
    assistant(think('two'), text('answer two')),
    user(text('third question')),
    assistant(think('three'), text('answer three')),
    user(text('fourth')),
    assistant(text('done')),
  ]);
  const cleared = (keep: number | 'all') =>
    (analyzeSync(t, editing({ clearThinkingKeep: keep })).analysis.why?.cleared ?? []).map((c) => [
      c.message,
      c.block,
      c.request,
      c.kind,
    ]);
  assert.deepEqual(cleared('all'), []);
  assert.deepEqual(cleared(2), [[1, 0, 3, 'thinking']]);
  assert.deepEqual(cleared(1), [
    [1, 0, 2, 'thinking'],
    [3, 0, 3, 'thinking'],
  ]);
  const r = analyzeSync(t, editing({ clearThinkingKeep: 1 }));
  assert.equal(
    r.analysis.messages[1].tokensAfter,
    r.analysis.messages[1].tokensBefore - counter.count(`${'one '.repeat(60)}`),
  );
  assert.equal(r.analysis.requests[2].boundaryMessage, 1);
});

test('a turn with tool calls is one thinking turn (its tool results do not start a new one)', () => {
  const think: Block = { type: 'thinking', text: 'pondering '.repeat(40), redacted: false };
  const t = transcriptOf([
    user(text('go')),
    msg('assistant', [think, { type: 'tool_use', id: 't1', name: 'bash', input: {} }]),
    user({ type: 'tool_result', toolUseId: 't1', content: 'ok', isError: false }),
    msg('assistant', [think, text('half way')]),
    user(text('next')),
    msg('assistant', [think, text('end')]),
  ]);
  const cleared = (analyzeSync(t, editing({ clearThinkingKeep: 1 })).analysis.why?.cleared ?? []).map((c) => [
    c.message,
    c.request,
  ]);
  // Request 2 sends messages 0-4: one turn (the tool result did not end it), kept. Request 3 starts a second turn.
  assert.deepEqual(cleared, [
    [1, 3],
    [3, 3],
  ]);
});

test('tiered on the client, context editing on the server: the export holds the client rewrites only', () => {
  const t = toolLoop(24);
  const both = analyzeSync(t, editing({ trigger: 1, keep: 3 }, 'tiered+anthropic-context-editing'));
  const tiered = analyzeSync(t, editing({}, 'tiered'));
  assert.deepEqual(both.rewrites, tiered.rewrites, 'the client sends what tiered makes of its history');
  const sent = both.analysis.messages.filter((m) => m.distance !== null && m.distance >= 3);
  for (const m of sent)
    assert.equal(
      m.tokensAfter,
      4 +
        counter.count(`toolu_${String(m.index / 2 - 1).padStart(3, '0')}`) +
        counter.count(CLEARED_TOOL_RESULT),
    );
  assert.ok(both.analysis.totals.promptTokens < tiered.analysis.totals.promptTokens);
});

test('the request block: the API names, defaults left out, clear_thinking first and only with thinking', () => {
  const s = { ...DEFAULT_POLICY.contextEditing };
  assert.deepEqual(contextManagementBlock(s, false), {
    edits: [
      {
        type: 'clear_tool_uses_20250919',
        trigger: { type: 'input_tokens', value: 100000 },
        keep: { type: 'tool_uses', value: 3 },
      },
    ],
  });
  assert.deepEqual(
    contextManagementBlock(
      { ...s, clearAtLeast: 5000, excludeTools: ['Read'], clearToolInputs: true, clearThinkingKeep: 2 },
      true,
    ),
    {
      edits: [
        { type: 'clear_thinking_20251015', keep: { type: 'thinking_turns', value: 2 } },
        {
          type: 'clear_tool_uses_20250919',
          trigger: { type: 'input_tokens', value: 100000 },
          keep: { type: 'tool_uses', value: 3 },
          clear_at_least: { type: 'input_tokens', value: 5000 },
          exclude_tools: ['Read'],
          clear_tool_inputs: true,
        },
      ],
    },
  );
});

// ---- Property: with a trigger above the session's largest prompt, context editing is "none" byte for byte ------

const session = fc
  .array(
    fc.record({
      calls: fc.integer({ min: 1, max: 3 }),
      size: fc.integer({ min: 1, max: 80 }),
      thinking: fc.boolean(),
      userText: fc.boolean(),
    }),
    { minLength: 1, maxLength: 30 },
  )
  .map((rounds) => {
    const messages: Omit<Message, 'index'>[] = [user(text('go'))];
    rounds.forEach((g, r) => {
      const ids = Array.from({ length: g.calls }, (_, i) => `t${r}_${i}`);
      const think: Block[] = g.thinking
        ? [{ type: 'thinking', text: `plan ${r} `.repeat(g.size), redacted: false }]
        : [];
      messages.push(
        assistant(...think, ...ids.map((id) => toolUse(id, r % 3 === 0 ? 'Read' : 'bash', { r }))),
      );
      messages.push(user(...ids.map((id) => toolResult(id, `out ${id} `.repeat(g.size)))));
      if (g.userText) {
        messages.push(assistant(text(`step ${r}`)));
        messages.push(user(text(`next ${r}`)));
      }
    });
    messages.push(assistant(text('end')));
    // Through the Anthropic Messages format, so that the export is written and parsed back for real.
    const body = messages.map((m) => ({
      role: m.role,
      content: m.blocks.map((b) =>
        b.type === 'text'
          ? { type: 'text', text: b.text }
          : b.type === 'thinking'
            ? { type: 'thinking', thinking: b.text, signature: 'sig' }
            : b.type === 'tool_use'
              ? { type: 'tool_use', id: b.id, name: b.name, input: b.input }
              : b.type === 'tool_result'
                ? { type: 'tool_result', tool_use_id: b.toolUseId, content: b.content }
                : {},
      ),
    }));
    return parseTranscript(new TextEncoder().encode(JSON.stringify({ messages: body })), 'x.json');
  });

/** Everything an analysis says and an export writes, but the policy's name. */
function everything(t: Transcript, p: Policy) {
  const r = compactTranscriptSync(t, p, { fileName: 'x.json' });
  const { policyName: _, why, ...analysis } = r.analysis;
  return {
    analysis,
    why: { ...why, cleared: undefined, clearings: undefined },
    rewrites: r.rewrites,
    output: r.output,
  };
}

test('property: with a trigger above the largest prompt (or tool-use count), context editing is none, byte for byte', () => {
  fc.assert(
    fc.property(session, fc.nat({ max: 5 }), fc.boolean(), (t, keep, byUses) => {
      const base = analyzeSync(t, none()).analysis;
      const largest = Math.max(...base.requests.map((q) => q.promptTokens));
      const uses = t.messages.reduce((a, m) => a + m.blocks.filter((b) => b.type === 'tool_use').length, 0);
      const p = editing(
        byUses
          ? { triggerType: 'tool_uses', trigger: uses, keep, clearToolInputs: true }
          : { trigger: largest, keep, clearToolInputs: true },
      );
      assert.deepEqual(everything(t, p), everything(t, none()));
      assert.deepEqual(analyzeSync(t, p).analysis.why?.cleared, []);
      // The same session does clear under a trigger it exceeds (the property is not vacuous).
      assert.ok((analyzeSync(t, editing({ trigger: 1, keep: 0 })).analysis.why?.cleared ?? []).length > 0);
    }),
    { numRuns: 60, seed: 20260601 },
  );
});

test('the real six-compaction session: a trigger above its largest prompt changes nothing', (t) => {
  const file = join(REAL_LONG_DIR, 'claude-code', 'laf-us-05541cb5-six-compactions-v2.1.92.jsonl');
  if (!existsSync(file)) return t.skip('the shared real-long fixtures are not beside the repository');
  const session = parseTranscript(new Uint8Array(readFileSync(file)), file);
  const auto = (name: Policy['name'], trigger?: number) => {
    const p = editing(trigger === undefined ? {} : { trigger }, name);
    p.model = 'auto';
    p.replay.trigger = 'auto';
    return p;
  };
  const base = analyzeSync(session, auto('none')).analysis;
  const largest = Math.max(...base.requests.map((q) => q.promptTokens));
  assert.deepEqual(
    everything(session, auto('anthropic-context-editing', largest)),
    everything(session, auto('none')),
  );
  // With the API's defaults it does clear, and saves.
  const defaults = analyzeSync(session, auto('anthropic-context-editing')).analysis;
  assert.ok((defaults.why?.cleared ?? []).length > 100);
  assert.ok(defaults.totals.cost < base.totals.cost);
});
