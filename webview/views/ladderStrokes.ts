// The ladder's rows and scale: where each tool-result message's stroke stands on the distance axis (its distance
// now, or where an earlier pass met it when it kept that pass's tier), the axis's ticks, and the words of a stroke's
// tooltip. Ladder.tsx draws them.
import type { ViewAnalysis } from '../../src/analysisWire/types';
import type { MessageAnalysis } from '../../src/core/analysisTypes';
import type { TieredSettings } from '../../src/core/engine/policy';

/** The axis's margins, left and right of the figure. */
export const LEFT = 24;
export const RIGHT = 24;
/** Distances up to about this many stay evenly spaced; beyond it the axis compresses logarithmically, so the
 * Tier 3 and Tier 2 bands stay wide enough to read and drag in a session with thousands of tool results. */
const LINEAR_SPAN = 8;
/** Position on the axis (newest, distance -0.5, on the right) and back: x(d) ∝ log(1 + (d + 0.5) / LINEAR_SPAN). */
export function distanceAxis(maxD: number, width: number) {
  const s = (d: number) => Math.log1p((d + 0.5) / LINEAR_SPAN);
  const span = width - LEFT - RIGHT;
  const sMax = s(maxD);
  return {
    x: (d: number) => LEFT + (1 - s(d) / sMax) * span,
    dFromX: (px: number) => Math.expm1((1 - (px - LEFT) / span) * sMax) * LINEAR_SPAN - 0.5,
  };
}

/** Where a stroke is drawn: its distance now, or for a result that kept an earlier pass's tier (first touch),
 * the distance it had when that pass classified it. */
export interface Stroke {
  m: MessageAnalysis;
  d: number;
  /** It keeps a tier its distance now would not give it; `request`: the pass that gave it, when known. */
  firstTouch: { request: number | null; distanceNow: number } | null;
  /** The request before which the server's context editing first cleared a result of it (null: never). */
  cleared: number | null;
  /** A compaction removed it: the next request does not send it (drawn apart, not as its tier). */
  notSent: boolean;
}

export function strokesOf(analysis: ViewAnalysis, tier1Distance: number): Stroke[] {
  // The engine's first-touch facts: [message, request whose pass first met it, its distance then], flattened.
  const met = new Map<number, { request: number; distance: number }>();
  const f = analysis.why?.firstTouch ?? [];
  for (let i = 0; i + 2 < f.length; i += 3) met.set(f[i], { request: f[i + 1], distance: f[i + 2] });
  const clearedAt = new Map<number, number>();
  for (const c of analysis.why?.cleared ?? [])
    if (c.kind === 'tool_result' && !clearedAt.has(c.message)) clearedAt.set(c.message, c.request);
  const liveFrom = analysis.liveFrom ?? 0;
  return analysis.messages
    .filter((m) => m.distance !== null)
    .map((m) => {
      const d = m.distance ?? 0;
      const cleared = clearedAt.get(m.index) ?? null;
      const notSent = m.index < liveFrom;
      // Only a result whose tier its distance now would not give (Tier 2 beyond tier1Distance, no floor) is
      // moved: a pass met it earlier, and it stands where that pass met it. The others are where their tier says.
      if (m.tier !== 2 || m.floored || d < tier1Distance) return { m, d, firstTouch: null, cleared, notSent };
      const then = met.get(m.index);
      return then
        ? { m, d: then.distance, firstTouch: { request: then.request, distanceNow: d }, cleared, notSent }
        : { m, d, firstTouch: { request: null, distanceNow: d }, cleared, notSent };
    });
}

/** Ticks at 1-2-5 steps, as many as fit; the labels are placed (or dropped) with the others. */
export function tickDistances(maxD: number): number[] {
  const out = [0];
  for (let p = 1; p <= maxD; p *= 10) for (const f of [1, 2, 5]) if (p * f <= maxD) out.push(p * f);
  return out;
}

export function describe(s: Stroke): string {
  const m = s.m;
  const tool = m.toolNames.length ? m.toolNames.join(', ') : 'tool result';
  const tokens =
    m.tokensBefore === m.tokensAfter ? `${m.tokensBefore}` : `${m.tokensBefore} → ${m.tokensAfter}`;
  const f = s.firstTouch;
  const first = !f
    ? ''
    : f.request === null
      ? ' · first touch: kept the tier an earlier pass gave it'
      : ` · first touch: classified in request ${f.request + 1} at distance ${s.d}, now at ${f.distanceNow}`;
  const cleared = s.cleared === null ? '' : ` · cleared by context editing before request ${s.cleared + 1}`;
  if (s.notSent) return `#${m.index} ${tool} · not sent: a compaction removed it · ${m.tokensBefore} tokens`;
  return `#${m.index} ${tool} · Tier ${m.tier ?? 3}${m.floored ? ' (floor tool)' : ''} · distance ${m.distance} · ${tokens} tokens${first}${cleared}`;
}

/** The distance at the axis's left end: past the oldest stroke; with room left of tier1Distance for the Tier 1 band
 * only when some result is there (under a pass at every request none ever is: first touch). */
export function axisEnd(
  strokes: readonly Stroke[],
  tiered: Pick<TieredSettings, 'keepRecent' | 'tier1Distance'>,
) {
  return Math.max(
    strokes.reduce((m, s) => Math.max(m, s.m.distance ?? 0), 0) + 1,
    strokes.some((s) => s.m.tier === 1)
      ? Math.ceil(tiered.tier1Distance * 1.5) + 2
      : tiered.tier1Distance + 1,
    tiered.keepRecent + 2,
  );
}

/** The stroke nearest to `px` within `reach` pixels (of two as near, the taller). */
export function nearestStroke(
  strokes: readonly Stroke[],
  x: (d: number) => number,
  px: number,
  reach: number,
): Stroke | null {
  let best: Stroke | null = null;
  let bestDx = reach;
  for (const s of strokes) {
    const dx = Math.abs(x(s.d) - px);
    if (dx < bestDx || (dx === bestDx && best && s.m.tokensBefore > best.m.tokensBefore)) {
      best = s;
      bestDx = dx;
    }
  }
  return best;
}

/** The strokes as SVG paths, one per kind: the tokens before, the tokens after by tier (or not sent), and the marks
 * (floor tool, first touch, cleared by the server). `h` gives a stroke's height for its tokens. */
export function strokePaths(
  strokes: readonly Stroke[],
  x: (d: number) => number,
  h: (tokens: number) => number,
  y: { base: number; top: number },
): Record<string, string> {
  const p: Record<string, string[]> = {
    before: [],
    t1: [],
    t2: [],
    t3: [],
    gone: [],
    floor: [],
    first: [],
    cleared: [],
  };
  for (const s of strokes) {
    const px = x(s.d).toFixed(1);
    p.before.push(`M${px} ${y.base}v${-h(s.m.tokensBefore).toFixed(1)}`);
    p[s.notSent ? 'gone' : `t${s.m.tier ?? 3}`].push(
      `M${px} ${y.base}v${-Math.max(1, h(s.notSent ? s.m.tokensBefore : s.m.tokensAfter)).toFixed(1)}`,
    );
    if (s.m.floored) p.floor.push(`M${px} ${y.base + 4}l-3 6h6z`);
    if (s.firstTouch) p.first.push(`M${px} ${y.top - 10}l3 3l-3 3l-3 -3z`);
    // A cross above the stroke: the server clears it (its tokens after are the placeholder's).
    if (s.cleared !== null) p.cleared.push(`M${Number(px) - 3} ${y.top - 8}l6 6m0 -6l-6 6`);
  }
  return Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v.join('')]));
}
