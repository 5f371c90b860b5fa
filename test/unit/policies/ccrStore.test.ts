// SPEC §8 with §4: "a marker whose hash is not in the store is a defect", property-tested over live zones that
// every compressor rewrites (search results, timestamped logs, diffs with right and wrong @@ counts, JSON arrays),
// with liveZone.ccr on and off. The store checked is the one export writes (`<out>.ccr.json`), not the engine's
// memory: with ccr off no store is written, so no marker may name a hash at all.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compactTranscriptSync } from '../../../src/core/compact';
import { ccrMarkerHashes } from '../../../src/core/engine/ccr';
import { contentHashText } from '../../../src/core/engine/content';
import { ccrHash } from '../../../src/core/engine/hash';
import { clonePolicy, DEFAULT_POLICY, type Policy } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';

const oneLine = (s: string) => s.replace(/[\r\n]/g, ' ');
const two = (n: number) => String(n).padStart(2, '0');

const searchResults = fc
  .array(fc.tuple(fc.nat({ max: 6 }), fc.nat({ max: 999 }), fc.string({ maxLength: 30 })), {
    minLength: 1,
    maxLength: 150,
    size: 'max',
  })
  .map((rows) => rows.map(([f, n, s]) => `src/part${f}/mod.ts:${n}:${oneLine(s)}`).join('\n'));

const timestampedLog = fc
  .array(
    fc.tuple(
      // Mostly routine lines, as in real logs, so that there is something to drop.
      fc.oneof({ arbitrary: fc.constant('INFO'), weight: 15 }, fc.constantFrom('WARN', 'ERROR', 'DEBUG')),
      fc.nat({ max: 59 }),
      fc.string({ maxLength: 40 }),
      fc.boolean(),
    ),
    { minLength: 1, maxLength: 150, size: 'max' },
  )
  .map((rows) =>
    rows
      .map(([level, s, t, iso]) =>
        iso
          ? `[${level}] 2026-05-02T19:30:${two(s)}.000Z ${oneLine(t)}`
          : `2026-05-02 19:30:${two(s)} ${level} ${oneLine(t)}`,
      )
      .join('\n'),
  );

/** Hunks whose header says one line each (`@@ -N +N @@`) or the true counts, over bodies of any length. */
const diff = fc
  .array(
    fc.tuple(
      fc.array(fc.constantFrom(' same', ' other', '-old', '+new', ''), { minLength: 1, maxLength: 12 }),
      fc.boolean(),
    ),
    { minLength: 1, maxLength: 25, size: 'max' },
  )
  .map((hunks) =>
    [
      'diff --git a/notes.md b/notes.md',
      '--- a/notes.md',
      '+++ b/notes.md',
      ...hunks.flatMap(([body, exact], h) => {
        const start = h * 100 + 1;
        const olds = body.filter((l) => !l.startsWith('+')).length;
        const news = body.filter((l) => !l.startsWith('-')).length;
        return [exact ? `@@ -${start},${olds} +${start},${news} @@` : `@@ -${start} +${start} @@`, ...body];
      }),
    ].join('\n'),
  );

const jsonArray = fc
  .array(
    fc.record({
      id: fc.nat(),
      status: fc.constantFrom('ok', 'done', 'error: timeout'),
      ms: fc.nat({ max: 100_000 }),
    }),
    { maxLength: 60, size: 'max' },
  )
  .map((items) => JSON.stringify(items));

const liveBody = fc.oneof(searchResults, timestampedLog, diff, jsonArray);

/** An Anthropic Messages request: rounds of tool calls whose results are the generated bodies. */
const transcript = fc
  .array(fc.array(liveBody, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 4 })
  .map((rounds) => {
    const messages: unknown[] = [{ role: 'user', content: 'Look into the failing job.' }];
    rounds.forEach((bodies, r) => {
      messages.push({
        role: 'assistant',
        content: bodies.map((_, i) => ({ type: 'tool_use', id: `toolu_${r}_${i}`, name: 'bash', input: {} })),
      });
      messages.push({
        role: 'user',
        content: bodies.map((b, i) => ({ type: 'tool_result', tool_use_id: `toolu_${r}_${i}`, content: b })),
      });
    });
    const body = JSON.stringify({ model: 'claude-sonnet-4-20250514', max_tokens: 512, messages });
    return parseTranscript(new TextEncoder().encode(body), 'gen.json');
  });

const policy = fc
  .record({
    name: fc.constantFrom<Policy['name']>('live-zone', 'tiered+live-zone'),
    ccr: fc.boolean(),
    minChars: fc.nat({ max: 600 }),
    trigger: fc.constantFrom<Policy['replay']['trigger']>('once', 'everyRequest'),
  })
  .map((g) => {
    const p = clonePolicy(DEFAULT_POLICY);
    p.name = g.name;
    p.liveZone.ccr = g.ccr;
    p.liveZone.minChars = g.minChars;
    p.replay.trigger = g.trigger;
    return p;
  });

test('§8: every marker an export writes names a hash its written store holds, with liveZone.ccr on or off', () => {
  const rewritten = { on: 0, off: 0 };
  fc.assert(
    fc.property(transcript, policy, (t, p) => {
      const r = compactTranscriptSync(t, p, { fileName: 'gen.json' });
      const store: Record<string, string> = r.ccrJson === null ? {} : JSON.parse(r.ccrJson);
      rewritten[p.liveZone.ccr ? 'on' : 'off'] += r.analysis.events.filter(
        (e) => e.action === 'live_zone',
      ).length;
      for (const w of r.rewrites) {
        const text = contentHashText(w.content);
        for (const hash of ccrMarkerHashes(text)) {
          assert.ok(hash in store, `marker hash=${hash} but the written store holds no such original`);
          assert.equal(ccrHash(store[hash]), hash, 'the store keeps the original under its own hash');
        }
        if (!p.liveZone.ccr) assert.doesNotMatch(text, /hash=|<<ccr:/, 'ccr off: plain form only');
      }
      for (const hash of ccrMarkerHashes(new TextDecoder().decode(r.output))) assert.ok(hash in store);
      assert.equal(r.ccrDisabled, false, 'no marker is left pointing at a store that is not written');
    }),
    { numRuns: 80, seed: 20260502 },
  );
  assert.ok(rewritten.on > 0 && rewritten.off > 0, `live-zone rewrites: ${JSON.stringify(rewritten)}`);
});
