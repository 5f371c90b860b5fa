// The top bar: the controls toggle, the session's title and format, its totals in one line, the thread picker, the
// headline, the quick controls (while the panel is closed), the keyboard map and export.
import type { ReactNode } from 'react';
import type { ViewAnalysis } from '../src/analysisWire/types';
import type { Payback } from '../src/core/analysisTypes';
import type { Policy } from '../src/core/engine/policy';
import type { SettingKey, SettingValue } from '../src/protocol/settingValues';
import { signedPercent } from '../src/verdictWords';
import type { TranscriptInfo } from './state';
import { Button } from './ui/toolkit';
import { QuickControls } from './views/Controls';
import { formatCost, formatTokens } from './views/format';
import { Headline } from './views/Headline';
import { MAIN_THREAD, ThreadPicker } from './views/ThreadPicker';

export function Topbar(props: {
  transcript: TranscriptInfo;
  analysis: ViewAnalysis | null;
  elapsedMs: number;
  compactedNow: Payback | null;
  policy: Policy | null;
  controlsOpen: boolean;
  onToggleControls: () => void;
  onChange: (key: SettingKey, value: SettingValue) => void;
  onSelectThread: (thread: string) => void;
  onShowKeys: () => void;
  onExport: () => void;
  /** Lines of the header's summary that other views own (the cache's costliest cause). */
  children?: ReactNode;
}) {
  const { transcript, analysis, policy, controlsOpen } = props;
  const totals = analysis?.totals;
  return (
    <header className="topbar">
      <button
        type="button"
        className="icon-button"
        aria-expanded={controlsOpen}
        aria-controls="controls-panel"
        data-testid="controls-toggle"
        title={controlsOpen ? 'Hide the controls panel (C)' : 'Show the controls panel (C)'}
        onClick={props.onToggleControls}
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
          {totals.messages} messages · {totals.toolResults} tool results · transcript size{' '}
          {formatTokens(totals.tokensBefore)} → {formatTokens(totals.tokensAfter)} tokens · cost{' '}
          {formatCost(totals.cost)}
          {analysis?.vsNone ? ` (${signedPercent(analysis.vsNone.deltaShare)} against none)` : ''}
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
          {props.elapsedMs ? ` · analysed in ${props.elapsedMs.toFixed(0)} ms` : ''}
        </p>
      ) : (
        <p className="summary">Analysing…</p>
      )}
      {transcript.threads && transcript.threads.length > 1 ? (
        <ThreadPicker
          threads={transcript.threads}
          thread={transcript.thread ?? MAIN_THREAD}
          onSelect={props.onSelectThread}
        />
      ) : null}
      {analysis ? <Headline analysis={analysis} compactedNow={props.compactedNow} /> : null}
      {props.children}
      {policy && !controlsOpen ? (
        <QuickControls policy={policy} offered={transcript.offered} onChange={props.onChange} />
      ) : null}
      <span className="topbar-actions">
        <button
          type="button"
          className="icon-button"
          aria-label="Keyboard map"
          aria-haspopup="dialog"
          title="Keyboard map (?)"
          data-testid="keys-button"
          onClick={props.onShowKeys}
        >
          ?
        </button>
        <Button ariaLabel="Export compacted transcript" testId="export" onClick={props.onExport}>
          Export…
        </Button>
      </span>
    </header>
  );
}

/** The header's tooltip: the whole title (the header cuts it to its width; the editor's tab shows only the file
 * name, and a custom editor cannot change its tab's label), then the file and why it was read in its format. */
function headerTooltip(t: { title?: string; fileName: string; formatReason: string }): string {
  const file = `${t.fileName}: ${t.formatReason}`;
  return t.title && t.title !== t.fileName ? `${t.title}\n${file}` : file;
}

/** Words for the part of the session's cost priced as a preset (models the price table does not know). */
function estimateWords(e: { cost: number; models: string } | undefined): string {
  return e ? ` (${formatCost(e.cost)} of it an estimate: not in the price table, priced ${e.models})` : '';
}
