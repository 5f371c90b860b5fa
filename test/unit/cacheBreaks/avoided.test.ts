// What would have avoided the breaks, on hand-made logs: the session replayed under a 5-minute and a 1-hour cache
// (a 1-hour write at 2× input, a 5-minute one at 1.25×), and each model switch's cold start.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { switchCosts, ttlAvoided, withCacheTtl } from '../../../src/core/cacheBreaks';
import { tablePrices } from '../../../src/core/engine/prices';
import type { Transcript } from '../../../src/core/model';
import { logged, OPUS, policyNamed, SONNET, TimedSession } from './session';

const MINUTE = 60_000;
/** The lifetime of the writes the hand-made log records (a rule of the log, not a time this test waits). */
const FIVE_MINUTE_LIFETIME_MS = 5 * MINUTE;

/** Three turns, the third after `gapMs` of silence. Every write is logged as a 5-minute one: a log that does not
 * say its lifetime speaks for any lifetime's reads (the replay follows it under both). */
function session(gapMs: number): Transcript {
  const s = new TimedSession();
  s.user('first question');
  s.reply({ read: 0, written: 5000, oneHour: 0 });
  s.user('second question');
  s.reply({ read: 5000, written: 300, oneHour: 0 });
  s.wait(gapMs);
  s.user('third question');
  // What the provider logged: past the 5-minute lifetime of its writes the prefix is written again.
  const expired = gapMs > FIVE_MINUTE_LIFETIME_MS;
  s.reply({ read: expired ? 0 : 5300, written: expired ? 5400 : 100, oneHour: 0 });
  return s.transcript();
}

/** The session replayed under none with the cache lifetime `ttl`. */
function replay(t: Transcript, ttl: '5m' | '1h') {
  return analyzeSync(t, withCacheTtl(policyNamed('none'), ttl)).analysis;
}

describe('what would have avoided the breaks', () => {
  it('a 30-minute pause: only the 1-hour cache outlives it, and the saving is the two replays apart', () => {
    const t = session(30 * MINUTE);
    assert.equal(logged(t).breaks[0]?.cause, 'ttl-expired');
    const five = replay(t, '5m');
    const hour = replay(t, '1h');
    const after = (a: typeof five) => a.requests.filter((r) => !r.pending)[2];
    assert.equal(after(five).cacheExpired, true);
    assert.equal(after(five).cachedTokens, 0);
    assert.ok(!after(hour).cacheExpired);
    assert.ok(after(hour).cachedTokens > 0, 'the 1-hour cache is read after the pause');
    const a = ttlAvoided(five, hour);
    assert.equal(a.saved, five.totals.cost - hour.totals.cost);
    assert.ok(a.saved > 0, `${a.saved}`);
    assert.match(a.words, /^1-hour caching would have saved \$\d+\.\d+ here \(\$/);
  });

  it('no pause: every write costs 2× input against 1.25×, and the words say what it costs more', () => {
    const t = session(0);
    const five = replay(t, '5m');
    const hour = replay(t, '1h');
    const p = tablePrices(SONNET);
    assert.ok(p);
    // Nothing expires under either lifetime: the same tokens are read and written, only the write price differs.
    const written = hour.requests.reduce((n, r) => n + (r.pending ? 0 : r.writtenTokens), 0);
    assert.deepEqual(
      five.requests.map((r) => r.writtenTokens),
      hour.requests.map((r) => r.writtenTokens),
    );
    const more = (written * (p.cacheWrite1h.base - p.cacheWrite5m.base)) / 1e6;
    const a = ttlAvoided(five, hour);
    assert.ok(Math.abs(-a.saved - more) < 1e-9, `${-a.saved} against ${more}`);
    assert.match(a.words, /^1-hour caching would have cost \$\d+\.\d+ more here/);
  });

  it('a model switch: its cold start, the break it made at the new model', () => {
    const s = new TimedSession();
    s.user('first question');
    s.reply({ read: 0, written: 5000 });
    s.user('second question');
    s.reply({ read: 5000, written: 300 });
    s.user('third question');
    s.reply({ read: 0, written: 5400 }, OPUS);
    const log = logged(s.transcript());
    const [c] = switchCosts(log);
    const p = tablePrices(OPUS);
    assert.ok(p);
    assert.deepEqual({ request: c.request, from: c.from, to: c.to }, { request: 3, from: SONNET, to: OPUS });
    assert.ok(Math.abs(c.cost - (5300 * (p.cacheWrite5m.base - p.cacheRead.base)) / 1e6) < 1e-9);
    assert.equal(c.words, `request 3: the cold start of ${OPUS} after ${SONNET} cost $${c.cost.toFixed(2)}`);
  });
});
