// Per request: cached, written and uncached prompt tokens as stacked bars, the cost as a line, the usage the
// agent recorded (where the log has it) as dots, and the other policies' cost lines for comparison.
// One bar per request; thousands of requests are grouped into at most MAX_BARS bars, each the mean of its requests
// (so the axis still reads "per request"), and the chart says so above it.
import { useMemo, useRef } from 'react';
import type { ViewAnalysis } from '../../src/analysisWire';
import type { AnalysisTotals, Payback, RequestAnalysis } from '../../src/core/analysisTypes';
import { COMPARED_POLICIES, simulatedFromDocs } from '../../src/core/engine/policies/registry';
import { costWords, paybackWords, tokenWords } from '../../src/vsNoneWords';
import type { Comparison } from '../state';
import { useWidth } from '../ui/useWidth';
import { Flags } from './Flags';
import { formatCost, formatTokens, percent } from './format';

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
      <TotalsTable analysis={analysis} comparisons={comparisons} />
      <CompactionsTable analysis={analysis} />
    </section>
  );
}

/** The policies the table always shows, in this order (the host computes the ones not current: compareAll). */
const COMPARED: readonly string[] = COMPARED_POLICIES;

interface TotalsRow {
  name: string;
  totals: AnalysisTotals | null;
  current: boolean;
}

/** none, tiered, live zone, both, context editing and compaction, whichever is current (highlighted), each beside
 * none (the providers' strategies marked as simulated from their documentation); the recorded usage
 * beside none too (SPEC §5: the ground truth the "no policy" simulation must come close to). */
function TotalsTable({ analysis, comparisons }: { analysis: ViewAnalysis; comparisons: Comparison[] }) {
  const names = COMPARED.includes(analysis.policyName) ? COMPARED : [...COMPARED, analysis.policyName];
  const rows: TotalsRow[] = names.map((name) =>
    name === analysis.policyName
      ? { name, totals: analysis.totals, current: true }
      : { name, totals: comparisons.find((c) => c.policyName === name)?.totals ?? null, current: false },
  );
  const none = rows.find((r) => r.name === 'none')?.totals ?? null;
  const recorded = analysis.requests.filter((r) => r.recorded && !r.pending);
  // The wire's request columns do not mark the pending request; the engine's count of sent ones is vsNone's.
  const sent = analysis.vsNone?.requests ?? analysis.sentRequests;
  const vsNone = (t: AnalysisTotals) =>
    none && none.cost > 0
      ? `${t.cost - none.cost >= 0 ? '+' : '−'}${formatCost(Math.abs(t.cost - none.cost))} (${t.cost - none.cost >= 0 ? '+' : '−'}${percent(Math.abs(t.cost - none.cost), none.cost)})`
      : '';
  return (
    <table className="totals" data-testid="totals">
      <caption>Totals over the {sent} sent requests, each policy beside none</caption>
      <thead>
        <tr>
          <th scope="col">policy</th>
          <th scope="col">prompt tokens</th>
          <th scope="col">cached</th>
          <th scope="col">written</th>
          <th scope="col">cost</th>
          <th scope="col">vs none</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr
            key={r.name}
            className={r.current ? 'current' : undefined}
            aria-current={r.current ? 'true' : undefined}
            data-testid="totals-row"
            data-policy={r.name}
          >
            <th scope="row">
              {r.name}
              {r.current ? ' (current)' : ''}
              {simulatedFromDocs(r.name) ? (
                <span className="simulated-note" title="simulated from the provider's documented behaviour">
                  {' '}
                  †
                </span>
              ) : null}
            </th>
            {r.totals ? (
              <>
                <td>{formatTokens(r.totals.promptTokens)}</td>
                <td>
                  {formatTokens(r.totals.cachedTokens)} (
                  {percent(r.totals.cachedTokens, r.totals.promptTokens)})
                </td>
                <td>{formatTokens(r.totals.writtenTokens)}</td>
                <td>{formatCost(r.totals.cost)}</td>
                <td data-testid="vs-none">{r.name === 'none' ? '—' : vsNone(r.totals)}</td>
              </>
            ) : (
              <td colSpan={5} className="pending-cell">
                computing…
              </td>
            )}
          </tr>
        ))}
        {recorded.length > 0 ? (
          <tr className="recorded-row" data-testid="recorded-row">
            <th scope="row">recorded ({recorded.length} requests)</th>
            <td>
              {formatTokens(
                recorded.reduce(
                  (s, r) =>
                    s +
                    (r.recorded?.inputTokens ?? 0) +
                    (r.recorded?.cacheReadInputTokens ?? 0) +
                    (r.recorded?.cacheCreationInputTokens ?? 0),
                  0,
                ),
              )}
            </td>
            <td>{formatTokens(recorded.reduce((s, r) => s + (r.recorded?.cacheReadInputTokens ?? 0), 0))}</td>
            <td>
              {formatTokens(recorded.reduce((s, r) => s + (r.recorded?.cacheCreationInputTokens ?? 0), 0))}
            </td>
            <td title="every reply of the file, at its model and cache lifetime">
              {analysis.recorded ? formatCost(analysis.recorded.sessionCost) : ''}
            </td>
            <td />
          </tr>
        ) : null}
      </tbody>
      {rows.some((r) => simulatedFromDocs(r.name)) ? (
        <tfoot>
          <tr>
            <td colSpan={6} className="simulated-note" data-testid="simulated-note">
              † simulated from the provider’s documented behaviour (Anthropic context editing, compaction);
              where the documentation is silent, the reading in the README’s “The providers’ strategies”
            </td>
          </tr>
        </tfoot>
      ) : null}
    </table>
  );
}

