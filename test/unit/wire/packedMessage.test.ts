// An analysis, a run ahead and the replies that may be large cross from the session's thread to the view as bytes
// the extension host forwards untouched: the view makes of them the very message the session made and checks it as any other; anything else
// in a packed message is refused, saying what.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultsFor } from '../../../src/host/policySettings';
import type { TranscriptSession } from '../../../src/host/session';
import { type HostMessage, parseHostMessage } from '../../../src/protocol';
import { isPackedReply, packMessage } from '../../../src/protocol/packedMessage';
import { fixture, newSession } from '../fixtureSession';

async function analysedSession(sent: HostMessage[]): Promise<TranscriptSession> {
  const session = newSession((m) => sent.push(m));
  session.load(fixture);
  await session.request(defaultsFor(session.model), 'none', 1);
  return session;
}

async function analysisMessage(): Promise<HostMessage> {
  const sent: HostMessage[] = [];
  await analysedSession(sent);
  const analysis = sent.find((m) => m.type === 'analysis');
  assert.ok(analysis, `sent: ${sent.map((m) => m.type).join(', ')}`);
  return analysis;
}

const refusal = (m: HostMessage) => {
  const parsed = parseHostMessage(m);
  assert.ok(!parsed.ok, 'refused');
  return parsed.error;
};
const packedOf = (x: unknown): HostMessage => ({
  type: 'packed',
  json: new TextEncoder().encode(JSON.stringify(x)),
});

test('a packed analysis is checked and delivered as the message the session made', async () => {
  const message = await analysisMessage();
  const packed = packMessage(message);
  assert.ok(packed.json instanceof Uint8Array);
  const parsed = parseHostMessage(packed);
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  assert.deepStrictEqual(parsed.value, JSON.parse(JSON.stringify(message)));
});

test("a message's details, the comparisons and the Cache tab's figures cross packed; the analysis a view starts with does not", async () => {
  const sent: HostMessage[] = [];
  const session = await analysedSession(sent);
  const replies = [
    await session.details(1),
    await session.comparisonsMessage(defaultsFor(session.model)),
    await session.cacheView(2, true),
  ];
  for (const reply of replies) {
    assert.ok(reply && isPackedReply(reply), reply?.type);
    const parsed = parseHostMessage(packMessage(reply));
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
    assert.deepStrictEqual(parsed.value, JSON.parse(JSON.stringify(reply)));
  }
  // The host keeps that one (a reopened file's snapshot): it reads it as it is.
  assert.equal(isPackedReply(await session.complete()), false);
});

test('a packed message that is not JSON, not an analysis or a run ahead, or not a valid one is refused', async () => {
  assert.match(refusal({ type: 'packed', json: new Uint8Array([0xff, 0xfe]) }), /packed: not UTF-8 JSON/);
  // Nothing else crosses packed: not a list, not a packed message, not the settings.
  assert.match(
    refusal(packedOf({ type: 'packed', json: {} })),
    /packed: holds one of "analysis", "ahead", "details", "comparisons", "cacheView", not "packed"/,
  );
  assert.match(refusal(packedOf({ type: 'error', message: 'x' })), /not "error"/);
  assert.match(refusal(packedOf([1, 2])), /not undefined/);
  const message = (await analysisMessage()) as Extract<HostMessage, { type: 'analysis' }>;
  assert.match(
    refusal(packedOf({ ...message, analysis: { ...message.analysis, totals: null } })),
    /analysis\.totals: expected an object/,
  );
});
