import './dom';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { encodeAnalysis } from '../../src/analysisWire';
import type { HostMessage, SweepGridWire, WebviewMessage } from '../../src/protocol';
import { REGISTRY_DESCRIPTORS } from '../../src/protocol';
import { App } from '../../webview/App';
import { createHostLink } from '../../webview/hostLink';
import { parseRange } from '../../webview/views/Tuning';
import { resetRoot } from './dom';
import { analysisOf, messageAnalysis, policy, summaries, transcriptMessage } from './fixtures';

test('ranges: from..to, a step, a list; a refusal says why', () => {
  assert.deepEqual(parseRange('4..8'), [4, 5, 6, 7, 8]);
  assert.deepEqual(parseRange('10..40:10'), [10, 20, 30, 40]);
  assert.deepEqual(parseRange('8, 4,12'), [4, 8, 12]);
  assert.match(parseRange('8..4') as string, /must go up/);
  assert.match(parseRange('0..500') as string, /at most 100/);
  assert.match(parseRange('x') as string, /expected/);
});

function link() {
  const posted: WebviewMessage[] = [];
  const host = createHostLink(
    { postMessage: (m) => posted.push(m as WebviewMessage) },
    window,
    REGISTRY_DESCRIPTORS,
  );
  const send = (m: HostMessage) =>
    act(async () => {
      window.dispatchEvent(new MessageEvent('message', { data: m }));
    });
  return { host, posted, send };
}

const cell = (deltaCost: number, tokensSaved: number) => ({
  cost: 1 + deltaCost,
  noneCost: 1,
  deltaCost,
  deltaShare: deltaCost,
  tokensSaved,
  extraWritten: 0,
});

