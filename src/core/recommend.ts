// "Which strategy would have cost least on this session?": every policy the engine knows, each under a few settings
// around its defaults, replayed over the session's requests beside "none" (SPEC §5: its total over the same
// requests), ranked by cost. The winner comes with what to paste: its contextLens.* settings, and for Anthropic
// context editing the request's context_management block too. The figures are the engine's; the grid is small on
// purpose (a replay of a long session takes a second), and says which settings it tried.

import { baselineWords } from '../vsNoneWords';
import { analyzeSync } from './analysis';
import type { AnalysisTotals } from './analysisTypes';
import { maxOf, pushAll } from './arrays';
import { contextManagementBlock } from './engine/contextEditing';
import type { TurnOnSnippet } from './engine/policies/descriptor';
import { type PassKey, turnOnOf } from './engine/policies/registry';
import type { Baseline } from './engine/policies/replay';
import {
  clonePolicy,
  DEFAULT_POLICY,
  POLICY_NAMES,
  POLICY_PASSES,
  type Policy,
  type PolicyName,
  policiesOfferedFor,
  policyPasses,
  simulatedFromDocs,
} from './engine/policy';
import { markdownText } from './markdown';
import type { Transcript } from './model';
import { nonePolicy } from './vsNone';

export interface Candidate {
  policy: Policy;
  /** The settings that differ from the SPEC's and the API's defaults, as `contextLens.*` keys (the policy too). */
  settings: Record<string, unknown>;
  totals: AnalysisTotals;
  /** cost − none's cost over the same requests (negative: it saves). */
  deltaCost: number;
  deltaShare: number;
}

export interface Recommendation {
  requests: number;
  /** What every candidate is measured against (`replay.baseline`); `noneCost` is its cost. */
  baseline: Baseline;
  noneCost: number;
  /** The session model's context window (compaction's threshold in tokens). */
  contextWindow: number | undefined;
  /** Every candidate, cheapest first. */
  ranked: Candidate[];
  /** The cheapest of each policy name, cheapest first. */
  bestPerPolicy: Candidate[];
  /** The cheapest; null when nothing beats none. */
  best: Candidate | null;
}

/** The settings tried per policy, as patches of the base policy (its own values stay in every candidate). */
function variants(name: PolicyName, base: Policy): Policy[] {
  const passes = POLICY_PASSES[name];
  const out: Policy[] = [];
  const tiered = passes.tiered
    ? [
        { keepRecent: base.tiered.keepRecent, tier1Distance: base.tiered.tier1Distance },
        { keepRecent: 4, tier1Distance: 12 },
        { keepRecent: 16, tier1Distance: 40 },
      ]
    : [null];
  const editing = passes.contextEditing
    ? [
        {},
        { trigger: 50_000 },
        { trigger: 150_000 },
        { keep: 10 },
        { clearAtLeast: 20_000 },
        { trigger: 150_000, clearAtLeast: 50_000 },
      ]
    : [null];
  // A compacting strategy runs alone: its own trigger around its default.
  const section = (Object.keys(COMPACTION_GRID) as (keyof typeof COMPACTION_GRID)[]).find((k) => passes[k]);
  const compaction = section ? COMPACTION_GRID[section] : [null];
  for (const t of tiered)
    for (const e of editing)
      for (const c of compaction) {
        const p = clonePolicy(base);
        p.name = name;
        if (t) p.tiered = { ...p.tiered, ...t };
        if (e) p.contextEditing = { ...p.contextEditing, ...e };
        if (c && section) (p as unknown as Record<string, unknown>)[section] = { ...p[section], ...c };
        out.push(p);
      }
  return out;
}

/** The triggers tried for each compacting strategy: its default, and two earlier points. */
const COMPACTION_GRID = {
  compaction: [{}, { threshold: 0.5 }, { threshold: 0.7 }],
  codexAutoCompact: [{}, { tokenLimit: 200_000 }, { tokenLimit: 150_000 }],
  claudeCode: [{}, { autocompactPctOverride: 70 }, { autocompactPctOverride: 50 }],
  anthropicCompaction: [{}, { trigger: 100_000 }, { trigger: 50_000 }],
} satisfies Partial<Record<PassKey, Record<string, unknown>[]>>;

