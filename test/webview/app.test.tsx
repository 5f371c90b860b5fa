import './dom';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { encodeAnalysis } from '../../src/analysisWire';
import type { HostMessage, WebviewMessage } from '../../src/protocol';
import { REGISTRY_DESCRIPTORS } from '../../src/protocol';
import { App } from '../../webview/App';
import { createHostLink } from '../../webview/hostLink';
import { resetRoot } from './dom';
import { analysisOf, messageAnalysis, policy, summaries, transcriptMessage } from './fixtures';

/** The webview's real host link over the window's message events, with the posted messages recorded. */
function link() {
  const posted: WebviewMessage[] = [];
  const host = createHostLink(
    { postMessage: (m) => posted.push(m as WebviewMessage) },
    window,
    REGISTRY_DESCRIPTORS,
  );
  const send = (m: HostMessage | unknown) =>
    act(async () => {
      window.dispatchEvent(new MessageEvent('message', { data: m }));
    });
  return { host, posted, send };
}

test('the app says ready, draws what the host sends, and asks for details of the selected message', async () => {
  const { host, posted, send } = link();
  const root = createRoot(resetRoot());
  await act(async () => root.render(<App host={host} />));
  assert.deepEqual(posted, [{ type: 'ready' }]);
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
  const tiers = [...document.querySelectorAll('[data-testid="message-row"]')].map(
    (r) => r.querySelector('[data-testid="tier-badge"]')?.getAttribute('data-tier') ?? null,
  );
  assert.deepEqual(tiers, [null, '2', '3']);
  assert.match(
    document.querySelector('[data-testid="summary"]')?.textContent ?? '',
    /3 messages · 2 tool results/,
  );
  await act(async () => (document.querySelector('[data-index="1"]') as HTMLElement).click());
  // The Cache tab's question may follow it (asked a moment after each analysis).
  const asked = posted.filter((m) => m.type !== 'cacheBreaks');
  assert.deepEqual(asked.at(-1), { type: 'requestDetails', messageIndex: 1 });
  await act(async () => root.unmount());
});

test('the header shows the session title beside the file name, and its tooltip holds the whole title', async () => {
  const { host, send } = link();
  const root = createRoot(resetRoot());
  await act(async () => root.render(<App host={host} />));
  const title = 'storefront · Customers who apply a coupon and qualify for free shipping are still charged…';
  await send({ ...transcriptMessage(summaries(2)), fileName: '0b9e0f9a-1d2c.jsonl', title });
  const h1 = document.querySelector('[data-testid="title"]') as HTMLElement;
  assert.match(h1.textContent ?? '', /^storefront · Customers who apply .* 0b9e0f9a-1d2c\.jsonl/);
  assert.equal(h1.title, `${title}\n0b9e0f9a-1d2c.jsonl: test`);
  await act(async () => root.unmount());
});

test('an invalid message from the host is reported and not drawn', async () => {
  const { host, send } = link();
  const root = createRoot(resetRoot());
  await act(async () => root.render(<App host={host} />));
  const original = console.error;
  console.error = () => {};
  try {
    await send({ type: 'transcript', fileName: 'x', messages: 'not a list' });
  } finally {
    console.error = original;
  }
  assert.match(
    document.querySelector('[data-testid="error"]')?.textContent ?? '',
    /invalid host message: transcript\./,
  );
  assert.equal(document.querySelector('[data-testid="message-list"]'), null);
  await act(async () => root.unmount());
});

test('a file that is not a transcript: the host says why, and the view stops loading', async () => {
  const { host, send } = link();
  const root = createRoot(resetRoot());
  await act(async () => root.render(<App host={host} />));
  assert.ok(document.querySelector('[aria-busy="true"]'));
  await send({
    type: 'error',
    message: 'notes.json: no transcript format fits (anthropic-messages: no "messages")',
  });
  assert.match(
    document.querySelector('[data-testid="error"]')?.textContent ?? '',
    /no transcript format fits/,
  );
  assert.equal(document.querySelector('[aria-busy="true"]'), null);
  await act(async () => root.unmount());
});

test('a file with sub-agents shows a conversation picker that asks the host for the stream picked', async () => {
  const { host, posted, send } = link();
  const root = createRoot(resetRoot());
  await act(async () => root.render(<App host={host} />));
  await send(transcriptMessage(summaries(2)));
  assert.equal(document.querySelector('[data-testid="thread-picker"]'), null, 'one stream: no picker');
  await send({
    ...transcriptMessage(summaries(2)),
    threads: [
      { id: 'main', messages: 2, replies: 1 },
      { id: 'ag1', messages: 4, replies: 2 },
    ],
    thread: 'main',
  });
  const picker = document.querySelector('[data-testid="thread-picker"] [aria-label="conversation"]');
  assert.ok(picker);
  assert.match(picker.textContent ?? '', /sub-agent ag1 · 4 messages · 2 replies/);
  await act(async () => {
    (picker as HTMLSelectElement).value = 'ag1';
    picker.dispatchEvent(new Event('change', { bubbles: true }));
  });
  assert.deepEqual(posted.filter((m) => m.type !== 'cacheBreaks').at(-1), {
    type: 'selectThread',
    thread: 'ag1',
  });
  await act(async () => root.unmount());
});
