// `context-lens cache`: the breaks and totals as the engine lists them, in a table and as JSON, with the share of
// provider misses, a policy's breaks beside the log's, and the log's text escaped.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { REAL_LONG_DIR } from '../../sharedFixtures';
import { logged, SONNET, TimedSession } from '../cacheBreaks/session';
import { cliArgs } from '../cliProcess';

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [...cliArgs, 'cache', ...args], {
    encoding: 'utf8',
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A log with an expiry, a switch to a model whose name holds a terminal escape, and a provider miss. */
function session(): { file: string; s: TimedSession } {
  const s = new TimedSession();
  s.user('q1');
  s.reply({ read: 0, written: 20_000 });
  s.user('q2');
  s.wait(2 * 3_600_000);
  s.reply({ read: 0, written: 20_400 });
  s.user('q3');
  s.reply({ read: 0, written: 20_800 }, 'claude-opus-4-5\u001b]0;owned\u0007');
  s.user('q4');
  s.reply({ read: 1000, written: 20_200 }, 'claude-opus-4-5\u001b]0;owned\u0007');
  s.transcript();
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-cache-'));
  const file = join(dir, 'session.jsonl');
  writeFileSync(file, s.bytes());
  return { file, s };
}

describe('context-lens cache', () => {
  it('prints the same breaks and totals as JSON as the engine lists them', () => {
    const { file, s } = session();
    const r = cli(file, '--json');
    assert.equal(r.code, 0, r.err);
    const printed = JSON.parse(r.out);
    const expected = logged(s.transcript());
    assert.deepEqual(printed.log.totals, JSON.parse(JSON.stringify(expected.totals)));
    assert.deepEqual(
      printed.log.breaks.map((b: { request: number; cause: string }) => [b.request, b.cause]),
      [
        [2, 'ttl-expired'],
        [3, 'model-switch'],
        [4, 'provider-miss'],
      ],
    );
    assert.equal(printed.thread, 'main');
    assert.equal(printed.policy, undefined);
    // What would have avoided them: the switch's cold start is its break, the lifetimes' figures are two replays.
    const [, switched] = expected.breaks;
    assert.deepEqual(
      printed.avoided.switches.map((x: { request: number; cost: number }) => [x.request, x.cost]),
      [[3, switched.cost]],
    );
    const ttl = printed.avoided.ttl;
    assert.equal(ttl.saved, ttl.shorterCost - ttl.longerCost);
    assert.deepEqual([ttl.shorter, ttl.longer], ['5m', '1h']);
    // A 2-hour pause outlives both lifetimes: the 1-hour cache's dearer writes buy nothing here.
    assert.ok(ttl.saved < 0, `${ttl.saved}`);
  });

  it('prints a table of the breaks, the totals by cause and the share of provider misses, escaping the log', () => {
    const { file } = session();
    const r = cli(file, '--policy', 'tiered');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /as the log records them: 3 cache breaks over 4 requests, \$\d+\.\d{4}\n/);
    assert.match(r.out, /^ {2}req {2}time {17}cause/m);
    assert.match(r.out, /^ {4}2 {2}2026-03-01 12:00:0\d {2}ttl-expired .* idle 2 h > 5 min$/m);
    assert.match(r.out, /^ {2}ttl-expired +1 break +20,000 tokens {2}\$/m);
    assert.match(r.out, /^provider-miss: 1 of 3 breaks, 33\.3% of them, \d+\.\d% of their cost$/m);
    assert.match(r.out, /under tiered, as its replay makes them: \d+ cache breaks/);
    assert.match(
      r.out,
      /^what would have avoided them:\n {2}TTL expiries: 1-hour caching would have cost \$[\d.]+ more here/m,
    );
    assert.match(r.out, /^ {2}model switch at request 3: the cold start of claude-opus-4-5.* cost \$/m);
    assert.ok(!r.out.includes('\u001b'), 'no escape reaches the terminal');
    assert.match(r.out, new RegExp(`${SONNET} → claude-opus-4-5\\\\u001b\\]0;owned\\\\u0007`));
  });

  it("compares a Codex session under OpenAI's in-memory and 24-hour retention, in text and JSON", (ctx) => {
    const file = join(REAL_LONG_DIR, 'codex', 'aaronbakerdev-019bbf1d-shell-command-0.80.jsonl');
    if (!existsSync(file)) return ctx.skip('the shared real-long fixtures are not beside the repository');
    const text = cli(file);
    assert.equal(text.code, 0, text.err);
    assert.match(
      text.out,
      /^what would have avoided them:\n {2}Breaks after more than 10 idle minutes: 24-hour retention would have saved \$0\.02 here \(\$2\.53 against \$2\.55 with in-memory retention\)$/m,
    );
    const json = cli(file, '--json');
    assert.equal(json.code, 0, json.err);
    const { ttl } = JSON.parse(json.out).avoided;
    assert.deepEqual(
      [ttl.shorter, ttl.longer, ttl.shorterCost.toFixed(7), ttl.longerCost.toFixed(7), ttl.saved.toFixed(7)],
      ['in_memory', '24h', '2.5514867', '2.5327379', '0.0187488'],
    );
  });

  it('refuses a thread the file does not hold and an unknown policy, and has help from its table', () => {
    const { file } = session();
    const missing = cli(file, '--thread', 'nope');
    assert.equal(missing.code, 2);
    assert.match(missing.err, /--thread nope: not in this file \(threads: main\)/);
    assert.equal(cli(file, '--policy', 'banana').code, 2);
    const help = cli('--help');
    assert.equal(help.code, 0);
    assert.match(help.out, /^usage: context-lens cache <file> \[options\]/);
    assert.match(help.out, /^ {2}--policy NAME +also list the breaks/m);
    assert.match(help.out, /^ {2}--thread ID/m);
    assert.match(help.out, /^ {2}--json +print the breaks and totals as JSON/m);
  });
});
