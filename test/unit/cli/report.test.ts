// `context-lens report` as a user runs it: the agents' folders by default, every policy the engine knows, each
// session's figures exactly those `simulate` prints for its file, unreadable and growing files handled.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { table } from '../../../src/cli/report';
import { simulatedPolicies } from '../../../src/cli/simulate';
import { AUTO_MODEL } from '../../../src/core/engine/models';
import { POLICY_NAMES, type PolicyName, policiesOfferedFor } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import type { HistoryRow, SessionFigures } from '../../../src/core/history';
import { recordedUsage } from '../../../src/core/recordedUsage';
import type { SweepGrid } from '../../../src/core/sweep';
import { sweepAdvice } from '../../../src/core/sweepAdvice';
import { MAIN_THREAD } from '../../../src/core/threads';
import { REAL_LONG_DIR } from '../../sharedFixtures';
import { cliArgs } from '../cliProcess';

const REAL = 'test/fixtures/real';

function cli(args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [...cliArgs, ...args], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 1 << 28,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

const jsonl = (dir: string) =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.jsonl'))
        .map((f) => join(dir, f))
    : [];

/** A fake $CLAUDE_CONFIG_DIR, $CODEX_HOME and $GEMINI_CLI_HOME holding the real sessions, each laid out as its agent
 * lays it out (with the long ones, when they are here and asked for: the tests of options and files need not
 * replay megabytes under every policy). */
function agentHomes(long = true) {
  const root = mkdtempSync(join(tmpdir(), 'context-lens-report-'));
  const claude = join(root, 'claude');
  const codex = join(root, 'codex');
  const project = join(claude, 'projects', '-home-me-app');
  const day = join(codex, 'sessions', '2026', '01', '15');
  mkdirSync(project, { recursive: true });
  mkdirSync(day, { recursive: true });
  const files: string[] = [];
  for (const f of [
    ...jsonl(join(REAL, 'claude-code')),
    ...(long ? jsonl(join(REAL_LONG_DIR, 'claude-code')) : []),
  ]) {
    const to = join(project, f.split('/').pop() as string);
    copyFileSync(f, to);
    files.push(to);
  }
  for (const f of [...jsonl(join(REAL, 'codex')), ...(long ? jsonl(join(REAL_LONG_DIR, 'codex')) : [])]) {
    const to = join(day, `rollout-${f.split('/').pop()}`);
    copyFileSync(f, to);
    files.push(to);
  }
  const gemini = join(root, 'gemini');
  const chats = join(gemini, '.gemini', 'tmp', 'my-app', 'chats');
  mkdirSync(chats, { recursive: true });
  const geminiFolder = join(REAL, 'gemini-cli-json');
  for (const f of existsSync(geminiFolder) ? readdirSync(geminiFolder) : []) {
    const to = join(chats, `session-${f}`);
    copyFileSync(join(geminiFolder, f), to);
    files.push(to);
  }
  return { root, env: { CLAUDE_CONFIG_DIR: claude, CODEX_HOME: codex, GEMINI_CLI_HOME: gemini }, files };
}

/** The long real Codex sessions that hold no compaction: their tools differ, which changes their figures, not how the
 * report reaches them. */
const PLAIN_LONG_CODEX = [
  '493-property-estimator-019cd4ae-exec-command-apply-patch-0.104.jsonl',
  'aaronbakerdev-019bbf1d-shell-command-0.80.jsonl',
];

interface Report {
  policies: string[];
  sessions: SessionFigures[];
  projects: HistoryRow[];
  days: HistoryRow[];
  total: HistoryRow;
  skipped: { path: string; reason: string }[];
  grew: { path: string; bytes: number }[];
}

/** What simulate --json prints for one file under every policy of the report (its analyses, made here rather
 * than in a process of its own for each session: the report itself runs as the CLI). */
function simulated(file: string, policies: readonly string[]) {
  const { results } = simulatedPolicies(file, MAIN_THREAD, policies as PolicyName[], undefined, []);
  return Object.fromEntries(results.map(([name, r]) => [name, r.analysis]));
}

function assertSameAsSimulate(
  s: SessionFigures,
  file: string,
  policies: readonly string[],
  transcript = parseTranscript(new Uint8Array(readFileSync(file)), file),
) {
  const sim = simulated(file, policies);
  // A strategy the session's provider or agent cannot use has no figures in the report.
  const offered = policiesOfferedFor(transcript, AUTO_MODEL, POLICY_NAMES);
  for (const name of policies) {
    const a = sim[name];
    const f = s.policies[name as keyof typeof s.policies];
    if (!offered.includes(name as PolicyName)) {
      assert.equal(f, undefined, `${file}: ${name} not offered`);
      continue;
    }
    assert.ok(f, `${file}: ${name} in the report`);
    const where = `${file.split('/').pop()} ${name}`;
    assert.equal(f.promptTokens, a.totals.promptTokens, `${where}: prompt`);
    assert.equal(f.cachedTokens, a.totals.cachedTokens, `${where}: cached`);
    assert.equal(f.writtenTokens, a.totals.writtenTokens, `${where}: written`);
    assert.equal(f.cost, a.totals.cost, `${where}: cost`);
    assert.equal(f.events, a.events.length, `${where}: events`);
    if (name === 'none') continue;
    assert.ok(a.vsNone, where);
    assert.equal(f.deltaCost, a.vsNone.deltaCost, `${where}: Δ cost`);
    assert.equal(f.deltaShare, a.vsNone.deltaShare, `${where}: Δ share`);
    assert.equal(f.tokensSaved, a.vsNone.tokensSaved, `${where}: tokens saved`);
    assert.equal(f.extraWritten, a.vsNone.extraWritten, `${where}: extra written`);
  }
  assert.equal(s.requests, sim.none.requests.filter((r) => !r.pending).length);
}

test('report over the agents folders: every session, every policy, each equal to what simulate prints', () => {
  const homes = agentHomes();
  const r = cli(['report', '--json'], homes.env);
  assert.equal(r.code, 0, r.err);
  const report = JSON.parse(r.out) as Report;
  assert.deepEqual(report.policies, ['none', ...POLICY_NAMES.filter((n) => n !== 'none')]);
  assert.deepEqual(report.skipped, []);
  assert.deepEqual(report.sessions.map((s) => s.path).sort(), [...homes.files].sort());
  for (const s of report.sessions) {
    const transcript = parseTranscript(new Uint8Array(readFileSync(s.path)), s.path);
    // Recorded cost: the log's own figure, as inspect gives it (no replay).
    const recorded = recordedUsage(transcript);
    assert.equal(s.recordedCost, recorded ? recorded.cost : null, s.path);
    // Each session's figures are those simulate prints. The long Codex sessions without a compaction take no path
    // that the one with compactions and the short Codex sessions do not (`npm run bench -- truth` checks their
    // figures): they are reported above, not simulated again here.
    if (PLAIN_LONG_CODEX.some((name) => s.path.endsWith(name))) continue;
    assertSameAsSimulate(s, s.path, report.policies, transcript);
  }
  // The total is the sum of the sessions, per policy.
  for (const name of report.policies.filter((n) => n !== 'none')) {
    const sum = report.sessions.reduce((a, s) => a + (s.policies[name as 'tiered']?.deltaCost ?? 0), 0);
    // (a session that cannot use a strategy adds nothing to its total)
    assert.ok(Math.abs((report.total.policies[name as 'tiered']?.deltaCost ?? 0) - sum) < 1e-9, name);
  }
  assert.equal(report.total.sessions, homes.files.length);
  assert.equal(
    report.projects.reduce((a, p) => a + p.sessions, 0),
    homes.files.length,
  );
  assert.equal(
    report.days.reduce((a, p) => a + p.requests, 0),
    report.total.requests,
  );
  // The long real sessions (beside the repository, when there) cost dollars; the small ones cents.
  if (existsSync(REAL_LONG_DIR)) assert.ok(report.sessions.some((s) => (s.recordedCost ?? 0) > 1));
});

test('--set, --policy, --since/--until, the table and CSV', () => {
  const homes = agentHomes(false);
  const file = homes.files.find((f) => f.includes('coverage-test-fix')) as string;
  const r = cli(
    [
      'report',
      '--json',
      '--policy',
      'tiered',
      '--set',
      'tiered.keepRecent=2',
      '--set',
      'tiered.tier1Distance=5',
      file,
    ],
    homes.env,
  );
  assert.equal(r.code, 0, r.err);
  const report = JSON.parse(r.out) as Report;
  assert.deepEqual(report.policies, ['none', 'tiered']);
  const sim = cli([
    'simulate',
    '--json',
    '--policy',
    'tiered',
    '--set',
    'tiered.keepRecent=2',
    '--set',
    'tiered.tier1Distance=5',
    file,
  ]);
  assert.equal(report.sessions[0].policies.tiered?.cost, JSON.parse(sim.out).tiered.totals.cost);
  const day = report.sessions[0].day;
  const later = cli(['report', '--json', '--since', `${Number(day.slice(0, 4)) + 1}0101`, file], homes.env);
  assert.equal((JSON.parse(later.out) as Report).sessions.length, 0);
  const same = cli(['report', '--json', '--since', day, '--until', day, file], homes.env);
  assert.equal((JSON.parse(same.out) as Report).sessions.length, 1);
  const bad = cli(['report', '--since', 'yesterday'], homes.env);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--since: expected a day as YYYY-MM-DD/);
  const badSet = cli(['report', '--set', 'tiered.keepRecent=-1'], homes.env);
  assert.equal(badSet.code, 2);
  assert.match(badSet.err, /keepRecent/);

  const table = cli(['report'], homes.env);
  assert.equal(table.code, 0, table.err);
  for (const name of POLICY_NAMES.filter((n) => n !== 'none')) assert.ok(table.out.includes(name), name);
  assert.match(table.out, /^total +\d+/m);
  assert.match(table.out, /^best: /m);
  assert.match(table.err, /files in .* s \(\d+ threads?\)/);
  const csv = cli(['report', '--csv'], homes.env);
  const lines = csv.out.trim().split('\n');
  assert.match(
    lines[0],
    /^level,key,day,project,first_prompt,sessions,requests,bytes,recorded_cost,none_cost,/,
  );
  assert.equal(lines.filter((l) => l.startsWith('session,')).length, homes.files.length);
  assert.equal(lines.filter((l) => l.startsWith('total,')).length, 1);
});

