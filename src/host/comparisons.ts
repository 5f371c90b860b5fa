// What an analysis is measured against, kept per transcript: the "no policy" run (SPEC §5: the headline is the
// policy beside none over the same requests), the other policies the Requests tab charts, and for a replayed
// session the payback of one pass now. Each is run once per settings that change it, and let go of (`clear`) when
// another transcript is adopted.
import { encodeRequests } from '../analysisWire';
import type { Analysis, RequestAnalysis } from '../core/analysisTypes';
import { COMPARED_POLICIES, type Policy, type PolicyName, policiesOfferedFor } from '../core/engine/policy';
import type { Transcript } from '../core/model';
import { floorProblems } from '../core/problems';
import { sanityFlags } from '../core/sanity';
import { offeredPolicies, rankVerdict, type Verdict, verdictSession } from '../core/verdict';
import { compareWithNone, nonePolicy, oncePolicy, paybackOf, ranOnce } from '../core/vsNone';
import type { HostMessage, PolicyComparison } from '../protocol';
import { baselineWords } from '../vsNoneWords';
import type { Engine } from './engine';
import { ResultCache } from './keptAnalyses';
import { Preempted, unlessPreempted } from './preempt';

/** The baseline run depends only on the model, the cache lifetime and which baseline it is (the trigger changes
 * nothing); "none" (no compaction) also on the size of a summary it must make where the window is full. */
export const baselineKey = (policy: Policy) =>
  JSON.stringify([
    policy.model,
    policy.replay.cacheTtl,
    policy.replay.openaiCacheRetention,
    policy.replay.baseline,
    policy.replay.baseline === 'none' ? policy.compaction.summaryTokens : null,
  ]);

/** A policy's run as the chart and the verdict read it: the verdict, asked again after every step, reads only its
 * cost; the chart's columns of its requests are encoded when the chart first asks for them. */
interface PolicyRun {
  totals: Analysis['totals'];
  comparison(): PolicyComparison;
}

export class Comparisons {
  private baseline: {
    key: string;
    comparison: PolicyComparison;
    /** What the flags and the verdict read of the none run (the CLI counts its flags on none too). */
    analysis: Pick<
      Analysis,
      'totals' | 'requests' | 'recorded' | 'contextWindow' | 'format' | 'hiddenPrefix' | 'model'
    >;
  } | null = null;
  /** Every policy the chart compares, per name, under the settings `key` (a policy switch reuses the others). */
  private all: { key: string; byName: Map<string, PolicyRun> } | null = null;
  /** One pass now ("if compacted now") under the settings `key`, for a session whose analysis replays. */
  private compactedNow: { key: string; requests: readonly RequestAnalysis[] } | null = null;
  /** Stops the verdict's runs once the user changes the settings again: under new tier settings it runs every other
   * policy with a tiered pass again, which would hold the change's answer and the run ahead of the next step. */
  private verdictRuns = new AbortController();

  constructor(
    private readonly engine: Pick<Engine, 'analyze'>,
    /** The session's kept analyses: a policy compared is an analysis a switch to it may reuse, and back. */
    private readonly results: ResultCache,
  ) {}

  /** Another transcript is shown: nothing kept is of it. */
  clear(): void {
    this.baseline = null;
    this.all = null;
    this.compactedNow = null;
  }

  /** The "no policy" comparison kept, when it is the one of `policy`'s settings. */
  baselineOf(policy: Policy): PolicyComparison | undefined {
    return this.baseline?.key === baselineKey(policy) ? this.baseline.comparison : undefined;
  }

  /** The "no policy" run kept, when it is the one of `policy`'s settings (the Cache tab reads its requests). */
  baselineAnalysisOf(policy: Policy): Pick<Analysis, 'totals' | 'requests' | 'recorded'> | undefined {
    return this.baseline?.key === baselineKey(policy) ? this.baseline.analysis : undefined;
  }

  /** The "no policy" run every policy is measured against. It runs no pass, so it depends only on the model and
   * the cache lifetime: one run per transcript and those two settings. */
  async baselineFor(transcript: Transcript, policy: Policy, signal?: AbortSignal): Promise<PolicyComparison> {
    const key = baselineKey(policy);
    if (this.baseline?.key === key) return this.baseline.comparison;
    const { analysis } = await this.engine.analyze(transcript, nonePolicy(policy), 'none', signal);
    const comparison = {
      policyName: 'none',
      totals: analysis.totals,
      requests: encodeRequests(analysis.requests),
    };
    this.baseline = {
      key,
      comparison,
      analysis: {
        totals: analysis.totals,
        requests: analysis.requests,
        recorded: analysis.recorded,
        contextWindow: analysis.contextWindow,
        format: analysis.format,
        hiddenPrefix: analysis.hiddenPrefix,
        model: analysis.model,
      },
    };
    return comparison;
  }