/** Compaction: each simulated compaction (what the agent counted, the summary, the summarization request and its
 * cost), beside the compactions the log records, by the request they came before. */
function CompactionsTable({ analysis }: { analysis: ViewAnalysis }) {
  const c = analysis.compactions;
  if (!c) return null;
  const requests = [
    ...new Set([...c.simulated.map((s) => s.request), ...c.recorded.map((r) => r.request)]),
  ].sort((a, b) => a - b);
  return (
    <table className="totals compactions" data-testid="compactions">
      <caption>
        Compactions: {c.simulated.length} simulated (from documented behaviour), {c.recorded.length} in the
        log
      </caption>
      <thead>
        <tr>
          <th scope="col">before request</th>
          <th scope="col">simulated: context</th>
          <th scope="col">summary</th>
          <th scope="col">summarization (cached / written)</th>
          <th scope="col">its cost</th>
          <th scope="col">in the log: tokens before</th>
        </tr>
      </thead>
      <tbody>
        {requests.map((k) => {
          const s = c.simulated.find((x) => x.request === k);
          const r = c.recorded.find((x) => x.request === k);
          return (
            <tr key={k} data-testid="compaction-row" data-request={k}>
              <th scope="row">{k + 1}</th>
              {s ? (
                <>
                  <td>{formatTokens(s.contextTokens)}</td>
                  <td>
                    {formatTokens(s.outputTokens)} {s.fromLog ? "(the log's)" : '(placeholder)'}
                  </td>
                  <td>
                    {formatTokens(s.promptTokens)} ({formatTokens(s.cachedTokens)} /{' '}
                    {formatTokens(s.writtenTokens)})
                  </td>
                  <td>{formatCost(s.cost)}</td>
                </>
              ) : (
                <td colSpan={4}>not simulated here</td>
              )}
              <td>{r ? (r.preTokens !== undefined ? formatTokens(r.preTokens) : 'compacted') : '—'}</td>
            </tr>
          );
        })}
      </tbody>
      {c.recorded.length > 0 ? (
        <tfoot>
          <tr>
            <td colSpan={6} className="simulated-note">
              “none” follows the log’s compactions; their summarization requests are not in the log, so it
              prices none of them. A summarization’s cost is counted with the request after it.
            </td>
          </tr>
        </tfoot>
      ) : null}
    </table>
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
