// Per request: cached, written and uncached prompt tokens as stacked bars, the cost as a line, the usage the
// agent recorded (where the log has it) as dots, and the other policies' cost lines for comparison.
// One bar per request; thousands of requests are grouped into at most MAX_BARS bars, each the mean of its requests
// (so the axis still reads "per request"), and the chart says so above it.
import { useMemo, useRef } from 'react';
import type { ViewAnalysis } from '../../src/analysisWire/types';
import type { Payback, RequestAnalysis } from '../../src/core/analysisTypes';
import { costWords, paybackWords, tokenWords } from '../../src/vsNoneWords';
import type { Comparison } from '../state';
import { useWidth } from '../ui/useWidth';
import { Flags } from './Flags';
import { formatCost, formatTokens } from './format';
import { CompactionsTable, TotalsTable } from './RequestTables';

const MAX_BARS = 400;
const H = 220;
const PAD = 36;

interface Bin {
  first: number;
  last: number;
  /** Requests in the bin; every figure below is their mean. */
  n: number;
  cached: number;
  written: number;
  uncached: number;
  cost: number;
  recorded: number | null;
}

function bins(requests: RequestAnalysis[]): Bin[] {
  const per = Math.max(1, Math.ceil(requests.length / MAX_BARS));
  const out: Bin[] = [];
  for (let i = 0; i < requests.length; i += per) {
    const b: Bin = { first: i, last: i, n: 0, cached: 0, written: 0, uncached: 0, cost: 0, recorded: null };
    let recordedN = 0;
    for (const r of requests.slice(i, i + per)) {
      b.n++;
      b.last = r.index;
      b.cached += r.cachedTokens;
      b.written += r.writtenTokens;
      b.uncached += Math.max(0, r.promptTokens - r.cachedTokens - r.writtenTokens);
      b.cost += r.cost;
      if (r.recorded) {
        const rec =
          r.recorded.inputTokens + r.recorded.cacheReadInputTokens + r.recorded.cacheCreationInputTokens;
        b.recorded = (b.recorded ?? 0) + rec;
        recordedN++;
      }
    }
    b.cached /= b.n;
    b.written /= b.n;
    b.uncached /= b.n;
    b.cost /= b.n;
    if (b.recorded !== null) b.recorded /= recordedN;
    out.push(b);
  }
  return out;
}

