import './dom';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { MessageList } from '../../webview/views/MessageList';
import { resetRoot } from './dom';
import { analysisOf, messageAnalysis, summaries, view } from './fixtures';

async function render(el: React.ReactElement) {
  const container = resetRoot();
  const root = createRoot(container);
  await act(async () => root.render(el));
  return { container, root };
}

test('each row shows the tier, floor, zone and rewritten marker the analysis gives', async () => {
  const analysis = analysisOf([
    messageAnalysis(0, null),
    messageAnalysis(1, 1),
    messageAnalysis(2, 2, { floored: true }),
    messageAnalysis(3, 3, { zone: 'live' }),
  ]);
  const { container, root } = await render(
    <MessageList
      messages={summaries(4)}
      markers={[]}
      analysis={view(analysis)}
      selected={null}
      onSelect={() => {}}
    />,
  );
  const rows = [...container.querySelectorAll('[data-testid="message-row"]')];
  assert.equal(rows.length, 4);
  const tiers = rows.map(
    (r) => r.querySelector('[data-testid="tier-badge"]')?.getAttribute('data-tier') ?? null,
  );
  assert.deepEqual(tiers, [null, '1', '2', '3']);
  assert.deepEqual(
    rows.map((r) => r.querySelector('[data-testid="floor-badge"]') !== null),
    [false, false, true, false],
  );
  assert.deepEqual(
    rows.map((r) => r.querySelector('[data-testid="zone-badge"]')?.getAttribute('data-zone')),
    // The prefix is what almost every row is: only the zones that stand out wear a badge.
    [undefined, undefined, undefined, 'live'],
  );
  assert.deepEqual(
    rows.map((r) => r.querySelector('[data-testid="rewritten-marker"]') !== null),
    [false, true, true, false],
  );
  assert.equal(rows[1].querySelector('[data-testid="tier-badge"]')?.getAttribute('aria-label'), 'Tier 1');
  await act(async () => root.unmount());
});

test('the cache boundary is a line before its message, with the event that moved it; markers sit in place', async () => {
  const analysis = analysisOf([messageAnalysis(0, null), messageAnalysis(1, 2), messageAnalysis(2, 3)], {
    cacheBoundary: 1,
    events: [
      {
        action: 'tier2',
        messageIndex: 1,
        blockIndex: 0,
        toolUseId: 'toolu_9',
        tier: 2,
        oldHash: 'aaaaaaaaaaaa',
        newHash: 'bbbbbbbbbbbb',
        oldLen: 900,
        newLen: 300,
        requestIndex: 0,
      },
    ],
  });
  analysis.requests[0].boundaryEvents = [0];
  const { container, root } = await render(
    <MessageList
      messages={summaries(3)}
      markers={[
        { kind: 'compaction', label: 'compact_boundary', beforeMessage: 2, text: 'Conversation compacted' },
      ]}
      analysis={view(analysis)}
      selected={null}
      onSelect={() => {}}
    />,
  );
  const order = () =>
    [...container.querySelectorAll('[data-testid]')]
      .map((e) => e.getAttribute('data-testid'))
      .filter(
        (t) =>
          t === 'message-row' || t === 'cache-boundary' || t === 'compaction-marker' || t === 'segment-row',
      );
  // The segment before the compaction is one collapsed row; the marker and the live segment follow.
  assert.deepEqual(order(), ['segment-row', 'compaction-marker', 'message-row']);
  assert.match(
    container.querySelector('[data-testid="segment-row"]')?.textContent ?? '',
    /Earlier segment: messages #0–#1 \(2\)/,
  );
  await act(async () => (container.querySelector('.group-toggle') as HTMLElement).click());
  assert.deepEqual(order(), [
    'segment-row',
    'message-row',
    'cache-boundary',
    'message-row',
    'compaction-marker',
    'message-row',
  ]);
  const boundary = container.querySelector('[data-testid="cache-boundary"]')!;
  assert.match(
    boundary.textContent ?? '',
    /tier2 rewrite of message 1 block 0 \(toolu_9\), request 1: 900 → 300 chars/,
  );
  await act(async () => root.unmount());
});

