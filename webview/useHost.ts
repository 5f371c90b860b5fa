// The view's conversation with the host: what it sends when (ready, details, the requests shown, comparisons) and
// the changes the user makes, each a request whose reply the link matches. The view's state is what the host sent
// (state.ts); a change of settings is shown at once, from an analysis the host ran ahead when it has one.
import { useCallback, useEffect, useLayoutEffect, useReducer, useRef } from 'react';
import type { Policy } from '../src/core/engine/policy';
import type { HostMessage } from '../src/protocol/hostMessages';
import { type SettingKey, type SettingValue, withPolicySetting } from '../src/protocol/settingValues';
import type { SummarizerName, SweepKey } from '../src/protocol/shared';
import type { HostLink } from './hostLink';
import { useProbes } from './probes';
import { aheadFor, initialState, reducer } from './state';

export type SweepAxisAsked = { key: SweepKey; values: number[] };

/** The figures that take the host's session whole replays (the verdict, the comparisons, the cache's line) are asked
 * for once the user pauses, as the host's runs ahead wait for: asked sooner, at a reader's pace of keys, they set the
 * session to work just as the next key came, and that key's analysis run ahead came late. */
export const AFTER_A_PAUSE_MS = 700;

export function useHost(host: HostLink, tab: string) {
  const [state, dispatch] = useReducer(reducer, initialState);
  const sentAt = useRef(new Map<number, number>()).current;
  const fromHost = useCallback((message: HostMessage) => dispatch({ type: 'host', message }), []);

  // A layout effect: the host is told the view is ready as soon as it is mounted, not after the browser painted
  // the empty view first (the host's answer, the list, is what a first paint waits for).
  useLayoutEffect(() => {
    const off = host.subscribe(fromHost, (error) => dispatch({ type: 'invalid', error }));
    host.post({ type: 'ready' });
    return off;
  }, [host, fromHost]);
  useProbes(state, sentAt);

  // An analysis patch did not fit what this view holds: ask the host for everything again.
  useEffect(() => {
    if (state.resync) host.post({ type: 'ready' });
  }, [state.resync, host]);

  // The compressed text of the selected message changes with the policy: ask again after each analysis.
  useEffect(() => {
    if (state.selected !== null && state.analysis)
      host.post({ type: 'requestDetails', messageIndex: state.selected });
  }, [state.selected, state.analysis, host]);

  // The host sends the request columns only while they are shown (they are most of a change's message); a view
  // starts without them (on `ready`), so only a change is said.
  const requestsShown = useRef(false);
  useEffect(() => {
    const shown = tab === 'requests';
    if (shown === requestsShown.current) return;
    requestsShown.current = shown;
    host.post({ type: 'requestsShown', shown });
  }, [tab, host]);

  // The requests chart compares every policy: asked for while the chart is shown, once the changes pause (each
  // comparison is a full analysis per policy on the host).
  useEffect(() => {
    if (tab !== 'requests' || !state.analysis) return;
    const timer = setTimeout(() => host.post({ type: 'compareAll' }), AFTER_A_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [tab, state.analysis, host]);

  // The verdict card ranks the strategies under the current settings: asked for once the changes pause (the host
  // keeps the runs, so a switch of policy costs one run at most).
  useEffect(() => {
    if (!state.analysis || state.analysis.tokensPending) return;
    const timer = setTimeout(() => host.post({ type: 'askVerdict' }), AFTER_A_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [state.analysis, host]);
  // The header's line on the cache (the costliest cause of the breaks the log records): asked again once the changes
  // pause; the Cache tab's figures (the policy's breaks, with what would have avoided them: more replays on the
  // host, and a large message on a long session) only while the tab is shown.
  const cacheShown = tab === 'cache';
  useEffect(() => {
    if (!state.analysis) return;
    const timer = setTimeout(
      () => void host.request({ type: 'cacheBreaks', tab: cacheShown }).reply.then(fromHost),
      AFTER_A_PAUSE_MS,
    );
    return () => clearTimeout(timer);
  }, [cacheShown, state.analysis, host, fromHost]);

  // The state as last rendered, for the changes below to look up an analysis run ahead without re-creating them
  // at every message.
  const rendered = useRef(state);
  rendered.current = state;
  /** Sends a change of settings; an analysis the host ran ahead for the new ones is shown at once. */
  const send = useCallback(
    (policy: Policy, summarizer: SummarizerName, changes: { key: SettingKey; value: SettingValue }[]) => {
      const t0 = performance.now();
      const ahead = aheadFor(rendered.current, policy, summarizer);
      const { seq, reply } = host.request({
        type: 'updateSettings',
        changes,
        ...(ahead ? { holds: ahead.analysis.id } : {}),
      });
      sentAt.set(seq, t0);
      dispatch({ type: 'localPolicy', policy, summarizer, seq, ahead });
      void reply.then(fromHost);
    },
    [host, sentAt, fromHost],
  );
  const policy = state.policy;
  const summarizer = state.summarizer;
  const change = useCallback(
    (key: SettingKey, value: SettingValue) => {
      if (!policy) return;
      if (key === 'summarizer') send(policy, value as SummarizerName, [{ key, value }]);
      else send(withPolicySetting(policy, key, value), summarizer, [{ key, value }]);
    },
    [policy, summarizer, send],
  );
  // The Tuning tab applies a cell: both constants in one change, ordered so that each step is valid (the host
  // checks them one after the other, tier1Distance never below keepRecent).
  const applyTiers = useCallback(
    (keepRecent: number, tier1Distance: number) => {
      if (!policy) return;
      const k = { key: 'tiered.keepRecent', value: keepRecent } as const;
      const d = { key: 'tiered.tier1Distance', value: tier1Distance } as const;
      const changes = keepRecent > policy.tiered.tier1Distance ? [d, k] : [k, d];
      send({ ...policy, tiered: { ...policy.tiered, keepRecent, tier1Distance } }, summarizer, changes);
    },
    [policy, summarizer, send],
  );
  /** Asks for a sweep; its progress and its grid arrive as the state's `sweep`. Returns the request's seq. */
  const sweep = useCallback(
    (rows: SweepAxisAsked, cols: SweepAxisAsked): number => {
      const { seq, reply } = host.request({ type: 'sweep', rows, cols }, fromHost);
      void reply.then(fromHost);
      return seq;
    },
    [host, fromHost],
  );
  const reset = useCallback(() => {
    const t0 = performance.now();
    const { seq, reply } = host.request({ type: 'resetSettings' });
    sentAt.set(seq, t0);
    void reply.then(fromHost);
  }, [host, sentAt, fromHost]);
  const find = useCallback(
    (query: string) => void host.request({ type: 'find', query }).reply.then(fromHost),
    [host, fromHost],
  );
  const select = useCallback((index: number | null) => dispatch({ type: 'select', index }), []);
  return { state, change, applyTiers, sweep, reset, find, select };
}
