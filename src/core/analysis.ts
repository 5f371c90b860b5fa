// Transcript + Policy → Analysis: the one thing the UI and the CLI read, plus the rewrites that export writes
// and the CCR store. The engine runs as a generator that yields summary requests, so one code path serves the
// synchronous drive (CLI, tests, `none`/`extractive`) and the asynchronous one (a model-backed summarizer).
import type {
  Analysis,
  AnalysisTotals,
  MessageAnalysis,
  RecordedComparison,
  RequestAnalysis,
  SummarizationRequest,
  Zone,
} from './analysisTypes';
import { recordedCompactions } from './engine/compaction';
import { derive, derived } from './engine/derived';
import { liveZoneIndex } from './engine/liveZone';
import { AUTO_MODEL, MODEL_PRESETS, type ModelPreset, sessionPreset } from './engine/models';
import { compactionRuleOf } from './engine/policies/registry';
import { type Policy, policyPasses } from './engine/policy';
import {
  BLOCK_STRIDE,
  type PreparedTranscript,
  prepareTranscript,
  prepareTranscriptInSlices,
} from './engine/prepare';
import { PAUSE, type RunRules, replay } from './engine/replay';
import { runRules } from './engine/runRules';
import { EngineState } from './engine/state';
import { type Summarizer, SummaryCache, type SummaryOutcome } from './engine/summarizer';
import type { SummaryRequest } from './engine/tiered';
import { messageFacts, withProvenWindow } from './engine/transcriptFacts';
import { whyFacts } from './engine/why';

export { runRules } from './engine/runRules';

import { givingWay, SLICE_MS } from './giveWay';
import type { Rewrite, Transcript } from './model';
import { type RecordedUsageReport, recordedUsage, unpricedWords } from './recordedUsage';
import { type TokenCounter, tokenCounter } from './tokens/counter';

export interface AnalyzeOptions {
  /** SPEC §6; null or absent: `none` (head-and-tail only, no attempts). */
  summarizer?: Summarizer | null;
  /** Shared across analyses so that replays and slider moves never ask twice. */
  summaryCache?: SummaryCache;
  /** Model presets as the user edited them. */
  models?: readonly ModelPreset[];
  /** A counter whose cache was primed (e.g. by the worker pool). Default: the process-wide one. */
  counter?: TokenCounter;
  /** The transcript prepared for this run (its counter is then the run's): a probe's (engine/prepare.ts). */
  prepared?: PreparedTranscript;
  /** Counts the texts the policy writes in this run; default: the preparation's counter (see
   * tokens/primedCounters.ts for why a run has one of its own). */
  runCounter?: TokenCounter;
  signal?: AbortSignal;
  /** Gives way to other work on this thread once the run has held it this long (the editor's extension host is
   * every extension's: a long session's replay would freeze them all). Default, for a run that may be stopped
   * (`signal`): `SLICE_MS`; otherwise the run never gives way (the CLI would only be slower). */
  giveWayEveryMs?: number;
}

export interface AnalysisResult {
  analysis: Analysis;
  /** The final content of every rewritten block, in message/block order. */
  rewrites: Rewrite[];
  /** CCR store: `{ "<24-hex hash>": "<original>" }` for every live-zone marker. */
  ccr: Record<string, string>;
}

const defaultSummaryCache = new SummaryCache();

interface Run {
  prep: PreparedTranscript;
  state: EngineState;
  rules: RunRules;
  engine: Generator<SummaryRequest, RequestAnalysis[], SummaryOutcome>;
}

/** The model a run prices and counts with, and its token counter. */
function runModel(transcript: Transcript, policy: Policy, options: AnalyzeOptions) {
  const models = options.models ?? MODEL_PRESETS;
  const model = sessionPreset(policy.model, transcript.format, transcript.model, models);
  if (!model)
    throw new Error(`model: unknown preset "${policy.model}" (known: ${models.map((m) => m.id).join(', ')})`);
  const counter = options.prepared?.counter ?? options.counter ?? tokenCounter(model.tokenizer);
  if (counter.tokenizer !== model.tokenizer)
    throw new Error(`token counter uses ${counter.tokenizer} but model ${model.id} uses ${model.tokenizer}`);
  return { model, counter };
}

