// The Cache tab: where the prompt cache broke, why, and what it cost. Per request the hit rate as the log records
// it and under the policy shown, with the log's breaks marked by cause; the totals by cause with the share nothing
// in the transcript explains; what would have avoided them; and the breaks in a table sortable by cost, where a
// click selects the request's message where its prompt first differs. Every figure and every evidence string is
// the host's (core/cacheBreaks), drawn as text.
import { useMemo, useRef, useState } from 'react';
import { CAUSE_LABELS, causeTitle } from '../../src/core/cacheBreaks/causeLabels';
import type { CauseTotal } from '../../src/core/cacheBreaks/types';
import type { CacheView, HitRate, ViewBreak, ViewBreakReport } from '../../src/core/cacheBreaks/view';
import type { HostMessage } from '../../src/protocol/hostMessages';
import { useWidth } from '../ui/useWidth';
import { formatCost, formatTokens, percent } from './format';

const H = 160;
const PAD = 32;

type Order = 'request' | 'cost';

/** "TTL expiries: 9 breaks, $4.12" */
export function totalWords(t: CauseTotal): string {
  return `${causeTitle(t.cause)}: ${t.breaks} break${t.breaks === 1 ? '' : 's'}, ${formatCost(t.cost)}`;
}

/** "2026-07-29 02:05:39" from an ISO time; the text as it is otherwise. */
function timeWords(iso: string | undefined): string {
  if (!iso) return '—';
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)/.exec(iso);
  return m ? `${m[1]} ${m[2]}` : iso;
}

export function CacheTab(props: {
  cache: Extract<HostMessage, { type: 'cacheView' }> | null;
  /** The break whose request is selected (its request number). */
  selected: number | null;
  onSelect: (b: ViewBreak) => void;
}) {
  const { cache } = props;
  // (The header's line alone, asked while the tab was hidden, is followed by the tab's figures.)
  if (!cache || (!cache.view && cache.error === undefined))
    return (
      <p className="empty" role="status">
        Finding the cache breaks…
      </p>
    );
  if (!cache.view)
    return (
      <p className="empty" data-testid="cache-error">
        No cache breaks to show: {cache.error}
      </p>
    );
  const view = cache.view;
  return (
    <section className="cache-tab" aria-label="Cache breaks" data-testid="cache-tab">
      <CauseTotals report={view.log} />
      <AvoidedList view={view} />
      <HitRateChart rates={view.hitRates} breaks={view.log.breaks} selected={props.selected} />
      <BreakTable report={view.log} selected={props.selected} onSelect={props.onSelect} />
      <PolicyLine report={view.policy} />
    </section>
  );
}

function CauseTotals({ report }: { report: ViewBreakReport }) {
  const shown = report.totals.filter((t) => t.breaks > 0);
  const miss = report.totals.find((t) => t.cause === 'provider-miss');
  return (
    <div className="cache-totals" data-testid="cache-totals">
      <p data-testid="cache-total">
        {report.breaks.length === 0
          ? `No cache break over ${report.requests} requests, as the log records them.`
          : `${report.breaks.length} cache break${report.breaks.length === 1 ? '' : 's'} over ${report.requests} requests, as the log records them: ${formatCost(report.cost)}.`}
      </p>
      {shown.length > 0 ? (
        <ul aria-label="Totals by cause">
          {shown.map((t) => (
            <li
              key={t.cause}
              data-testid="cause-total"
              data-cause={t.cause}
              data-breaks={t.breaks}
              data-cost={t.cost}
            >
              <span className={`cause-swatch cause-${t.cause}`} aria-hidden="true" /> {totalWords(t)} (
              {formatTokens(t.tokens)} tokens written again)
            </li>
          ))}
        </ul>
      ) : null}
      {report.breaks.length > 0 ? (
        <p data-testid="provider-miss-share">
          Provider misses (nothing in the transcript explains them): {miss?.breaks ?? 0} of{' '}
          {report.breaks.length} breaks ({percent(report.providerMissShare.breaks, 1)}),{' '}
          {percent(report.providerMissShare.cost, 1)} of their cost.
        </p>
      ) : null}
    </div>
  );
}