export function RequestsChart(props: {
  analysis: ViewAnalysis;
  comparisons: Comparison[];
  compactedNow?: Payback | null;
  offered?: readonly string[];
}) {
  const { analysis, comparisons } = props;
  const sectionRef = useRef<HTMLElement>(null);
  const W = useWidth(sectionRef, 600);
  const data = useMemo(() => bins(analysis.requests), [analysis.requests]);
  const others = useMemo(
    () => comparisons.map((c) => ({ name: c.policyName, bins: bins(c.requests) })),
    [comparisons],
  );
  if (analysis.requests.length === 0) {
    // The host sends the requests while this tab is shown: on their way.
    if (analysis.sentRequests > 0)
      return (
        <p className="empty" role="status">
          Loading {analysis.sentRequests} requests…
        </p>
      );
    return <p className="empty">This transcript has no assistant reply, so no request was sent.</p>;
  }
  // Folded, not spread into Math.max: the bars are bounded, the habit is not.
  const maxTok = data.reduce((m, b) => Math.max(m, b.cached + b.written + b.uncached, b.recorded ?? 0), 1);
  const maxCost = others.reduce(
    (m, o) => o.bins.reduce((n, b) => Math.max(n, b.cost), m),
    data.reduce((m, b) => Math.max(m, b.cost), 1e-9),
  );
  const bw = (W - 2 * PAD) / data.length;
  const y = (t: number) => H - PAD - (t / maxTok) * (H - 2 * PAD);
  const yc = (c: number) => H - PAD - (c / maxCost) * (H - 2 * PAD);
  const costLine = (bs: Bin[]) =>
    bs
      .map((b, i) => `${i === 0 ? 'M' : 'L'}${(PAD + (i + 0.5) * bw).toFixed(1)} ${yc(b.cost).toFixed(1)}`)
      .join('');
  const perBar = Math.ceil(analysis.requests.length / data.length);
  const per = perBar > 1 ? ` (each bar: the mean of ${perBar} requests)` : '';
  return (
    <section ref={sectionRef} className="requests" aria-label="Requests" data-testid="requests-chart">
      <VsNoneSummary analysis={analysis} compactedNow={props.compactedNow} />
      <Flags flags={analysis.flags} where="requests" />
      <p className="chart-caption" data-testid="chart-caption">
        {perBar > 1
          ? `${analysis.requests.length} requests, too many for one bar each: each bar is the mean of ${perBar} requests.`
          : `${analysis.requests.length} requests, one bar each.`}
      </p>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="chart-svg"
        role="img"
        aria-label={`Prompt tokens per request${per}: cached, written, uncached; cost line`}
      >
        {data.map((b, i) => {
          const x = PAD + i * bw;
          const w = Math.max(0.5, bw * 0.85);
          const c = y(b.cached);
          const wr = y(b.cached + b.written);
          const u = y(b.cached + b.written + b.uncached);
          return (
            <g key={b.first}>
              <title>{`request ${b.first + 1}${b.last !== b.first ? `–${b.last + 1} (mean of ${b.n})` : ''}: cached ${Math.round(b.cached)}, written ${Math.round(b.written)}, uncached ${Math.round(b.uncached)}, ${formatCost(b.cost)}${b.recorded !== null ? `, recorded ${Math.round(b.recorded)}` : ''}`}</title>
              <rect className="bar-cached" x={x} width={w} y={c} height={H - PAD - c} />
              <rect className="bar-written" x={x} width={w} y={wr} height={c - wr} />
              <rect className="bar-uncached" x={x} width={w} y={u} height={wr - u} />
              {b.recorded !== null ? (
                <circle className="recorded-dot" cx={x + w / 2} cy={y(b.recorded)} r={2.5} />
              ) : null}
            </g>
          );
        })}
        {others.map((o, k) => (
          <path key={o.name} className={`cost-line other other-${k}`} d={costLine(o.bins)} />
        ))}
        <path className="cost-line" d={costLine(data)} />
        <line className="axis" x1={PAD} x2={W - PAD} y1={H - PAD} y2={H - PAD} />
        <text className="axis-label" x={PAD} y={14}>
          {formatTokens(maxTok)} tokens{perBar > 1 ? ' per request' : ''}
        </text>
        <text className="axis-label" x={W - PAD} y={14} textAnchor="end">
          {formatCost(maxCost)}
        </text>
        <text className="axis-label" x={PAD} y={H - 10}>
          request 1
        </text>
        <text className="axis-label" x={W - PAD} y={H - 10} textAnchor="end">
          request {analysis.requests.length}
          {per}
        </text>
      </svg>
      <ul className="legend" aria-label="Legend">
        <li>
          <span className="swatch bar-cached" /> cached
        </li>
        <li>
          <span className="swatch bar-written" /> written
        </li>
        <li>
          <span className="swatch bar-uncached" /> uncached
        </li>
        <li>
          <span className="swatch cost-line" /> cost ({analysis.policyName})
        </li>
        {others.map((o, k) => (
          <li key={o.name}>
            <span className={`swatch cost-line other other-${k}`} /> cost ({o.name})
          </li>
        ))}
        <li>
          <span className="swatch recorded-dot" /> recorded usage
        </li>
      </ul>
      <Estimates analysis={analysis} />
      <TotalsTable analysis={analysis} comparisons={comparisons} offered={props.offered} />
      <CompactionsTable analysis={analysis} />
    </section>
  );
}

/** The headline again, where the requests are: the policy against none and one pass now. */
function VsNoneSummary({
  analysis,
  compactedNow,
}: {
  analysis: ViewAnalysis;
  compactedNow?: Payback | null;
}) {
  const v = analysis.vsNone;
  if (!v) return null;
  const payback = v.compactedNow ?? compactedNow ?? null;
  return (
    <div className="vs-none" data-testid="vs-none-summary">
      <p>
        <strong>{analysis.policyName}</strong> {costWords(v)}.
      </p>
      <p>{capitalised(tokenWords(v))}.</p>
      <p data-testid="compacted-now">
        {payback ? `${capitalised(paybackWords(payback))}.` : 'If compacted now: computing…'}
      </p>
    </div>
  );
}

function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The labelled estimates and the distance to the recorded usage (SPEC §5: the ground truth). */
function Estimates({ analysis }: { analysis: ViewAnalysis }) {
  const h = analysis.hiddenPrefix;
  const r = analysis.recorded;
  if (!h && !r && !analysis.grewEvents) return null;
  const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
  return (
    <ul className="estimates" data-testid="estimates">
      {h ? (
        <li>
          Hidden prefix (system prompt and tools, not in the file): ~{formatTokens(h.hiddenTokens)} tokens,
          estimated from {h.source}; tokenizer calibration ×{h.calibration.toFixed(2)} ({h.samples} samples)
          <Flags flags={analysis.flags} where="hidden-prefix" />
        </li>
      ) : null}
      {r ? (
        <li>
          Recorded usage against the “none” simulation over {r.requests} requests: cache read{' '}
          {formatTokens(r.recordedCacheRead)} (simulated {formatTokens(r.simulatedCached)},{' '}
          {pct(r.cachedError)}), not read from cache {formatTokens(r.recordedWritten)} (simulated{' '}
          {formatTokens(r.simulatedWritten)}, {pct(r.writtenError)})
        </li>
      ) : null}
      {analysis.grewEvents ? (
        <li>
          {analysis.grewEvents} rewrites made their block longer (stubs of short results), as the reference
          does
        </li>
      ) : null}
    </ul>
  );
}
