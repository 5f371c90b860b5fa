// The compaction trigger's count and the summarization request it sends (compaction.ts, SPEC §5), the log's own
// compactions' included: every replay that follows them pays their summarization requests too, from the agent's
// own record of each where it was read (loggedSummarization.ts), else estimated as the simulation's are.
import type { RequestAnalysis, SummarizationRequest } from '../analysisTypes';
import type { RecordedUsage } from '../model';
import type { ModelCache } from './cacheBoundary';
import { cacheRulesFor } from './cacheRules';
import { cacheExpired } from './cacheTimes';
import { type CompactionRun, loggedCompactions } from './compaction';
import { loggedFigures, summarizationsAt } from './loggedSummarization';
import type { RequestContents } from './requestContents';
import { cacheLifetimes, type RequestPricing } from './requests';
import type { EngineState } from './state';

export function promptOf(u: RecordedUsage | NonNullable<RequestAnalysis['recorded']>): number {
  return u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens;
}

/** What the agent counts before request k (compaction.ts): where the simulation still sends what the log sent
 * (`onTrack`), the log's own figures (its count at its compactions, else the API's count of that very request);
 * elsewhere the previous prompt and the messages since. */
export function agentCount(
  state: EngineState,
  compaction: CompactionRun,
  c: number,
  previous: RequestAnalysis,
  onTrack: boolean,
  k: number,
  previousEnd: number,
  end: number,
): number {
  const prep = state.prep;
  const logged = compaction.loggedBetween(previousEnd, end);
  if (onTrack && logged?.preTokens !== undefined) return logged.preTokens;
  const usage = k < prep.requestEnds.length ? prep.transcript.messages[end].usage : undefined;
  if (onTrack && !logged && usage && promptOf(usage) > 0) return promptOf(usage);
  const base = onTrack && previous.recorded ? promptOf(previous.recorded) : previous.promptTokens;
  return base + c * (state.sums.prefix(end) - state.sums.prefix(previousEnd));
}

/** Where a compaction before this request started from, and what the agent counted then. */
export interface CompactedFrom {
  /** The segment summarized: [start, upTo), sent after the summary it began with (`summary`, our count). */
  start: number;
  summary: number;
  upTo: number;
  context: number;
  /** Whether it is the log's own compaction (then its summary is the log's). */
  fromLog: boolean;
  /** The new summary's tokens (our count): the summarization request's output. */
  summaryOut: number;
}

/** Compaction before request k: where the sent requests are the log's, the segment the log's request starts; then,
 * where the policy decides (a simulation, or the next request), a summary first when the context the agent counts
 * reaches the threshold. Returns where it compacted from, if it did. */
export function compactBefore(
  state: EngineState,
  compaction: CompactionRun,
  contents: RequestContents,
  requests: readonly RequestAnalysis[],
  asLoggedAt: readonly boolean[],
  k: number,
  ends: readonly number[],
): CompactedFrom | undefined {
  const prep = state.prep;
  if (!compaction.simulate) {
    compaction.start = prep.requestStarts[k];
    compaction.summary = compaction.start > 0 ? (prep.compactionSummaryTokens.get(compaction.start) ?? 0) : 0;
  }
  const pending = k === ends.length - 1;
  if (k === 0 || !(compaction.simulate || pending)) return undefined;
  const { rule } = compaction;
  const previousEnd = ends[k - 1];
  const end = ends[k];
  const c = contents.c;
  const onTrack = asLoggedAt[k - 1] === true;
  let context: number;
  if (rule.count === 'input') context = contents.prompt(compaction.start, end);
  else {
    context = agentCount(state, compaction, c, requests[k - 1], onTrack, k, previousEnd, end);
    // Codex adds back the reasoning of earlier turns, which the API no longer counts (reasoning.ts).
    if (rule.count === 'agentWithReasoning')
      context += c * (prep.reasoning?.dropped(compaction.start, end, end) ?? 0);
  }
  // The server compacts past its trigger; the agents once their count reaches it.
  if (rule.count === 'input' ? !(context > rule.triggerTokens) : !(context >= rule.triggerTokens))
    return undefined;
  const from = { start: compaction.start, summary: compaction.summary };
  const logged = compaction.allLoggedBetween(previousEnd, end).at(-1);
  const fromLog = compaction.compact(previousEnd, end, rule.summaryTokens / c);
  // The log's summary replaced what came before its own point; a summary of ours, the whole conversation so far.
  const upTo = fromLog && logged ? logged.beforeMessage : end;
  return { ...from, upTo, context, fromLog, summaryOut: compaction.summary };
}

