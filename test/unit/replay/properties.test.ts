// SPEC §8 invariants, property-tested with fast-check over generated transcripts (serialised as Anthropic
// Messages requests and parsed back, so export is exercised for real) and over the real fixtures.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { analyzeSync, runRules } from '../../../src/core/analysis';
import { compactTranscriptSync } from '../../../src/core/compact';
import { contentHashText } from '../../../src/core/engine/content';
import { sessionPreset } from '../../../src/core/engine/models';
import {
  clonePolicy,
  DEFAULT_POLICY,
  defaultPolicyFor,
  type Policy,
  type PolicyName,
} from '../../../src/core/engine/policy';
import { contentTokens, prepareTranscript } from '../../../src/core/engine/prepare';
import { runPass } from '../../../src/core/engine/replay';
import { EngineState } from '../../../src/core/engine/state';
import { parseTranscript, writeTranscript } from '../../../src/core/formats';
import type { Transcript } from '../../../src/core/model';
import { tokenCounter } from '../../../src/core/tokens/counter';
import { fixturePaths } from '../formats/helpers';

const TOOLS = ['bash', 'file_read', 'grep', 'browser_click', 'screenshot', 'think', 'edit', 'web_search'];
const counter = tokenCounter('o200k_base');

const chunk = fc.constantFrom(
  'ok ',
  'error: file not found ',
  'src/app.ts:12:const x = 1;\n',
  '😀',
  'line\n',
  '{"id": 1, "status": "ok"}',
  '<|endoftext|>',
  'The quick brown fox. ',
);
const resultText = fc
  .tuple(fc.array(chunk, { minLength: 0, maxLength: 12 }), fc.nat({ max: 120 }))
  .map(([parts, repeat]) => parts.join('').repeat(1 + (repeat % 40)));

interface GenCall {
  name: string;
  input: Record<string, unknown>;
  result: string;
  nested: boolean;
  image: boolean;
}
const call = fc.record({
  name: fc.constantFrom(...TOOLS),
  input: fc.dictionary(
    fc.constantFrom('path', 'q', 'n', 'text'),
    fc.oneof(fc.string({ maxLength: 150 }), fc.integer()),
  ),
  result: resultText,
  nested: fc.boolean(),
  image: fc.boolean(),
});
const turns = fc.array(fc.array(call, { minLength: 1, maxLength: 3 }), {
  minLength: 0,
  maxLength: 40,
  size: 'large',
});

/** An Anthropic Messages request body for a generated conversation. */
function requestBody(rounds: GenCall[][], finalText: string): string {
  const messages: unknown[] = [{ role: 'user', content: [{ type: 'text', text: 'Do the task.' }] }];
  rounds.forEach((calls, r) => {
    messages.push({
      role: 'assistant',
      content: calls.map((c, i) => ({
        type: 'tool_use',
        id: `toolu_${r}_${i}`,
        name: c.name,
        input: c.input,
      })),
    });
    messages.push({
      role: 'user',
      content: calls.map((c, i) => ({
        type: 'tool_result',
        tool_use_id: `toolu_${r}_${i}`,
        content: c.nested
          ? [
              { type: 'text', text: c.result },
              ...(c.image
                ? [
                    {
                      type: 'image',
                      source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' },
                    },
                  ]
                : []),
            ]
          : c.result,
      })),
    });
  });
  if (finalText) messages.push({ role: 'user', content: [{ type: 'text', text: finalText }] });
  return JSON.stringify({ model: 'claude-sonnet-4-20250514', max_tokens: 1024, messages }, null, 1);
}

const generatedTranscript = fc
  .tuple(turns, fc.oneof(fc.constant(''), resultText))
  .map(([rounds, final]) =>
    parseTranscript(new TextEncoder().encode(requestBody(rounds, final)), 'gen.json'),
  );