test('the Tuning tab asks for the sweep, draws the heatmap with the current and best cells, and a click applies both constants in a valid order', async () => {
  const { host, posted, send } = link();
  const root = createRoot(resetRoot());
  await act(async () => root.render(<App host={host} />));
  await send(transcriptMessage(summaries(3)));
  await send({ type: 'settings', policy, summarizer: 'none', models: [], scope: 'workspace' });
  await send({
    type: 'analysis',
    seq: 0,
    id: 1,
    policy,
    analysis: encodeAnalysis(
      analysisOf([messageAnalysis(0, null), messageAnalysis(1, 2), messageAnalysis(2, 3)]),
    ),
    comparisons: [],
    elapsedMs: 1,
  });
  await act(async () => (document.querySelector('#tab-tuning') as HTMLElement).click());
  await act(() => new Promise((r) => setTimeout(r, 500)));
  const asked = posted.filter((m) => m.type === 'sweep');
  assert.equal(asked.length, 1);
  const sweep = asked[0] as Extract<WebviewMessage, { type: 'sweep' }>;
  assert.deepEqual(sweep.rows, {
    key: 'tiered.keepRecent',
    values: [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16],
  });
  assert.deepEqual(sweep.cols, { key: 'tiered.tier1Distance', values: [10, 15, 20, 25, 30, 35, 40] });
  await send({ type: 'sweepGrid', seq: sweep.seq, done: 3, total: 10 });
  assert.match(document.querySelector('[data-testid="tuning-progress"]')?.textContent ?? '', /3 of 10 cells/);

  // A small grid answers: keepRecent 8 or 30, tier1Distance 20 or 40 (30 beside 20 is refused).
  const grid: SweepGridWire = {
    policy: 'tiered',
    baseline: 'as-logged',
    rows: { key: 'tiered.keepRecent', values: [8, 30] },
    cols: { key: 'tiered.tier1Distance', values: [20, 40] },
    cells: [cell(0.1, 100), cell(-0.2, 300), null, cell(-0.05, 50)],
    refused: [null, null, 'tiered.tier1Distance: must be at least tiered.keepRecent (30), got 20', null],
    current: 0,
    sessions: 1,
    replays: 3,
  };
  await send({ type: 'sweepGrid', seq: sweep.seq, done: 3, total: 3, grid });
  const current = document.querySelector('[data-testid="heatmap-8-20"]') as HTMLElement;
  assert.ok(current.classList.contains('current'), 'keepRecent 8, tier1Distance 20 is the setting in force');
  const best = document.querySelector('[data-testid="heatmap-8-40"]') as HTMLElement;
  assert.ok(best.classList.contains('best'));
  assert.match(best.textContent ?? '', /★ −20\.0%/);
  assert.match(
    best.getAttribute('aria-label') ?? '',
    /^−20\.0%: keepRecent 8, tier1Distance 40; −\$0\.2000 \(−20\.0%\) against "as logged", 300 prompt tokens saved; best; apply/,
  );
  assert.match(
    document.querySelector('[data-testid="tuning-best"]')?.textContent ?? '',
    /Best: keepRecent 8, tier1Distance 40/,
  );
  assert.equal(document.querySelectorAll('.heatmap-refused').length, 1);
  // No advice from the host: no list.
  assert.equal(document.querySelector('[data-testid="tuning-advice"]'), null);

  // keepRecent 30 is above the tier1Distance in force (20): tier1Distance goes first, so no step is refused.
  const before = posted.length;
  await act(async () => (document.querySelector('[data-testid="heatmap-30-40"]') as HTMLElement).click());
  const applied = posted.slice(before).filter((m) => m.type === 'updateSettings');
  assert.equal(applied.length, 1);
  assert.deepEqual((applied[0] as Extract<WebviewMessage, { type: 'updateSettings' }>).changes, [
    { key: 'tiered.tier1Distance', value: 40 },
    { key: 'tiered.keepRecent', value: 30 },
  ]);
  // The grid does not depend on the two swept constants: applying a cell asks for no new sweep.
  await act(() => new Promise((r) => setTimeout(r, 500)));
  assert.equal(posted.filter((m) => m.type === 'sweep').length, 1);
  assert.ok(
    (document.querySelector('[data-testid="heatmap-30-40"]') as HTMLElement).classList.contains('current'),
  );

  // The host's advice (core/sweepAdvice.ts) is listed under the grid, as it says it.
  await send({
    type: 'sweepGrid',
    seq: sweep.seq,
    done: 3,
    total: 3,
    grid: {
      ...grid,
      advice: ["the best cell is on the grid's edge (keepRecent 8, the smallest value swept)"],
    },
  });
  assert.deepEqual(
    [...document.querySelectorAll('[data-testid="tuning-advice"] li')].map((li) => li.textContent),
    ["⚠ the best cell is on the grid's edge (keepRecent 8, the smallest value swept)"],
  );

  // Every figure names the baseline it is against: here the one the grid was swept against.
  assert.match(
    document.querySelector('[data-testid="tuning-best"]')?.textContent ?? '',
    /\(−20\.0%\) against "as logged", 300 prompt tokens saved/,
  );
  await send({ type: 'sweepGrid', seq: sweep.seq, done: 3, total: 3, grid: { ...grid, baseline: 'none' } });
  assert.match(
    document.querySelector('[data-testid="heatmap-8-40"]')?.getAttribute('aria-label') ?? '',
    /\(−20\.0%\) against "none" \(no compaction\), 300 prompt tokens saved/,
  );
  assert.match(
    document.querySelector('[data-testid="heatmap"]')?.getAttribute('aria-label') ?? '',
    /^Sweep of tiered: cost against "none" \(no compaction\)$/,
  );
  assert.doesNotMatch(document.querySelector('[data-testid="tuning"]')?.textContent ?? '', /against none/);

  // Another metric: tokens saved.
  await act(async () => (document.querySelectorAll('input[name="tuning-metric"]')[1] as HTMLElement).click());
  assert.match(document.querySelector('[data-testid="heatmap-8-40"]')?.textContent ?? '', /300/);
  await act(async () => root.unmount());
});
