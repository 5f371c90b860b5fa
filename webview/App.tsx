// The Context Lens webview: controls, ladder and message list, with details / requests / problems beside.
// It draws what the host sends; a control change goes to the host, which re-analyses and answers (or, when the
// host ran the analysis ahead and sent it already, is shown at once and the host adopts it).
import {
  type CSSProperties,
  useCallback,
  useEffect,
  useLayoutEffect,
  useReducer,
  useRef,
  useState,
} from 'react';
import { POLICY_PASSES, type Policy } from '../src/core/engine/policy';
import {
  type SettingKey,
  type SettingValue,
  type SummarizerName,
  type ViewLayout,
  withPolicySetting,
} from '../src/protocol';
import type { HostLink } from './hostLink';
import { aheadFor, initialState, reducer } from './state';
import { clampSplit, Splitter } from './ui/Splitter';
import { Tabs } from './ui/Tabs';
import { Button, ProgressRing } from './ui/toolkit';
import { useSize } from './ui/useSize';
import { Controls, QuickControls } from './views/Controls';
import { Details } from './views/Details';
import { formatCost, formatTokens, percent } from './views/format';
import { Headline } from './views/Headline';
import { KeyboardMap } from './views/KeyboardMap';
import { Ladder } from './views/Ladder';
import { MessageList } from './views/MessageList';
import { Problems } from './views/Problems';
import { RequestsChart } from './views/RequestsChart';
import { MAIN_THREAD, ThreadPicker } from './views/ThreadPicker';
import { Tuning } from './views/Tuning';
import { whyOf } from './views/why';

/** Figures the repaint benchmark and the browser tests read: change → repainted list, per `seq`. */
export interface RepaintProbe {
  lastSeq: number;
  lastRepaintMs: number | null;
  /** performance.now() at the frame after the commit. */
  paintedAt: number;
}

/** Wall-clock times (Date.now(), comparable with the benchmark's own clock) of the first frames after opening
 * that show the list, an analysis, and an analysis whose token figures are exact. */
export interface OpenProbe {
  listAt?: number;
  /** The first frame with the list of the whole file (a large one is shown from its beginning first). */
  wholeListAt?: number;
  analysisAt?: number;
  exactAt?: number;
}

declare global {
  interface Window {
    __contextLensRepaint?: RepaintProbe;
    __contextLensOpen?: OpenProbe;
  }
}

/** Below this width of the list and details area, they stack; a short area keeps them side by side down to
 * STACK_SHORT_WIDTH, since stacking would leave the list a few rows. */
const SIDE_BY_SIDE_WIDTH = 900;
const STACK_SHORT_WIDTH = 600;
/** Below this height the ladder moves beside the list, above the details, so the list keeps the full height. */
const SHORT_HEIGHT = 560;
/** With no remembered choice, the controls panel starts open in a view at least this wide. */
const CONTROLS_OPEN_WIDTH = 1200;

export interface PaneMode {
  sideBySide: boolean;
  ladderBeside: boolean;
}

export function paneMode(width: number, height: number): PaneMode {
  const short = height < SHORT_HEIGHT;
  const sideBySide = width >= SIDE_BY_SIDE_WIDTH || (short && width >= STACK_SHORT_WIDTH);
  return { sideBySide, ladderBeside: sideBySide && short };
}

/** Where a keyboard shortcut must not act: the user is typing. */
const typing = (el: Element | null) =>
  !!el && (/^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName) || el.tagName.startsWith('VSCODE-'));

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

/** Records `mark` at the frame after the commit that showed it, once. */
function markOpen(mark: keyof OpenProbe): () => void {
  if (window.__contextLensOpen?.[mark] !== undefined) return () => {};
  const frame = requestAnimationFrame(() => {
    window.__contextLensOpen = { ...window.__contextLensOpen, [mark]: Date.now() };
  });
  return () => cancelAnimationFrame(frame);
}