function startRun(
  transcript: Transcript,
  policy: Policy,
  options: AnalyzeOptions,
  prepared?: PreparedTranscript,
): Run {
  const { model, counter } = runModel(transcript, policy, options);
  const prep = options.prepared ?? prepared ?? prepareTranscript(transcript, model.tokenizer, counter);
  const state = new EngineState(prep, options.runCounter);
  const rules = runRules(
    policy,
    policy.model === AUTO_MODEL ? withProvenWindow(prep, model) : model,
    prep,
    Boolean(options.summarizer),
  );
  return { prep, state, rules, engine: replay(state, rules) };
}

/** What the engine is handed back after a PAUSE (it reads nothing from it). */
const PAUSED: SummaryOutcome = { ok: false, error: 'paused' };

function failure(error: unknown): SummaryOutcome {
  return { ok: false, error: error instanceof Error ? error.message : String(error) };
}

function cachedOutcome(
  options: AnalyzeOptions,
  request: SummaryRequest,
): { key: string; cache: SummaryCache; hit?: SummaryOutcome } {
  const cache = options.summaryCache ?? defaultSummaryCache;
  const key = cache.key(options.summarizer?.id ?? 'none', request.toolName, request.content);
  return { key, cache, hit: cache.get(key) };
}

function checkSummary(summary: string): SummaryOutcome {
  const trimmed = summary.trim();
  return trimmed.length > 0 ? { ok: true, summary: trimmed } : { ok: false, error: 'empty summary' };
}

/** Synchronous analysis: summarizer `none`, one with `summarizeSync`, or summaries already in the cache. */
export function analyzeSync(
  transcript: Transcript,
  policy: Policy,
  options: AnalyzeOptions = {},
): AnalysisResult {
  const run = startRun(transcript, policy, options);
  let step = run.engine.next();
  while (!step.done) {
    const request = step.value;
    if (request === PAUSE) {
      step = run.engine.next(PAUSED);
      continue;
    }
    const { key, cache, hit } = cachedOutcome(options, request);
    let outcome = hit;
    if (!outcome) {
      const sync = options.summarizer?.summarizeSync;
      if (!sync)
        throw new Error(
          `summarizer ${options.summarizer?.id} has no synchronous form: use analyze() and await it`,
        );
      try {
        outcome = checkSummary(sync(request.toolName, request.content));
      } catch (error) {
        outcome = failure(error);
      }
      cache.set(key, outcome);
    }
    step = run.engine.next(outcome);
  }
  return finish(run, step.value, options);
}

/** The engine entry: awaits the summarizer when one is asked for a summary that is not cached. */
export async function analyze(
  transcript: Transcript,
  policy: Policy,
  options: AnalyzeOptions = {},
): Promise<AnalysisResult> {
  const signal = options.signal ?? new AbortController().signal;
  const every = options.giveWayEveryMs ?? (options.signal ? SLICE_MS : undefined);
  const giveWay = every === undefined ? () => undefined : givingWay(every);
  let prepared: PreparedTranscript | undefined;
  if (every !== undefined && !options.prepared) {
    const { model, counter } = runModel(transcript, policy, options);
    prepared = await prepareTranscriptInSlices(transcript, model.tokenizer, counter, giveWay);
    signal.throwIfAborted();
  }
  const run = startRun(transcript, policy, options, prepared);
  let step = run.engine.next();
  while (!step.done) {
    const request = step.value;
    if (request === PAUSE) {
      await giveWay();
      signal.throwIfAborted();
      step = run.engine.next(PAUSED);
      continue;
    }
    const { key, cache, hit } = cachedOutcome(options, request);
    let outcome = hit;
    if (!outcome) {
      const summarizer = options.summarizer;
      try {
        if (!summarizer) throw new Error('no summarizer');
        outcome = checkSummary(await summarizer.summarize(request.toolName, request.content, signal));
      } catch (error) {
        outcome = failure(error);
      }
      // A cancelled request says nothing about the content: not cached, so a later run asks again.
      if (!signal.aborted) cache.set(key, outcome);
    }
    step = run.engine.next(outcome);
  }
  return finish(run, step.value, options);
}

