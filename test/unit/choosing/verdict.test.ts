// The verdict: the strategies a session's provider is offered, read off the descriptors; ranked by cost against
// none; the best with the lines that turn it on, which parse in their own language; the same best and figure from
// the editor's comparisons and from `simulate`'s first lines.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parse as parseToml } from 'smol-toml';
import { analyze } from '../../../src/core/analysis';
import { contextManagementBlock } from '../../../src/core/engine/policies/contextEditing';
import { TURN_ON_PROVIDERS } from '../../../src/core/engine/policies/descriptor';
import { POLICY_ROWS, type PolicyName, SECTIONS } from '../../../src/core/engine/policies/registry';
import { DEFAULT_POLICY, defaultPolicyFor, type Policy } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import { offeredPolicies, offeredTo, rankVerdict, turnOnLines } from '../../../src/core/verdict';
import { Comparisons } from '../../../src/host/comparisons';
import { ResultCache } from '../../../src/host/keptAnalyses';
import { verdictHeadline, verdictLines } from '../../../src/verdictWords';
import { REAL_FIXTURES } from '../../sharedFixtures';
import { cliArgs } from '../cliProcess';

test('a policy is offered to a provider when every strategy it runs names that provider, or none', () => {
  // A strategy that names providers is offered to those only; one that names none (a client-side design) to all.
  const named = SECTIONS.flatMap((s) =>
    'strategy' in s && s.strategy && s.strategy.providers.length > 0
      ? [{ key: s.key, providers: s.strategy.providers as readonly string[] }]
      : [],
  );
  assert.ok(named.length > 0, 'the registry holds provider strategies');
  for (const name of Object.keys(POLICY_ROWS) as PolicyName[])
    for (const provider of ['anthropic', 'openai', 'elsewhere']) {
      const runs: readonly string[] = POLICY_ROWS[name];
      const refused = named.some((s) => runs.includes(s.key) && !s.providers.includes(provider));
      assert.equal(offeredTo(name, provider), !refused, `${name} for ${provider}`);
    }
  // What that means today: context editing is Anthropic's; compaction both providers'; the SPEC's designs anyone's.
  assert.ok(offeredPolicies('anthropic').includes('anthropic-context-editing'));
  assert.ok(!offeredPolicies('openai').includes('anthropic-context-editing'));
  assert.ok(offeredPolicies('openai').includes('compaction'));
  assert.ok(offeredPolicies('elsewhere').includes('tiered'));
  assert.ok(!offeredPolicies('anthropic').includes('none'), 'the baseline is no candidate');
});

const anthropicSession = { contextWindow: 200_000, thinking: true };

test('ranked cheapest first against none; the best only when it costs less; the policy in force beside it', () => {
  const totals = [
    { policyName: 'tiered', cost: 10.45 },
    { policyName: 'live-zone', cost: 9.97 },
    { policyName: 'anthropic-context-editing', cost: 8.55 },
    { policyName: 'compaction', cost: 10.36 },
  ];
  const v = rankVerdict({
    provider: 'anthropic',
    baseline: { name: 'none', cost: 10, requests: 260 },
    totals,
    policy: DEFAULT_POLICY,
    session: anthropicSession,
  });
  assert.deepEqual(
    v.ranked.map((r) => r.policyName),
    ['anthropic-context-editing', 'live-zone', 'compaction', 'tiered'],
  );
  assert.equal(v.best?.policyName, 'anthropic-context-editing');
  assert.equal(verdictHeadline(v), 'Best here: Anthropic context editing, −14.5%, $1.45 over 260 requests');
  assert.equal(v.current.row?.policyName, 'tiered');
  assert.deepEqual(verdictLines(v).slice(0, 2), [
    'Best here: Anthropic context editing, −14.5%, $1.45 over 260 requests against none.',
    'Now: Tiered, +4.5% ($0.4500 more).',
  ]);
  // The best's lines: the Anthropic request's block, thinking kept first.
  assert.deepEqual(
    v.turnOn.map((s) => s.target),
    ['anthropic-request'],
  );
  assert.deepEqual(JSON.parse(v.turnOn[0].text), {
    context_management: contextManagementBlock(DEFAULT_POLICY.contextEditing, true),
  });
  assert.match(v.turnOn[0].title, /anthropic-beta: context-management-2025-06-27/);

  // Nothing cheaper than none: no best, and nothing to paste.
  const dear = rankVerdict({
    provider: 'openai',
    baseline: { name: 'none', cost: 1, requests: 3 },
    totals: [
      { policyName: 'tiered', cost: 1.2 },
      { policyName: 'anthropic-context-editing', cost: 0.5 },
    ],
    policy: DEFAULT_POLICY,
    session: { thinking: false },
  });
  assert.deepEqual(
    dear.ranked.map((r) => r.policyName),
    ['tiered'],
    'a strategy the provider does not offer is not ranked, however cheap',
  );
  assert.equal(dear.best, null);
  assert.deepEqual(dear.turnOn, []);
  assert.equal(verdictHeadline(dear), 'Best here: none. No strategy costs less than none over 3 requests.');
});

