// The webview's state: what the host last sent, plus the user's selection. The webview computes nothing
// about compression; it keeps what the host concluded and draws it.
import { decodeAnalysis, decodePatched, decodeRequests } from '../src/analysisWire/decode';
import { applyPatch } from '../src/analysisWire/patch';
import type { AnalysisWire, ViewAnalysis } from '../src/analysisWire/types';
import type { AnalysisTotals, Payback, RequestAnalysis } from '../src/core/analysisTypes';
import type { Policy } from '../src/core/engine/policy';
import { sameData } from '../src/core/sameData';
import type { HostMessage } from '../src/protocol/hostMessages';
import type { ModelPresetSummary, SummarizerName, VerdictWire, ViewLayout } from '../src/protocol/shared';

export type TranscriptInfo = Extract<HostMessage, { type: 'transcript' }>;
export type DetailsInfo = Extract<HostMessage, { type: 'details' }>;
export type Ahead = Extract<HostMessage, { type: 'ahead' }>;
export interface Comparison {
  policyName: string;
  totals: AnalysisTotals;
  requests: RequestAnalysis[];
}

export interface State {
  loading: { fileName: string; phase: string; fraction?: number } | null;
  transcript: TranscriptInfo | null;
  analysis: ViewAnalysis | null;
  /** The shown analysis as it crossed, whole, and its id: the next analysis message may patch it. */
  wire: { id: number; analysis: AnalysisWire } | null;
  /** A patch arrived that does not fit the analysis held: the whole one must be asked for again. */
  resync: boolean;
  /** The policy the shown analysis was computed with. */
  analysedPolicy: Policy | null;
  comparisons: Comparison[];
  /** A replayed session: one pass now against none, from the Requests tab's comparison (null: not computed for
   * the shown analysis). */
  compactedNow: Payback | null;
  /** The host's answer to the list's latest search (messages whose full text holds the query). */
  found: Extract<HostMessage, { type: 'found' }> | null;
  analysisSeq: number;
  elapsedMs: number;
  /** The policy as the controls show it: the settings, plus the user's changes not yet answered. */
  policy: Policy | null;
  summarizer: SummarizerName;
  models: ModelPresetSummary[];
  scope: 'workspace' | 'global';
  problem: string | null;
  selected: number | null;
  details: DetailsInfo | null;
  error: string | null;
  /** The last change this view sent (updateSettings.seq). */
  sentSeq: number;
  /** The last change the host answered (with an analysis, or a refusal). */
  answeredSeq: number;
  /** Analyses the host ran ahead, as patches on the shown one (`wire`): a change to their settings shows one at
   * once (`aheadFor`). */
  aheads: Ahead[];
  /** The layout the host remembered for this workspace; null until it says (or when it has none). */
  layout: ViewLayout | null;
  /** The Tuning tab's latest sweep: its progress, then its grid. */
  sweep: Extract<HostMessage, { type: 'sweepGrid' }> | null;
  /** The strategies of the session's provider ranked against the baseline (null until the host answered). */
  verdict: VerdictWire | null;
  /** The Cache tab's figures for the shown analysis (the header names their costliest cause). */
  cache: Extract<HostMessage, { type: 'cacheView' }> | null;
}

export const initialState: State = {
  loading: null,
  transcript: null,
  analysis: null,
  wire: null,
  resync: false,
  analysedPolicy: null,
  comparisons: [],
  compactedNow: null,
  found: null,
  analysisSeq: 0,
  elapsedMs: 0,
  policy: null,
  summarizer: 'none',
  models: [],
  sweep: null,
  cache: null,
  scope: 'global',
  problem: null,
  selected: null,
  details: null,
  error: null,
  sentSeq: 0,
  answeredSeq: 0,
  aheads: [],
  layout: null,
  verdict: null,
};

export type Action =
  | { type: 'host'; message: HostMessage }
  | { type: 'select'; index: number | null }
  /** `ahead`: what `aheadFor` found for the change, shown at once. */
  | { type: 'localPolicy'; policy: Policy; summarizer?: SummarizerName; seq: number; ahead?: Ahead }
  | { type: 'invalid'; error: string };

export function reducer(state: State, action: Action): State {
  switch (action.type) {
    case 'select':
      return { ...state, selected: action.index, details: action.index === null ? null : state.details };
    case 'localPolicy': {
      const summarizer = action.summarizer ?? state.summarizer;
      // Checked again: changes made since the caller looked (two keys in one frame) may have made it stale.
      const ahead =
        action.ahead && aheadFor(state, action.policy, summarizer) === action.ahead ? action.ahead : null;
      // A new change answers the host's last refusal: its message would be stale.
      const changed = { ...state, sentSeq: action.seq, policy: action.policy, summarizer, problem: null };
      return ahead ? fromHost(changed, { ...ahead.analysis, seq: action.seq }) : changed;
    }
    case 'invalid':
      return { ...state, error: action.error };
    case 'host':
      return fromHost(state, action.message);
  }
}

