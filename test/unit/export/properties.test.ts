// Property: on every real fixture, under any policy the controls allow, the Anthropic request of the compacted
// transcript keeps every tool pair the source had, carries each rewrite, and never holds an empty text block.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import fc from 'fast-check';
import { compactTranscriptSync } from '../../../src/core/compact';
import { contentHashText } from '../../../src/core/engine/content';
import { defaultPolicyFor, POLICY_NAMES, type Policy } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import { toAnthropicRequest } from '../../../src/core/formats/toAnthropicRequest';
import type { Transcript } from '../../../src/core/model';
import { pairedIds, requestPairBreaks } from '../../../src/node/exportFile';
import { fixturePaths } from '../formats/helpers';

const fixtures: Transcript[] = fixturePaths()
  .map((f) => parseTranscript(new Uint8Array(readFileSync(f)), f))
  .filter((t) => t.messages.length > 0);

const toolResults = (t: Transcript) =>
  t.messages.filter((m) => m.blocks.some((b) => b.type === 'tool_result')).length;
const busy = fixtures
  .map((t, i) => [toolResults(t), i])
  .filter(([n]) => n >= 3)
  .map(([, i]) => i);

test('the request of any compaction keeps the source pairs and carries the rewrites', () => {
  assert.ok(fixtures.length >= 8);
  let rewritten = 0;
  fc.assert(
    fc.property(
      // Sessions with several tool results are drawn more often: they are where rewrites happen.
      fc.oneof(
        { arbitrary: fc.integer({ min: 0, max: fixtures.length - 1 }), weight: 1 },
        { arbitrary: fc.constantFrom(...busy), weight: 3 },
      ),
      fc.constantFrom(...POLICY_NAMES),
      // The fixtures hold up to 11 tool results: small windows make the tiers and the live zone rewrite.
      fc.integer({ min: 0, max: 4 }),
      fc.integer({ min: 0, max: 4 }),
      fc.integer({ min: 1, max: 400 }),
      fc.integer({ min: 0, max: 600 }),
      (i, name, keepRecent, extra, maxResultChars, minChars) => {
        const t = fixtures[i];
        const base = defaultPolicyFor(t.format);
        const policy: Policy = {
          ...base,
          name,
          tiered: { ...base.tiered, keepRecent, tier1Distance: keepRecent + extra, maxResultChars },
          liveZone: { ...base.liveZone, minChars },
        };
        const result = compactTranscriptSync(t, policy);
        rewritten += result.rewrites.length;
        const { request } = toAnthropicRequest(t, result.rewrites);
        const paired = pairedIds(t);
        const broken = requestPairBreaks(request).filter((b) => paired.has(b.id));
        assert.deepEqual(broken, []);
        const text = JSON.stringify(request);
        for (const r of result.rewrites) {
          const content = contentHashText(r.content);
          if (content)
            assert.ok(
              text.includes(JSON.stringify(content).slice(1, -1)),
              `rewrite of ${r.messageIndex}.${r.blockIndex} is in the request`,
            );
        }
        for (const m of request.messages) {
          assert.ok(m.content.length > 0);
          for (const b of m.content) if (b.type === 'text') assert.notEqual(String(b.text).trim(), '');
        }
      },
    ),
    { numRuns: 150, seed: 5 },
  );
  assert.ok(rewritten > 100, `only ${rewritten} rewrites in all runs: the property would prove little`);
});
