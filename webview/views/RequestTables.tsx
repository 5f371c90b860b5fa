// The Requests tab's tables: each policy's totals beside none and the recorded usage, and the compactions simulated
// beside those the log records.
import type { ViewAnalysis } from '../../src/analysisWire/types';
import type { AnalysisTotals } from '../../src/core/analysisTypes';
import { baselineWords } from '../../src/vsNoneWords';
import { policyOf, useDescriptors } from '../descriptors';
import type { Comparison } from '../state';
import { formatCost, formatTokens, percent } from './format';

interface TotalsRow {
  name: string;
  totals: AnalysisTotals | null;
  current: boolean;
}

/** none, tiered, live zone, both, context editing and compaction, whichever is current (highlighted), each beside
 * none (the providers' strategies marked as simulated from their documentation); the recorded usage
 * beside none too (SPEC §5: the ground truth the "no policy" simulation must come close to). */
export function TotalsTable({
  analysis,
  comparisons,
  offered,
}: {
  analysis: ViewAnalysis;
  comparisons: Comparison[];
  /** The policies the session's provider and agent can use (all when the host did not say). */
  offered?: readonly string[];
}) {
  const d = useDescriptors();
  // The policies the host's registry compares, in its order (the host computes the ones not current: compareAll),
  // of those the session can use.
  const COMPARED = offered ? d.compared.filter((n) => offered.includes(n)) : d.compared;
  const simulatedFromDocs = (name: string) => policyOf(d, name).simulatedFromDocs;
  const names = COMPARED.includes(analysis.policyName) ? COMPARED : [...COMPARED, analysis.policyName];
  const rows: TotalsRow[] = names.map((name) =>
    name === analysis.policyName
      ? { name, totals: analysis.totals, current: true }
      : { name, totals: comparisons.find((c) => c.policyName === name)?.totals ?? null, current: false },
  );
  // The "none" row is the baseline the host compared with (Comparisons.compareAll): "as logged" by default.
  const baseline = analysis.vsNone?.baseline ?? 'as-logged';
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
      <caption>
        Totals over the {sent} sent requests, each policy beside {baselineWords(baseline)}
        {baseline === 'none' ? '' : ' (the “none” row: what the log did, its summarization requests paid)'}
      </caption>
      <thead>
        <tr>
          <th scope="col">policy</th>
          <th scope="col">prompt tokens</th>
          <th scope="col">cached</th>
          <th scope="col">written</th>
          <th scope="col">cost</th>
          <th scope="col">vs {baselineWords(baseline)}</th>
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
export function CompactionsTable({ analysis }: { analysis: ViewAnalysis }) {
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
              <th scope="row" data-label="before request">
                {k + 1}
              </th>
              {s ? (
                <>
                  <td data-label="simulated: context">{formatTokens(s.contextTokens)}</td>
                  <td data-label="summary">
                    {formatTokens(s.outputTokens)} {s.fromLog ? "(the log's)" : '(placeholder)'}
                  </td>
                  <td data-label="summarization (cached / written)">
                    {formatTokens(s.promptTokens)} ({formatTokens(s.cachedTokens)} /{' '}
                    {formatTokens(s.writtenTokens)}){s.requests ? `, ${s.requests} requests` : ''}
                  </td>
                  <td
                    data-label="its cost"
                    data-testid="summarization-cost"
                    data-estimated={String(s.estimated)}
                  >
                    {formatCost(s.cost)} {s.estimated ? '(estimated)' : `(read from ${s.file ?? 'the log'})`}
                  </td>
                </>
              ) : (
                <td colSpan={4}>not simulated here</td>
              )}
              <td data-label="in the log: tokens before">
                {r ? (r.preTokens !== undefined ? formatTokens(r.preTokens) : 'compacted') : '—'}
              </td>
            </tr>
          );
        })}
      </tbody>
      {c.recorded.length > 0 ? (
        <tfoot>
          <tr>
            <td colSpan={6} className="simulated-note">
              “as logged” follows the log’s compactions and pays their summarization requests: read from the
              agent’s files where it keeps them (Claude Code’s agent-acompact-*.jsonl), else estimated as
              these are. A summarization’s cost is counted with the request after it.
            </td>
          </tr>
        </tfoot>
      ) : null}
    </table>
  );
}