test('an unreadable or unparsable file is reported and skipped; the others are reported', () => {
  const homes = agentHomes(false);
  const project = join(homes.env.CLAUDE_CONFIG_DIR, 'projects', '-home-me-app');
  symlinkSync(join(homes.root, 'gone.jsonl'), join(project, 'dangling.jsonl'));
  writeFileSync(join(project, 'garbage.jsonl'), Buffer.from([0xff, 0xfe, 0x00, 0x12, 0x80, 0x0a]));
  const r = cli(['report', '--json'], homes.env);
  assert.equal(r.code, 0, r.err);
  const report = JSON.parse(r.out) as Report;
  assert.equal(report.sessions.length, homes.files.length);
  assert.deepEqual(report.skipped.map((s) => s.path.split('/').pop()).sort(), [
    'dangling.jsonl',
    'garbage.jsonl',
  ]);
  assert.match(r.err, /dangling\.jsonl: cannot read \(ENOENT\); skipped/);
  assert.match(r.err, /garbage\.jsonl is not a transcript this tool reads; skipped/);
  assert.doesNotMatch(r.err, /Expected one of/, 'one line per skipped file');
});

test('a session still being written: its partial last line is left out, and a file growing during the report is read as it was', async () => {
  const homes = agentHomes(false);
  const source = homes.files.find((f) => f.includes('coverage-test-fix')) as string;
  const whole = readFileSync(source);
  // A line being written: half of the last record, no newline.
  const lastStart = whole.lastIndexOf(0x0a, whole.length - 2) + 1;
  const partial = whole.subarray(0, lastStart + Math.floor((whole.length - lastStart) / 2));
  writeFileSync(source, partial);
  let r = cli(['report', '--json', source], homes.env);
  assert.equal(r.code, 0, r.err);
  let report = JSON.parse(r.out) as Report;
  assert.equal(report.sessions[0].bytes, lastStart, 'up to the last whole line');
  assert.match(r.err, /grew while it was read|first [\d,]+ bytes/);
  const prefix = join(homes.root, 'prefix.jsonl');
  writeFileSync(prefix, whole.subarray(0, lastStart));
  assertSameAsSimulate(report.sessions[0], prefix, ['none', 'tiered']);

  // A writer appends whole records as fast as it can while the report runs.
  const growing = join(homes.root, 'growing', 'projects', 'p');
  mkdirSync(growing, { recursive: true });
  const live = join(growing, 'live.jsonl');
  const lines = whole.toString('utf8').split('\n').filter(Boolean);
  const head = lines.slice(0, Math.floor(lines.length / 2));
  writeFileSync(live, `${head.join('\n')}\n`);
  const writer = spawn(
    process.execPath,
    [
      '-e',
      `const fs = require('fs'); const lines = ${JSON.stringify(lines.slice(head.length))};
       let i = 0; const t = setInterval(() => { fs.appendFileSync(${JSON.stringify(live)}, lines[i % lines.length].slice(0, 40));
       fs.appendFileSync(${JSON.stringify(live)}, lines[i % lines.length].slice(40) + '\\n'); if (++i >= lines.length) clearInterval(t); }, 1);`,
    ],
    { stdio: 'ignore' },
  );
  try {
    r = cli(['report', '--json', '--policy', 'tiered', live], homes.env);
  } finally {
    writer.kill();
    await new Promise((resolve) => writer.on('exit', resolve));
  }
  assert.equal(r.code, 0, r.err);
  report = JSON.parse(r.out) as Report;
  const read = report.sessions[0].bytes;
  const now = readFileSync(live);
  assert.ok(read >= Buffer.byteLength(`${head.join('\n')}\n`) && read <= now.length);
  assert.equal(now[read - 1], 0x0a, 'whole lines only');
  const snapshot = join(homes.root, 'snapshot.jsonl');
  writeFileSync(snapshot, now.subarray(0, read));
  assertSameAsSimulate(report.sessions[0], snapshot, ['none', 'tiered']);
  appendFileSync(snapshot, ''); // the snapshot is the test's own file; the source was never written by the report
});

