// The verdict: the answer a user acts on. Of the strategies the session's provider offers (the descriptors'
// `strategy.providers`), which costs least against the baseline over the same requests, what it saves, where the
// policy in force stands, and the lines that turn the cheapest on. The figures are the engine's totals (the
// host's comparisons, `simulate`'s runs); this ranks and words them, the same for the view, the CLI and `report`.

import { sessionPreset } from './engine/models';
import { TURN_ON_PROVIDERS, type TurnOnSession, type TurnOnSnippet } from './engine/policies/descriptor';
import {
  COMPARED_POLICIES,
  POLICY_ROWS,
  type PolicyName,
  SECTIONS,
  simulatedFromDocs,
  turnOnOf,
} from './engine/policies/registry';
import type { Policy } from './engine/policy';
import { adapterFor } from './formats/registry';
import type { Transcript } from './model';

/** What a candidate's strategies are: the descriptors of its passes. */
function strategiesOf(name: PolicyName): { key: string; providers: readonly string[] }[] {
  const on: readonly string[] = POLICY_ROWS[name] ?? [];
  return SECTIONS.flatMap((s) =>
    on.includes(s.key) && 'strategy' in s && s.strategy
      ? [{ key: s.key, providers: s.strategy.providers }]
      : [],
  );
}

/** Whether every pass of policy `name` is offered to a session of `provider`: a provider's strategy names the
 * providers it models, a client-side design (no provider named) runs in front of any. */
export function offeredTo(name: PolicyName, provider: string): boolean {
  return strategiesOf(name).every((s) => s.providers.length === 0 || s.providers.includes(provider));
}

/** The candidates of a session of `provider`: the compared policies it is offered, the baseline left out. */
export function offeredPolicies(
  provider: string,
  names: readonly PolicyName[] = COMPARED_POLICIES,
  baseline: string = BASELINE,
): PolicyName[] {
  return names.filter((n) => n !== baseline && n !== 'none' && offeredTo(n, provider));
}

/** What every candidate is measured against. */
export const BASELINE = 'none';

export interface VerdictRow {
  policyName: string;
  /** The policy's name in words ("Anthropic context editing"). */
  label: string;
  cost: number;
  /** cost − the baseline's over the same requests (negative: it saves). */
  deltaCost: number;
  deltaShare: number;
  /** Its figures come from a provider's documented behaviour. */
  simulatedFromDocs: boolean;
  /** Every pass of it is a client-side design no provider runs: nothing to switch on in an agent. */
  clientSide: boolean;
}

export interface Verdict {
  provider: string;
  /** The baseline's policy (`none`), and what it is in words ('"as logged"'): the replay's baseline. */
  baseline: string;
  against: string;
  baselineCost: number;
  /** The sent requests the costs are summed over. */
  requests: number;
  /** Every candidate, cheapest first. */
  ranked: VerdictRow[];
  /** The cheapest, when it costs less than the baseline. */
  best: VerdictRow | null;
  /** The policy in force. */
  current: { policyName: string; label: string; row: VerdictRow | null };
  /** The lines that turn the best on, for the session's provider (empty: nothing an agent ships, or no best). */
  turnOn: TurnOnSnippet[];
}

/** Below this a difference is nothing (the sums are of floats). */
const SAME = 5e-5;

/** "anthropic-context-editing" → "Anthropic context editing"; "tiered+live-zone" → "Tiered + live zone". */
export function policyLabel(name: string): string {
  const words = name.replace(/\+/g, ' + ').replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export interface VerdictInput {
  provider: string;
  baseline: { name: string; cost: number; requests: number; words?: string };
  /** The totals of each candidate run (the baseline and policies not offered are left out here). */
  totals: readonly { policyName: string; cost: number }[];
  /** The policy in force, its settings those of the lines to paste. */
  policy: Policy;
  session: TurnOnSession;
}

/** A verdict without its lines to paste: what a list of sessions shows of each (the Sessions view). */
export type VerdictRanking = Omit<Verdict, 'turnOn'>;

/** Ranks the totals of the candidates `provider` is offered by cost against the baseline; `current` is the policy
 * in force. */
export function rankTotals(input: {
  provider: string;
  baseline: VerdictInput['baseline'];
  totals: VerdictInput['totals'];
  current: string;
}): VerdictRanking {
  const { baseline } = input;
  const offered = new Set<string>(offeredPolicies(input.provider, Object.keys(POLICY_ROWS) as PolicyName[]));
  const rows: VerdictRow[] = input.totals
    .filter((t) => offered.has(t.policyName))
    .map((t) => rowOf(t.policyName, t.cost, baseline.cost));
  // Cheapest first; equal costs keep the compared order (the descriptors' order).
  const ranked = rows
    .map((r, i) => ({ r, i }))
    .sort((a, b) => a.r.cost - b.r.cost || a.i - b.i)
    .map(({ r }) => r);
  const best = ranked[0] && ranked[0].deltaCost < -SAME ? ranked[0] : null;
  const name = input.current;
  return {
    provider: input.provider,
    baseline: baseline.name,
    against: baseline.words ?? baseline.name,
    baselineCost: baseline.cost,
    requests: baseline.requests,
    ranked,
    best,
    current: {
      policyName: name,
      label: policyLabel(name),
      row: ranked.find((r) => r.policyName === name) ?? null,
    },
  };
}

/** Ranks the candidates by cost against the baseline; the best comes with its lines to paste. */
export function rankVerdict(input: VerdictInput): Verdict {
  const ranking = rankTotals({ ...input, current: input.policy.name });
  return {
    ...ranking,
    turnOn: ranking.best
      ? turnOnLines(ranking.best.policyName as PolicyName, input.policy, input.provider, input.session)
      : [],
  };
}

function rowOf(policyName: string, cost: number, baselineCost: number): VerdictRow {
  const deltaCost = cost - baselineCost;
  const strategies = strategiesOf(policyName as PolicyName);
  return {
    policyName,
    label: policyLabel(policyName),
    cost,
    deltaCost,
    deltaShare: baselineCost > 0 ? deltaCost / baselineCost : 0,
    simulatedFromDocs: simulatedFromDocs(policyName),
    clientSide: strategies.every((s) => s.providers.length === 0),
  };
}

/** The lines of each strategy of policy `name` that has them, under the settings of `policy`, for `provider`. */
export function turnOnLines(
  name: PolicyName,
  policy: Policy,
  provider: string,
  session: TurnOnSession,
): TurnOnSnippet[] {
  return turnOnOf({ ...policy, name }, session).filter((line) => TURN_ON_PROVIDERS[line.target] === provider);
}

/** The session's provider (of the model the policy prices it at) and what its lines to paste depend on. */
export function verdictSession(
  transcript: Pick<Transcript, 'format' | 'model' | 'messages'>,
  policy: Policy,
  contextWindow: number | undefined,
): { provider: string; session: TurnOnSession } {
  const provider =
    sessionPreset(policy.model, transcript.format, transcript.model)?.provider ??
    adapterFor(transcript.format).wire;
  const thinking = transcript.messages.some((m) => m.blocks.some((b) => b.type === 'thinking'));
  return { provider, session: { contextWindow, thinking } };
}