/** The contextLens.* keys of `policy` that differ from the defaults and matter to its passes. */
export function changedSettings(policy: Policy, defaults: Policy = DEFAULT_POLICY): Record<string, unknown> {
  const passes = policyPasses(policy.name);
  const out: Record<string, unknown> = { 'contextLens.policy': policy.name };
  // The sections of the passes it runs (the observation window's are the SPEC's, left as they are).
  const sections = (Object.keys(passes) as PassKey[]).filter((k) => passes[k] && k !== 'observation');
  for (const section of sections) {
    const now = policy[section] as unknown as Record<string, unknown>;
    const was = defaults[section] as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(now))
      if (JSON.stringify(value) !== JSON.stringify(was[key])) out[`contextLens.${section}.${key}`] = value;
  }
  return out;
}

/** Replays the session under every candidate beside none. `names` limits the policies (default: all but none that
 * the session's provider and agent can use);
 * the settings to paste are those that differ from `defaults` (the transcript's defaults). */
export function recommend(
  transcript: Transcript,
  base: Policy,
  names: readonly PolicyName[] = policiesOfferedFor(transcript, base.model, POLICY_NAMES).filter(
    (n) => n !== 'none',
  ),
  defaults: Policy = base,
): Recommendation {
  const none = analyzeSync(transcript, nonePolicy(base)).analysis;
  const noneCost = none.totals.cost;
  const candidates: Candidate[] = [];
  for (const name of names)
    for (const policy of variants(name, base)) {
      const totals = analyzeSync(transcript, policy).analysis.totals;
      const deltaCost = totals.cost - noneCost;
      candidates.push({
        policy,
        settings: changedSettings(policy, defaults),
        totals,
        deltaCost,
        deltaShare: noneCost > 0 ? deltaCost / noneCost : 0,
      });
    }
  // Cheapest first; among equal costs, the one that changes fewer settings.
  const ranked = [...candidates].sort(
    (a, b) =>
      a.totals.cost - b.totals.cost || Object.keys(a.settings).length - Object.keys(b.settings).length,
  );
  const seen = new Set<string>();
  const bestPerPolicy = ranked.filter((c) => !seen.has(c.policy.name) && seen.add(c.policy.name));
  return {
    requests: none.requests.filter((r) => !r.pending).length,
    baseline: base.replay.baseline,
    noneCost,
    contextWindow: none.contextWindow,
    ranked,
    bestPerPolicy,
    best: ranked[0] && ranked[0].deltaCost < 0 ? ranked[0] : null,
  };
}

/** What to paste for a candidate: the settings (settings.json); for context editing the Anthropic request's
 * block, for compaction the OpenAI Responses one (its threshold in tokens of the session model's window). */
export function snippets(
  c: Candidate,
  transcript: Transcript,
  contextWindow?: number,
): { settings: string; request?: string; openai?: string; turnOn: TurnOnSnippet[] } {
  const out: { settings: string; request?: string; openai?: string; turnOn: TurnOnSnippet[] } = {
    settings: JSON.stringify(c.settings, null, 2),
    // Context editing's and compaction's blocks are the two written below.
    turnOn: turnOnOf(
      c.policy,
      {
        contextWindow,
        thinking: transcript.messages.some((m) => m.blocks.some((b) => b.type === 'thinking')),
      },
      ['contextEditing', 'compaction'],
    ),
  };
  if (policyPasses(c.policy.name).compaction && contextWindow)
    out.openai = JSON.stringify(
      {
        context_management: [
          {
            type: 'compaction',
            compact_threshold: Math.round(c.policy.compaction.threshold * contextWindow),
          },
        ],
      },
      null,
      2,
    );
  if (policyPasses(c.policy.name).contextEditing) {
    const thinking = transcript.messages.some((m) => m.blocks.some((b) => b.type === 'thinking'));
    out.request = JSON.stringify(
      { context_management: contextManagementBlock(c.policy.contextEditing, thinking) },
      null,
      2,
    );
  }
  return out;
}

const isSimulatedFromDocs = (c: Candidate) => simulatedFromDocs(c.policy.name);