test('report --sweep: each cell is the report of that setting, summed over the sessions; the best named', () => {
  // The short Claude Code sessions: what is proved is how cells are made and summed, which needs no long replay.
  const homes = agentHomes(false);
  const small = homes.files.filter((f) => f.includes('/claude/'));
  const dir = join(homes.root, 'small');
  mkdirSync(dir);
  for (const f of small) copyFileSync(f, join(dir, f.split('/').pop() as string));
  const r = cli(
    ['report', '--json', '--sweep', 'tiered.keepRecent=2,8', '--sweep', 'tiered.tier1Distance=4,20', dir],
    homes.env,
  );
  assert.equal(r.code, 0, r.err);
  const out = JSON.parse(r.out) as {
    sweep: SweepGrid;
    best: number;
    advice: string[];
  };
  assert.equal(out.sweep.sessions, small.length);
  assert.equal(out.sweep.current, 3, 'keepRecent 8, tier1Distance 20: the defaults');
  const cells = [
    [2, 4],
    [2, 20],
    [8, 4],
    [8, 20],
  ];
  cells.forEach(([k, d], i) => {
    if (d < k) {
      assert.equal(out.sweep.cells[i], null);
      return;
    }
    const one = cli(
      [
        'report',
        '--json',
        '--policy',
        'tiered',
        '--set',
        `tiered.keepRecent=${k}`,
        '--set',
        `tiered.tier1Distance=${d}`,
        dir,
      ],
      homes.env,
    );
    const total = (JSON.parse(one.out) as Report).total.policies.tiered;
    assert.ok(
      Math.abs((out.sweep.cells[i]?.deltaCost ?? Number.NaN) - (total?.deltaCost ?? 0)) < 1e-12,
      `cell ${k}, ${d}`,
    );
    assert.equal(out.sweep.cells[i]?.tokensSaved, total?.tokensSaved);
  });
  const table = cli(
    ['report', '--sweep', 'tiered.keepRecent=2,8', '--sweep', 'tiered.tier1Distance=4,20', dir],
    homes.env,
  );
  assert.match(table.out, /^best: tiered\.keepRecent=\d+, tiered\.tier1Distance=\d+: /m);
  assert.match(table.out, /\[[^\]]+\]/, 'the current setting is marked');
  assert.match(table.out, /refused/);
  // What the figures do not say (an edge, keepRecent near 0, an axis that changes nothing) in both outputs.
  assert.deepEqual(out.advice, sweepAdvice(out.sweep));
  for (const advice of out.advice) assert.ok(table.out.includes(`warning: ${advice}\n`), advice);
  const bad = cli(['report', '--sweep', 'tiered.keepRecent=9..3'], homes.env);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /must go up/);
});

