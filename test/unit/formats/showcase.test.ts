// The sample `npm start` opens (test/bench/showcase/): a session that shows what the product does. These tests fail
// when it stops showing it: the tiers and first touch under the defaults, Tier 1 and floors under a one-shot pass,
// a wide parallel batch, every live-zone compressor with its CCR marker, compactions near the window, and recorded
// usage that the replay matches (no figure flagged).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import type { Analysis } from '../../../src/core/analysisTypes';
import { ccrMarkerHashes } from '../../../src/core/engine/ccr';
import { IMAGE_REMOVED } from '../../../src/core/engine/content';
import { clonePolicy, type Policy } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats/index';
import { summarizeTranscript } from '../../../src/core/formats/summary';
import type { Block, Transcript } from '../../../src/core/model';
import { sanityFlags } from '../../../src/core/sanity';
import { nonePolicy } from '../../../src/core/vsNone';
import { defaultsFor } from '../../../src/host/policySettings';
import { generateShowcaseSession } from '../../bench/showcase/session';
import { bytes } from './helpers';

const PATH = 'samples/generated/-home-dev-storefront/storefront-session-v1.jsonl';

describe('the start sample (showcase session)', () => {
  let text: string;
  let t: Transcript;
  let defaults: Policy;
  const run = (change: (p: Policy) => void = () => {}) => {
    const p = clonePolicy(defaults);
    change(p);
    return analyzeSync(t, p);
  };
  before(() => {
    text = generateShowcaseSession(1);
    t = parseTranscript(bytes(text), PATH);
    defaults = defaultsFor(t);
  });

  it('is the same bytes for the same seed, a few MB, and parses cleanly as Claude Code', () => {
    assert.equal(generateShowcaseSession(1), text);
    const size = bytes(text).length;
    assert.ok(size > 1_500_000 && size < 4_000_000, `size ${size}`);
    const s = summarizeTranscript(t);
    assert.equal(t.format, 'claude-code');
    assert.deepEqual(t.diagnostics, []);
    assert.deepEqual(s.pairing, []);
    assert.equal(s.markers.byLabel.compact_boundary, 2);
    assert.equal(s.markers.byLabel.isCompactSummary, 2);
    for (const tool of ['Read', 'Grep', 'Glob', 'Bash', 'Edit', 'Write', 'WebFetch', 'TodoWrite'])
      assert.ok(s.toolCalls.byName[tool] > 0, tool);
    for (const tool of ['snapshot', 'take_screenshot', 'navigate', 'click'])
      assert.ok(s.toolCalls.byName[`mcp__playwright__browser_${tool}`] > 0, tool);
  });

  it('holds a wide parallel batch: one reply, 14 calls, their results one tool-result message (SPEC §1)', () => {
    const widest = Math.max(
      ...t.messages.map((m) => m.blocks.filter((b) => b.type === 'tool_result').length),
    );
    assert.ok(widest >= 14, `widest tool-result message: ${widest} results`);
  });

  it('under the defaults (tiered, replayed every request): Tier 3, first-touch Tier 2, images removed', () => {
    const { analysis, rewrites } = run();
    assert.equal(analysis.policyName, 'tiered');
    assert.equal(analysis.trigger, 'everyRequest');
    const tiers = analysis.totals.tiers;
    assert.ok(tiers['3'].count >= defaults.tiered.keepRecent, `Tier 3: ${tiers['3'].count}`);
    assert.ok(tiers['2'].count >= 100, `Tier 2: ${tiers['2'].count}`);
    // First touch: every Tier-2 message was met at distance keepRecent, by the pass of the request that first
    // sent it that far back.
    const touches = analysis.why?.firstTouch ?? [];
    assert.ok(touches.length >= 3 * 100);
    for (let i = 0; i < touches.length; i += 3) assert.equal(touches[i + 2], defaults.tiered.keepRecent);
    // Old screenshots lose their image at Tier 2.
    const nested = rewrites.flatMap((r) => (typeof r.content === 'string' ? [] : r.content));
    assert.ok(nested.some((b: Block) => b.type === 'text' && b.text === IMAGE_REMOVED));
  });

  it('under a one-shot pass: Tier 1 stubs, and results of floor tools kept at Tier 2', () => {
    const { analysis } = run((p) => {
      p.replay.trigger = 'once';
    });
    assert.ok(analysis.totals.tiers['1'].count > 0, 'Tier 1');
    assert.ok(analysis.events.some((e) => e.action === 'tier1'));
    const floored = analysis.messages.filter((m) => m.floored && m.tier === 2);
    assert.ok(floored.length > 0, 'floored Tier 2');
    const tools = new Set(analysis.why?.floorTools.map((f) => f.tool));
    assert.ok(tools.has('Read'), [...tools].join(', '));
  });

  it('under tiered+live-zone: every compressor rewrites a block, each with a CCR marker in the store', () => {
    const { analysis, rewrites, ccr } = run((p) => {
      p.name = 'tiered+live-zone';
    });
    const compressed = new Map<string, number>();
    for (const f of analysis.why?.liveZone ?? [])
      if (f.outcome === 'compressed')
        compressed.set(String(f.type), (compressed.get(String(f.type)) ?? 0) + 1);
    for (const type of ['json-array', 'search', 'log', 'diff'])
      assert.ok((compressed.get(type) ?? 0) >= 3, `${type}: ${compressed.get(type) ?? 0}`);
    // Every marker names a stored original (SPEC §8), and there is one per live-zone rewrite.
    const live = new Set(
      analysis.events.filter((e) => e.action === 'live_zone').map((e) => `${e.messageIndex}:${e.blockIndex}`),
    );
    const hashes = rewrites
      .filter((r) => live.has(`${r.messageIndex}:${r.blockIndex}`))
      .flatMap((r) => ccrMarkerHashes(typeof r.content === 'string' ? r.content : ''));
    assert.ok(hashes.length >= 12, `${hashes.length} markers`);
    for (const h of hashes) assert.ok(ccr[h] !== undefined, `marker ${h} is not in the store`);
  });

  it('compacts near the window, never beyond it, and its usage agrees with the replay (no flag)', () => {
    const { analysis } = analyzeSync(t, nonePolicy(defaults));
    assert.deepEqual(sanityFlags(analysis), []);
    const window = analysis.contextWindow ?? 0;
    const sent = analysis.requests.filter((r) => !r.pending);
    assert.ok(Math.max(...sent.map((r) => r.promptTokens)) < window);
    // The request before each compaction carries at least 80% of the window.
    const firsts = sent.filter((r, i) => i > 0 && (r.firstMessage ?? 0) !== (sent[i - 1].firstMessage ?? 0));
    assert.equal(firsts.length, 2);
    for (const r of firsts)
      assert.ok(sent[r.index - 1].promptTokens > 0.8 * window, `request ${r.index - 1}`);
    // As the truth benchmark measures real sessions: the prompt per request, the cached and written totals.
    const errors = sent
      .filter((r) => r.recorded)
      .map((r) => {
        const rec = r.recorded as NonNullable<typeof r.recorded>;
        const prompt = rec.inputTokens + rec.cacheReadInputTokens + rec.cacheCreationInputTokens;
        return Math.abs(r.promptTokens - prompt) / prompt;
      })
      .sort((a, b) => a - b);
    assert.equal(errors.length, sent.length);
    assert.ok(
      errors[Math.floor(errors.length / 2)] < 0.02,
      `median prompt error ${errors[Math.floor(errors.length / 2)]}`,
    );
    const recorded = analysis.recorded as NonNullable<Analysis['recorded']>;
    assert.ok(Math.abs(recorded.cachedError) < 0.02, `cached ${recorded.cachedError}`);
    assert.ok(Math.abs(recorded.writtenError) < 0.05, `written ${recorded.writtenError}`);
  });
});
