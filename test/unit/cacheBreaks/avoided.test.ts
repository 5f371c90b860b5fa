// What would have avoided the breaks: the session replayed under its provider's two cache lifetimes (Anthropic's
// 5 minutes and 1 hour, a 1-hour write at 2× input against 1.25×, on hand-made logs; OpenAI's in-memory and 24-hour
// retention on a real Codex session), and each model switch's cold start.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import {
  comparedLifetimes,
  type Lifetimes,
  loggedBreaks,
  switchCosts,
  ttlAvoided,
  withLifetime,
} from '../../../src/core/cacheBreaks';
import { tablePrices } from '../../../src/core/engine/prices';
import { parseTranscript } from '../../../src/core/formats';
import type { Transcript } from '../../../src/core/model';
import { REAL_LONG_DIR } from '../../sharedFixtures';
import { logged, OPUS, policyNamed, SONNET, TimedSession } from './session';

const ANTHROPIC: Lifetimes = {
  shorter: '5m',
  longer: '1h',
  breaks: 'TTL expiries',
  replayed: 'a 5-minute and a 1-hour cache',
};

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
  return analyzeSync(t, withLifetime(policyNamed('none'), ttl)).analysis;
}

describe('what would have avoided the breaks', () => {
  it('a 30-minute pause: only the 1-hour cache outlives it, and the saving is the two replays apart', () => {
    const t = session(30 * MINUTE);
    assert.equal(logged(t).breaks[0]?.cause, 'ttl-expired');
    const none = analyzeSync(t, policyNamed('none')).analysis;
    assert.deepEqual(comparedLifetimes(t, 'anthropic', none, logged(t)), ANTHROPIC);
    const five = replay(t, '5m');
    const hour = replay(t, '1h');
    const after = (a: typeof five) => a.requests.filter((r) => !r.pending)[2];
    assert.equal(after(five).cacheExpired, true);
    assert.equal(after(five).cachedTokens, 0);
    assert.ok(!after(hour).cacheExpired);
    assert.ok(after(hour).cachedTokens > 0, 'the 1-hour cache is read after the pause');
    const a = ttlAvoided(ANTHROPIC, five, hour);
    assert.equal(a.saved, five.totals.cost - hour.totals.cost);
    assert.ok(a.saved > 0, `${a.saved}`);
    assert.equal(a.saved, a.shorterCost - a.longerCost);
    assert.match(a.words, /^1-hour caching would have saved \$\d+\.\d+ here \(\$.* with 5-minute caching\)$/);
  });

  it('no pause: every write costs 2× input against 1.25×, and the words say what it costs more', () => {
    const t = session(0);
    // No expiry in the log: the lifetimes are not compared for it.
    assert.equal(
      comparedLifetimes(t, 'anthropic', analyzeSync(t, policyNamed('none')).analysis, logged(t)),
      undefined,
    );
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
    const a = ttlAvoided(ANTHROPIC, five, hour);
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

describe("what would have avoided the breaks of a real Codex session: OpenAI's two retentions", () => {
  const CODEX = join(REAL_LONG_DIR, 'codex');
  const read = (name: string) => {
    const file = join(CODEX, name);
    const t = parseTranscript(new Uint8Array(readFileSync(file)), file);
    const none = analyzeSync(t, policyNamed('none')).analysis;
    return { t, none, log: loggedBreaks(t, none, 'main') };
  };

  it('gpt-5.2 idle 26 minutes before request 104: in memory it is gone, 24-hour retention reads the prefix', (ctx) => {
    const name = 'aaronbakerdev-019bbf1d-shell-command-0.80.jsonl';
    if (!existsSync(join(CODEX, name)))
      return ctx.skip('the shared real-long fixtures are not beside the repository');
    const { t, none, log } = read(name);
    const lifetimes = comparedLifetimes(t, 'openai', none, log);
    assert.deepEqual(lifetimes, {
      shorter: 'in_memory',
      longer: '24h',
      breaks: 'Breaks after more than 10 idle minutes',
      replayed: 'in-memory and 24-hour prompt cache retention',
    });
    assert.ok(lifetimes);
    const inMemory = analyzeSync(t, withLifetime(policyNamed('none'), 'in_memory')).analysis;
    const day = analyzeSync(t, withLifetime(policyNamed('none'), '24h')).analysis;
    // The one request the two replays read differently: the one after the pause.
    const differ = inMemory.requests.flatMap((r, i) =>
      r.cachedTokens !== day.requests[i].cachedTokens
        ? [[r.index + 1, r.cachedTokens, r.cacheExpired, day.requests[i].cachedTokens]]
        : [],
    );
    assert.deepEqual(differ, [[104, 0, true, 11_904]]);
    const a = ttlAvoided(lifetimes, inMemory, day);
    // Both retentions are billed alike: the saving is those 11,904 tokens read instead of sent at gpt-5.2's input.
    const p = tablePrices('gpt-5.2');
    assert.ok(p);
    assert.ok(Math.abs(a.saved - (11_904 * (p.input.base - p.cacheRead.base)) / 1e6) < 1e-12, `${a.saved}`);
    assert.ok(Math.abs(a.shorterCost - 2.5514867) < 1e-9, `${a.shorterCost}`);
    assert.ok(Math.abs(a.longerCost - 2.5327379) < 1e-9, `${a.longerCost}`);
    assert.equal(
      a.words,
      '24-hour retention would have saved $0.02 here ($2.53 against $2.55 with in-memory retention)',
    );
  });

  it('the same session answered by gpt-5.5, which takes only 24-hour retention: no comparison', (ctx) => {
    const name = 'aaronbakerdev-019bbf1d-shell-command-0.80.jsonl';
    if (!existsSync(join(CODEX, name)))
      return ctx.skip('the shared real-long fixtures are not beside the repository');
    const { t } = read(name);
    t.model = 'gpt-5.5';
    for (const m of t.messages) if (m.model) m.model = 'gpt-5.5';
    const none = analyzeSync(t, policyNamed('none')).analysis;
    const log = loggedBreaks(t, none, 'main');
    assert.ok(
      log.breaks.some((b) => b.request === 104),
      'the break after the pause is still in the log',
    );
    assert.equal(comparedLifetimes(t, 'openai', none, log), undefined);
  });
});