function AvoidedList({ view }: { view: CacheView }) {
  const a = view.avoided;
  const lifetimes = view.lifetimes;
  const switches = view.log.totals.some((t) => t.cause === 'model-switch' && t.breaks > 0);
  if (!lifetimes && !switches) return null;
  return (
    <div className="cache-avoided" data-testid="cache-avoided">
      <h3>What would have avoided them</h3>
      {!a ? (
        <p role="status">
          {lifetimes ? `Replaying the session under ${lifetimes.replayed}…` : 'Pricing the model switches…'}
        </p>
      ) : (
        <ul>
          {a.ttl ? (
            <li data-testid="avoided-ttl">
              {a.ttl.breaks}: {a.ttl.words}.
            </li>
          ) : null}
          {a.switches.map((s) => (
            <li key={s.request} data-testid="avoided-switch">
              Model switch at {s.words}.
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The hit rate per request, recorded and under the policy, with the log's breaks marked by cause above. */
function HitRateChart(props: { rates: HitRate[]; breaks: ViewBreak[]; selected: number | null }) {
  const ref = useRef<HTMLDivElement>(null);
  const W = useWidth(ref, 600);
  const { rates } = props;
  const n = Math.max(1, rates.length);
  const x = (request: number) => PAD + ((request - 0.5) / n) * (W - 2 * PAD);
  const y = (rate: number) => H - PAD - rate * (H - 2 * PAD);
  const line = (pick: (r: HitRate) => number | undefined) => {
    let d = '';
    let open = false;
    for (const r of rates) {
      const v = pick(r);
      if (v === undefined) {
        open = false;
        continue;
      }
      d += `${open ? 'L' : 'M'}${x(r.request).toFixed(1)} ${y(v).toFixed(1)}`;
      open = true;
    }
    return d;
  };
  const recorded = line((r) => r.recorded);
  const simulated = line((r) => r.simulated);
  if (rates.length === 0) return null;
  return (
    <div ref={ref} className="hit-rates">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="chart-svg"
        role="img"
        aria-label={`Cache hit rate per request over ${rates.length} requests, recorded and under the policy; ${props.breaks.length} breaks marked by cause`}
        data-testid="hit-rate-chart"
      >
        <path className="hit-line recorded" d={recorded} />
        <path className="hit-line simulated" d={simulated} />
        {props.breaks.map((b) => (
          <circle
            key={b.request}
            className={`break-mark cause-${b.cause}${b.request === props.selected ? ' selected' : ''}`}
            cx={x(b.request)}
            cy={PAD / 2}
            r={b.request === props.selected ? 6 : 4}
          >
            <title>{`request ${b.request}: ${b.cause}, ${formatCost(b.cost)}`}</title>
          </circle>
        ))}
        <line className="axis" x1={PAD} x2={W - PAD} y1={H - PAD} y2={H - PAD} />
        <text className="axis-label" x={PAD} y={PAD - 4}>
          100%
        </text>
        <text className="axis-label" x={PAD} y={H - 10}>
          request 1
        </text>
        <text className="axis-label" x={W - PAD} y={H - 10} textAnchor="end">
          request {rates[rates.length - 1].request}
        </text>
      </svg>
      <ul className="legend" aria-label="Legend">
        <li>
          <span className="swatch hit-line recorded" /> recorded hit rate
        </li>
        <li>
          <span className="swatch hit-line simulated" /> under the policy
        </li>
        {[...new Set(props.breaks.map((b) => b.cause))].map((c) => (
          <li key={c}>
            <span className={`swatch break-mark cause-${c}`} /> {CAUSE_LABELS[c].one}
          </li>
        ))}
      </ul>
    </div>
  );
}

function BreakTable(props: {
  report: ViewBreakReport;
  selected: number | null;
  onSelect: (b: ViewBreak) => void;
}) {
  const [order, setOrder] = useState<Order>('request');
  const rows = useMemo(
    () =>
      order === 'cost'
        ? [...props.report.breaks].sort((a, b) => b.cost - a.cost || a.request - b.request)
        : props.report.breaks,
    [props.report.breaks, order],
  );
  if (rows.length === 0) return null;
  const sortCost = order === 'cost';
  return (
    <table className="totals cache-breaks" data-testid="cache-breaks">
      <caption>Cache breaks as the log records them</caption>
      <thead>
        <tr>
          <th scope="col" aria-sort={sortCost ? 'none' : 'ascending'}>
            <button
              type="button"
              className="link-button"
              data-testid="sort-request"
              onClick={() => setOrder('request')}
            >
              request
            </button>
          </th>
          <th scope="col">time</th>
          <th scope="col">cause and evidence</th>
          <th scope="col">tokens written again</th>
          <th scope="col" aria-sort={sortCost ? 'descending' : 'none'}>
            <button
              type="button"
              className="link-button"
              data-testid="sort-cost"
              onClick={() => setOrder('cost')}
            >
              cost
            </button>
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((b) => (
          <tr
            key={b.request}
            className={b.request === props.selected ? 'current' : undefined}
            data-testid="cache-break"
            data-request={b.request}
            data-cause={b.cause}
          >
            <th scope="row">
              <button
                type="button"
                className="link-button"
                aria-label={`Select request ${b.request} (${CAUSE_LABELS[b.cause].one})`}
                aria-pressed={b.request === props.selected}
                onClick={() => props.onSelect(b)}
              >
                {b.request}
              </button>
            </th>
            <td>{timeWords(b.time)}</td>
            <td className="evidence">
              <span className={`cause-swatch cause-${b.cause}`} aria-hidden="true" />{' '}
              <strong>{b.cause}</strong>: {b.words}
            </td>
            <td>{formatTokens(b.tokens)}</td>
            <td>{formatCost(b.cost)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The policy's own breaks in one line, with its causes. */
function PolicyLine({ report }: { report: ViewBreakReport }) {
  const shown = report.totals.filter((t) => t.breaks > 0);
  return (
    <p className="cache-policy" data-testid="cache-policy">
      Under {report.source}: {report.breaks.length} break{report.breaks.length === 1 ? '' : 's'} over{' '}
      {report.requests} requests, {formatCost(report.cost)}
      {shown.length > 0 ? ` (${shown.map(totalWords).join('; ')})` : ''}.
    </p>
  );
}
