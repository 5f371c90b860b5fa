// The verdict card: the host's real verdict of a real session crosses the protocol and is drawn at the top of the
// view; Apply sets the policy, Copy puts the lines to paste on the clipboard through the host, and nothing of the
// transcript is read as HTML.
import './dom';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { encodeAnalysis } from '../../src/analysisWire';
import { analyze } from '../../src/core/analysis';
import { parseTranscript } from '../../src/core/formats';
import { rankVerdict } from '../../src/core/verdict';
import { defaultsFor } from '../../src/host/policySettings';
import { TranscriptSession } from '../../src/host/session';
import {
  type HostMessage,
  parseHostMessage,
  parseWebviewMessage,
  REGISTRY_DESCRIPTORS,
  type WebviewMessage,
} from '../../src/protocol';
import { App } from '../../webview/App';
import { createHostLink } from '../../webview/hostLink';
import { AFTER_A_PAUSE_MS } from '../../webview/useHost';
import { resetRoot } from './dom';
import { analysisOf, messageAnalysis, policy, summaries, transcriptMessage } from './fixtures';

const fixture = join(
  import.meta.dirname,
  '..',
  'fixtures',
  'real',
  'claude-code',
  'kvsankar-real-session-01-redacted-v2.1.152.jsonl',
);

/** The host's verdict of the real session, as it crosses. */
async function realVerdict(): Promise<Extract<HostMessage, { type: 'verdict' }>> {
  const sent: HostMessage[] = [];
  const session = new TranscriptSession(
    'session.jsonl',
    { parse: parseTranscript, analyze: (t, p) => analyze(t, p) },
    (m) => sent.push(m),
    (e) => assert.fail(String(e)),
  );
  session.load(readFileSync(fixture));
  const p = defaultsFor(session.model);
  await session.request(p, 'none', 1);
  const m = await session.verdictMessage(p);
  assert.ok(m);
  return JSON.parse(JSON.stringify(m));
}

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

async function openView() {
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
  return { root, posted, send };
}

const byTestId = (id: string) => document.querySelector(`[data-testid="${id}"]`) as HTMLElement | null;

test('the verdict message passes the checks both ways; a malformed one is refused where it is wrong', async () => {
  const m = await realVerdict();
  assert.deepEqual(parseHostMessage(m), { ok: true, value: m });
  const bad = {
    ...m,
    verdict: { ...m.verdict, turnOn: [{ target: 'x', language: 'yaml', title: 't', text: '' }] },
  };
  const r = parseHostMessage(bad);
  assert.equal(r.ok, false);
  assert.match(r.ok ? '' : r.error, /verdict\.turnOn\[0\]\.language/);
  assert.deepEqual(parseWebviewMessage({ type: 'askVerdict' }), { ok: true, value: { type: 'askVerdict' } });
  assert.equal(parseWebviewMessage({ type: 'copyText', text: 'x'.repeat(100_001) }).ok, false);
  assert.equal(parseWebviewMessage({ type: 'copyText' }).ok, false);
});

test('with nothing cheaper than none the card says so, and Apply goes back to none', async () => {
  const m = await realVerdict();
  assert.equal(m.verdict.best, null, 'on this one-request session no strategy costs less than none');
  const { root, posted, send } = await openView();
  // The view asks for the verdict once the changes pause after the exact analysis.
  await act(() => new Promise((r) => setTimeout(r, AFTER_A_PAUSE_MS + 50)));
  assert.ok(posted.some((p) => p.type === 'askVerdict'));
  assert.match(byTestId('verdict')?.textContent ?? '', /Ranking the strategies/);
  await send(m);
  assert.match(
    byTestId('verdict-best')?.textContent ?? '',
    /^Best here: none\. No strategy costs less than "as logged"/,
  );
  assert.match(byTestId('verdict-current')?.textContent ?? '', /^Now: Tiered, /);
  await act(async () => byTestId('verdict-apply')?.click());
  assert.deepEqual(lastChanges(posted), [{ key: 'policy', value: 'none' }]);
  await act(async () => root.unmount());
});

/** The changes of the last settings change the view sent. */
function lastChanges(posted: WebviewMessage[]) {
  const changes = posted.filter((p) => p.type === 'updateSettings');
  const last = changes[changes.length - 1];
  return last && 'changes' in last ? last.changes : null;
}

test('the card names the best and what it saves; Apply sets it; the lines to paste are copied through the host', async () => {
  const verdict = rankVerdict({
    provider: 'anthropic',
    baseline: { name: 'none', cost: 25, requests: 260 },
    totals: [
      { policyName: 'tiered', cost: 26.1 },
      { policyName: 'live-zone', cost: 24.9 },
      { policyName: 'anthropic-context-editing', cost: 21.39 },
      { policyName: 'compaction', cost: 25.9 },
    ],
    policy,
    session: { contextWindow: 200_000, thinking: true },
  });
  const { root, posted, send } = await openView();
  await send({ type: 'verdict', policy, verdict });
  assert.equal(
    byTestId('verdict-best')?.textContent,
    'Best here: Anthropic context editing, −14.4%, $3.61 over 260 requests',
  );
  assert.equal(byTestId('verdict-current')?.textContent, 'Now: Tiered, +4.4% ($1.10 more)');
  await act(async () => byTestId('verdict-apply')?.click());
  assert.deepEqual(lastChanges(posted), [{ key: 'policy', value: 'anthropic-context-editing' }]);
  // Now in force: the card says so instead of offering Apply again.
  assert.equal(byTestId('verdict-apply'), null);
  assert.ok(byTestId('verdict-in-force'));

  await act(async () => byTestId('verdict-how')?.click());
  assert.equal(byTestId('verdict-how')?.getAttribute('aria-expanded'), 'true');
  const snippets = [...document.querySelectorAll('[data-testid="verdict-snippet"]')];
  assert.deepEqual(
    snippets.map((s) => s.getAttribute('data-target')),
    ['anthropic-request'],
  );
  await act(async () => (snippets[0].querySelector('[data-testid="verdict-copy"]') as HTMLElement).click());
  const copied = posted[posted.length - 1];
  assert.deepEqual(copied, { type: 'copyText', text: verdict.turnOn[0].text });
  assert.ok('text' in copied && JSON.parse(copied.text).context_management.edits.length === 2);
  assert.deepEqual(
    [...document.querySelectorAll('[data-testid="verdict-rank"]')].map((li) => li.textContent?.split(':')[0]),
    ['Anthropic context editing', 'Live zone', 'Compaction', 'Tiered'],
  );
  await act(async () => root.unmount());
});

test('lines to paste are drawn as text, never as HTML', async () => {
  const m = await realVerdict();
  const { root, send } = await openView();
  const html = '<img src=x onerror="alert(1)">';
  await send({
    ...m,
    verdict: {
      ...m.verdict,
      best: m.verdict.ranked[0],
      turnOn: [{ target: 'anthropic-request', language: 'json', title: html, text: html, note: html }],
    },
  });
  await act(async () => byTestId('verdict-how')?.click());
  assert.equal(document.querySelector('img'), null);
  assert.equal(document.querySelector('.turn-on-text')?.textContent, html);
  await act(async () => root.unmount());
});
