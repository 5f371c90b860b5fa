// The Context Lens webview: controls, ladder and message list, with details / requests / problems beside.
// It draws what the host sends; a control change goes to the host, which re-analyses and answers.
import { useCallback, useEffect, useLayoutEffect, useReducer, useRef, useState } from 'react';
import { type SettingKey, type SettingValue, type SummarizerName, withPolicySetting } from '../src/protocol';
import type { HostLink } from './hostLink';
import { initialState, reducer } from './state';
import { Tabs } from './ui/Tabs';
import { Button, ProgressRing } from './ui/toolkit';
import { Controls } from './views/Controls';
import { Details } from './views/Details';
import { formatCost, formatTokens, percent } from './views/format';
import { Ladder } from './views/Ladder';
import { MessageList } from './views/MessageList';
import { Problems } from './views/Problems';
import { RequestsChart } from './views/RequestsChart';

/** Figures the repaint benchmark and the browser tests read: change → repainted list, per `seq`. */
export interface RepaintProbe {
  lastSeq: number;
  lastRepaintMs: number | null;
  /** performance.now() at the frame after the commit. */
  paintedAt: number;
}

declare global {
  interface Window {
    __contextLensRepaint?: RepaintProbe;
  }
}

export function App({ host }: { host: HostLink }) {
  const [state, dispatch] = useReducer(reducer, initialState);
  const [tab, setTab] = useState('details');
  const seq = useRef(0);
  const sentAt = useRef(new Map<number, number>());

  useEffect(() => {
    const off = host.subscribe(
      (message) => dispatch({ type: 'host', message }),
      (error) => dispatch({ type: 'invalid', error }),
    );
    host.post({ type: 'ready' });
    return off;
  }, [host]);

  // Right after the rows of a new analysis are committed (a layout effect runs before the browser paints),
  // ask for the next frame, the one that paints them, and record how long the change that asked took.
  useLayoutEffect(() => {
    if (!state.analysis) return;
    const answered = state.analysisSeq;
    const frame = requestAnimationFrame(() => {
      const now = performance.now();
      const t0 = sentAt.current.get(answered);
      sentAt.current.delete(answered);
      window.__contextLensRepaint = {
        lastSeq: answered,
        lastRepaintMs: t0 === undefined ? null : now - t0,
        paintedAt: now,
      };
      document.body.dataset.analysisSeq = String(answered);
    });
    return () => cancelAnimationFrame(frame);
  }, [state.analysis, state.analysisSeq]);

  // The compressed text of the selected message changes with the policy: ask again after each analysis.
  useEffect(() => {
    if (state.selected !== null && state.analysis)
      host.post({ type: 'requestDetails', messageIndex: state.selected });
  }, [state.selected, state.analysis, host]);

  // The requests chart compares every policy: asked for while the chart is shown, a moment after the last
  // change (each comparison is a full analysis per policy on the host).
  useEffect(() => {
    if (tab !== 'requests' || !state.analysis) return;
    const timer = setTimeout(() => host.post({ type: 'compareAll' }), 300);
    return () => clearTimeout(timer);
  }, [tab, state.analysis, host]);

  const policy = state.policy;
  const change = useCallback(
    (key: SettingKey, value: SettingValue) => {
      if (!policy) return;
      const next = ++seq.current;
      sentAt.current.set(next, performance.now());
      if (key === 'summarizer') {
        dispatch({ type: 'localPolicy', policy, summarizer: value as SummarizerName });
      } else {
        dispatch({ type: 'localPolicy', policy: withPolicySetting(policy, key, value) });
      }
      host.post({ type: 'updateSettings', seq: next, changes: [{ key, value }] });
    },
    [policy, host],
  );
  const reset = useCallback(() => {
    const next = ++seq.current;
    sentAt.current.set(next, performance.now());
    host.post({ type: 'resetSettings', seq: next });
  }, [host]);
  const select = useCallback((index: number) => {
    dispatch({ type: 'select', index });
    setTab('details');
  }, []);

  const { transcript, analysis } = state;
  if (!transcript && state.error) {
    // The file could not be read as a transcript: say why, and stop saying "loading".
    return (
      <main className="loading">
        <ErrorBar message={state.error} />
      </main>
    );
  }
  if (!transcript) {
    return (
      <main className="loading" aria-busy="true">
        <ProgressRing label="Loading" />
        <p>
          {state.loading
            ? `${state.loading.fileName}: ${state.loading.phase}`
            : 'Waiting for the transcript…'}
        </p>
      </main>
    );
  }
  const totals = analysis?.totals;
  const tieredActive = !!policy && (policy.name === 'tiered' || policy.name === 'tiered+live-zone');
  return (
    <div className="app" data-testid="context-lens">
      <header className="topbar">
        <h1 title={transcript.formatReason}>
          {transcript.fileName} <span className="format">{transcript.format}</span>
        </h1>
        {totals ? (
          <p className="summary" data-testid="summary">
            {totals.messages} messages · {totals.toolResults} tool results ·{' '}
            {formatTokens(totals.tokensBefore)} → {formatTokens(totals.tokensAfter)} tokens (−
            {percent(totals.tokensBefore - totals.tokensAfter, totals.tokensBefore)}) · cost{' '}
            {formatCost(totals.cost)}
            {analysis?.recorded
              ? ` · the session cost ${formatCost(analysis.recorded.sessionCost)} (${analysis.recorded.fileReplies} recorded replies; ${analysis.recorded.requests} replayed)`
              : ''}
            {totals.summarizerAttempts > 0
              ? ` · summarizer: ${totals.summarizerAttempts} attempts, ${totals.summarizerFailures} failed`
              : ''}
            {analysis?.tokenEstimate ? ' · tokens estimated (o200k)' : ''}
            {state.elapsedMs ? ` · analysed in ${state.elapsedMs.toFixed(0)} ms` : ''}
          </p>
        ) : (
          <p className="summary">Analysing…</p>
        )}
        <Button
          ariaLabel="Export compacted transcript"
          testId="export"
          onClick={() => host.post({ type: 'exportCompacted' })}
        >
          Export…
        </Button>
      </header>
      {state.error ? <ErrorBar message={state.error} /> : null}
      {state.loading ? (
        <p className="reloading" role="status">
          {state.loading.phase}
        </p>
      ) : null}
      <div className="layout">
        <aside className="sidebar">
          {policy ? (
            <Controls
              policy={policy}
              summarizer={state.summarizer}
              models={state.models}
              scope={state.scope}
              problem={state.problem}
              onChange={change}
              onReset={reset}
            />
          ) : null}
        </aside>
        <main className="center">
          {analysis && policy ? (
            <Ladder
              analysis={analysis}
              tiered={policy.tiered}
              active={tieredActive}
              onChange={(key, value) => change(`tiered.${key}`, value)}
            />
          ) : null}
          <MessageList
            messages={transcript.messages}
            markers={transcript.markers}
            analysis={analysis}
            selected={state.selected}
            onSelect={select}
          />
        </main>
        <aside className="side-panel">
          <Tabs
            label="Views"
            active={tab}
            onSelect={setTab}
            tabs={[
              {
                id: 'details',
                title: 'Details',
                content: (
                  <Details
                    index={state.selected}
                    details={state.details}
                    analysis={state.selected !== null ? (analysis?.messages[state.selected] ?? null) : null}
                    onReveal={(messageIndex, blockIndex) =>
                      host.post({ type: 'revealInSource', messageIndex, blockIndex })
                    }
                  />
                ),
              },
              {
                id: 'requests',
                title: 'Requests',
                content: analysis ? (
                  <RequestsChart analysis={analysis} comparisons={state.comparisons} />
                ) : null,
              },
              {
                id: 'problems',
                title: `Problems (${transcript.diagnostics.length})`,
                content: <Problems diagnostics={transcript.diagnostics} sidechains={transcript.sidechains} />,
              },
            ]}
          />
        </aside>
      </div>
    </div>
  );
}

function ErrorBar({ message }: { message: string }) {
  return (
    <p className="error-bar" role="alert" data-testid="error">
      {message}
    </p>
  );
}