/** Where the replay follows the log's compactions (every policy but a simulated compaction): the log's compaction
 * between request k−1 and request k, if any, as its summarization request starts from it. The agent counted
 * `preTokens` where it says so, else the previous request's recorded (or simulated) prompt. */
export function loggedCompactionBefore(
  state: EngineState,
  contents: RequestContents,
  requests: readonly RequestAnalysis[],
  k: number,
): CompactedFrom | undefined {
  const prep = state.prep;
  if (k === 0) return undefined;
  const at = prep.requestStarts[k];
  const before = prep.requestStarts[k - 1];
  if (at === before) return undefined;
  const logged = loggedCompactions(prep).find((c) => c.segmentStart === at);
  if (!logged) return undefined;
  // What the agent counted at the first of the log's compactions here (where it compacted more than once).
  const first = loggedCompactions(prep).find((c) => c.beforeMessage > before) ?? logged;
  const previous = requests[k - 1];
  const context =
    first.preTokens ?? (previous.recorded ? promptOf(previous.recorded) : previous.promptTokens);
  return {
    start: before,
    summary: contents.summaryAt(before),
    upTo: at,
    context,
    fromLog: true,
    summaryOut: logged.summaryTokens,
  };
}

/** The segments summarized by a compaction before a request: the one, or where the log compacted more than once
 * before the request (the agent sent nothing in between), one per compaction of the log, each summarizing the
 * segment the one before it began (its summary, and what came after it). `withoutSummaries`: the log's summary
 * messages are out of the message stream (a simulated compaction), so a segment's summary is counted apart. */
export function summarizedSegments(
  state: EngineState,
  contents: RequestContents,
  from: CompactedFrom,
  previousEnd: number,
  withoutSummaries: boolean,
): CompactedFrom[] {
  if (!from.fromLog) return [from];
  const prep = state.prep;
  const points = loggedCompactions(prep).filter(
    (c) => c.beforeMessage > previousEnd && c.beforeMessage <= from.upTo,
  );
  if (points.length < 2) return [from];
  const out: CompactedFrom[] = [
    { ...from, upTo: points[0].beforeMessage, summaryOut: points[0].summaryTokens },
  ];
  for (let i = 1; i < points.length; i++) {
    const start = points[i - 1].beforeMessage;
    const upTo = points[i].beforeMessage;
    const summary = withoutSummaries
      ? points[i - 1].summaryTokens
      : (prep.compactionSummaryTokens.get(start) ?? 0);
    // The agent's count where it recorded one, else what this summarization request sends.
    const context =
      points[i].preTokens ??
      contents.hiddenAt(start) + contents.c * (state.sums.prefix(upTo) - state.sums.prefix(start) + summary);
    out.push({ start, summary, upTo, context, fromLog: true, summaryOut: points[i].summaryTokens });
  }
  return out;
}