test('a second report reads the figures of unchanged sessions; a changed one, or --recompute, is replayed', () => {
  const homes = agentHomes(false);
  const cache = mkdtempSync(join(tmpdir(), 'context-lens-report-cache-'));
  const env = { ...homes.env, CONTEXT_LENS_TOKEN_CACHE: cache };
  const first = cli(['report', '--json', '--policy', 'tiered'], env);
  assert.equal(first.code, 0, first.err);
  assert.match(first.err, / 0 unchanged since an earlier report/);
  const second = cli(['report', '--json', '--policy', 'tiered'], env);
  assert.match(second.err, new RegExp(` ${homes.files.length} unchanged since an earlier report`));
  assert.match(second.err, /token counts: 0 texts tokenized/);
  assert.deepEqual(JSON.parse(second.out).sessions, JSON.parse(first.out).sessions);
  // Other settings: replayed.
  const other = cli(['report', '--json', '--policy', 'tiered', '--set', 'tiered.keepRecent=3'], env);
  assert.match(other.err, / 0 unchanged since an earlier report/);
  // A session that grew: replayed, the others read.
  const grown = homes.files.find((f) => f.includes('coverage-test-fix')) as string;
  const lines = readFileSync(grown, 'utf8').trimEnd().split('\n');
  appendFileSync(grown, `${lines[0]}\n`);
  const third = cli(['report', '--json', '--policy', 'tiered'], env);
  assert.match(third.err, new RegExp(` ${homes.files.length - 1} unchanged since an earlier report`));
  const again = cli(['report', '--json', '--policy', 'tiered', '--recompute'], env);
  assert.match(again.err, / 0 unchanged since an earlier report/);
  assert.deepEqual(JSON.parse(again.out).sessions, JSON.parse(third.out).sessions);
});

