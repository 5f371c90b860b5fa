// The virtualized message list: only the visible rows exist in the DOM, so 10,000 messages scroll smoothly.
// Every figure in a row comes from the host's analysis; the preview is rendered as text, never as HTML.
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useEffect, useMemo, useRef } from 'react';
import type { ViewAnalysis } from '../../src/analysisWire';
import type { Policy } from '../../src/core/engine/policy';
import type { MarkerSummary, MessageSummary } from '../../src/protocol';
import { FloorBadge, TierBadge, TokenBar, ZoneBadge } from '../ui/Badges';
import { buildRows, describeEvent, type Row } from './rows';
import { whyLine, whyOf } from './why';

export const ROW_HEIGHT = 22;

export function MessageList(props: {
  messages: MessageSummary[];
  markers: MarkerSummary[];
  analysis: ViewAnalysis | null;
  /** The settings the analysis ran with: the rows' why-line tooltips name them. */
  policy?: Policy | null;
  selected: number | null;
  onSelect: (index: number) => void;
}) {
  const { messages, markers, analysis, selected, onSelect } = props;
  const rows = useMemo(
    () => buildRows(messages.length, markers, analysis),
    [messages.length, markers, analysis],
  );
  const rowOfMessage = useMemo(() => {
    const map = new Int32Array(messages.length);
    rows.forEach((r, i) => {
      if (r.kind === 'message') map[r.index] = i;
    });
    return map;
  }, [rows, messages.length]);
  const maxTokens = useMemo(
    () => (analysis ? analysis.messages.reduce((m, a) => Math.max(m, a.tokensBefore), 0) : 0),
    [analysis],
  );
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
    initialRect: { width: 800, height: 600 },
  });

  useEffect(() => {
    if (selected !== null && selected < messages.length) virtualizer.scrollToIndex(rowOfMessage[selected]);
  }, [selected, rowOfMessage, messages.length, virtualizer]);

  const onKeyDown = (e: KeyboardEvent) => {
    if (messages.length === 0) return;
    const current = selected ?? -1;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 520) / ROW_HEIGHT) - 1);
    const next: Record<string, number> = {
      ArrowDown: current + 1,
      ArrowUp: current - 1,
      PageDown: current + page,
      PageUp: current - page,
      Home: 0,
      End: messages.length - 1,
    };
    if (!(e.key in next)) return;
    e.preventDefault();
    onSelect(Math.min(messages.length - 1, Math.max(0, next[e.key])));
  };

  return (
    <div
      ref={scrollRef}
      className="message-list"
      role="listbox"
      aria-label="Messages"
      tabIndex={0}
      data-testid="message-list"
      aria-activedescendant={selected !== null ? `message-row-${selected}` : undefined}
      onKeyDown={onKeyDown}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => (
          <div
            key={item.key}
            className="row-slot"
            style={{ transform: `translateY(${item.start}px)`, height: item.size }}
          >
            <RowView
              row={rows[item.index]}
              messages={messages}
              analysis={analysis}
              policy={props.policy ?? null}
              selected={selected}
              maxTokens={maxTokens}
              onSelect={onSelect}
            />
          </div>
        ))}
      </div>
    </div>
  );
}

function RowView(props: {
  row: Row;
  messages: MessageSummary[];
  analysis: ViewAnalysis | null;
  policy: Policy | null;
  selected: number | null;
  maxTokens: number;
  onSelect: (index: number) => void;
}) {
  const { row } = props;
  if (row.kind === 'boundary') {
    const text = row.event ? describeEvent(row.event) : 'the prompt differs from the previous request here';
    return (
      <div
        className="boundary-row"
        role="option"
        tabIndex={-1}
        aria-selected={false}
        aria-disabled
        data-testid="cache-boundary"
        data-message-index={row.messageIndex}
      >
        <span className="boundary-label">Cache boundary</span> <span className="boundary-event">{text}</span>
      </div>
    );
  }
  if (row.kind === 'marker') {
    const m = row.marker;
    return (
      <div
        className={`marker-row marker-${m.kind}`}
        role="option"
        tabIndex={-1}
        aria-selected={false}
        aria-disabled
        data-testid={m.kind === 'compaction' ? 'compaction-marker' : 'record-marker'}
      >
        <span className="marker-label">{m.kind === 'compaction' ? 'Compaction' : 'Record'}</span>{' '}
        <span>{m.label}</span>
        {m.text ? <span className="marker-text"> {m.text.slice(0, 200)}</span> : null}
      </div>
    );
  }
  const i = row.index;
  const msg = props.messages[i];
  const a = props.analysis?.messages[i];
  const selected = props.selected === i;
  const why = a && props.analysis && props.policy ? whyLine(a, whyOf(props.analysis, i), props.policy) : '';
  // The keyboard is handled by the listbox (aria-activedescendant); a click selects like the arrow keys do.
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: keys are handled by the enclosing listbox
    <div
      id={`message-row-${i}`}
      className={`message-row${selected ? ' selected' : ''}${a?.rewritten ? ' rewritten' : ''}`}
      role="option"
      tabIndex={-1}
      aria-selected={selected}
      data-testid="message-row"
      data-index={i}
      title={why || undefined}
      onClick={() => props.onSelect(i)}
    >
      <span className="col-index">#{i}</span>
      <span className={`col-role role-${msg.role}`}>{msg.role}</span>
      <span className="col-badges">
        <TierBadge tier={a?.tier ?? null} />
        {a?.floored ? <FloorBadge /> : null}
        {a ? <ZoneBadge zone={a.zone} /> : null}
      </span>
      <span className="col-tools" title={a?.toolNames.join(', ')}>
        {a?.toolNames.join(', ')}
      </span>
      <span className="col-tokens">
        {a ? <TokenBar before={a.tokensBefore} after={a.tokensAfter} max={props.maxTokens} /> : null}
      </span>
      <span className="col-rewritten">
        {a?.rewritten ? (
          <span className="rewritten-marker" data-testid="rewritten-marker" role="img" aria-label="rewritten">
            ✎
          </span>
        ) : null}
      </span>
      <span className="col-preview">{msg.preview}</span>
    </div>
  );
}
