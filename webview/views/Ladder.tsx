// The ladder: the distance axis with the Tier 1 / Tier 2 / Tier 3 bands (oldest on the left, newest at
// distance 0 on the right). The band edges are the policy's keepRecent and tier1Distance and can be dragged
// or moved with the arrow keys; each tool-result message is a stroke whose height is its tokens before, its
// coloured part the tokens after, coloured by the tier the host computed. Floored messages get a mark below.
import { type KeyboardEvent, type PointerEvent, useMemo, useRef, useState } from 'react';
import type { ViewAnalysis } from '../../src/analysisWire';
import type { TieredSettings } from '../../src/core/engine/policy';
import { useWidth } from '../ui/useWidth';
import { formatTokens } from './format';

/** Drawn at the figure's own pixel width, so text keeps the editor's font size at any width. */
const DEFAULT_WIDTH = 800;
const H = 150;
const LEFT = 20;
const RIGHT = 20;
const BASE = 100;
const TOP = 34;
/** A band narrower than its "12 · 3.4k saved" line keeps its figures in the tooltip instead of overlapping. */
const MIN_LABEL_WIDTH = 84;
/** Distances up to about this many stay evenly spaced; beyond it the axis compresses logarithmically, so the
 * Tier 3 and Tier 2 bands stay wide enough to read and drag in a session with thousands of tool results. */
const LINEAR_SPAN = 8;

/** Position on the axis (newest, distance -0.5, on the right) and back: x(d) ∝ log(1 + (d + 0.5) / LINEAR_SPAN). */
function distanceAxis(maxD: number, width: number) {
  const s = (d: number) => Math.log1p((d + 0.5) / LINEAR_SPAN);
  const span = width - LEFT - RIGHT;
  const sMax = s(maxD);
  return {
    x: (d: number) => LEFT + (1 - s(d) / sMax) * span,
    dFromX: (px: number) => Math.expm1((1 - (px - LEFT) / span) * sMax) * LINEAR_SPAN - 0.5,
  };
}

