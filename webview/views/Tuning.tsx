// The Tuning tab: the session's policy replayed over a grid of keepRecent × tier1Distance (the host runs the sweep,
// core/sweep.ts), drawn as a heatmap of the cost against the baseline over the same requests, or of the prompt tokens
// saved. The current setting is framed, the best named; a click on a cell applies its two values to the
// contextLens.* settings. The view only draws what the host computed.
import { useEffect, useState } from 'react';
import type { Policy } from '../../src/core/engine/policy';
import type { HostMessage } from '../../src/protocol/hostMessages';
import type { SweepCellWire, SweepGridWire, SweepKey } from '../../src/protocol/shared';
import { baselineWords } from '../../src/vsNoneWords';
import { policyOf, useDescriptors } from '../descriptors';
import { formatTokens } from './format';

type SweepState = Extract<HostMessage, { type: 'sweepGrid' }> | null;

/** `from..to`, `from..to:step` or `a,b,c` (whole numbers, at most 100): the values of one axis, or why not. */
export function parseRange(text: string): number[] | string {
  const t = text.replace(/\s+/g, '');
  const range = /^(\d+)\.\.(\d+)(?::(\d+))?$/.exec(t);
  let values: number[];
  if (range) {
    const [from, to, step] = [Number(range[1]), Number(range[2]), Number(range[3] ?? 1)];
    if (step < 1 || to < from) return 'the range must go up, by a step of at least 1';
    if ((to - from) / step + 1 > 100) return 'at most 100 values';
    values = [];
    for (let v = from; v <= to; v += step) values.push(v);
  } else if (/^\d+(,\d+)*$/.test(t)) {
    values = [...new Set(t.split(',').map(Number))].sort((a, b) => a - b);
    if (values.length > 100) return 'at most 100 values';
  } else return 'expected from..to, from..to:step, or a list like 4,8,12';
  return values;
}

/** A new sweep for every change of the settings it depends on: everything but the two swept constants. */
function sweepKey(policy: Policy, revision: string): string {
  return JSON.stringify([
    revision,
    { ...policy, tiered: { ...policy.tiered, keepRecent: 0, tier1Distance: 0 } },
  ]);
}

