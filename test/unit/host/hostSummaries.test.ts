// The summaries the session's thread asks of the host: answered by id, an abort told to the host, and an answered
// summary lets go of its analysis's signal (one analysis asks for many: its listeners piled up).
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import { DEFAULT_POLICY } from '../../../src/core/engine/policy';
import { HostSummaries } from '../../../src/host/hostSummaries';
import type { FromWorker } from '../../../src/host/sessionProtocol';

test('each summary is answered by its id; once answered or failed it no longer listens to the signal', async () => {
  const sent: FromWorker[] = [];
  const summaries = new HostSummaries((m) => sent.push(m));
  const stop = new AbortController();
  const asked = Array.from({ length: 8 }, (_, i) =>
    summaries.ask(DEFAULT_POLICY, `Tool${i}`, `content ${i}`, stop.signal),
  );
  assert.equal(getEventListeners(stop.signal, 'abort').length, 8);
  const ids = sent.map((m) => (m.type === 'summarize' ? m.id : -1));
  assert.equal(new Set(ids).size, 8);
  // Answered out of order; the last one fails.
  for (const id of [...ids].reverse().slice(1)) summaries.answer(id, `summary ${id}`, undefined);
  summaries.answer(ids[ids.length - 1], undefined, 'no model');
  const results = await Promise.allSettled(asked);
  assert.deepEqual(
    results.slice(0, -1).map((r) => (r.status === 'fulfilled' ? r.value : r.reason)),
    ids.slice(0, -1).map((id) => `summary ${id}`),
  );
  const failed = results.at(-1);
  assert.ok(failed?.status === 'rejected' && /no model/.test(String(failed.reason)));
  assert.equal(getEventListeners(stop.signal, 'abort').length, 0);
  // An answer to no question, or a second one, is ignored.
  summaries.answer(ids[0], 'again', undefined);
  summaries.answer(999, 'nothing asked', undefined);
});

test('a summary whose analysis stops is stopped on the host', () => {
  const sent: FromWorker[] = [];
  const summaries = new HostSummaries((m) => sent.push(m));
  const stop = new AbortController();
  void summaries.ask(DEFAULT_POLICY, 'Read', 'text', stop.signal);
  const [asked] = sent;
  assert.ok(asked.type === 'summarize');
  stop.abort();
  assert.deepEqual(sent.at(-1), { type: 'abortSummary', id: asked.id });
});