function zones(run: Run, policy: Policy): Zone[] {
  const messages = run.prep.transcript.messages;
  const out: Zone[] = new Array(messages.length).fill('prefix');
  const live = liveZoneIndex(run.state, messages.length);
  if (live < 0) return out;
  for (let i = live; i < messages.length; i++) out[i] = 'live';
  // Protected: the last `keepTurns` turns before the live zone, a turn starting at a user message.
  let turns = 0;
  let start = live;
  for (let i = live - 1; i >= 0 && turns < policy.liveZone.keepTurns; i--) {
    if (messages[i].role === 'user') {
      turns++;
      start = i;
    }
  }
  for (let i = start; i < live; i++) out[i] = 'protected';
  return out;
}

const sessionUsage = derived('sessionUsage', (prep): RecordedUsageReport | null =>
  recordedUsage(prep.transcript),
);

function compareRecorded(
  prep: PreparedTranscript,
  requests: RequestAnalysis[],
): RecordedComparison | undefined {
  const withUsage = requests.filter((r) => r.recorded);
  if (withUsage.length === 0) return undefined;
  const session = derive(prep, sessionUsage);
  let recordedCacheRead = 0;
  let recordedWritten = 0;
  let simulatedCached = 0;
  let simulatedWritten = 0;
  const rel = (sim: number, rec: number) => (rec > 0 ? (sim - rec) / rec : null);
  const perRequest = withUsage.map((r) => {
    const rec = r.recorded!;
    const written = rec.cacheCreationInputTokens + rec.inputTokens;
    recordedCacheRead += rec.cacheReadInputTokens;
    recordedWritten += written;
    simulatedCached += r.cachedTokens;
    simulatedWritten += r.writtenTokens;
    return {
      index: r.index,
      cachedError: rel(r.cachedTokens, rec.cacheReadInputTokens),
      writtenError: rel(r.writtenTokens, written),
    };
  });
  const estimate =
    session && session.unpriced.length > 0
      ? { sessionCostEstimate: { cost: session.unpricedCost, models: unpricedWords(session) } }
      : {};
  return {
    ...estimate,
    requests: withUsage.length,
    fileReplies: session?.replies ?? withUsage.length,
    sessionCost: session?.cost ?? 0,
    recordedCacheRead,
    simulatedCached,
    recordedWritten,
    simulatedWritten,
    cachedError: recordedCacheRead > 0 ? (simulatedCached - recordedCacheRead) / recordedCacheRead : 0,
    writtenError: recordedWritten > 0 ? (simulatedWritten - recordedWritten) / recordedWritten : 0,
    perRequest,
  };
}