const policyArb = fc
  .record({
    name: fc.constantFrom<PolicyName>('none', 'tiered', 'live-zone', 'tiered+live-zone', 'observation'),
    keepRecent: fc.nat({ max: 10 }),
    extra: fc.nat({ max: 15 }),
    maxResultChars: fc.integer({ min: 1, max: 400 }),
    argsChars: fc.nat({ max: 120 }),
    keep: fc.nat({ max: 4 }),
    minChars: fc.nat({ max: 600 }),
    trigger: fc.constantFrom<Policy['replay']['trigger']>('once', 'everyRequest', 'pressure'),
  })
  .map((g): Policy => {
    const p = clonePolicy(DEFAULT_POLICY);
    p.name = g.name;
    p.tiered.keepRecent = g.keepRecent;
    p.tiered.tier1Distance = g.keepRecent + g.extra;
    p.tiered.maxResultChars = g.maxResultChars;
    p.tiered.argsChars = g.argsChars;
    p.observation.keep = g.keep;
    p.liveZone.minChars = g.minChars;
    p.replay = {
      trigger: g.trigger,
      pressureFraction: 0.01,
      cacheTtl: 'auto',
      openaiCacheRetention: 'auto',
      baseline: 'as-logged',
    };
    return p;
  });

const signature = (t: Transcript) =>
  t.messages.map((m) =>
    [
      m.role,
      ...m.blocks.map((b) =>
        b.type === 'tool_use' ? `u:${b.id}` : b.type === 'tool_result' ? `r:${b.toolUseId}` : b.type,
      ),
    ].join(' '),
  );

const RUNS = { numRuns: 60, seed: 20260530 };

test('§8.1 + §8.5: export re-parses with the same messages, pairing and rewritten content', () => {
  const seen = new Set<string>();
  fc.assert(
    fc.property(generatedTranscript, policyArb, (t, policy) => {
      // compactTranscriptSync re-parses the output and throws on any difference (see verifyExport).
      const r = compactTranscriptSync(t, policy, { fileName: 'gen.json' });
      const back = parseTranscript(r.output, 'gen.json');
      for (const e of r.analysis.events) seen.add(e.action);
      assert.deepEqual(signature(back), signature(t));
      for (const w of r.rewrites) {
        const b = back.messages[w.messageIndex].blocks[w.blockIndex];
        const got = b.type === 'tool_result' ? contentHashText(b.content) : b.type === 'text' ? b.text : null;
        assert.equal(got, contentHashText(w.content));
      }
    }),
    RUNS,
  );
  // The generated cases do exercise every kind of rewrite (a property that never rewrites proves nothing).
  assert.deepEqual([...seen].sort(), ['live_zone', 'obs_window', 'tier1', 'tier2']);
});

test('§8.2 with SPEC §2 "no growth": no client rewrite leaves a block as long or longer in tokens', () => {
  fc.assert(
    fc.property(generatedTranscript, policyArb, (t, policy) => {
      const r = analyzeSync(t, policy);
      // What export writes is the client's own rewrites: each one shorter in tokens than the original, by the
      // engine's own count (a nested image counts as an image, not as its placeholder's text).
      for (const w of r.rewrites) {
        const before = contentTokens(blockContent(t, w.messageIndex, w.blockIndex), counter);
        const after = contentTokens(w.content, counter);
        assert.ok(
          after < before,
          `message ${w.messageIndex} block ${w.blockIndex}: ${before} → ${after} tokens`,
        );
      }
      // Every rewrite kept back is reported with figures that say why.
      for (const f of r.analysis.why?.notShorter ?? []) assert.ok(f.rewriteTokens >= f.tokens);
    }),
    RUNS,
  );
});

function blockContent(t: Transcript, m: number, b: number) {
  const block = t.messages[m].blocks[b];
  if (block.type === 'tool_result') return block.content;
  if (block.type === 'text') return block.text;
  throw new Error('not rewritable');
}