function fromHost(state: State, m: HostMessage): State {
  switch (m.type) {
    case 'loading':
      return { ...state, loading: { fileName: m.fileName, phase: m.phase, fraction: m.fraction } };
    case 'transcript': {
      // A file that grew keeps the selection when the message still exists.
      const selected = state.selected !== null && state.selected < m.messages.length ? state.selected : null;
      // An analysis that came first took its roles and tool names from the list it had: read it again with this one.
      const analysis = state.wire ? decodeAnalysis(state.wire.analysis, m.messages) : state.analysis;
      return { ...state, transcript: m, analysis, selected, loading: null, error: null };
    }
    case 'analysis': {
      // The host's copy of the analysis run ahead that this view showed already.
      if (m.id === state.wire?.id)
        return { ...state, answeredSeq: Math.max(state.answeredSeq, m.seq), elapsedMs: m.elapsedMs };
      const messages = state.transcript?.messages ?? [];
      let analysis: ViewAnalysis;
      let wire: AnalysisWire;
      if (m.patch) {
        const whole =
          state.wire?.id === m.patch.base ? applyPatch(state.wire.analysis, m.analysis, m.patch) : null;
        // A patch on an analysis this view does not hold (it connected after it was sent): wait for the whole
        // one the host sends on `ready`, and ask for it when this view was in step before.
        if (!whole || !state.analysis) return state.wire ? { ...state, resync: true } : state;
        wire = whole;
        analysis = decodePatched(whole, m.patch, state.analysis, messages);
      } else {
        wire = m.analysis;
        analysis = decodeAnalysis(m.analysis, messages);
      }
      return {
        ...state,
        analysis,
        wire: { id: m.id, analysis: wire },
        resync: false,
        analysedPolicy: m.policy,
        comparisons: m.comparisons
          ? m.comparisons.map((c) => ({ ...c, requests: decodeRequests(c.requests) }))
          : state.comparisons,
        // Computed for the previous settings; the Requests tab asks again after each analysis.
        compactedNow: null,
        analysisSeq: m.seq,
        answeredSeq: Math.max(state.answeredSeq, m.seq),
        // Patches on the analysis shown before: the host offers those on this one next.
        aheads: [],
        elapsedMs: m.elapsedMs,
        policy: state.policy ?? m.policy,
        loading: null,
      };
    }
    case 'settings':
      return {
        ...state,
        // The answer to an older change while newer ones are on their way (keys pressed quickly): the policy
        // shown already holds the newer ones, and this one would undo them for a moment (and the next key
        // would start from it). A refusal, or settings changed elsewhere (no seq), always apply.
        policy:
          m.seq !== undefined && m.seq < state.sentSeq && !m.problem ? (state.policy ?? m.policy) : m.policy,
        summarizer: m.summarizer,
        models: m.models,
        scope: m.scope,
        problem: m.problem ?? null,
        answeredSeq:
          m.seq !== undefined && m.problem ? Math.max(state.answeredSeq, m.seq) : state.answeredSeq,
      };
    case 'ahead': {
      const base = m.analysis.patch?.base;
      if (base === undefined || base !== state.wire?.id) return state;
      const others = state.aheads.filter(
        (a) => !(a.summarizer === m.summarizer && sameData(a.analysis.policy, m.analysis.policy)),
      );
      // All are kept: the host offers a few per analysis shown (the steps of the tier constants, the other
      // policies), and they go with it.
      return { ...state, aheads: [...others, m] };
    }
    case 'details':
      return m.messageIndex === state.selected ? { ...state, details: m } : state;
    case 'comparisons':
      return {
        ...state,
        comparisons: m.comparisons.map((c) => ({ ...c, requests: decodeRequests(c.requests) })),
        compactedNow: m.compactedNow ?? null,
      };
    case 'error':
      return { ...state, error: m.message, loading: null };
    case 'found':
      // An answer to an older search than the one shown is dropped.
      return state.found && m.seq < state.found.seq ? state : { ...state, found: m };
    case 'layout':
      return { ...state, layout: m.layout };
    case 'sweepGrid':
      // An answer to an older sweep than the one shown is dropped.
      return state.sweep && m.seq < state.sweep.seq ? state : { ...state, sweep: m };
    case 'verdict':
      return { ...state, verdict: m.verdict };
    case 'cacheView':
      // An answer to an older question than the one shown is dropped.
      return state.cache && m.seq < state.cache.seq ? state : { ...state, cache: m };
    case 'list':
    case 'packed':
      // Never delivered: the check on arrival makes the message of their bytes (listWire.ts, packedMessage.ts).
      return state;
  }
}

/**
 * The analysis run ahead for `policy` and `summarizer` that this view can show at once: a patch on the analysis it
 * shows, while no change of its own waits for an answer (the host, which answers changes in order, then holds that
 * analysis too and only adopts the one run ahead).
 */
export function aheadFor(state: State, policy: Policy, summarizer: SummarizerName): Ahead | undefined {
  const shown = state.wire?.id;
  if (shown === undefined || state.answeredSeq < state.sentSeq) return undefined;
  return state.aheads.find(
    (a) =>
      a.analysis.patch?.base === shown && a.summarizer === summarizer && sameData(a.analysis.policy, policy),
  );
}