function settingsWords(c: Candidate): string {
  const rest = Object.entries(c.settings).filter(([k]) => k !== 'contextLens.policy');
  return rest.length === 0
    ? 'its defaults'
    : rest.map(([k, v]) => `${k.replace(/^contextLens\./, '')}=${JSON.stringify(v)}`).join(', ');
}

const money = (x: number) => `$${x.toFixed(4)}`;
const signedMoney = (x: number) => `${x >= 0 ? '+' : '−'}$${Math.abs(x).toFixed(4)}`;
const signedShare = (x: number) => `${x >= 0 ? '+' : '−'}${Math.abs(100 * x).toFixed(1)}%`;

/** The recommendation in words, the same for `context-lens recommend` and the editor's command: the cheapest
 * settings of each policy, then the cheapest of all with what to paste (`fence`: the lines are Markdown, the table
 * and snippets in code blocks, values outside them escaped). */
export function recommendationLines(
  r: Recommendation,
  transcript: Transcript,
  options: { oneRequestBody?: boolean; fence?: boolean } = {},
): string[] {
  const code = (text: string, language = 'json') =>
    options.fence ? [`\`\`\`${language}`, text, '```'] : [text];
  const out: string[] = [];
  if (options.oneRequestBody)
    out.push(
      'This file is one request body (replay.trigger once): the policies change only the next request, so the totals of the sent ones do not move; replay.trigger=everyRequest replays them as a session.',
      '',
    );
  out.push(
    `Cheapest settings of each policy, against ${baselineWords(r.baseline)} (${money(r.noneCost)}) over the same ${r.requests} requests:`,
  );
  const width = maxOf(r.bestPerPolicy.map((c) => c.policy.name.length));
  const table = r.bestPerPolicy.map(
    (c) =>
      `  ${c.policy.name.padEnd(width)} ${money(c.totals.cost)} (${signedMoney(c.deltaCost)}, ${signedShare(c.deltaShare)})` +
      `${isSimulatedFromDocs(c) ? ' †' : ''}  with ${settingsWords(c)}`,
  );
  if (r.bestPerPolicy.some(isSimulatedFromDocs))
    table.push(
      `  † simulated from the provider's documented behaviour (README: "The providers' strategies")`,
    );
  pushAll(out, options.fence ? ['```text', ...table, '```'] : table);
  out.push('');
  if (!r.best) {
    out.push(
      `Nothing tried costs less than ${baselineWords(r.baseline)} on this session: keep what the agent does.`,
    );
    return out;
  }
  const s = snippets(r.best, transcript, r.contextWindow);
  // Outside the code blocks, Markdown reads the settings' values (a workspace's settings file may hold any text).
  const words = options.fence
    ? markdownText(settingsWords(r.best), Number.POSITIVE_INFINITY)
    : settingsWords(r.best);
  out.push(
    `Recommended: ${r.best.policy.name} with ${words}: ${money(r.best.totals.cost)} against ${baselineWords(r.baseline)} ${money(r.noneCost)} (${signedMoney(r.best.deltaCost)}, ${signedShare(r.best.deltaShare)}) over ${r.requests} requests.`,
    '',
    'settings.json:',
  );
  pushAll(out, code(s.settings));
  if (s.request) {
    out.push(
      '',
      'or in the Anthropic Messages request, with the header "anthropic-beta: context-management-2025-06-27":',
    );
    pushAll(out, code(s.request));
  }
  if (s.openai) {
    out.push('', 'or in an OpenAI Responses request (Claude Code compacts by itself, near its own limit):');
    pushAll(out, code(s.openai));
  }
  for (const t of s.turnOn) {
    out.push(
      '',
      `To turn it on in ${options.fence ? markdownText(t.title, Number.POSITIVE_INFINITY) : t.title}:`,
    );
    pushAll(out, code(t.text.trimEnd(), t.language));
    if (t.note) out.push(options.fence ? markdownText(t.note, Number.POSITIVE_INFINITY) : t.note);
  }
  out.push(
    '',
    'The figures are what the requests cost; what a summary or a clearing loses of the conversation is not priced.',
  );
  return out;
}
