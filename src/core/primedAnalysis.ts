// An analysis whose token counts are made elsewhere (the extension host's worker pool), the texts the policy writes
// included: see tokens/primedCounters.ts for why. Its figures are those of `analyze` with the same counter.
import { type AnalysisResult, type AnalyzeOptions, analyze } from './analysis';
import type { Policy } from './engine/policy';
import { probePreparation } from './engine/prepare';
import type { Transcript } from './model';
import type { TokenCounter } from './tokens/counter';
import { CountsMissing, IN_PLACE_BUDGET_CHARS, PrimedCounter, ProbeCounter } from './tokens/primedCounters';

/** Probes before a run counts whatever is left in place: a run with the counts a probe found may take another path
 * (a token gate, a pressure trigger) and meet texts the probe did not. */
const PROBES = 2;

export interface PrimedAnalysisOptions extends Omit<AnalyzeOptions, 'prepared' | 'runCounter'> {
  /** The counter the workers primed (the transcript's own texts are in it). */
  counter: TokenCounter;
  /** Counts `texts` off this thread into `counter`. */
  countElsewhere: (texts: string[]) => Promise<unknown>;
  /** Whether a probe may run the summarizer: one that asks a language model must not be asked for summaries of a
   * run whose figures are estimates (a probe then runs without summaries, and theirs are counted in place). */
  probeSummaries: boolean;
  /** Characters a run may tokenize in place (default `IN_PLACE_BUDGET_CHARS`). */
  inPlaceBudget?: number;
}

export async function analyzeWithPrimedCounts(
  transcript: Transcript,
  policy: Policy,
  options: PrimedAnalysisOptions,
): Promise<AnalysisResult> {
  const {
    countElsewhere,
    probeSummaries,
    inPlaceBudget = IN_PLACE_BUDGET_CHARS,
    ...analyzeOptions
  } = options;
  const { counter } = options;
  for (let probes = 0; ; probes++) {
    const budget = probes < PROBES ? inPlaceBudget : Number.POSITIVE_INFINITY;
    try {
      return await analyze(transcript, policy, {
        ...analyzeOptions,
        runCounter: new PrimedCounter(counter, budget),
      });
    } catch (error) {
      if (!(error instanceof CountsMissing)) throw error;
    }
    const probe = new ProbeCounter(counter);
    await analyze(transcript, policy, {
      ...analyzeOptions,
      summarizer: probeSummaries ? analyzeOptions.summarizer : null,
      prepared: probePreparation(transcript, counter.tokenizer, probe, counter),
    });
    await untilStopped(countElsewhere([...probe.lacking]), analyzeOptions.signal);
  }
}

/** `work`, or a rejection as soon as `signal` stops the run: a run ahead stopped by a change gives way at once, not
 * once its texts are counted (seconds, for a first switch to the live zone on 100 MB); the counts still land. */
function untilStopped<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(signal.reason);
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}
