// The figures a report keeps between runs are a file anyone can touch: read only when it is a regular file of
// plausible size, each entry checked for its shape; what is damaged is dropped with a note and replayed, never fatal.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { foldRows, type SessionFigures } from '../../../src/core/history';
import { entryProblem, MAX_RESULTS_BYTES, ReportResults } from '../../../src/node/reportResults';
import { rng } from '../fuzz/mutate';

const scratch = () => mkdtempSync(join(tmpdir(), 'context-lens-results-'));
const stat = { size: 10, mtimeMs: 1000, ino: 7 };
const KEY = 'k';

function row(path: string): SessionFigures {
  return {
    path,
    format: 'claude-code',
    project: '/home/me/app',
    firstPrompt: 'fix it',
    start: '2026-01-15T10:00:00Z',
    end: '2026-01-15T11:00:00Z',
    day: '2026-01-15',
    bytes: 10,
    messages: 4,
    requests: 2,
    model: 'claude-sonnet-4',
    recordedCost: 0.5,
    recordedReplies: 2,
    policies: {
      none: { promptTokens: 100, cachedTokens: 50, writtenTokens: 50, cost: 0.4, events: 0 },
      tiered: {
        promptTokens: 80,
        cachedTokens: 40,
        writtenTokens: 40,
        cost: 0.3,
        events: 1,
        deltaCost: -0.1,
        deltaShare: -0.25,
        tokensSaved: 20,
        extraWritten: 0,
      },
    },
  };
}

/** A results file with a good entry per path of `paths`, saved; then the entries as JSON to damage. */
async function kept(dir: string, paths: string[]) {
  const r = ReportResults.open(dir);
  for (const p of paths) r.set(p, stat, KEY, row(p));
  assert.equal(await r.save(), null);
  const file = join(dir, 'report-results.v2.json');
  return {
    file,
    body: JSON.parse(readFileSync(file, 'utf8')) as { entries: Record<string, { row: unknown }> },
  };
}

const id = (path: string) => `${KEY}\u0000${path}`;

test('entries of valid JSON and the wrong shape are dropped, with one note; the good ones are read', async () => {
  const dir = scratch();
  const damages: [string, (e: Record<string, unknown>) => void][] = [
    [
      'row null',
      (e) => {
        e.row = null;
      },
    ],
    [
      'policies null',
      (e) => {
        (e.row as Record<string, unknown>).policies = null;
      },
    ],
    [
      'a numeric day',
      (e) => {
        (e.row as Record<string, unknown>).day = 20260115;
      },
    ],
    [
      'an object project',
      (e) => {
        (e.row as Record<string, unknown>).project = { a: 1 };
      },
    ],
    [
      'requests "x"',
      (e) => {
        (e.row as Record<string, unknown>).requests = 'x';
      },
    ],
    [
      'a policy of text',
      (e) => {
        ((e.row as SessionFigures).policies as Record<string, unknown>).none = 'cheap';
      },
    ],
    [
      'a cost of text',
      (e) => {
        ((e.row as SessionFigures).policies.none as unknown as Record<string, unknown>).cost = '1';
      },
    ],
    [
      'an unknown policy',
      (e) => {
        ((e.row as SessionFigures).policies as Record<string, unknown>).__proto__x = {};
      },
    ],
    [
      'a size of text',
      (e) => {
        e.size = '10';
      },
    ],
    [
      'another file’s row',
      (e) => {
        (e.row as Record<string, unknown>).path = '/elsewhere.jsonl';
      },
    ],
    [
      'a grid of nothing',
      (e) => {
        e.grid = { policy: 'tiered' };
      },
    ],
    [
      'the entry a number',
      (e) => {
        for (const k of Object.keys(e)) delete e[k];
      },
    ],
  ];
  const paths = ['/good.jsonl', ...damages.map((_, i) => `/bad-${i}.jsonl`)];
  const { file, body } = await kept(dir, paths);
  damages.forEach(([, damage], i) => {
    damage(body.entries[id(`/bad-${i}.jsonl`)] as unknown as Record<string, unknown>);
  });
  body.entries[id('/bad-11.jsonl')] = 42 as never;
  writeFileSync(file, JSON.stringify(body));
  const warnings: string[] = [];
  const r = ReportResults.open(dir, (m) => warnings.push(m));
  assert.equal(r.get('/good.jsonl', KEY, stat)?.row.requests, 2);
  damages.forEach(([what], i) => {
    assert.equal(r.get(`/bad-${i}.jsonl`, KEY, stat), undefined, `${what}: dropped`);
  });
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(
    warnings[0],
    new RegExp(
      `${damages.length} entries of the wrong shape dropped \\(e\\.g\\. .+\\); their sessions are replayed`,
    ),
  );
  // The file is written again without them.
  assert.equal(await r.save(), null);
  const quiet: string[] = [];
  ReportResults.open(dir, (m) => quiet.push(m));
  assert.deepEqual(quiet, []);
});

