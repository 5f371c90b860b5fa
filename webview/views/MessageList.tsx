// The virtualized message list: only the visible rows exist in the DOM, so 10,000 messages scroll smoothly.
// Every figure in a row comes from the host's analysis; the preview is rendered as text, never as HTML.
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ViewAnalysis } from '../../src/analysisWire/types';
import type { Policy } from '../../src/core/engine/policy';
import type { HostMessage } from '../../src/protocol/hostMessages';
import type { MarkerSummary, MessageSummary } from '../../src/protocol/shared';
import { ClearedBadge, FloorBadge, TierBadge, TokenBar, ZoneBadge } from '../ui/Badges';
import { FilterBar } from './FilterBar';
import { filteredMessages, isFiltering, type ListFilter, NO_FILTER, toolNamesOf } from './filter';
import {
  bookkeepingCount,
  buildRows,
  describeEvent,
  earlierSegmentOf,
  NOTHING_OPENED,
  type Opened,
  type Row,
  recordsSummary,
  segmentStarts,
} from './rows';
import { clearedLine, whyLine, whyOf } from './why';

export const ROW_HEIGHT = 22;

export function MessageList(props: {
  messages: MessageSummary[];
  markers: MarkerSummary[];
  analysis: ViewAnalysis | null;
  /** The settings the analysis ran with: the rows' why-line tooltips name them. */
  policy?: Policy | null;
  selected: number | null;
  onSelect: (index: number) => void;
  /** The host's answer to the latest search, and how to ask (the text is the host's: results, arguments). */
  found?: Extract<HostMessage, { type: 'found' }> | null;
  onFind?: (query: string) => void;
  /** A message another view points at (the Cache tab's break: where its prompt first differs), with why. */
  marked?: { message: number; label: string } | null;
  /** The log's bookkeeping records are shown among the messages (remembered by the host), and how to switch. */
  bookkeeping?: boolean;
  onBookkeeping?: (shown: boolean) => void;
}) {
  const bookkeeping = props.bookkeeping ?? false;
  const { messages, markers, analysis, selected, onSelect, onFind } = props;
  const [filter, setFilter] = useState<ListFilter>(NO_FILTER);
  const query = filter.query.trim();
  // Ask the host a moment after the last key (it searches the full text of every message).
  useEffect(() => {
    if (!onFind || query === '') return;
    const timer = setTimeout(() => onFind(query), 150);
    return () => clearTimeout(timer);
  }, [query, onFind]);
  const found = props.found && props.found.query === query ? props.found.messages : null;
  const foundSet = useMemo(() => (found ? new Set(found) : null), [found]);
  const filtering = isFiltering(filter);
  const shown = useMemo(
    () => (filtering ? filteredMessages(filter, messages, analysis, foundSet) : null),
    [filtering, filter, messages, analysis, foundSet],
  );
  const tools = useMemo(() => toolNamesOf(messages), [messages]);
  // Bookkeeping records and earlier segments start collapsed; the user opens them, and a selected message inside
  // a collapsed segment opens it.
  const [opened, setOpened] = useState<Opened>(NOTHING_OPENED);
  const toggle = useCallback((kind: 'segment' | 'records', key: number) => {
    setOpened((o) => {
      const set = new Set(kind === 'segment' ? o.segments : o.records);
      if (set.has(key)) set.delete(key);
      else set.add(key);
      return kind === 'segment' ? { ...o, segments: set } : { ...o, records: set };
    });
  }, []);
  const starts = useMemo(() => segmentStarts(messages.length, markers), [messages.length, markers]);
  useEffect(() => {
    if (selected === null) return;
    const segment = earlierSegmentOf(selected, starts);
    if (segment !== null && !opened.segments.has(segment))
      setOpened((o) => ({ ...o, segments: new Set([...o.segments, segment]) }));
  }, [selected, starts, opened]);
  const rows = useMemo(
    (): Row[] =>
      shown
        ? shown.map((index) => ({ kind: 'message', index }))
        : buildRows(messages.length, markers, analysis, opened, bookkeeping),
    [shown, messages.length, markers, analysis, opened, bookkeeping],
  );
  const rowOfMessage = useMemo(() => {
    const map = new Int32Array(messages.length).fill(-1);
    rows.forEach((r, i) => {
      if (r.kind === 'message') map[r.index] = i;
    });
    return map;
  }, [rows, messages.length]);
  /** The messages the keyboard moves through: the shown ones. */
  const order = useMemo(
    () => shown ?? rows.flatMap((r) => (r.kind === 'message' ? [r.index] : [])),
    [shown, rows],
  );
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
    if (selected !== null && selected < messages.length && rowOfMessage[selected] >= 0)
      virtualizer.scrollToIndex(rowOfMessage[selected]);
  }, [selected, rowOfMessage, messages.length, virtualizer]);

  /** Next / previous shown message after the selection (a filter's matches, or every message). */
  const step = (direction: 1 | -1) => {
    if (order.length === 0) return;
    const at = selected === null ? -1 : rowOfMessage[selected] >= 0 ? order.indexOf(selected) : -1;
    if (at < 0) {
      const after = selected === null ? -1 : selected;
      const next =
        direction > 0
          ? (order.find((i) => i > after) ?? order[0])
          : ([...order].reverse().find((i) => i < after) ?? order[order.length - 1]);
      onSelect(next);
      return;
    }
    onSelect(order[(at + direction + order.length) % order.length]);
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (order.length === 0) return;
    if (e.key === 'F3') {
      e.preventDefault();
      step(e.shiftKey ? -1 : 1);
      return;
    }
    if (e.key === 'Enter') {
      // Opens or closes the group (an earlier segment, bookkeeping records) nearest above the selection, or the
      // first one: a group row is not a stop of the arrow keys, and a button inside an option would be nested.
      const from = selected !== null && rowOfMessage[selected] >= 0 ? rowOfMessage[selected] : rows.length;
      let g = -1;
      for (let i = Math.min(from, rows.length - 1); i >= 0 && g < 0; i--)
        if (rows[i].kind === 'segment' || rows[i].kind === 'records') g = i;
      if (g < 0) g = rows.findIndex((r) => r.kind === 'segment' || r.kind === 'records');
      const row = rows[g];
      if (row?.kind === 'segment' || row?.kind === 'records') {
        e.preventDefault();
        toggle(row.kind, row.kind === 'segment' ? row.start : row.at);
      }
      return;
    }
    const at = selected !== null && rowOfMessage[selected] >= 0 ? order.indexOf(selected) : -1;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 520) / ROW_HEIGHT) - 1);
    const next: Record<string, number> = {
      ArrowDown: at + 1,
      ArrowUp: at - 1,
      PageDown: at + page,
      PageUp: at - page,
      Home: 0,
      End: order.length - 1,
    };
    if (!(e.key in next)) return;
    e.preventDefault();
    onSelect(order[Math.min(order.length - 1, Math.max(0, next[e.key]))]);
  };

  return (
    <>
      <FilterBar
        filter={filter}
        tools={tools}
        shown={shown ? shown.length : null}
        total={messages.length}
        searching={query !== '' && found === null}
        onChange={setFilter}
        onStep={step}
        records={
          props.onBookkeeping
            ? { count: bookkeepingCount(markers), shown: bookkeeping, onChange: props.onBookkeeping }
            : undefined
        }
      />
      <div
        ref={scrollRef}
        className="message-list"
        role="listbox"
        aria-label="Messages"
        tabIndex={0}
        data-testid="message-list"
        aria-activedescendant={
          selected !== null && rowOfMessage[selected] >= 0 ? `message-row-${selected}` : undefined
        }
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
                onToggle={toggle}
                selected={selected}
                maxTokens={maxTokens}
                onSelect={onSelect}
                marked={props.marked ?? null}
              />
            </div>
          ))}
        </div>
      </div>
    </>
  );
}