  /** What the view shows beside an analysis under `policy`: the recorded usage (the ground truth the "none"
   * simulation must come close to, shown whatever the policy), the sanity flags of none, the floors the policy would miss,
   * the policy against none. A pass run once carries its own payback. */
  finish(analysis: Analysis, policy: Policy, transcript: Transcript): void {
    const none = this.baseline?.key === baselineKey(policy) ? this.baseline.analysis : undefined;
    const asLogged = policy.replay.baseline === 'as-logged';
    // The recorded usage is the ground truth of the log's own requests: of the "as logged" run only.
    if (policy.name !== 'none' && asLogged && none?.recorded) analysis.recorded = none.recorded;
    // Counted on the baseline, as the CLI counts them: the run the recorded usage is the ground truth of, and the
    // one whose requests are the largest (a request over the window is one the agent really sent).
    analysis.flags = sanityFlags(none ?? analysis);
    analysis.floorProblems = floorProblems(transcript, policy);
    // Under "none" (no compaction), the log's own requests have a baseline too.
    if (none && (policy.name !== 'none' || !asLogged))
      analysis.vsNone = compareWithNone(
        analysis,
        none,
        policy.replay.baseline,
        ranOnce(analysis) ? analysis : undefined,
      );
  }

  /**
   * Every policy the chart compares under the settings of `policy`, except `policy`'s own, which the analysis
   * carries. Summarizer `none`: a comparison never calls a model. Runs are kept per policy name under one set of
   * settings, so switching policy computes only the one not run yet.
   */
  async compareAll(transcript: Transcript, policy: Policy): Promise<PolicyComparison[]> {
    const key = JSON.stringify({ ...policy, name: '' });
    if (this.all?.key !== key) this.all = { key, byName: new Map() };
    const value: PolicyComparison[] = [];
    // Only what the session's provider and agent can use (Anthropic's strategies are not offered for OpenAI's).
    for (const name of policiesOfferedFor(transcript, policy.model, COMPARED_POLICIES))
      if (name !== policy.name) value.push((await this.runOf(transcript, policy, name)).comparison());
    return value;
  }

  /** One policy under the settings of `policy`, run once per settings and kept (see `compareAll`). */
  private async runOf(
    transcript: Transcript,
    policy: Policy,
    name: PolicyName,
    signal?: AbortSignal,
  ): Promise<PolicyRun> {
    const key = JSON.stringify({ ...policy, name: '' });
    if (this.all?.key !== key) this.all = { key, byName: new Map() };
    const byName = this.all.byName;
    let run = byName.get(name);
    if (!run) {
      if (name === 'none') {
        const comparison = await this.baselineFor(transcript, policy, signal);
        run = { totals: comparison.totals, comparison: () => comparison };
      } else run = await this.otherPolicy(transcript, { ...policy, name }, signal);
      byName.set(name, run);
    }
    return run;
  }

  /** The verdict under the settings of `policy`: every compared policy the session's provider is offered, the
   * one in force among them, each run as the chart's comparisons are (summarizer `none`) and ranked against the baseline. */
  async verdict(transcript: Transcript, policy: Policy, signal?: AbortSignal): Promise<Verdict> {
    const baseline = await this.baselineFor(transcript, policy, signal);
    const none = this.baseline?.analysis;
    const { provider, session } = verdictSession(transcript, policy, none?.contextWindow);
    const totals: { policyName: string; cost: number }[] = [];
    for (const name of offeredPolicies(provider)) {
      const run = await this.runOf(transcript, policy, name, signal);
      totals.push({ policyName: name, cost: run.totals.cost });
    }
    return rankVerdict({
      provider,
      baseline: {
        name: 'none',
        words: baselineWords(policy.replay.baseline),
        cost: baseline.totals.cost,
        requests: none ? none.requests.filter((r) => !r.pending).length : 0,
      },
      totals,
      policy,
      session,
    });
  }

  /** Stops the verdict's runs under way: the user changed the settings again (see `currentVerdict`). */
  stopVerdict(): void {
    this.verdictRuns.abort();
    this.verdictRuns = new AbortController();
  }

  /** `verdict`, or null once `stopVerdict` was called meanwhile. */
  async currentVerdict(transcript: Transcript, policy: Policy): Promise<Verdict | null> {
    const signal = this.verdictRuns.signal;
    try {
      return await unlessPreempted(this.verdict(transcript, policy, signal), signal);
    } catch (error) {
      if (error instanceof Preempted) return null;
      throw error;
    }
  }

  private async otherPolicy(transcript: Transcript, other: Policy, signal?: AbortSignal): Promise<PolicyRun> {
    const key = ResultCache.key(other, 'none');
    const result = this.results.get(key) ?? (await this.engine.analyze(transcript, other, 'none', signal));
    this.results.set(key, result);
    const { totals, requests } = result.analysis;
    let comparison: PolicyComparison | undefined;
    return {
      totals,
      comparison: () => {
        comparison ??= { policyName: other.name, totals, requests: encodeRequests(requests) };
        return comparison;
      },
    };
  }

  /** The Requests tab's message: every other policy, and for a replayed session (`shown`: its analysis under
   * `policy`) the payback of one pass now, a further run made only when the tab asks. */
  async message(
    transcript: Transcript,
    policy: Policy,
    shown: Analysis | undefined,
  ): Promise<Extract<HostMessage, { type: 'comparisons' }>> {
    const message: Extract<HostMessage, { type: 'comparisons' }> = {
      type: 'comparisons',
      comparisons: await this.compareAll(transcript, policy),
    };
    if (!shown || policy.name === 'none' || ranOnce(shown)) return message;
    const key = JSON.stringify(policy);
    if (this.compactedNow?.key !== key) {
      const { analysis: once } = await this.engine.analyze(transcript, oncePolicy(policy), 'none');
      this.compactedNow = { key, requests: once.requests };
    }
    const none = this.baseline?.analysis;
    const payback = none ? paybackOf(this.compactedNow.requests, none.requests) : null;
    if (payback) message.compactedNow = payback;
    return message;
  }
}
