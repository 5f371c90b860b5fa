// The ladder: the distance axis with the Tier 1 / Tier 2 / Tier 3 bands (oldest on the left, newest at
// distance 0 on the right). The band edges are the policy's keepRecent and tier1Distance and can be dragged
// or moved with the arrow keys; each tool-result message is a stroke whose height is its tokens before, its
// coloured part the tokens after, coloured by the tier the host computed. Floored messages get a mark below.
// Hovering a stroke names its message and tool; a click selects its row, and the selected row's stroke is
// marked. A result that kept the tier a pass gave it earlier (first touch) is drawn where that pass met it.
import { type KeyboardEvent, type PointerEvent, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ViewAnalysis } from '../../src/analysisWire/types';
import type { TieredSettings } from '../../src/core/engine/policy';
import { useWidth } from '../ui/useWidth';
import { formatTokens } from './format';
import { type LabelSpec, type Placed, placeLabels, widthKey } from './ladderLabels';
import {
  axisEnd,
  describe,
  distanceAxis,
  LEFT,
  nearestStroke,
  RIGHT,
  type Stroke,
  strokePaths,
  strokesOf,
  tickDistances,
} from './ladderStrokes';

/** Drawn at the figure's own pixel width, so text keeps the editor's font size at any width. */
const DEFAULT_WIDTH = 800;
const H = 158;
const BASE = 100;
const TOP = 38;
/** Rows of text below the axis: tick labels, then the edge labels. */
const TICK_Y = 126;
const EDGE_Y = 146;
/** A pointer this close to a stroke (px) hovers it. */
const HOVER_REACH = 6;

type EdgeKey = 'keepRecent' | 'tier1Distance';