test('each check names what is wrong', () => {
  const good = { ...stat, key: KEY, usedAt: 1, row: row('/a.jsonl') };
  assert.equal(entryProblem(id('/a.jsonl'), good), null);
  assert.match(
    entryProblem(id('/a.jsonl'), { ...good, row: { ...good.row, requests: 'x' } }) ?? '',
    /row\.requests is the text "x"/,
  );
  assert.match(
    entryProblem(id('/a.jsonl'), { ...good, row: { ...good.row, day: 5 } }) ?? '',
    /row\.day is number 5/,
  );
  assert.match(entryProblem(id('/a.jsonl'), { ...good, row: null }) ?? '', /row is null/);
  assert.match(
    entryProblem(id('/a.jsonl'), { ...good, row: { ...good.row, recordedCost: 1e308 } }) ?? '',
    /recordedCost is number 1e\+308/,
  );
  assert.match(
    entryProblem(id('/a.jsonl'), { ...good, row: { ...good.row, recordedCost: Number.NaN } }) ?? '',
    /recordedCost/,
  );
});

test('a FIFO, a device or an oversized file in the results’ place is never read: a note, and rebuilt', async () => {
  const cases: [string, (file: string) => void, RegExp][] = [
    ['FIFO', (f) => assert.equal(spawnSync('mkfifo', [f]).status, 0), /is a FIFO \(named pipe\)/],
    ['/dev/zero', (f) => symlinkSync('/dev/zero', f), /is a character device/],
    [
      'oversized',
      (f) => {
        writeFileSync(f, '');
        truncateSync(f, MAX_RESULTS_BYTES + 1);
      },
      /more than the \d+ it can hold/,
    ],
  ];
  const dirs = cases.map(([, make]) => {
    const dir = scratch();
    make(join(dir, 'report-results.v2.json'));
    return dir;
  });
  // In a child, killed if it hangs (a FIFO without a writer blocks its reader forever).
  const script = join(scratch(), 'open.ts');
  writeFileSync(
    script,
    `import { ReportResults } from ${JSON.stringify(join(process.cwd(), 'src/node/reportResults'))};
     (async () => {
       const out = [];
       for (const dir of process.argv.slice(2)) {
         const warnings: string[] = [];
         const r = ReportResults.open(dir, (m) => warnings.push(m));
         r.set('/a.jsonl', { size: 1, mtimeMs: 1, ino: 1 }, 'k', ${JSON.stringify(row('/a.jsonl'))});
         const saved = await r.save();
         const again = ReportResults.open(dir).get('/a.jsonl', 'k', { size: 1, mtimeMs: 1, ino: 1 });
         out.push({ warnings, saved: saved === null, again: again?.row.requests });
       }
       process.stdout.write(JSON.stringify(out));
     })();`,
  );
  const child = spawnSync(process.execPath, ['--import', 'tsx', script, ...dirs], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(child.signal, null, 'the child hung reading the kept results');
  assert.equal(child.status, 0, child.stderr);
  const results = JSON.parse(child.stdout) as { warnings: string[]; saved: boolean; again: number }[];
  cases.forEach(([what, , kind], i) => {
    assert.match(results[i].warnings.join('\n'), kind, what);
    assert.match(results[i].warnings[0], /ignored, every session replayed and the file rebuilt/);
    assert.equal(results[i].saved, true, what);
    assert.equal(results[i].again, 2, `${what}: a valid file now stands in its place`);
  });
});

test('seeded damage: any field of an entry replaced by any JSON value is kept only if still of its shape, and folds', async () => {
  const r = rng(31);
  const values: unknown[] = [null, 0, -1, 1e308, 'x', '', true, {}, [], { a: 1 }, [1, 2], '2026-01-15'];
  const dir = scratch();
  const paths = Array.from({ length: 300 }, (_, i) => `/s${i}.jsonl`);
  const { file, body } = await kept(dir, paths);
  for (const p of paths) {
    // A random place: the entry, its row, a policy's figures; a random field of it; a random value.
    const e = body.entries[id(p)] as unknown as Record<string, unknown>;
    const row = e.row as Record<string, unknown>;
    const places = [e, row, (row.policies as Record<string, Record<string, unknown>>).tiered];
    const place = places[Math.floor(r() * places.length)];
    const keys = Object.keys(place);
    place[keys[Math.floor(r() * keys.length)]] = values[Math.floor(r() * values.length)];
  }
  writeFileSync(file, JSON.stringify(body));
  const results = ReportResults.open(dir, () => {});
  const rows = paths.flatMap((p) => {
    const k = results.get(p, KEY, stat);
    return k ? [k.row] : [];
  });
  for (const row of rows)
    assert.equal(entryProblem(id(row.path), { ...stat, key: KEY, usedAt: 1, row }), null);
  const total = foldRows(rows, () => 'total', ['none', 'tiered'])[0];
  assert.ok(rows.length > 0 && rows.length < paths.length, `${rows.length} kept`);
  assert.equal(typeof total.requests, 'number');
  assert.ok(Number.isFinite(total.requests));
  assert.ok(Number.isFinite(total.recordedCost));
  assert.ok(Number.isFinite(total.policies.tiered?.deltaCost ?? 0));
});