function RowView(props: {
  row: Row;
  messages: MessageSummary[];
  analysis: ViewAnalysis | null;
  policy: Policy | null;
  selected: number | null;
  maxTokens: number;
  onToggle: (kind: 'segment' | 'records', key: number) => void;
  onSelect: (index: number) => void;
  marked: { message: number; label: string } | null;
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
  if (row.kind === 'segment' || row.kind === 'records') {
    const isSegment = row.kind === 'segment';
    const key = isSegment ? row.start : row.at;
    const label = isSegment
      ? `Earlier segment: messages #${row.start}–#${row.end - 1} (${row.end - row.start}), before a compaction: the later requests carry its summary instead`
      : `${row.markers.length} bookkeeping record${row.markers.length === 1 ? '' : 's'}: ${recordsSummary(row.markers)}`;
    // The row is the toggle (a click opens or closes it): a button inside an option is a control nested in a
    // control, and a listbox may hold nothing but options. Its name says what a click does.
    return (
      // biome-ignore lint/a11y/useKeyWithClickEvents: keys are handled by the enclosing listbox
      <div
        className={`group-row ${isSegment ? 'segment-row' : 'records-row'}`}
        role="option"
        tabIndex={-1}
        aria-selected={false}
        aria-label={`${row.open ? 'Collapse' : 'Expand'}: ${label}`}
        data-testid={isSegment ? 'segment-row' : 'records-row'}
        data-open={row.open}
        onClick={() => props.onToggle(row.kind, key)}
      >
        <span className="group-toggle" aria-hidden="true">
          {row.open ? '▾' : '▸'}
        </span>
        <span className="group-label">{label}</span>
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
  const facts = a && props.analysis ? whyOf(props.analysis, i) : null;
  const why = a && facts && props.policy ? whyLine(a, facts, props.policy) : '';
  const cleared =
    facts && facts.cleared.length > 0 && props.policy
      ? facts.cleared.map((c) => clearedLine(c.fact, c.clearing, props.policy!)).join(' · ')
      : null;
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
        {a && a.zone !== 'prefix' ? <ZoneBadge zone={a.zone} /> : null}
        {cleared ? <ClearedBadge why={cleared} /> : null}
        {props.marked?.message === i ? (
          <span
            className="break-marker"
            data-testid="cache-break-marker"
            role="img"
            aria-label={props.marked.label}
            title={props.marked.label}
          >
            ⚡
          </span>
        ) : null}
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