test('kept results damaged into valid JSON of the wrong shape: dropped with a note, replayed, the same report', () => {
  const root = mkdtempSync(join(tmpdir(), 'context-lens-report-kept-'));
  const project = join(root, 'projects', '-home-me-app');
  mkdirSync(project, { recursive: true });
  for (const f of jsonl(join(REAL, 'claude-code')).slice(0, 4))
    copyFileSync(f, join(project, f.split('/').pop() as string));
  const cache = mkdtempSync(join(tmpdir(), 'context-lens-report-cache-'));
  const env = {
    CLAUDE_CONFIG_DIR: root,
    CODEX_HOME: join(root, 'none'),
    GEMINI_CLI_HOME: join(root, 'none'),
    CONTEXT_LENS_TOKEN_CACHE: cache,
  };
  const args = ['report', '--json', '--policy', 'tiered'];
  const first = cli(args, env);
  assert.equal(first.code, 0, first.err);
  const file = join(cache, 'report-results.v2.json');
  const damages: ((row: Record<string, unknown>) => void)[] = [
    (r) => {
      r.requests = 'x';
    },
    (r) => {
      r.policies = null;
    },
    (r) => {
      r.day = 20260115;
    },
    (r) => {
      r.project = { a: 1 };
    },
  ];
  // Each damage on an entry of its own, all in one report: an entry let through would leave the count short.
  const damaged = JSON.parse(readFileSync(file, 'utf8'));
  const entries = Object.values(damaged.entries) as { row: Record<string, unknown> }[];
  assert.equal(entries.length, damages.length);
  for (const [i, damage] of damages.entries()) damage(entries[i].row);
  writeFileSync(file, JSON.stringify(damaged));
  const second = cli(args, env);
  assert.equal(second.code, 0, second.err);
  assert.match(second.err, /4 entries of the wrong shape dropped/);
  assert.match(second.err, / 0 unchanged since an earlier report/);
  assert.deepEqual(JSON.parse(second.out).total, JSON.parse(first.out).total);
  const body = JSON.parse(readFileSync(file, 'utf8'));
  for (const e of Object.values(body.entries) as { row: unknown }[]) e.row = null;
  writeFileSync(file, JSON.stringify(body));
  const r = cli(args, env);
  assert.equal(r.code, 0, r.err);
  assert.deepEqual(JSON.parse(r.out).total, JSON.parse(first.out).total);
});

