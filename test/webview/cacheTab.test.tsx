// The Cache tab as the webview draws it, from the figures the host computes for a hand-made log (an expiry, a
// switch to a model whose name holds markup, a provider miss): totals by cause with the provider misses' share,
// the breaks sortable by cost, the evidence drawn as text, and a click that selects the break's message and marks
// it in the list; the header's line names the costliest cause.
import './dom';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { encodeAnalysis } from '../../src/analysisWire';
import { analyzeSync } from '../../src/core/analysis';
import { CAUSE_LABELS, cacheHeadline } from '../../src/core/cacheBreaks';
import type { ViewBreak } from '../../src/core/cacheBreaks/view';
import type { Policy } from '../../src/core/engine/policy';
import { parseTranscript } from '../../src/core/formats';
import type { Transcript } from '../../src/core/model';
import { cacheView } from '../../src/host/cacheBreaks';
import { type HostMessage, parseHostMessage, REGISTRY_DESCRIPTORS } from '../../src/protocol';
import { App } from '../../webview/App';
import { createHostLink } from '../../webview/hostLink';
import { CacheHeadline } from '../../webview/views/CacheHeadline';
import { CacheTab } from '../../webview/views/CacheTab';
import { REAL_LONG_DIR } from '../sharedFixtures';
import { policyNamed, TimedSession } from '../unit/cacheBreaks/session';
import { resetRoot } from './dom';
import { analysisOf, messageAnalysis, summaries, transcriptMessage } from './fixtures';

const MARKUP = 'claude-opus-4-5<img src=x onerror=alert(1)>';

function session(): Transcript {
  const s = new TimedSession();
  s.user('q1');
  s.reply({ read: 0, written: 20_000 });
  s.user('q2');
  s.reply({ read: 20_000, written: 400 });
  s.user('q3');
  s.wait(2 * 3_600_000);
  s.reply({ read: 0, written: 20_800 });
  s.user('q4');
  s.reply({ read: 0, written: 21_200 }, MARKUP);
  s.user('q5');
  s.reply({ read: 1000, written: 20_600 }, MARKUP);
  return s.transcript();
}

/** The host's answer to `cacheBreaks` for the session under `policy`, as it crosses (checked by the protocol). */
async function answer(t: Transcript, policy: Policy, avoided = true) {
  const engine = { analyze: async (tt: Transcript, p: Policy) => analyzeSync(tt, p) };
  const analysis = analyzeSync(t, policy).analysis;
  const view = await cacheView(engine as never, { transcript: t, thread: 'main', policy, analysis }, avoided);
  const headline = cacheHeadline(view.log);
  const message: HostMessage = JSON.parse(JSON.stringify({ type: 'cacheView', seq: 1, headline, view }));
  const parsed = parseHostMessage(message);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  return message as Extract<HostMessage, { type: 'cacheView' }>;
}

const text = (selector: string) =>
  [...document.querySelectorAll(selector)].map((e) => (e.textContent ?? '').replace(/\s+/g, ' ').trim());