test('the lines that turn compaction on parse for their targets, and a session sees its own provider’s', () => {
  const policy: Policy = { ...DEFAULT_POLICY, compaction: { ...DEFAULT_POLICY.compaction, threshold: 0.7 } };
  const anthropic = turnOnLines('compaction', policy, 'anthropic', anthropicSession);
  const openai = turnOnLines('compaction', policy, 'openai', { contextWindow: 400_000, thinking: false });
  for (const s of anthropic) assert.equal(TURN_ON_PROVIDERS[s.target], 'anthropic');
  for (const s of openai) assert.equal(TURN_ON_PROVIDERS[s.target], 'openai');
  assert.deepEqual(
    anthropic.map((s) => s.target),
    ['claude-code-env', 'anthropic-request'],
  );
  assert.deepEqual(
    openai.map((s) => s.target),
    ['codex-config', 'openai-request'],
  );
  assert.equal(anthropic[0].text, 'export CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=70');
  assert.deepEqual(JSON.parse(anthropic[1].text).context_management.edits, [
    { type: 'compact_20260112', trigger: { type: 'input_tokens', value: 140_000 } },
  ]);
  assert.deepEqual({ ...parseToml(openai[0].text) }, { model_auto_compact_token_limit: 280_000 });
  assert.deepEqual(JSON.parse(openai[1].text), {
    context_management: [{ type: 'compaction', compact_threshold: 280_000 }],
  });
  // The Anthropic API takes no trigger under 50,000 tokens: the line says so rather than send one it refuses.
  const small = turnOnLines(
    'compaction',
    { ...policy, compaction: { ...policy.compaction, threshold: 0.1 } },
    'anthropic',
    anthropicSession,
  );
  assert.equal(JSON.parse(small[1].text).context_management.edits[0].trigger.value, 50_000);
  assert.match(small[1].note ?? '', /50,000/);
  // The SPEC's client-side designs ship in no agent: nothing to paste.
  assert.deepEqual(turnOnLines('tiered', policy, 'anthropic', anthropicSession), []);
});

test('on a real session the editor’s comparisons and simulate’s first lines name the same best and figure', async () => {
  const file = join(REAL_FIXTURES, 'claude-code', 'kvsankar-real-session-01-redacted-v2.1.152.jsonl');
  const transcript = parseTranscript(new Uint8Array(readFileSync(file)), file);
  const policy = defaultPolicyFor(transcript.format);
  const comparisons = new Comparisons({ analyze: (t, p) => analyze(t, p) }, new ResultCache());
  const v = await comparisons.verdict(transcript, policy);
  assert.ok(v.ranked.length >= 4, 'the Anthropic session ranks the SPEC designs and the provider strategies');
  const r = spawnSync(process.execPath, [...cliArgs, 'simulate', file], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n');
  assert.deepEqual(lines.slice(0, 2), verdictLines(v, 'Default').slice(0, 2));
  // Named by what it is measured against: the default baseline, the log's own compactions.
  assert.match(lines[0], v.best ? / against "as logged"\.$/ : /than "as logged"/);
});