/** §8.3: a second pass over the same messages, with the first-touch state of the first, changes nothing. */
function assertSecondPassNoop(t: Transcript, policy: Policy): void {
  const model = sessionPreset(policy.model, t.format, t.model)!;
  const prep = prepareTranscript(t, model.tokenizer);
  const state = new EngineState(prep);
  const rules = runRules(policy, model, prep, false);
  const drive = () => {
    const g = runPass(state, rules, t.messages.length);
    for (let s = g.next(); !s.done; ) s = g.next({ ok: false, error: 'none' });
  };
  drive();
  const events = state.events.length;
  const snapshot = [...state.overrides.entries()].map(([k, o]) => [k, contentHashText(o.info.content)]);
  drive();
  assert.equal(state.events.length, events, 'the second pass emitted events');
  assert.deepEqual(
    [...state.overrides.entries()].map(([k, o]) => [k, contentHashText(o.info.content)]),
    snapshot,
  );
}

/** §8.4: a pass of live-zone mode leaves every byte before the live zone the input's; in a replay (§4) a message is
 * compressed only when it is a request's live zone; every marker's hash is in the store. Returns how many blocks the
 * pass compressed. */
function assertLiveZonePrefix(t: Transcript, minChars: number): number {
  const policy = clonePolicy(DEFAULT_POLICY);
  policy.name = 'live-zone';
  policy.liveZone.minChars = minChars;
  const lastUserBefore = (end: number) =>
    t.messages
      .slice(0, end)
      .map((m) => m.role)
      .lastIndexOf('user');
  const replay = analyzeSync(t, policy);
  const liveZones = new Set(replay.analysis.requests.map((q) => lastUserBefore(q.messageCount)));
  assert.ok(replay.rewrites.every((w) => liveZones.has(w.messageIndex)));
  policy.replay.trigger = 'once';
  const r = analyzeSync(t, policy);
  const live = lastUserBefore(t.messages.length);
  assert.ok(r.rewrites.every((w) => w.messageIndex === live));
  const out = writeTranscript(t, r.rewrites);
  const start = t.messages[live]?.source?.start ?? t.raw.length;
  assert.deepEqual(Buffer.from(out.subarray(0, start)), Buffer.from(t.raw.subarray(0, start)));
  for (const { rewrites, ccr } of [r, replay])
    for (const w of rewrites)
      for (const m of contentHashText(w.content).matchAll(/(?:hash=|<<ccr:)([0-9a-f]{24})/g))
        assert.ok(m[1] in ccr);
  return r.rewrites.length;
}

test('§8.3: running the same pass twice gives the same bytes', () => {
  fc.assert(fc.property(generatedTranscript, policyArb, assertSecondPassNoop), RUNS);
});

test('§8.4: live-zone mode leaves every byte before the live zone identical', () => {
  let compressed = 0;
  fc.assert(
    fc.property(generatedTranscript, fc.nat({ max: 600 }), (t, minChars) => {
      compressed += assertLiveZonePrefix(t, minChars);
    }),
    RUNS,
  );
  assert.ok(compressed > 0, 'no generated live zone was compressed');
});

test('§8 over the real fixtures: every policy exports, re-parses, keeps pairing; passes are idempotent', () => {
  for (const file of fixturePaths()) {
    const t = parseTranscript(readFileSync(file), file);
    fc.assert(
      fc.property(policyArb, (generated) => {
        const policy = { ...defaultPolicyFor(t.format), ...generated, model: DEFAULT_POLICY.model };
        policy.tiered = { ...generated.tiered, floorTools: defaultPolicyFor(t.format).tiered.floorTools };
        const r = compactTranscriptSync(t, policy, { fileName: file });
        assert.deepEqual(signature(parseTranscript(r.output, file)), signature(t), file);
        for (const e of r.analysis.events)
          if (e.action === 'live_zone') assert.ok(e.newLen < e.oldLen, `${file}: live-zone rewrite grew`);
        assertSecondPassNoop(t, policy);
        assertLiveZonePrefix(t, generated.liveZone.minChars);
      }),
      { numRuns: 15, seed: 7 },
    );
  }
});