test('the tab lists the totals by cause, the share of provider misses and what would have avoided them', async () => {
  const t = session();
  const m = await answer(t, policyNamed('tiered'));
  const log = m.view!.log;
  assert.deepEqual(
    log.breaks.map((b) => [b.request, b.cause]),
    [
      [3, 'ttl-expired'],
      [4, 'model-switch'],
      [5, 'provider-miss'],
    ],
  );
  const root = createRoot(resetRoot());
  await act(async () => root.render(<CacheTab cache={m} selected={null} onSelect={() => {}} />));
  const money = (x: number) => `$${x.toFixed(4)}`;
  const total = (cause: 'ttl-expired' | 'model-switch' | 'provider-miss') =>
    log.totals.find((x) => x.cause === cause)!;
  assert.deepEqual(
    text('[data-testid="cause-total"]').map((s) => s.replace(/ \(.*$/, '')),
    [
      `TTL expiries: 1 break, ${money(total('ttl-expired').cost)}`,
      `Model switches: 1 break, ${money(total('model-switch').cost)}`,
      `Provider misses: 1 break, ${money(total('provider-miss').cost)}`,
    ],
  );
  assert.match(
    text('[data-testid="provider-miss-share"]')[0],
    /^Provider misses \(nothing in the transcript explains them\): 1 of 3 breaks \(33\.3%\), \d+\.\d% of their cost\.$/,
  );
  assert.match(text('[data-testid="avoided-ttl"]')[0], /^TTL expiries: 1-hour caching would have cost \$/);
  assert.match(text('[data-testid="avoided-switch"]')[0], /^Model switch at request 4: the cold start of/);
  assert.match(text('[data-testid="cache-policy"]')[0], /^Under tiered: \d+ breaks? over 5 requests/);
  // The model's name is text, never markup.
  assert.equal(document.querySelector('[data-testid="cache-tab"] img'), null);
  assert.ok(text('[data-testid="cache-break"]')[1].includes(MARKUP));
  assert.ok(document.querySelector('[data-testid="hit-rate-chart"]'));
  assert.equal(document.querySelectorAll('circle.break-mark').length, 3);
  await act(async () => root.unmount());
});

test('the breaks sort by cost, and a click hands over the break', async () => {
  const m = await answer(session(), policyNamed('none'), false);
  const picked: ViewBreak[] = [];
  const root = createRoot(resetRoot());
  await act(async () => root.render(<CacheTab cache={m} selected={null} onSelect={(b) => picked.push(b)} />));
  const requests = () =>
    [...document.querySelectorAll('[data-testid="cache-break"]')].map((r) =>
      Number(r.getAttribute('data-request')),
    );
  assert.deepEqual(requests(), [3, 4, 5]);
  await act(async () => (document.querySelector('[data-testid="sort-cost"]') as HTMLElement).click());
  const byCost = [...m.view!.log.breaks].sort((a, b) => b.cost - a.cost).map((b) => b.request);
  assert.deepEqual(requests(), byCost);
  assert.equal(
    document.querySelector('[data-testid="sort-cost"]')?.closest('th')?.getAttribute('aria-sort'),
    'descending',
  );
  // Not asked for yet: the tab says the replays are on their way.
  assert.match(text('[data-testid="cache-avoided"]')[0], /Replaying the session/);
  const row = document.querySelector('[data-testid="cache-break"][data-request="4"] button') as HTMLElement;
  assert.equal(row.getAttribute('aria-label'), `Select request 4 (${CAUSE_LABELS['model-switch'].one})`);
  await act(async () => row.click());
  assert.deepEqual(
    picked.map((b) => b.request),
    [4],
  );
  await act(async () => root.unmount());
});

test("a Codex session: the pause before request 104 compared under OpenAI's two retentions, in its words", async (ctx) => {
  const file = join(REAL_LONG_DIR, 'codex', 'aaronbakerdev-019bbf1d-shell-command-0.80.jsonl');
  if (!existsSync(file)) return ctx.skip('the shared real-long fixtures are not beside the repository');
  const t = parseTranscript(new Uint8Array(readFileSync(file)), file);
  const root = createRoot(resetRoot());
  // Before the replays are asked for, the tab says which two it is waiting for.
  const asked = await answer(t, policyNamed('none'), false);
  await act(async () => root.render(<CacheTab cache={asked} selected={null} onSelect={() => {}} />));
  assert.deepEqual(text('[data-testid="cache-avoided"] [role="status"]'), [
    'Replaying the session under in-memory and 24-hour prompt cache retention…',
  ]);
  const m = await answer(t, policyNamed('none'));
  await act(async () => root.render(<CacheTab cache={m} selected={null} onSelect={() => {}} />));
  assert.deepEqual(text('[data-testid="avoided-ttl"]'), [
    'Breaks after more than 10 idle minutes: 24-hour retention would have saved $0.02 here ($2.53 against $2.55 with in-memory retention).',
  ]);
  assert.deepEqual(
    [m.view?.avoided?.ttl?.shorter, m.view?.avoided?.ttl?.longer, m.view?.avoided?.ttl?.saved.toFixed(7)],
    ['in_memory', '24h', '0.0187488'],
  );
  await act(async () => root.unmount());
});

test('the header names the costliest cause; nothing without a break', async () => {
  const m = await answer(session(), policyNamed('none'), false);
  const log = m.view!.log;
  const top = log.totals.find((x) => x.cause === log.costliest)!;
  assert.ok(log.totals.every((x) => x.cost <= top.cost));
  const root = createRoot(resetRoot());
  await act(async () => root.render(<CacheHeadline cache={m} />));
  assert.equal(
    text('[data-testid="cache-headline"]')[0],
    `Cache breaks cost $${log.cost.toFixed(4)}; the costliest cause: ${CAUSE_LABELS[top.cause].many} (1 break, $${top.cost.toFixed(4)})`,
  );
  const calm = new TimedSession();
  calm.user('q1');
  calm.reply({ read: 0, written: 5000 });
  calm.user('q2');
  calm.reply({ read: 5000, written: 300 });
  const none = await answer(calm.transcript(), policyNamed('none'), false);
  await act(async () => root.render(<CacheHeadline cache={none} />));
  assert.equal(document.querySelector('[data-testid="cache-headline"]'), null);
  await act(async () => root.unmount());
});

test("the header's line alone (asked while the tab was hidden) shows the tab as on its way, not as an error", async () => {
  const root = createRoot(resetRoot());
  const line: Extract<HostMessage, { type: 'cacheView' }> = {
    type: 'cacheView',
    seq: 2,
    headline: { cost: 0 },
  };
  await act(async () => root.render(<CacheTab cache={line} selected={null} onSelect={() => {}} />));
  assert.deepEqual(text('[role="status"]'), ['Finding the cache breaks…']);
  assert.equal(document.querySelector('[data-testid="cache-error"]'), null);
  await act(async () => root.unmount());
});

test('in the app: the Cache tab, a click selects the message and the list marks it', async () => {
  const t = session();
  const m = await answer(t, policyNamed('none'), false);
  const posted: unknown[] = [];
  const host = createHostLink({ postMessage: (x) => posted.push(x) }, window, REGISTRY_DESCRIPTORS);
  const send = (data: unknown) =>
    act(async () => {
      window.dispatchEvent(new MessageEvent('message', { data }));
    });
  const root = createRoot(resetRoot());
  await act(async () => root.render(<App host={host} />));
  const n = t.messages.length;
  await send(transcriptMessage(summaries(n)));
  await send({
    type: 'settings',
    policy: policyNamed('none'),
    summarizer: 'none',
    models: [],
    scope: 'workspace',
  });
  await send({
    type: 'analysis',
    seq: 0,
    id: 1,
    policy: policyNamed('none'),
    analysis: encodeAnalysis(analysisOf(Array.from({ length: n }, (_, i) => messageAnalysis(i, null)))),
    comparisons: [],
    elapsedMs: 1,
  });
  await send(m);
  assert.match(text('[data-testid="cache-headline"]')[0], /^Cache breaks cost/);
  await act(async () => (document.querySelector('#tab-cache') as HTMLElement).click());
  const b = m.view!.log.breaks.find((x) => x.cause === 'model-switch')!;
  await act(async () =>
    (
      document.querySelector(`[data-testid="cache-break"][data-request="${b.request}"] button`) as HTMLElement
    ).click(),
  );
  const message = b.differsAt ?? b.lastMessage;
  const row = document.querySelector(`[data-testid="message-row"][data-index="${message}"]`);
  assert.equal(row?.getAttribute('aria-selected'), 'true');
  const mark = row?.querySelector('[data-testid="cache-break-marker"]');
  assert.match(mark?.getAttribute('aria-label') ?? '', /^Cache break at request 4 \(model-switch\)/);
  assert.equal(document.querySelectorAll('[data-testid="cache-break-marker"]').length, 1);
  // The tab stays where the user is, with the break's row marked.
  assert.equal(document.querySelector('#tab-cache')?.getAttribute('aria-selected'), 'true');
  assert.equal(
    document.querySelector(`[data-testid="cache-break"][data-request="${b.request}"]`)?.className,
    'current',
  );
  await act(async () => root.unmount());
});
