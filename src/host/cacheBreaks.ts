// The Cache tab's question on the host: the breaks of the thread shown, as the log records them and as the shown
// policy's replay makes them, with the per-request hit rates and, when asked, what would have avoided them (the
// session replayed under its provider's shorter and longer cache lifetime); while the tab is hidden, only the
// header's line (what the log's breaks cost). The replays it needs besides the one shown (none, and the two
// lifetimes) are run once per transcript and settings they depend on, and kept with the transcript; the log's
// breaks, which no tier setting changes, are kept with the "no policy" run they are numbered by.
import type { Analysis } from '../core/analysisTypes';
import {
  type Avoided,
  type CacheBreakReport,
  type CacheView,
  cacheHeadline,
  comparedLifetimes,
  hitRates,
  loggedBreaks,
  simulatedBreaks,
  switchCosts,
  ttlAvoided,
  viewReport,
  withLifetime,
} from '../core/cacheBreaks';
import { type Policy, sessionKindOf } from '../core/engine/policy';
import type { Transcript } from '../core/model';
import { nonePolicy } from '../core/vsNone';
import type { HostMessage } from '../protocol';
import type { Engine } from './engine';

type CacheViewMessage = Extract<HostMessage, { type: 'cacheView' }>;

/** The replays under none, by the settings that change them, kept while their transcript is. */
const kept = new WeakMap<Transcript, Map<string, Promise<Analysis>>>();

function replayNone(engine: Pick<Engine, 'analyze'>, t: Transcript, policy: Policy): Promise<Analysis> {
  const none = nonePolicy(policy);
  const key = JSON.stringify([none.model, none.replay.cacheTtl, none.replay.openaiCacheRetention]);
  const byKey = kept.get(t) ?? new Map<string, Promise<Analysis>>();
  kept.set(t, byKey);
  let run = byKey.get(key);
  if (!run) {
    run = engine.analyze(t, none, 'none').then((r) => r.analysis);
    byKey.set(key, run);
    // A run that failed is not kept: the next question tries again.
    run.catch(() => byKey.delete(key));
  }
  return run;
}

/** The breaks the log of a thread records, by the "no policy" run that numbers them (a step of the tier settings
 * keeps that run, and asks again a moment after each analysis). */
const loggedKept = new WeakMap<Pick<Analysis, 'requests'>, Map<string, CacheBreakReport>>();

function logOf(t: Transcript, none: Pick<Analysis, 'requests'>, thread: string): CacheBreakReport {
  const byThread = loggedKept.get(none) ?? new Map<string, CacheBreakReport>();
  loggedKept.set(none, byThread);
  let log = byThread.get(thread);
  if (!log) {
    log = loggedBreaks(t, none, thread);
    byThread.set(thread, log);
  }
  return log;
}

function noneOf(
  engine: Pick<Engine, 'analyze'>,
  shown: ShownRun,
): Promise<Pick<Analysis, 'requests'>> | Pick<Analysis, 'requests'> {
  const { transcript: t, policy, analysis } = shown;
  return policy.name === 'none' ? analysis : (shown.none ?? replayNone(engine, t, policy));
}

export interface ShownRun {
  transcript: Transcript;
  thread: string;
  policy: Policy;
  analysis: Analysis;
  /** The "no policy" run of the same settings, when the session has it already (its requests are the log's). */
  none?: Pick<Analysis, 'requests'>;
}

/** The figures of the Cache tab for `shown`; `avoided`: with the replays of its provider's two lifetimes. */
export async function cacheView(
  engine: Pick<Engine, 'analyze'>,
  shown: ShownRun,
  avoided: boolean,
): Promise<CacheView> {
  const { transcript: t, thread, policy, analysis } = shown;
  const none = await noneOf(engine, shown);
  const log = logOf(t, none, thread);
  const replayed = simulatedBreaks(t, analysis, policy, thread, log);
  const view: CacheView = {
    thread,
    log: viewReport(log, none),
    policy: viewReport(replayed, analysis),
    hitRates: hitRates(t, analysis),
  };
  const lifetimes = comparedLifetimes(t, sessionKindOf(t, policy.model).provider, none, log);
  if (lifetimes) view.lifetimes = lifetimes;
  if (avoided) {
    const found: Avoided = { switches: switchCosts(log) };
    if (lifetimes) {
      const [shorter, longer] = await Promise.all([
        replayNone(engine, t, withLifetime(policy, lifetimes.shorter)),
        replayNone(engine, t, withLifetime(policy, lifetimes.longer)),
      ]);
      found.ttl = ttlAvoided(lifetimes, shorter, longer);
    }
    view.avoided = found;
  }
  return view;
}

/** The reply to `cacheBreaks`: the header's line and, for the Cache tab (`tab`), its figures with what would have
 * avoided the breaks; or why there are none. */
export async function cacheViewMessage(
  engine: Pick<Engine, 'analyze'>,
  shown: ShownRun | null,
  seq: number,
  tab: boolean,
): Promise<CacheViewMessage> {
  if (!shown) return { type: 'cacheView', seq, error: 'the transcript is not analysed yet' };
  try {
    const headline = cacheHeadline(logOf(shown.transcript, await noneOf(engine, shown), shown.thread));
    if (!tab) return { type: 'cacheView', seq, headline };
    return { type: 'cacheView', seq, headline, view: await cacheView(engine, shown, true) };
  } catch (e) {
    return { type: 'cacheView', seq, error: e instanceof Error ? e.message : String(e) };
  }
}