export function App({ host }: { host: HostLink }) {
  const [state, dispatch] = useReducer(reducer, initialState);
  const [tab, setTab] = useState('details');
  // The user's layout choices in this session, over the remembered ones (state.layout), over the defaults.
  const [controlsChoice, setControlsChoice] = useState<boolean | null>(null);
  const [splitChoice, setSplitChoice] = useState<number | null>(null);
  const [showKeys, setShowKeys] = useState(false);
  const [appEl, setAppEl] = useState<HTMLDivElement | null>(null);
  const [panesEl, setPanesEl] = useState<HTMLElement | null>(null);
  const app = useSize(appEl, { width: window.innerWidth, height: window.innerHeight });
  const panes = useSize(panesEl, { width: 1000, height: 800 });
  const seq = useRef(0);
  const sentAt = useRef(new Map<number, number>());

  // A layout effect: the host is told the view is ready as soon as it is mounted, not after the browser painted
  // the empty view first (the host's answer, the list, is what a first paint waits for).
  useLayoutEffect(() => {
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

  useLayoutEffect(() => (state.transcript ? markOpen('listAt') : undefined), [state.transcript]);
  useLayoutEffect(
    () => (state.transcript && !state.transcript.beginning ? markOpen('wholeListAt') : undefined),
    [state.transcript],
  );
  useLayoutEffect(() => {
    if (!state.analysis) return;
    const first = markOpen('analysisAt');
    const exact = state.analysis.tokensPending ? () => {} : markOpen('exactAt');
    return () => {
      first();
      exact();
    };
  }, [state.analysis]);

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

  // The requests chart compares every policy: asked for while the chart is shown, a moment after the last
  // change (each comparison is a full analysis per policy on the host).
  useEffect(() => {
    if (tab !== 'requests' || !state.analysis) return;
    const timer = setTimeout(() => host.post({ type: 'compareAll' }), 300);
    return () => clearTimeout(timer);
  }, [tab, state.analysis, host]);

  // The state as last rendered, for the changes below to look up an analysis run ahead without re-creating them
  // at every message.
  const rendered = useRef(state);
  rendered.current = state;
  /** Sends a change of settings; an analysis the host ran ahead for the new ones is shown at once. */
  const send = useCallback(
    (policy: Policy, summarizer: SummarizerName, changes: { key: SettingKey; value: SettingValue }[]) => {
      const next = ++seq.current;
      sentAt.current.set(next, performance.now());
      const ahead = aheadFor(rendered.current, policy, summarizer);
      dispatch({ type: 'localPolicy', policy, summarizer, seq: next, ahead });
      host.post({
        type: 'updateSettings',
        seq: next,
        changes,
        ...(ahead ? { holds: ahead.analysis.id } : {}),
      });
    },
    [host],
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
  const sweep = useCallback(
    (...[seq, rows, cols]: Parameters<Parameters<typeof Tuning>[0]['onSweep']>) =>
      host.post({ type: 'sweep', seq, rows, cols }),
    [host],
  );
  const reset = useCallback(() => {
    const next = ++seq.current;
    sentAt.current.set(next, performance.now());
    host.post({ type: 'resetSettings', seq: next });
  }, [host]);
  const findSeq = useRef(0);
  const find = useCallback(
    (query: string) => host.post({ type: 'find', seq: ++findSeq.current, query }),
    [host],
  );
  const select = useCallback((index: number) => {
    dispatch({ type: 'select', index });
    setTab('details');
  }, []);

  const controlsOpen = controlsChoice ?? state.layout?.controlsOpen ?? app.width >= CONTROLS_OPEN_WIDTH;
  const split = clampSplit(splitChoice ?? state.layout?.split ?? 0.55);
  const saveLayout = useCallback((layout: ViewLayout) => host.post({ type: 'saveLayout', layout }), [host]);
  const toggleControls = useCallback(() => {
    const open = !controlsOpen;
    setControlsChoice(open);
    saveLayout({ controlsOpen: open, split });
    // Opening moves focus into the panel; closing leaves it on the toggle.
    if (open)
      requestAnimationFrame(() =>
        document
          .querySelector<HTMLElement>(
            '#controls-panel select, #controls-panel vscode-dropdown, #controls-panel input',
          )
          ?.focus(),
      );
  }, [controlsOpen, split, saveLayout]);

  // Keys that act anywhere but in a text field (the map lists them: webview/views/KeyboardMap.tsx).
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || typing(e.target as Element)) return;
      const focus = (selector: string) => document.querySelector<HTMLElement>(selector)?.focus();
      const actions: Record<string, () => void> = {
        '?': () => setShowKeys(true),
        l: () => focus('[data-testid="message-list"]'),
        d: () => {
          setTab('details');
          requestAnimationFrame(() => focus('#tab-details'));
        },
        c: toggleControls,
      };
      const action = actions[e.key.length === 1 ? e.key.toLowerCase() : e.key];
      if (!action || (e.key !== '?' && e.shiftKey)) return;
      e.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [toggleControls]);

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
  const mode = paneMode(panes.width, panes.height);
  const tieredActive = !!policy && POLICY_PASSES[policy.name].tiered;
  return (
    <div ref={setAppEl} className={`app${controlsOpen ? ' controls-open' : ''}`} data-testid="context-lens">
      <button
        type="button"
        className="skip-link"
        onClick={() => document.querySelector<HTMLElement>('[data-testid="message-list"]')?.focus()}
      >
        Skip to the message list
      </button>
      <header className="topbar">
        <button
          type="button"
          className="icon-button"
          aria-expanded={controlsOpen}
          aria-controls="controls-panel"
          data-testid="controls-toggle"
          title={controlsOpen ? 'Hide the controls panel (C)' : 'Show the controls panel (C)'}
          onClick={toggleControls}
        >
          <span aria-hidden="true">{controlsOpen ? '◧' : '☰'}</span>{' '}
          <span className="toggle-text">Controls</span>
        </button>
        <h1 title={headerTooltip(transcript)} data-testid="title">
          {transcript.title && transcript.title !== transcript.fileName ? (
            <>
              {transcript.title} <span className="file-name">{transcript.fileName}</span>
            </>
          ) : (
            transcript.fileName
          )}{' '}
          <span className="format">{transcript.format}</span>
        </h1>
        {totals ? (
          <p className="summary" data-testid="summary">
            {totals.messages} messages · {totals.toolResults} tool results ·{' '}
            {formatTokens(totals.tokensBefore)} → {formatTokens(totals.tokensAfter)} tokens (−
            {percent(totals.tokensBefore - totals.tokensAfter, totals.tokensBefore)}) · cost{' '}
            {formatCost(totals.cost)}
            {analysis?.recorded
              ? ` · the session cost ${formatCost(analysis.recorded.sessionCost)} (${analysis.recorded.fileReplies} recorded replies; ${analysis.recorded.requests} replayed)${estimateWords(analysis.recorded.sessionCostEstimate)}`
              : ''}
            {totals.summarizerAttempts > 0
              ? ` · summarizer: ${totals.summarizerAttempts} attempts, ${totals.summarizerFailures} failed`
              : ''}
            {analysis?.tokenEstimate ? ' · tokens estimated (o200k)' : ''}
            {analysis?.tokensPending ? (
              <span data-testid="tokens-pending">
                {' '}
                · provisional: tokens estimated from the texts' lengths while they are counted
              </span>
            ) : null}
            {state.elapsedMs ? ` · analysed in ${state.elapsedMs.toFixed(0)} ms` : ''}
          </p>
        ) : (
          <p className="summary">Analysing…</p>
        )}
        {transcript.threads && transcript.threads.length > 1 ? (
          <ThreadPicker
            threads={transcript.threads}
            thread={transcript.thread ?? MAIN_THREAD}
            onSelect={(thread) => host.post({ type: 'selectThread', thread })}
          />
        ) : null}
        {analysis ? <Headline analysis={analysis} compactedNow={state.compactedNow} /> : null}
        {policy && !controlsOpen ? <QuickControls policy={policy} onChange={change} /> : null}
        <span className="topbar-actions">
          <button
            type="button"
            className="icon-button"
            aria-label="Keyboard map"
            aria-haspopup="dialog"
            title="Keyboard map (?)"
            data-testid="keys-button"
            onClick={() => setShowKeys(true)}
          >
            ?
          </button>
          <Button
            ariaLabel="Export compacted transcript"
            testId="export"
            onClick={() => host.post({ type: 'exportCompacted' })}
          >
            Export…
          </Button>
        </span>
      </header>
      <div className="bars">
        {state.error ? <ErrorBar message={state.error} /> : null}
        {state.loading ? (
          <p className="reloading" role="status">
            {state.loading.phase}
          </p>
        ) : transcript.beginning ? (
          <p className="reloading" role="status" data-testid="beginning">
            {`Showing the first ${megabytes(transcript.beginning.bytes)} of ${megabytes(transcript.beginning.fileBytes)} while the rest is read…`}
          </p>
        ) : null}
      </div>
      <main className="panes-area" aria-label="Messages and details">
        <section
          ref={setPanesEl}
          className={`panes ${mode.sideBySide ? 'side-by-side' : 'stacked'}${mode.ladderBeside ? ' ladder-beside' : ''}`}
          data-testid="panes"
          data-mode={
            mode.sideBySide ? (mode.ladderBeside ? 'side-by-side-short' : 'side-by-side') : 'stacked'
          }
          style={{ '--list-fr': `${split * 100}fr`, '--side-fr': `${(1 - split) * 100}fr` } as CSSProperties}
        >
          <div className="list-pane">
            <MessageList
              messages={transcript.messages}
              markers={transcript.markers}
              analysis={analysis}
              policy={state.analysedPolicy}
              selected={state.selected}
              onSelect={select}
              found={state.found}
              onFind={find}
            />
          </div>
          <Splitter
            label="Divider between the list and the details"
            orientation={mode.sideBySide ? 'vertical' : 'horizontal'}
            value={split}
            span={() => {
              const list = panesEl?.querySelector('.list-pane')?.getBoundingClientRect();
              const side = panesEl?.querySelector('.side-panel')?.getBoundingClientRect();
              if (!list || !side) return null;
              return mode.sideBySide
                ? { start: list.left, size: side.right - list.left }
                : { start: list.top, size: side.bottom - list.top };
            }}
            onChange={setSplitChoice}
            onCommit={(v) => saveLayout({ controlsOpen, split: v })}
          />
          <aside className="side-panel" aria-label="Details, requests and problems">
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
                      facts={state.selected !== null && analysis ? whyOf(analysis, state.selected) : null}
                      policy={state.analysedPolicy}
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
                    <RequestsChart
                      analysis={analysis}
                      comparisons={state.comparisons}
                      compactedNow={state.compactedNow}
                    />
                  ) : null,
                },
                {
                  id: 'tuning',
                  title: 'Tuning',
                  content: policy ? (
                    <Tuning
                      policy={policy}
                      revision={`${transcript.fileName}\u0000${transcript.revision}\u0000${transcript.thread ?? ''}`}
                      ready={!!analysis && !analysis.tokensPending}
                      sweep={state.sweep}
                      onSweep={sweep}
                      onApply={applyTiers}
                    />
                  ) : null,
                },
                {
                  id: 'problems',
                  title: `Problems (${transcript.diagnostics.length})`,
                  content: (
                    <Problems diagnostics={transcript.diagnostics} sidechains={transcript.sidechains} />
                  ),
                },
              ]}
            />
          </aside>
          {analysis && policy ? (
            <div className="ladder-pane">
              <Ladder
                analysis={analysis}
                tiered={policy.tiered}
                active={tieredActive}
                selected={state.selected}
                onSelect={select}
                onChange={(key, value) => change(`tiered.${key}`, value)}
              />
            </div>
          ) : null}
        </section>
      </main>
      <aside
        id="controls-panel"
        className="controls-panel"
        aria-label="Controls"
        hidden={!controlsOpen}
        data-testid="controls-panel"
      >
        {policy && controlsOpen ? (
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
      {showKeys ? <KeyboardMap onClose={() => setShowKeys(false)} /> : null}
    </div>
  );
}

/** The header's tooltip: the whole title (the header cuts it to its width; the editor's tab shows only the file
 * name, and a custom editor cannot change its tab's label), then the file and why it was read in its format. */
function headerTooltip(t: { title?: string; fileName: string; formatReason: string }): string {
  const file = `${t.fileName}: ${t.formatReason}`;
  return t.title && t.title !== t.fileName ? `${t.title}\n${file}` : file;
}

function ErrorBar({ message }: { message: string }) {
  return (
    <p className="error-bar" role="alert" data-testid="error">
      {message}
    </p>
  );
}

/** Words for the part of the session's cost priced as a preset (models the price table does not know). */
function estimateWords(e: { cost: number; models: string } | undefined): string {
  return e ? ` (${formatCost(e.cost)} of it an estimate: not in the price table, priced ${e.models})` : '';
}
