// The limits around one model call: timeout, cancellation, reply cap, errors; with scripted models.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundedCall } from '../../../src/host/boundedCall';

const limits = { timeoutMs: 200, maxChars: 50 };

async function* words(list: string[], seen: { aborted?: boolean }, signal: AbortSignal) {
  for (const w of list) {
    await new Promise((r) => setTimeout(r, 1));
    if (signal.aborted) {
      seen.aborted = true;
      return;
    }
    yield w;
  }
}

test('a normal reply is returned whole', async () => {
  const seen = {};
  const text = await boundedCall(
    async (s) => words(['The build ', 'failed at ', 'src/a.ts:3.'], seen, s),
    limits,
  );
  assert.equal(text, 'The build failed at src/a.ts:3.');
});

test('a model that never answers fails after the timeout, even if it ignores the abort', async () => {
  const t0 = Date.now();
  await assert.rejects(
    boundedCall(() => new Promise(() => undefined), limits),
    /timed out after 0.2 s/,
  );
  const elapsed = Date.now() - t0;
  assert.ok(elapsed >= 190, `failed after ${elapsed} ms, before the timeout`);
});

test('a stream that goes on is cut at maxChars and told to stop', async () => {
  let signal: AbortSignal | undefined;
  const endless = async function* () {
    for (;;) {
      await new Promise((r) => setTimeout(r, 1));
      yield 'word ';
    }
  };
  const text = await boundedCall(async (s) => {
    signal = s;
    return endless();
  }, limits);
  assert.equal(text.length, 50);
  assert.equal(signal?.aborted, true, 'the request was cancelled once the cap was reached');
});

test("cancellation from any source fails the call with that source's reason", async () => {
  const user = new AbortController();
  const seen: { aborted?: boolean } = {};
  const slow = Array.from({ length: 1000 }, () => 'x');
  const call = boundedCall(async (s) => words(slow, seen, s), {
    ...limits,
    timeoutMs: 5000,
    maxChars: 100_000,
    cancel: [
      { signal: new AbortController().signal, reason: 'engine' },
      { signal: user.signal, reason: 'cancelled by the user' },
    ],
  });
  setTimeout(() => user.abort(), 20);
  await assert.rejects(call, /cancelled by the user/);
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(seen.aborted, true, 'the stream saw the abort');
  // Already cancelled before the call: fails at once, never waits for the model.
  const gone = new AbortController();
  gone.abort();
  await assert.rejects(
    boundedCall(() => new Promise(() => undefined), {
      ...limits,
      cancel: [{ signal: gone.signal, reason: 'cancelled' }],
    }),
    /cancelled/,
  );
});

test("the model's own error is passed on", async () => {
  await assert.rejects(
    boundedCall(async () => {
      throw new Error('NoPermissions: the user did not consent');
    }, limits),
    /NoPermissions/,
  );
});
