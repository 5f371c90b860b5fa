// The limits around one model call: timeout, cancellation, reply cap, errors; with scripted models. The call's
// timeout runs on mocked timers: a test moves time itself, so a loaded machine can neither fire the timeout
// before a reply ends nor make it late. The scripted models give way with setImmediate, which is not mocked.
import assert from 'node:assert/strict';
import { afterEach, beforeEach, mock, test } from 'node:test';
import { boundedCall } from '../../../src/host/boundedCall';

const limits = { timeoutMs: 200, maxChars: 50 };
const turn = () => new Promise<void>((r) => setImmediate(r));

beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
afterEach(() => mock.timers.reset());

async function* words(list: string[], seen: { aborted?: boolean }, signal: AbortSignal) {
  for (const w of list) {
    await turn();
    if (signal.aborted) {
      seen.aborted = true;
      return;
    }
    yield w;
  }
}

/** Whether `p` has settled after the turns that were due. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await turn();
  return done;
}

test('a normal reply is returned whole', async () => {
  const seen = {};
  const text = await boundedCall(
    async (s) => words(['The build ', 'failed at ', 'src/a.ts:3.'], seen, s),
    limits,
  );
  assert.equal(text, 'The build failed at src/a.ts:3.');
});

test('a model that never answers fails after the timeout, not before, even if it ignores the abort', async () => {
  const call = boundedCall(() => new Promise(() => undefined), limits);
  mock.timers.tick(limits.timeoutMs - 1);
  assert.equal(await settled(call), false, 'failed before the timeout');
  mock.timers.tick(1);
  await assert.rejects(call, /timed out after 0.2 s/);
});

test('a stream that goes on is cut at maxChars and told to stop', async () => {
  let signal: AbortSignal | undefined;
  const endless = async function* () {
    for (;;) {
      await turn();
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
  let read = 0;
  const call = boundedCall(
    async (s) =>
      (async function* () {
        for await (const w of words(slow, seen, s)) {
          read++;
          yield w;
        }
      })(),
    {
      ...limits,
      maxChars: 100_000,
      cancel: [
        { signal: new AbortController().signal, reason: 'engine' },
        { signal: user.signal, reason: 'cancelled by the user' },
      ],
    },
  );
  // The user cancels while the reply streams.
  while (read < 3) await turn();
  user.abort();
  await assert.rejects(call, /cancelled by the user/);
  // The stream's next turn sees the abort.
  await turn();
  assert.equal(seen.aborted, true, 'the stream saw the abort');
  assert.ok(read < slow.length, 'the stream stopped early');
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