export function Ladder(props: {
  analysis: ViewAnalysis;
  tiered: TieredSettings;
  active: boolean;
  selected?: number | null;
  onSelect?: (index: number) => void;
  onChange: (key: EdgeKey, value: number) => void;
}) {
  const { analysis, tiered, active, selected = null } = props;
  // While an edge is dragged the axis stays as it was when the drag began (maxD and width), so the edge stays
  // under the pointer; it rescales on release.
  const [drag, setDrag] = useState<{ key: EdgeKey; maxD: number; width: number; px: number } | null>(null);
  const [hover, setHover] = useState<Stroke | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const figureRef = useRef<HTMLElement>(null);
  const measureRef = useRef<SVGTextElement>(null);
  const liveWidth = useWidth(figureRef, DEFAULT_WIDTH);

  const strokes = useMemo(() => strokesOf(analysis, tiered.tier1Distance), [analysis, tiered.tier1Distance]);
  const liveMaxD = axisEnd(strokes, tiered);
  const maxD = drag ? drag.maxD : liveMaxD;
  const W = drag ? drag.width : liveWidth;
  const { x, dFromX } = distanceAxis(maxD, W);

  const paths = useMemo(() => {
    const maxTok = strokes.reduce((m, s) => Math.max(m, s.m.tokensBefore), 1);
    const h = (t: number) => (Math.log1p(t) / Math.log1p(maxTok)) * (BASE - TOP);
    return strokePaths(strokes, distanceAxis(maxD, W).x, h, { base: BASE, top: TOP });
  }, [strokes, maxD, W]);
  const notSent = strokes.filter((s) => s.notSent).length;
  const firstTouches = strokes.filter((s) => s.firstTouch).length;
  const clearedCount = strokes.filter((s) => s.cleared !== null).length;
  const selectedStroke = selected === null ? null : (strokes.find((s) => s.m.index === selected) ?? null);

  const edge = (key: EdgeKey) => x(tiered[key] - 0.5);
  const setValue = (key: EdgeKey, raw: number) => {
    // keepRecent ≤ tier1Distance: the ladder never lets the edges cross.
    const value =
      key === 'keepRecent'
        ? Math.min(Math.max(0, raw), tiered.tier1Distance)
        : Math.max(raw, tiered.keepRecent, 0);
    if (value !== tiered[key]) props.onChange(key, value);
  };
  const svgX = (e: { clientX: number; clientY: number }) => {
    const ctm = svgRef.current?.getScreenCTM();
    if (!ctm) return null;
    return new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse()).x;
  };
  const strokeAt = (px: number) => nearestStroke(strokes, x, px, HOVER_REACH);
  const onPointerMove = (e: PointerEvent) => {
    const px = svgX(e);
    if (px === null) return;
    if (drag) {
      // The edge sits between distances value-1 and value: the value whose edge is nearest the pointer.
      setDrag({ ...drag, px });
      setValue(drag.key, Math.round(dFromX(px) + 0.5));
    } else {
      const s = strokeAt(px);
      if (s !== hover) setHover(s);
    }
  };
  const onKey = (key: EdgeKey) => (e: KeyboardEvent) => {
    // Right moves the edge towards the newest message (smaller distance), as it looks on screen.
    const step = e.shiftKey ? 5 : 1;
    const delta: Record<string, number> = {
      ArrowLeft: step,
      ArrowUp: step,
      ArrowRight: -step,
      ArrowDown: -step,
    };
    if (!(e.key in delta)) return;
    e.preventDefault();
    setValue(key, tiered[key] + delta[e.key]);
  };

  const t = analysis.totals.tiers;
  const bands = [
    { tier: 1, from: x(maxD), to: edge('tier1Distance'), stats: t['1'] },
    { tier: 2, from: edge('tier1Distance'), to: edge('keepRecent'), stats: t['2'] },
    { tier: 3, from: edge('keepRecent'), to: x(-0.5), stats: t['3'] },
  ];

  // Every text of the figure, placed so that no two overlap: each has positions to try (and shorter forms), in
  // order of importance; what finds no room is left out (its figures stay in the band's or the edge's tooltip).
  // Widths are measured in the figure's own font after the first paint.
  const [widths, setWidths] = useState<Map<string, number>>(() => new Map());
  const labels: LabelSpec[] = [];
  // The bands and their edges only where the tiered pass acts (the policy's descriptor says whether it runs).
  const edgeKeys = active ? (['keepRecent', 'tier1Distance'] as const) : [];
  for (const key of edgeKeys) {
    const ex = edge(key);
    // tier1Distance's label reads leftwards from its edge, keepRecent's rightwards: apart by construction.
    const anchor = key === 'keepRecent' ? 'start' : 'end';
    const off = key === 'keepRecent' ? 4 : -4;
    labels.push({
      id: `edge-${key}`,
      className: 'edge-label',
      options: [
        { text: `${key} ${tiered[key]}`, x: ex + off, y: EDGE_Y, anchor },
        {
          text: `${key} ${tiered[key]}`,
          x: ex - off,
          y: EDGE_Y,
          anchor: anchor === 'start' ? 'end' : 'start',
        },
        { text: `${key === 'keepRecent' ? 'kR' : 't1'} ${tiered[key]}`, x: ex + off, y: EDGE_Y, anchor },
        { text: String(tiered[key]), x: ex, y: EDGE_Y, anchor: 'middle' },
      ],
    });
  }
  for (const b of active ? bands : []) {
    const mid = (b.from + b.to) / 2;
    labels.push({
      id: `band-${b.tier}`,
      className: 'band-label',
      options: [
        { text: `Tier ${b.tier}`, x: mid, y: 12, anchor: 'middle' },
        { text: `T${b.tier}`, x: mid, y: 12, anchor: 'middle' },
      ],
      within: [Math.min(b.from, b.to), Math.max(b.from, b.to)],
    });
    labels.push({
      id: `band-stats-${b.tier}`,
      className: 'band-stats',
      options: [
        {
          text: `${b.stats.count} · ${formatTokens(b.stats.tokensSaved)} saved`,
          x: mid,
          y: 28,
          anchor: 'middle',
        },
        { text: `${b.stats.count}`, x: mid, y: 28, anchor: 'middle' },
      ],
      within: [Math.min(b.from, b.to), Math.max(b.from, b.to)],
    });
  }
  const ticks = tickDistances(maxD);
  for (const d of ticks)
    labels.push({
      id: `tick-${d}`,
      className: 'tick-label',
      options: [{ text: String(d), x: x(d), y: TICK_Y, anchor: 'middle' }],
    });
  if (drag) {
    const value = tiered[drag.key];
    labels.unshift({
      id: 'drag-value',
      className: 'drag-value',
      options: [
        { text: `${drag.key} ${value}`, x: drag.px + 8, y: 28, anchor: 'start' },
        { text: `${drag.key} ${value}`, x: drag.px - 8, y: 28, anchor: 'end' },
      ],
    });
  }
  const placed = placeLabels(labels, widths, { left: 0, right: W });
  useLayoutEffect(() => {
    const el = measureRef.current;
    if (!el || typeof el.getComputedTextLength !== 'function') return;
    const missing: [string, string][] = [];
    for (const l of labels)
      for (const o of l.options)
        if (!widths.has(widthKey(l.className, o.text))) missing.push([l.className, o.text]);
    if (missing.length === 0) return;
    const next = new Map(widths);
    for (const [className, text] of missing) {
      el.setAttribute('class', `${className} measure`);
      el.textContent = text;
      next.set(widthKey(className, text), el.getComputedTextLength());
    }
    el.textContent = '';
    setWidths(next);
  });

  const label = (p: Placed | undefined, testId?: string) =>
    p ? (
      <text
        key={p.id}
        className={p.className}
        x={p.x}
        y={p.y}
        textAnchor={p.anchor}
        data-testid={testId}
        data-label={p.id}
      >
        {p.text}
      </text>
    ) : null;

  return (
    <figure
      ref={figureRef}
      className={`ladder${active ? '' : ' inactive'}`}
      data-testid="ladder"
      aria-label="Tier ladder"
    >
      {/* biome-ignore lint/a11y/useSemanticElements: an SVG group of bands and handles, not a fieldset */}
      {/* biome-ignore lint/a11y/useKeyWithClickEvents: a stroke's click selects its row; the list is the keyboard's way to the same rows */}
      <svg
        ref={svgRef}
        viewBox={`0 0 ${W} ${H}`}
        className="ladder-svg"
        onPointerMove={onPointerMove}
        onPointerLeave={() => setHover(null)}
        onPointerUp={() => setDrag(null)}
        onPointerCancel={() => setDrag(null)}
        onClick={(e) => {
          if (drag) return;
          const px = svgX(e);
          const s = px === null ? null : strokeAt(px);
          if (s && props.onSelect) props.onSelect(s.m.index);
        }}
        role="group"
        aria-label="Distance axis with the tier bands"
      >
        <text ref={measureRef} className="measure" x={-1000} y={-1000} />
        {(active ? bands : []).map((b) => (
          <g key={b.tier} data-testid={`ladder-band-${b.tier}`}>
            <rect
              className={`band band-${b.tier}`}
              x={Math.min(b.from, b.to)}
              y={TOP - 4}
              width={Math.abs(b.to - b.from)}
              height={BASE - TOP + 8}
            >
              <title>
                Tier {b.tier}: {b.stats.count} results · {formatTokens(b.stats.tokensSaved)} tokens saved
              </title>
            </rect>
          </g>
        ))}
        {ticks.map((d) => (
          <line key={d} className="tick" x1={x(d)} x2={x(d)} y1={BASE} y2={BASE + 4} />
        ))}
        <path className="stroke-before" d={paths.before} />
        <path className="stroke-tier-1" d={paths.t1} />
        <path className="stroke-tier-2" d={paths.t2} />
        <path className="stroke-tier-3" d={paths.t3} />
        <path className="stroke-not-sent" d={paths.gone} data-testid="not-sent-strokes" />
        <path className="floor-mark" d={paths.floor} />
        <path className="first-touch-mark" d={paths.first} data-testid="first-touch-marks" />
        <path className="cleared-mark" d={paths.cleared} data-testid="cleared-marks" />
        <line className="axis" x1={LEFT} x2={W - RIGHT} y1={BASE} y2={BASE} />
        {selectedStroke ? (
          <rect
            className="stroke-selected"
            data-testid="ladder-selected"
            data-index={selectedStroke.m.index}
            x={x(selectedStroke.d) - 3}
            y={TOP - 2}
            width={6}
            height={BASE - TOP + 4}
          />
        ) : null}
        {hover ? (
          <line
            className="stroke-hover"
            x1={x(hover.d)}
            x2={x(hover.d)}
            y1={TOP - 2}
            y2={BASE + 2}
            data-testid="ladder-hover"
          />
        ) : null}
        {placed.map((p) => (p.id.startsWith('edge-') ? null : label(p)))}
        {[...edgeKeys].reverse().map((key) => (
          <g
            key={key}
            className={`edge${drag?.key === key ? ' dragging' : ''}`}
            role="slider"
            tabIndex={0}
            aria-label={`${key} boundary`}
            aria-valuenow={tiered[key]}
            aria-valuetext={`${key} ${tiered[key]}`}
            aria-valuemin={key === 'keepRecent' ? 0 : tiered.keepRecent}
            aria-valuemax={key === 'keepRecent' ? tiered.tier1Distance : maxD}
            aria-orientation="horizontal"
            data-testid={`ladder-edge-${key}`}
            onKeyDown={onKey(key)}
            onPointerDown={(e) => {
              e.preventDefault();
              e.stopPropagation();
              (e.currentTarget.ownerSVGElement ?? svgRef.current)?.setPointerCapture?.(e.pointerId);
              setHover(null);
              setDrag({ key, maxD: liveMaxD, width: liveWidth, px: edge(key) });
            }}
          >
            <title>
              {key} {tiered[key]}: drag, or focus and use the arrow keys
            </title>
            <line x1={edge(key)} x2={edge(key)} y1={TOP - 8} y2={BASE + 12} />
            <rect className="edge-grip" x={edge(key) - 6} y={TOP - 8} width={12} height={BASE - TOP + 20} />
            {label(
              placed.find((p) => p.id === `edge-${key}`),
              `ladder-edge-label-${key}`,
            )}
          </g>
        ))}
      </svg>
      <figcaption className="ladder-legend">
        <span className="legend-item">
          <span className="swatch swatch-before" aria-hidden="true" /> tokens before
        </span>
        {active ? (
          <>
            <span className="legend-item">
              <span className="swatch swatch-tier-1" aria-hidden="true" /> Tier 1 stub
            </span>
            <span className="legend-item">
              <span className="swatch swatch-tier-2" aria-hidden="true" /> Tier 2 cut
            </span>
          </>
        ) : null}
        <span className="legend-item">
          <span className="swatch swatch-tier-3" aria-hidden="true" />{' '}
          {active ? 'Tier 3 kept' : 'tokens sent'}
        </span>
        {notSent > 0 ? (
          <span className="legend-item" data-testid="not-sent-note">
            <span className="swatch swatch-not-sent" aria-hidden="true" /> not sent: {notSent}{' '}
            {notSent === 1 ? 'result' : 'results'} a compaction removed
          </span>
        ) : null}
        <span className="legend-item">
          <span className="mark" aria-hidden="true">
            ▲
          </span>{' '}
          floor tool
        </span>
        {firstTouches > 0 ? (
          <span className="legend-item note" data-testid="first-touch-note">
            <span className="mark first" aria-hidden="true">
              ◆
            </span>{' '}
            first touch: {firstTouches} {firstTouches === 1 ? 'result keeps' : 'results keep'} the Tier 2 of
            the pass that first met {firstTouches === 1 ? 'it' : 'them'}, drawn at the distance of that pass
          </span>
        ) : null}
        {clearedCount > 0 ? (
          <span className="legend-item note" data-testid="cleared-note">
            <span className="mark cleared" aria-hidden="true">
              ✕
            </span>{' '}
            cleared by context editing on the server: {clearedCount}{' '}
            {clearedCount === 1 ? 'result' : 'results'}
          </span>
        ) : null}
        <span className="legend-item axis-note">axis: distance (tool results after it), oldest left</span>
        {active ? null : (
          <span className="legend-item">No tier bands: this policy does not run the tiered pass.</span>
        )}
      </figcaption>
      {hover ? (
        <p className="ladder-tip" role="status" data-testid="ladder-tip">
          {describe(hover)}
        </p>
      ) : null}
    </figure>
  );
}