function finish(run: Run, requests: RequestAnalysis[], options: AnalyzeOptions): AnalysisResult {
  const { prep, state, rules } = run;
  const { policy, model } = rules;
  const transcript = prep.transcript;
  const passes = policyPasses(policy.name);
  const zoneOf = zones(run, policy);
  const trm = prep.toolResultMessages;
  const rewrittenMessages = new Set<number>();
  for (const key of state.overrides.keys()) rewrittenMessages.add(Math.floor(key / BLOCK_STRIDE));
  const facts = derive(prep, messageFacts);
  const messages: MessageAnalysis[] = facts.map((f, index) => ({
    index,
    role: f.role,
    tier: f.distance !== null && passes.tiered ? (state.messageTier[index] ?? 3) : null,
    distance: f.distance,
    floored: state.messageFloored[index],
    zone: zoneOf[index],
    tokensBefore: prep.messageTokens[index],
    tokensAfter: state.messageTokens[index],
    rewritten: rewrittenMessages.has(index),
    toolIds: f.toolIds,
    toolNames: f.toolNames,
  }));
  const tiers: AnalysisTotals['tiers'] = {
    '1': { count: 0, tokensSaved: 0 },
    '2': { count: 0, tokensSaved: 0 },
    '3': { count: 0, tokensSaved: 0 },
  };
  let tokensBefore = 0;
  let tokensAfter = 0;
  for (const m of messages) {
    tokensBefore += m.tokensBefore;
    tokensAfter += m.tokensAfter;
    if (m.tier !== null) {
      tiers[m.tier].count++;
      tiers[m.tier].tokensSaved += m.tokensBefore - m.tokensAfter;
    }
  }
  const sent = requests.filter((r) => !r.pending);
  const sum = (f: (r: RequestAnalysis) => number) => sent.reduce((a, r) => a + f(r), 0);
  // A compaction's summarization request is paid too (its cost is in its request's).
  const withSummary = (f: (r: RequestAnalysis) => number, g: (s: SummarizationRequest) => number) =>
    sum((r) => f(r) + (r.compaction ? g(r.compaction) : 0));
  const pending = requests.find((r) => r.pending);
  // What the client sends: the server's clearings (context editing) are not written, the client's rewrites are.
  const rewrites: Rewrite[] = [];
  for (const key of [...state.overrides.keys()].sort((a, b) => a - b)) {
    const o = state.exportedOverride(key);
    if (o)
      rewrites.push({
        messageIndex: Math.floor(key / BLOCK_STRIDE),
        blockIndex: key % BLOCK_STRIDE,
        content: o.info.content,
      });
  }
  const grewEvents: number[] = [];
  state.events.forEach((e, i) => {
    if (e.newLen > e.oldLen) grewEvents.push(i);
  });
  const analysis: Analysis = {
    format: transcript.format,
    policyName: policy.name,
    trigger: rules.trigger,
    messages,
    requests,
    events: state.events,
    totals: {
      messages: messages.length,
      toolResults: trm.length,
      tokensBefore,
      tokensAfter,
      promptTokens: withSummary(
        (r) => r.promptTokens,
        (c) => c.promptTokens,
      ),
      cachedTokens: withSummary(
        (r) => r.cachedTokens,
        (c) => c.cachedTokens,
      ),
      writtenTokens: withSummary(
        (r) => r.writtenTokens,
        (c) => c.writtenTokens,
      ),
      cost: sum((r) => r.cost),
      tiers,
      summarizerAttempts: state.summarizerAttempts,
      summarizerFailures: state.summarizerFailures,
    },
    cacheBoundary:
      pending && pending.boundaryMessage !== null && pending.boundaryEvents.length > 0
        ? pending.boundaryMessage
        : null,
    tokenEstimate: model.provider === 'anthropic',
    model: model.id,
    tokenizer: model.tokenizer,
    contextBudget: model.contextWindow - policy.liveZone.outputBufferTokens,
    contextWindow: model.contextWindow,
    hiddenPrefix: { ...rules.hidden },
    recorded: compareRecorded(prep, requests),
    summarizer: options.summarizer?.id ?? 'none',
    grewEvents,
    why: whyFacts(state, passes.contextEditing),
  };
  const liveFrom = requests[requests.length - 1]?.firstMessage;
  if (liveFrom) analysis.liveFrom = liveFrom;
  if (compactionRuleOf(policy, model.contextWindow))
    analysis.compactions = {
      // Under `once` the sent requests follow the log (their summarizations are its own): only the next one is ours.
      simulated: requests
        .filter((r) => r.compaction && (rules.trigger !== 'once' || r.pending))
        .map((r) => r.index),
      recorded: recordedCompactions(prep),
    };
  return { analysis, rewrites, ccr: { ...state.ccr } };
}