export function Ladder(props: {
  analysis: ViewAnalysis;
  tiered: TieredSettings;
  active: boolean;
  onChange: (key: 'keepRecent' | 'tier1Distance', value: number) => void;
}) {
  const { analysis, tiered, active } = props;
  const [drag, setDrag] = useState<'keepRecent' | 'tier1Distance' | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const figureRef = useRef<HTMLElement>(null);
  const W = useWidth(figureRef, DEFAULT_WIDTH);

  const toolResults = useMemo(() => analysis.messages.filter((m) => m.distance !== null), [analysis]);
  const maxD = Math.max(
    toolResults.reduce((m, a) => Math.max(m, a.distance ?? 0), 0) + 1,
    // Room left of tier1Distance, so the Tier 1 band stays readable even when no result has reached it.
    Math.ceil(tiered.tier1Distance * 1.5) + 2,
    tiered.keepRecent + 2,
  );
  const { x, dFromX } = distanceAxis(maxD, W);

  const paths = useMemo(() => {
    const maxTok = toolResults.reduce((m, a) => Math.max(m, a.tokensBefore), 1);
    const h = (t: number) => (Math.log1p(t) / Math.log1p(maxTok)) * (BASE - TOP);
    const { x } = distanceAxis(maxD, W);
    const p: Record<string, string[]> = { before: [], t1: [], t2: [], t3: [], floor: [] };
    for (const m of toolResults) {
      const px = x(m.distance ?? 0).toFixed(1);
      p.before.push(`M${px} ${BASE}v${-h(m.tokensBefore).toFixed(1)}`);
      p[`t${m.tier ?? 3}`].push(`M${px} ${BASE}v${-Math.max(1, h(m.tokensAfter)).toFixed(1)}`);
      if (m.floored) p.floor.push(`M${px} ${BASE + 4}l-3 6h6z`);
    }
    return Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v.join('')]));
  }, [toolResults, maxD, W]);

  const edge = (key: 'keepRecent' | 'tier1Distance') => x(tiered[key] - 0.5);
  const setValue = (key: 'keepRecent' | 'tier1Distance', raw: number) => {
    // keepRecent ≤ tier1Distance: the ladder never lets the edges cross.
    const value =
      key === 'keepRecent'
        ? Math.min(Math.max(0, raw), tiered.tier1Distance)
        : Math.max(raw, tiered.keepRecent, 0);
    if (value !== tiered[key]) props.onChange(key, value);
  };
  const svgX = (e: PointerEvent) => {
    const svg = svgRef.current;
    const ctm = svg?.getScreenCTM();
    if (!svg || !ctm) return null;
    const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(ctm.inverse());
    return pt.x;
  };
  const onPointerMove = (e: PointerEvent) => {
    if (!drag) return;
    const px = svgX(e);
    if (px !== null) setValue(drag, Math.round(dFromX(px) + 0.5));
  };
  const onKey = (key: 'keepRecent' | 'tier1Distance') => (e: KeyboardEvent) => {
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
  return (
    <figure
      ref={figureRef}
      className={`ladder${active ? '' : ' inactive'}`}
      data-testid="ladder"
      aria-label="Tier ladder"
    >
      {/* biome-ignore lint/a11y/useSemanticElements: an SVG group of bands and handles, not a fieldset */}
      <svg
        ref={svgRef}
        viewBox={`0 0 ${W} ${H}`}
        className="ladder-svg"
        onPointerMove={onPointerMove}
        onPointerUp={() => setDrag(null)}
        onPointerCancel={() => setDrag(null)}
        role="group"
        aria-label="Distance axis with the tier bands"
      >
        {bands.map((b) => (
          <g key={b.tier} data-testid={`ladder-band-${b.tier}`}>
            <rect
              className={`band band-${b.tier}`}
              x={Math.min(b.from, b.to)}
              y={TOP - 4}
              width={Math.abs(b.to - b.from)}
              height={BASE - TOP + 8}
            />
            <title>
              Tier {b.tier}: {b.stats.count} · {formatTokens(b.stats.tokensSaved)} saved
            </title>
            {Math.abs(b.to - b.from) >= MIN_LABEL_WIDTH && (
              <>
                <text className="band-label" x={(b.from + b.to) / 2} y={14} textAnchor="middle">
                  Tier {b.tier}
                </text>
                <text className="band-stats" x={(b.from + b.to) / 2} y={27} textAnchor="middle">
                  {b.stats.count} · {formatTokens(b.stats.tokensSaved)} saved
                </text>
              </>
            )}
          </g>
        ))}
        <path className="stroke-before" d={paths.before} />
        <path className="stroke-tier-1" d={paths.t1} />
        <path className="stroke-tier-2" d={paths.t2} />
        <path className="stroke-tier-3" d={paths.t3} />
        <path className="floor-mark" d={paths.floor} />
        <line className="axis" x1={LEFT} x2={W - RIGHT} y1={BASE} y2={BASE} />
        <text className="axis-label" x={LEFT} y={H - 8}>
          distance {maxD}
        </text>
        <text className="axis-label" x={W - RIGHT} y={H - 8} textAnchor="end">
          0 (newest)
        </text>
        {(['tier1Distance', 'keepRecent'] as const).map((key) => {
          return (
            <g
              key={key}
              className={`edge${drag === key ? ' dragging' : ''}`}
              role="slider"
              tabIndex={0}
              aria-label={`${key} boundary`}
              aria-valuenow={tiered[key]}
              aria-valuemin={0}
              aria-valuemax={maxD}
              aria-orientation="horizontal"
              data-testid={`ladder-edge-${key}`}
              onKeyDown={onKey(key)}
              onPointerDown={(e) => {
                e.preventDefault();
                (e.currentTarget.ownerSVGElement ?? svgRef.current)?.setPointerCapture?.(e.pointerId);
                setDrag(key);
              }}
            >
              <line x1={edge(key)} x2={edge(key)} y1={TOP - 8} y2={BASE + 12} />
              <rect className="edge-grip" x={edge(key) - 6} y={TOP - 8} width={12} height={BASE - TOP + 20} />
              <text className="edge-label" x={edge(key)} y={H - 22} textAnchor="middle">
                {key} {tiered[key]}
              </text>
            </g>
          );
        })}
      </svg>
      {active ? null : <figcaption>The tiered policy is off: the bands show its settings only.</figcaption>}
    </figure>
  );
}