test('150,000 session files: listed and reported without overflowing the stack; folders too deep are said', () => {
  const root = mkdtempSync(join(tmpdir(), 'context-lens-report-many-'));
  try {
    const project = join(root, 'projects', '-home-me-app');
    mkdirSync(project, { recursive: true });
    for (let i = 0; i < 150_000; i++) writeFileSync(join(project, `${i}.jsonl`), '');
    let deep = join(root, 'projects');
    for (let level = 0; level < 10; level++) deep = join(deep, `d${level}`);
    mkdirSync(deep, { recursive: true });
    writeFileSync(join(deep, 'deep.jsonl'), '');
    // --since far ahead: every file listed and looked at, none replayed (what is measured is the listing).
    const r = cli(['report', '--json', '--since', '2999-01-01', join(root, 'projects')]);
    assert.equal(r.code, 0, r.err);
    assert.doesNotMatch(r.err, /call stack/);
    assert.match(
      r.err,
      /1 folder lies more than 8 levels deep and was not read \(e\.g\. .*d8\); give such a folder as DIR/,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a table of 200,000 rows is laid out (no spread of its rows into a call)', () => {
  const rows = Array.from({ length: 200_000 }, (_, i) => [String(i), 'x']);
  const lines = table(['n', 'x'], rows, [true, false]);
  assert.equal(lines.length, 200_001);
  assert.equal(lines[1], '     0  x');
});

test('--jobs beyond the cores is capped at one thread per core, and said', () => {
  const root = mkdtempSync(join(tmpdir(), 'context-lens-report-jobs-'));
  const cores = availableParallelism();
  for (let i = 0; i < cores + 2; i++)
    copyFileSync(join(REAL, 'claude-code', 'drmaciver-hello-world-script.jsonl'), join(root, `s${i}.jsonl`));
  const r = cli(['report', '--json', '--policy', 'tiered', '--no-token-cache', '--jobs', '300', root]);
  assert.equal(r.code, 0, r.err);
  assert.match(r.err, new RegExp(`--jobs 300 capped at ${cores} \\(one thread per core`));
  // Sessions this small are not worth a second thread (node/historyPool.ts's poolThreads).
  assert.match(r.err, /\(1 thread\)/);
  assert.equal((JSON.parse(r.out) as Report).sessions.length, cores + 2);
});