const money = (x: number) => {
  const a = Math.abs(x);
  const sign = x < 0 ? '−' : x > 0 ? '+' : '';
  return `${sign}$${a.toFixed(a >= 1 ? 2 : 4)}`;
};
const share = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(100 * x).toFixed(1)}%`;

export function Tuning(props: {
  policy: Policy;
  /** Changes when the transcript shown changes (file, growth, thread): the sweep is run again. */
  revision: string;
  /** False while the analysis shown uses estimated token counts: the host is still counting, and a sweep now
   * would count on its own thread. */
  ready: boolean;
  sweep: SweepState;
  /** Asks the host for the sweep; returns the request's `seq`, which its replies carry. */
  onSweep: (rows: { key: SweepKey; values: number[] }, cols: { key: SweepKey; values: number[] }) => number;
  onApply: (keepRecent: number, tier1Distance: number) => void;
}) {
  const [rowsText, setRowsText] = useState('4..16');
  const [colsText, setColsText] = useState('10..40:5');
  const [metric, setMetric] = useState<'cost' | 'tokens'>('cost');
  const rows = parseRange(rowsText);
  const cols = parseRange(colsText);
  const tiered = policyOf(useDescriptors(), props.policy.name).tiered;
  const key = sweepKey(props.policy, props.revision);
  const ranges = typeof rows === 'string' || typeof cols === 'string' ? null : JSON.stringify([rows, cols]);
  const [asked, setAsked] = useState<{ seq: number; key: string; ranges: string } | null>(null);

  // Asked when the tab opens and when the settings or the ranges change, a moment after the last change.
  useEffect(() => {
    if (!props.ready || !tiered || !ranges || (asked && asked.key === key && asked.ranges === ranges)) return;
    const timer = setTimeout(() => {
      const [r, c] = JSON.parse(ranges) as [number[], number[]];
      const seq = props.onSweep(
        { key: 'tiered.keepRecent', values: r },
        { key: 'tiered.tier1Distance', values: c },
      );
      setAsked({ seq, key, ranges });
    }, 400);
    return () => clearTimeout(timer);
  }, [props.ready, tiered, key, ranges, asked, props.onSweep]);

  const sweep = asked && props.sweep && props.sweep.seq === asked.seq ? props.sweep : null;
  const grid = sweep?.grid ?? null;

  return (
    <div className="tuning" data-testid="tuning">
      <p className="tuning-help">
        {props.policy.name} replayed with each <code>keepRecent</code> (rows) and <code>tier1Distance</code>{' '}
        (columns): its cost against {baselineWords(props.policy.replay.baseline)} over the same requests, as a
        share of that cost (or the prompt tokens it saves). Click a cell to use its two values.
      </p>
      <div className="tuning-inputs">
        <RangeField label="keepRecent" text={rowsText} problem={rows} onChange={setRowsText} />
        <RangeField label="tier1Distance" text={colsText} problem={cols} onChange={setColsText} />
        <fieldset className="tuning-metric">
          <legend>Show</legend>
          <label>
            <input
              type="radio"
              name="tuning-metric"
              checked={metric === 'cost'}
              onChange={() => setMetric('cost')}
            />
            cost against {baselineWords(props.policy.replay.baseline)}
          </label>
          <label>
            <input
              type="radio"
              name="tuning-metric"
              checked={metric === 'tokens'}
              onChange={() => setMetric('tokens')}
            />
            tokens saved
          </label>
        </fieldset>
      </div>
      {!tiered ? (
        <p className="tuning-help">
          The {props.policy.name} policy does not use the tier constants: choose tiered or tiered+live-zone.
        </p>
      ) : sweep?.error ? (
        <p className="error-bar" role="alert">
          {sweep.error}
        </p>
      ) : grid ? (
        <Heatmap grid={grid} policy={props.policy} metric={metric} onApply={props.onApply} />
      ) : (
        <p className="tuning-help" role="status" data-testid="tuning-progress">
          {sweep && sweep.total > 0 ? `Replaying… ${sweep.done} of ${sweep.total} cells` : 'Replaying…'}
        </p>
      )}
    </div>
  );
}

function RangeField(props: {
  label: string;
  text: string;
  problem: number[] | string;
  onChange: (t: string) => void;
}) {
  const id = `tuning-${props.label}`;
  const bad = typeof props.problem === 'string';
  return (
    <div className="tuning-range">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        type="text"
        value={props.text}
        spellCheck={false}
        aria-invalid={bad}
        aria-describedby={bad ? `${id}-problem` : undefined}
        data-testid={id}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {bad ? (
        <span id={`${id}-problem`} className="field-problem">
          {props.problem as string}
        </span>
      ) : null}
    </div>
  );
}

function Heatmap(props: {
  grid: SweepGridWire;
  policy: Policy;
  metric: 'cost' | 'tokens';
  onApply: (keepRecent: number, tier1Distance: number) => void;
}) {
  const { grid, metric } = props;
  const nCols = grid.cols.values.length;
  const value = (c: SweepCellWire) => (metric === 'cost' ? c.deltaCost : -c.tokensSaved);
  // Colour strength against the largest magnitude of the grid: a saving in the theme's green, a loss in red.
  let scale = 0;
  let best = -1;
  grid.cells.forEach((c, i) => {
    if (!c) return;
    scale = Math.max(scale, Math.abs(value(c)));
    if (best < 0 || value(c) < value(grid.cells[best] as SweepCellWire)) best = i;
  });
  // The current setting: where the policy's own two values sit on the grid (it may have moved since the sweep).
  const current =
    grid.rows.values.indexOf(props.policy.tiered.keepRecent) * nCols +
    grid.cols.values.indexOf(props.policy.tiered.tier1Distance);
  const onGrid =
    grid.rows.values.includes(props.policy.tiered.keepRecent) &&
    grid.cols.values.includes(props.policy.tiered.tier1Distance);
  // Compact in the cell (the share of the baseline's cost, or the tokens saved); every figure in its name and
  // tooltip, which name the baseline.
  const against = baselineWords(grid.baseline);
  const text = (c: SweepCellWire) => (metric === 'cost' ? share(c.deltaShare) : formatTokens(c.tokensSaved));
  // The accessible name starts with the text shown (what a voice user reads out to click it).
  const words = (i: number, c: SweepCellWire) => {
    const k = grid.rows.values[Math.floor(i / nCols)];
    const d = grid.cols.values[i % nCols];
    return (
      `${text(c)}: keepRecent ${k}, tier1Distance ${d}; ${money(c.deltaCost)} (${share(c.deltaShare)}) against ${against}, ` +
      `${c.tokensSaved.toLocaleString('en-US')} prompt tokens saved${onGrid && i === current ? '; current' : ''}` +
      `${i === best ? '; best' : ''}`
    );
  };
  const bestCell = best >= 0 ? (grid.cells[best] as SweepCellWire) : null;
  return (
    <>
      <div className="heatmap-scroll">
        <table
          className="heatmap"
          data-testid="heatmap"
          aria-label={`Sweep of ${grid.policy}: ${metric === 'cost' ? `cost against ${against}` : 'tokens saved'}`}
        >
          <thead>
            <tr>
              <th scope="col" className="heatmap-corner">
                keepRecent ╲ tier1
                <wbr />
                Distance
              </th>
              {grid.cols.values.map((d) => (
                <th key={d} scope="col">
                  {d}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {grid.rows.values.map((k, r) => (
              <tr key={k}>
                <th scope="row">{k}</th>
                {grid.cols.values.map((d, c) => {
                  const i = r * nCols + c;
                  const cell = grid.cells[i];
                  if (!cell)
                    return (
                      <td key={d} className="heatmap-refused" title={grid.refused[i] ?? 'refused'}>
                        —
                      </td>
                    );
                  const v = value(cell);
                  const strength = scale > 0 ? Math.round((60 * Math.abs(v)) / scale) : 0;
                  const hue = v < 0 ? 'var(--vscode-charts-green)' : 'var(--vscode-charts-red)';
                  return (
                    <td key={d}>
                      <button
                        type="button"
                        className={`heatmap-cell${onGrid && i === current ? ' current' : ''}${i === best ? ' best' : ''}`}
                        style={{ background: `color-mix(in srgb, ${hue} ${strength}%, transparent)` }}
                        title={words(i, cell)}
                        aria-label={`${words(i, cell)}; apply`}
                        data-testid={`heatmap-${k}-${d}`}
                        onClick={() => props.onApply(k, d)}
                      >
                        <span className="heatmap-value">
                          {i === best ? <span aria-hidden="true">★ </span> : null}
                          {text(cell)}
                        </span>
                      </button>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {bestCell ? (
        <p data-testid="tuning-best">
          Best: keepRecent {grid.rows.values[Math.floor(best / nCols)]}, tier1Distance{' '}
          {grid.cols.values[best % nCols]}: {money(bestCell.deltaCost)} ({share(bestCell.deltaShare)}) against{' '}
          {against}, {bestCell.tokensSaved.toLocaleString('en-US')} prompt tokens saved
          {bestCell.deltaCost >= 0 ? ` (every cell costs at least as much as ${against})` : ''}.{' '}
          {onGrid ? '' : 'The current setting is not on this grid. '}
          {grid.replays} replays for {grid.cells.filter(Boolean).length} cells.
        </p>
      ) : null}
      {grid.advice?.length ? (
        <ul className="tuning-advice" data-testid="tuning-advice" aria-label="What the figures do not say">
          {grid.advice.map((a) => (
            <li key={a}>⚠ {a}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
