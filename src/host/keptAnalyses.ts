// The analyses of one open transcript kept by settings, and the settings a user most likely moves to next: a step
// back, a policy the comparison ran, or a neighbour run ahead answers a change without running the engine.
import { isDeepStrictEqual } from 'node:util';
import { type Policy, policyPasses, validatePolicy } from '../core/engine/policy';
import type { SummarizerName } from '../protocol';
import type { EngineResult } from './engineResult';

/** A step either way of each tier constant from `policy` (those that keep them valid); none for a policy without
 * the tiered pass. */
export function tierSteps(policy: Policy): Policy[] {
  if (!policyPasses(policy.name).tiered) return [];
  const { keepRecent, tier1Distance } = policy.tiered;
  return [
    [keepRecent + 1, tier1Distance],
    [keepRecent - 1, tier1Distance],
    [keepRecent, tier1Distance + 1],
    [keepRecent, tier1Distance - 1],
  ].flatMap(([k, d]) => {
    const checked = validatePolicy({ tiered: { keepRecent: k, tier1Distance: d } }, { base: policy });
    return 'policy' in checked ? [checked.policy] : [];
  });
}

/** The keys of `tierSteps`' analyses. */
export function stepKeys(policy: Policy, summarizer: SummarizerName): string[] {
  return tierSteps(policy).map((p) => ResultCache.key(p, summarizer));
}

/** The settings a user most likely moves to from `policy`: a step either way of the tier constants, the second
 * step each way (a user who starts stepping presses the same key again), and every other compared policy. */
export function likelyNext(
  policy: Policy,
  compared: readonly Policy['name'][],
): { steps: Policy[]; secondSteps: Policy[]; policies: Policy[] } {
  const steps = tierSteps(policy);
  return {
    steps,
    secondSteps: steps.flatMap((step) => nextInDirection(policy, step) ?? []),
    policies: compared.filter((name) => name !== policy.name).map((name) => ({ ...policy, name })),
  };
}

/** The other `compared` policies whose analysis no step of a tier constant changes (they run no tiered pass): run
 * ahead once while the user steps, they stay valid through the steps, and a switch to one after them is answered
 * without the engine. */
export function unchangedBySteps(policy: Policy, compared: readonly Policy['name'][]): Policy[] {
  return compared
    .filter((name) => name !== policy.name && !policyPasses(name).tiered)
    .map((name) => ({ ...policy, name }));
}

/** The next step of a tier constant the user is stepping through (arrow keys, on a field or a ladder edge):
 * `current` moved one of `keepRecent` and `tier1Distance` by one from `previous`, nothing else; the same step
 * again, when valid. Null otherwise (a typed value or a drag says nothing of the next one). */
export function nextInDirection(previous: Policy, current: Policy): Policy | null {
  const moved = (['keepRecent', 'tier1Distance'] as const).filter(
    (k) => previous.tiered[k] !== current.tiered[k],
  );
  if (moved.length !== 1) return null;
  const field = moved[0];
  const same = { ...current, tiered: { ...current.tiered, [field]: previous.tiered[field] } };
  if (!isDeepStrictEqual(same, previous)) return null;
  const step = current.tiered[field] - previous.tiered[field];
  if (Math.abs(step) !== 1) return null;
  const next = current.tiered[field] + step;
  const checked = validatePolicy({ tiered: { [field]: next } }, { base: current });
  return 'policy' in checked ? checked.policy : null;
}

/** How many analyses are kept, by settings: the one shown, a policy the comparison ran (up to eight for a
 * session), a neighbour run ahead (four steps, and the four second steps), and a step back. */
const KEPT_RESULTS = 18;

/** The analyses of one transcript under recent settings, the least recently used dropped first; the newest of each
 * policy is kept whatever their number (a run of steps on one policy would push the other policies' out, and the
 * first switch after it would run the engine again). */
export class ResultCache {
  private readonly byKey = new Map<string, { result: EngineResult; policy: string }>();

  /** One key for the settings that give the same analysis: a policy without the tiered pass reads no tier
   * setting, so a step of one keeps its analysis. */
  static key(policy: Policy, summarizer: SummarizerName): string {
    const read = policyPasses(policy.name).tiered ? policy : { ...policy, tiered: null };
    return JSON.stringify([read, summarizer]);
  }

  get(key: string): EngineResult | undefined {
    const kept = this.byKey.get(key);
    if (kept) {
      this.byKey.delete(key);
      this.byKey.set(key, kept);
    }
    return kept?.result;
  }

  /** The analysis kept under `key`, without making it the most recently used. */
  peek(key: string): EngineResult | undefined {
    return this.byKey.get(key)?.result;
  }

  set(key: string, result: EngineResult): void {
    this.byKey.delete(key);
    this.byKey.set(key, { result, policy: (JSON.parse(key) as [Policy])[0].name });
    if (this.byKey.size <= KEPT_RESULTS) return;
    const newest = new Map<string, string>();
    for (const [k, { policy }] of this.byKey) newest.set(policy, k);
    const newestKeys = new Set(newest.values());
    for (const k of this.byKey.keys()) {
      if (this.byKey.size <= KEPT_RESULTS) break;
      if (!newestKeys.has(k)) this.byKey.delete(k);
    }
  }

  get size(): number {
    return this.byKey.size;
  }

  clear(): void {
    this.byKey.clear();
  }
}
