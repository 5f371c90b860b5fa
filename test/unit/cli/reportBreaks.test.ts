// `report`'s cost of the cache breaks by cause, per session, project, day and in total, as text, JSON and CSV: on
// two hand-made logs in one project, each cause's breaks and cost those `context-lens cache` lists for the file.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { BREAK_CAUSES, type CauseCosts, causeCosts } from '../../../src/core/cacheBreaks';
import type { HistoryRow, SessionFigures } from '../../../src/core/history';
import { logged, OPUS, TimedSession } from '../cacheBreaks/session';
import { cliArgs } from '../cliProcess';

function cli(args: string[], env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, [...cliArgs, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** An expiry and a provider miss; a model switch and an expiry. */
function sessions(): TimedSession[] {
  const a = new TimedSession();
  a.user('first session');
  a.reply({ read: 0, written: 20_000 });
  a.user('q2');
  a.wait(2 * 3_600_000);
  a.reply({ read: 0, written: 20_400 });
  a.user('q3');
  a.reply({ read: 1000, written: 19_800 });
  const b = new TimedSession();
  b.user('second session');
  b.reply({ read: 0, written: 8000 });
  b.user('q2');
  b.reply({ read: 0, written: 8300 }, OPUS);
  b.user('q3');
  b.wait(3_600_000);
  b.reply({ read: 0, written: 8600 }, OPUS);
  return [a, b];
}

function sum(all: CauseCosts[]): CauseCosts {
  const out: CauseCosts = {};
  for (const c of all)
    for (const cause of BREAK_CAUSES) {
      const t = c[cause];
      if (!t) continue;
      const into = out[cause] ?? { breaks: 0, cost: 0 };
      into.breaks += t.breaks;
      into.cost += t.cost;
      out[cause] = into;
    }
  return out;
}

test('report: the breaks by cause per session, project, day and in total, as JSON, CSV and text', () => {
  const root = mkdtempSync(join(tmpdir(), 'context-lens-report-breaks-'));
  const project = join(root, 'claude', 'projects', '-home-me-app');
  mkdirSync(project, { recursive: true });
  // A cache folder of the test's own: the CSV and the text are drawn from the figures the JSON report kept, as a
  // user's second report over unchanged sessions is.
  const env = {
    CLAUDE_CONFIG_DIR: join(root, 'claude'),
    CODEX_HOME: join(root, 'codex'),
    CONTEXT_LENS_TOKEN_CACHE: join(root, 'cache'),
  };
  const made = sessions();
  const expected = made.map((s, i) => {
    const t = s.transcript();
    writeFileSync(join(project, `s${i}.jsonl`), s.bytes());
    return causeCosts(logged(t));
  });
  assert.deepEqual(Object.keys(expected[0]), ['ttl-expired', 'provider-miss']);
  assert.deepEqual(Object.keys(expected[1]), ['ttl-expired', 'model-switch']);

  const json = cli(['report', '--json', '--policy', 'none'], env);
  assert.equal(json.code, 0, json.err);
  const r = JSON.parse(json.out) as {
    sessions: SessionFigures[];
    projects: HistoryRow[];
    days: HistoryRow[];
    total: HistoryRow;
  };
  const byName = new Map(r.sessions.map((s) => [s.path.split('/').pop(), s.breaks]));
  assert.deepEqual(byName.get('s0.jsonl'), expected[0]);
  assert.deepEqual(byName.get('s1.jsonl'), expected[1]);
  const both = sum(expected);
  const close = (x: CauseCosts, y: CauseCosts) => {
    assert.deepEqual(Object.keys(x).sort(), Object.keys(y).sort());
    for (const cause of BREAK_CAUSES) {
      assert.equal(x[cause]?.breaks, y[cause]?.breaks, cause);
      assert.ok(Math.abs((x[cause]?.cost ?? 0) - (y[cause]?.cost ?? 0)) < 1e-9, cause);
    }
  };
  close(r.total.breaks, both);
  assert.equal(r.projects.length, 1);
  close(r.projects[0].breaks, both);
  close(sum(r.days.map((d) => d.breaks)), both);

  const csv = cli(['report', '--csv', '--policy', 'none'], env);
  assert.equal(csv.code, 0, csv.err);
  assert.match(csv.err, / 2 unchanged since an earlier report/);
  const [head, ...rows] = csv.out.trim().split('\n');
  const cols = head.split(',');
  const total = rows.find((l) => l.startsWith('total,'))?.split(',') ?? [];
  const at = (name: string) => Number(total[cols.indexOf(name)]);
  assert.equal(at('ttl-expired_breaks'), 2);
  assert.equal(at('model-switch_breaks'), 1);
  assert.equal(at('provider-miss_breaks'), 1);
  assert.equal(at('compaction_breaks'), 0);
  assert.ok(Math.abs(at('model-switch_break_cost') - (both['model-switch']?.cost ?? 0)) < 1e-9);
  const all = Object.values(both).reduce((n, t) => n + t.cost, 0);
  assert.ok(Math.abs(at('break_cost') - all) < 1e-9);

  const text = cli(['report', '--policy', 'none'], env);
  assert.equal(text.code, 0, text.err);
  assert.match(text.out, /^cache breaks the logs record, by cause: 4 breaks, \$/m);
  assert.match(text.out, /^ {2}TTL expiries: 2 breaks, \$\d+\.\d+$/m);
  assert.match(text.out, /^ {2}model switches: 1 break, \$/m);
  assert.match(text.out, /^ {2}provider misses: 1 break, \$/m);
  assert.match(text.out, /cache breaks/);
  assert.match(text.out, /\(TTL expiries \$[\d.]+\)/);
});

test('a folder without a session: the total row, no break, and no failure', () => {
  const root = mkdtempSync(join(tmpdir(), 'context-lens-report-empty-'));
  const empty = join(root, 'projects');
  mkdirSync(empty);
  const r = cli(['report', empty], { XDG_CACHE_HOME: join(root, 'cache') });
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /^total\s+0\s+0\s/m);
  assert.doesNotMatch(r.out, /cache breaks the logs record/);
});