test('previews are text: markup in a transcript is shown, never parsed', async () => {
  const evil = '<img src=x onerror="globalThis.__pwned=1"><script>globalThis.__pwned=2</script>';
  const { container, root } = await render(
    <MessageList
      messages={summaries(1, () => evil)}
      markers={[]}
      analysis={null}
      selected={null}
      onSelect={() => {}}
    />,
  );
  assert.equal(container.querySelector('img, script'), null);
  assert.ok(container.textContent?.includes(evil));
  assert.equal((globalThis as { __pwned?: number }).__pwned, undefined);
  await act(async () => root.unmount());
});

test('the list renders only the visible rows of 10,000 messages, and the keyboard moves the selection', async () => {
  const n = 10_000;
  const analysis = analysisOf(
    Array.from({ length: n }, (_, i) => messageAnalysis(i, ((i % 3) + 1) as 1 | 2 | 3)),
  );
  let selected: number | null = null;
  const { container, root } = await render(
    <MessageList
      messages={summaries(n)}
      markers={[]}
      analysis={view(analysis)}
      selected={null}
      onSelect={(i) => {
        selected = i;
      }}
    />,
  );
  const rows = container.querySelectorAll('[data-testid="message-row"]').length;
  assert.ok(rows > 0 && rows < 100, `rendered rows: ${rows}`);
  const list = container.querySelector('[data-testid="message-list"]')!;
  await act(async () => {
    list.dispatchEvent(new KeyboardEvent('keydown', { key: 'End', bubbles: true }));
  });
  assert.equal(selected, n - 1);
  await act(async () => root.unmount());
});

test('bookkeeping records are one collapsed row that says what they hold, and open on a click', async () => {
  const record = (label: string) => ({ kind: 'unknown-record' as const, label, beforeMessage: 1 });
  const { container, root } = await render(
    <MessageList
      messages={summaries(2)}
      markers={[
        record('queue-operation dequeue'),
        record('queue-operation enqueue'),
        record('file-history-snapshot'),
      ]}
      analysis={null}
      selected={null}
      onSelect={() => {}}
      bookkeeping
    />,
  );
  const group = container.querySelector('[data-testid="records-row"]')!;
  assert.equal(
    group.textContent?.trim(),
    '▸3 bookkeeping records: queue-operation ×2, file-history-snapshot',
  );
  // The row is the toggle (a control inside an option would be nested), and its name says what a click does.
  assert.match(group.getAttribute('aria-label') ?? '', /^Expand: 3 bookkeeping records/);
  assert.equal(container.querySelectorAll('[data-testid="record-marker"]').length, 0);
  await act(async () => (group as HTMLElement).click());
  assert.equal(container.querySelectorAll('[data-testid="record-marker"]').length, 3);
  // From the keyboard: Enter in the list opens or closes the group above the selection (here: the first one).
  const list = container.querySelector('[data-testid="message-list"]')!;
  const enter = () =>
    act(async () => {
      list.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
    });
  await enter();
  assert.equal(container.querySelectorAll('[data-testid="record-marker"]').length, 0);
  await enter();
  assert.equal(container.querySelectorAll('[data-testid="record-marker"]').length, 3);
  await act(async () => root.unmount());
});

test('bookkeeping records are hidden unless shown: the switch says how many, and tells who remembers it', async () => {
  const record = (label: string) => ({ kind: 'unknown-record' as const, label, beforeMessage: 1 });
  const markers = [
    record('turn_context'),
    record('turn_context'),
    { kind: 'compaction' as const, label: 'compact_boundary', beforeMessage: 1 },
  ];
  const asked: boolean[] = [];
  const list = (shown: boolean | undefined) => (
    <MessageList
      messages={summaries(2)}
      markers={markers}
      analysis={null}
      selected={null}
      onSelect={() => {}}
      bookkeeping={shown}
      onBookkeeping={(v) => asked.push(v)}
    />
  );
  const { container, root } = await render(list(undefined));
  assert.equal(container.querySelectorAll('[data-testid="records-row"]').length, 0, 'hidden by default');
  // The compaction is conversation: never hidden.
  assert.equal(container.querySelectorAll('[data-testid="compaction-marker"]').length, 1);
  const box = container.querySelector<HTMLInputElement>('[data-testid="filter-records"]')!;
  assert.equal(box.checked, false);
  assert.match(box.parentElement?.textContent ?? '', /records \(2\)/);
  await act(async () => box.click());
  assert.deepEqual(asked, [true]);
  await act(async () => root.render(list(true)));
  assert.equal(container.querySelectorAll('[data-testid="records-row"]').length, 1);
  await act(async () => root.unmount());
});
