// The Context Lens webview: controls, ladder and message list, with details / requests / problems beside.
// It draws what the host sends; a control change goes to the host, which re-analyses and answers (or, when the
// host ran the analysis ahead and sent it already, is shown at once and the host adopts it).
import { type CSSProperties, useCallback, useEffect, useState } from 'react';
import type { ViewLayout } from '../src/protocol/shared';
import { DescriptorsContext, policyOf } from './descriptors';
import type { HostLink } from './hostLink';
import { Topbar } from './Topbar';
import { clampSplit, Splitter } from './ui/Splitter';
import { Tabs } from './ui/Tabs';
import { ProgressRing } from './ui/toolkit';
import { useSize } from './ui/useSize';
import { useHost } from './useHost';
import { CacheHeadline } from './views/CacheHeadline';
import { CacheTab } from './views/CacheTab';
import { Controls } from './views/Controls';
import { Details } from './views/Details';
import { KeyboardMap } from './views/KeyboardMap';
import { Ladder } from './views/Ladder';
import { MessageList } from './views/MessageList';
import { Problems, shownProblems } from './views/Problems';
import { RequestsChart } from './views/RequestsChart';
import { Tuning } from './views/Tuning';
import { Verdict } from './views/Verdict';
import { whyOf } from './views/why';

export type { OpenProbe, RepaintProbe } from './probes';

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

/** The view, with the descriptors the host sent for its views to ask. */
export function App({ host }: { host: HostLink }) {
  return (
    <DescriptorsContext.Provider value={host.descriptors}>
      <Lens host={host} />
    </DescriptorsContext.Provider>
  );
}

/** Below this width (px) the view is narrow: a small editor with its side bar open. */
const NARROW_VIEW = 800;

function Lens({ host }: { host: HostLink }) {
  const [tab, setTab] = useState('details');
  // The user's layout choices in this session, over the remembered ones (state.layout), over the defaults.
  const [controlsChoice, setControlsChoice] = useState<boolean | null>(null);
  const [splitChoice, setSplitChoice] = useState<number | null>(null);
  const [bookkeepingChoice, setBookkeepingChoice] = useState<boolean | null>(null);
  const [showKeys, setShowKeys] = useState(false);
  /** The cache break the user picked in the Cache tab: its request, and the message the list marks. */
  const [pickedBreak, setPickedBreak] = useState<{ request: number; message: number; label: string } | null>(
    null,
  );
  const [appEl, setAppEl] = useState<HTMLDivElement | null>(null);
  const [panesEl, setPanesEl] = useState<HTMLElement | null>(null);
  const app = useSize(appEl, { width: window.innerWidth, height: window.innerHeight });
  const panes = useSize(panesEl, { width: 1000, height: 800 });
  const { state, change, applyTiers, sweep, reset, find, select: choose } = useHost(host, tab);
  const select = useCallback(
    (index: number) => {
      choose(index);
      setTab('details');
    },
    [choose],
  );
  const policy = state.policy;

  const controlsOpen = controlsChoice ?? state.layout?.controlsOpen ?? app.width >= CONTROLS_OPEN_WIDTH;
  // A narrow view gives the list more of its width by default: its text needs the room more than the details.
  const split = clampSplit(splitChoice ?? state.layout?.split ?? (app.width < NARROW_VIEW ? 0.6 : 0.55));
  // Bookkeeping records carry no conversation: hidden until the user shows them (then remembered).
  const bookkeeping = bookkeepingChoice ?? state.layout?.bookkeeping ?? false;
  const saveLayout = useCallback(
    (layout: Omit<ViewLayout, 'bookkeeping'>) =>
      host.post({ type: 'saveLayout', layout: { ...layout, bookkeeping } }),
    [host, bookkeeping],
  );
  const showBookkeeping = useCallback(
    (shown: boolean) => {
      setBookkeepingChoice(shown);
      host.post({ type: 'saveLayout', layout: { controlsOpen, split, bookkeeping: shown } });
    },
    [host, controlsOpen, split],
  );
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
  const mode = paneMode(panes.width, panes.height);
  const problems = shownProblems(transcript.diagnostics, analysis?.floorProblems);
  const tieredActive = !!policy && policyOf(host.descriptors, policy.name).tiered;
  return (
    <div ref={setAppEl} className={`app${controlsOpen ? ' controls-open' : ''}`} data-testid="context-lens">
      <button
        type="button"
        className="skip-link"
        onClick={() => document.querySelector<HTMLElement>('[data-testid="message-list"]')?.focus()}
      >
        Skip to the message list
      </button>
      <Topbar
        transcript={transcript}
        analysis={analysis}
        elapsedMs={state.elapsedMs}
        compactedNow={state.compactedNow}
        policy={policy}
        controlsOpen={controlsOpen}
        onToggleControls={toggleControls}
        onChange={change}
        onSelectThread={(thread) => host.post({ type: 'selectThread', thread })}
        onShowKeys={() => setShowKeys(true)}
        onExport={() => host.post({ type: 'exportCompacted' })}
      >
        <CacheHeadline cache={state.cache} />
      </Topbar>
      <div className="bars">
        {analysis ? (
          <Verdict
            verdict={state.verdict}
            policyName={policy?.name}
            onApply={(name) => change('policy', name)}
            onCopy={(text) => host.post({ type: 'copyText', text })}
          />
        ) : null}
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
              marked={pickedBreak}
              bookkeeping={bookkeeping}
              onBookkeeping={showBookkeeping}
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
          <aside className="side-panel" aria-label="Details, requests, cache and problems">
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
                      offered={transcript.offered}
                    />
                  ) : null,
                },
                {
                  id: 'cache',
                  title: 'Cache',
                  content: (
                    <CacheTab
                      cache={state.cache}
                      selected={pickedBreak?.request ?? null}
                      onSelect={(b) => {
                        const message = b.differsAt ?? b.lastMessage;
                        setPickedBreak({
                          request: b.request,
                          message,
                          label: `Cache break at request ${b.request} (${b.cause}): ${b.differsAt !== undefined ? 'the prompt first differs here' : 'the last message it sent'}`,
                        });
                        choose(message);
                      }}
                    />
                  ),
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
                  title: `Problems (${problems.length})`,
                  content: <Problems diagnostics={problems} sidechains={transcript.sidechains} />,
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
            offered={transcript?.offered}
            provider={transcript?.provider}
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

function ErrorBar({ message }: { message: string }) {
  return (
    <p className="error-bar" role="alert" data-testid="error">
      {message}
    </p>
  );
}