/** Several summarization requests before one request, as one: their figures added up, `requests` saying how many. */
export function addedSummarizations(list: readonly SummarizationRequest[]): SummarizationRequest {
  if (list.length === 1) return list[0];
  const sum = (f: (s: SummarizationRequest) => number) => list.reduce((a, s) => a + f(s), 0);
  const out: SummarizationRequest = {
    contextTokens: list[0].contextTokens,
    promptTokens: sum((s) => s.promptTokens),
    cachedTokens: sum((s) => s.cachedTokens),
    writtenTokens: sum((s) => s.writtenTokens),
    outputTokens: sum((s) => s.outputTokens),
    fromLog: list.every((s) => s.fromLog),
    estimated: list.some((s) => s.estimated),
    cost: sum((s) => s.cost),
    keptFrom: list[list.length - 1].keptFrom,
    requests: list.length,
  };
  const files = list.flatMap((s) => (s.file ? [s.file] : []));
  if (files.length > 0) out.file = files.join(', ');
  return out;
}

/** What the summarization request before request k is sent with: the model that answered the request before it
 * (the agent summarizes with the conversation's model, reading the cache that request left), and whether the
 * replay still sends what the log sent (then the agent's own record of it, where read, speaks for it). */
export interface SummarizingWith {
  k: number;
  model: string | undefined;
  caches: ReadonlyMap<string, ModelCache>;
  pricing: RequestPricing;
  /** Request k's time (the summarization comes just before it). */
  time: number | undefined;
  onTrack: boolean;
  promptOf: (request: number) => number;
}

/** The summarization request: the conversation so far (the segment summarized), the previous request's prompt read
 * from its cache, the summary out; or the agent's own record of it, where it is the log's compaction, the record
 * was read and nothing the replay changed was in what it summarized. */
export function summarizationRequest(
  state: EngineState,
  contents: RequestContents,
  from: CompactedFrom,
  end: number,
  keptFrom: number,
  w: SummarizingWith,
): SummarizationRequest {
  const prep = state.prep;
  const { pricing } = w;
  const key = pricing.cacheKey[w.k - 1];
  const prices = pricing.prices[w.k - 1];
  const logged = from.fromLog && w.onTrack ? summarizationsAt(prep).get(from.upTo) : undefined;
  if (logged && !state.events.some((e) => e.messageIndex >= from.start && e.messageIndex < from.upTo)) {
    const figures = loggedFigures(logged, prices, pricing.ttl, pricing.ttlAsLogged);
    return {
      contextTokens: Math.round(from.context),
      ...figures,
      fromLog: true,
      estimated: false,
      file: logged.file,
      keptFrom,
    };
  }
  // Counted and hidden at the summarizing model's fit, then back to the model that answers request k.
  const answering = contents.answering;
  contents.answering = w.model;
  contents.answer();
  const { c } = contents;
  const prompt = Math.round(
    contents.hiddenAt(from.start) +
      c *
        (state.sums.prefix(from.upTo) -
          state.sums.prefix(from.start) +
          from.summary -
          (prep.reasoning?.dropped(from.start, from.upTo, end) ?? 0) -
          (state.leftOut?.dropped(from.start, from.upTo, end) ?? 0) -
          (prep.foreignThinking?.dropped(w.model, from.start, from.upTo) ?? 0)),
  );
  const output = Math.round(c * from.summaryOut);
  contents.answering = answering;
  contents.answer();
  const prev = w.caches.get(key);
  const rules = cacheRulesFor(prices);
  const expired = cacheExpired(
    prep,
    cacheLifetimes(pricing, prices).now,
    pricing.keyedByModel,
    key,
    prev?.time,
    w.time,
  );
  const cachedFrom = prev && !expired && prev.start === from.start ? w.promptOf(prev.request) : 0;
  const cached = Math.min(prompt, rules.cachedOf(cachedFrom));
  return {
    contextTokens: Math.round(from.context),
    promptTokens: prompt,
    cachedTokens: cached,
    writtenTokens: prompt - cached,
    outputTokens: output,
    fromLog: from.fromLog,
    estimated: true,
    cost: rules.cost(prices, pricing.ttl, cached, prompt - cached, output),
    keptFrom,
  };
}
