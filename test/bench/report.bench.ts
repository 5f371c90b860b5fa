// History figures on generated sessions (test/bench/generate.ts, realistic: compactions, the tool mix, the usage
// the provider would record): `context-lens report` with every policy over a folder of them, first with empty
// caches, again over the unchanged folder, and with --recompute (every session replayed, the token cache warm),
// beside ccusage's time on the same folder in the same run (its `session` report, offline), wall-clock and peak
// memory of each process; the Sessions view's listing (every
// session's title); and a 10 × 7 sweep of the tier constants on a 10,000-message session.
// REPORT_BENCH_MB (default 500) and REPORT_BENCH_SESSIONS (default 500) size the folder.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { analyzeSync } from '../../src/core/analysis';
import { defaultPolicyFor } from '../../src/core/engine/policy';
import { parseSweepAxis, sweepTranscript } from '../../src/core/sweep';
import { claudeSessions } from '../../src/node/sessionFiles';
import { generateSession } from './engine.bench';
import { prng, writeClaudeCodeSession } from './generate';
import { CCUSAGE, installCcusage } from './truth.bench';

const ROOT = resolve(import.meta.dirname, '../..');
const CLI = join(ROOT, 'dist', 'cli.js');
const MB = Number(process.env.REPORT_BENCH_MB ?? 500);
const SESSIONS = Number(process.env.REPORT_BENCH_SESSIONS ?? 500);
const PROJECTS = 12;

/** The folder ($CLAUDE_CONFIG_DIR) of generated sessions, written once per size and count. Sizes vary as real ones
 * do (most small, a few large): weights 1..~40 around the mean. */
function sessionsHome(): string {
  const home = join(ROOT, '.bench', `report-${MB}mb-${SESSIONS}-v1`);
  const done = join(home, 'complete');
  if (existsSync(done)) return home;
  rmSync(home, { recursive: true, force: true });
  const rand = prng(7);
  const weights = Array.from({ length: SESSIONS }, () => Math.exp(rand() * 3.7));
  const sum = weights.reduce((a, b) => a + b, 0);
  const t0 = performance.now();
  let bytes = 0;
  weights.forEach((w, i) => {
    const project = join(home, 'projects', `-home-dev-project-${i % PROJECTS}`);
    const size = Math.max(20_000, Math.round((w / sum) * MB * 1e6));
    bytes += writeClaudeCodeSession(
      join(project, `session-${String(i).padStart(4, '0')}.jsonl`),
      size,
      1000 + i,
      {
        realistic: { hiddenTokens: 14_000, compactAtTokens: 120_000 },
      },
    );
  });
  writeFileSync(done, '');
  console.log(
    `generated ${SESSIONS} sessions, ${(bytes / 1e6).toFixed(0)} MB, in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
  );
  return home;
}

/** A process's wall-clock and peak memory (GNU time's maximum resident set size: every thread of it). */
function timed(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): { s: number; peakMb: number; out: string; err: string } {
  const t = performance.now();
  const r = spawnSync('/usr/bin/time', ['-f', '%M', cmd, ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  const s = (performance.now() - t) / 1000;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}\n${r.stderr.slice(-2000)}`);
  const lines = r.stderr.trim().split('\n');
  const kb = Number(lines.at(-1));
  return { s, peakMb: kb / 1024, out: r.stdout, err: lines.slice(0, -1).join('\n') };
}

const sec = (s: number) => `${s.toFixed(1)} s`;

export async function run(): Promise<void> {
  const home = sessionsHome();
  const files = readdirSync(join(home, 'projects'), { recursive: true, withFileTypes: true }).filter((e) =>
    e.name.endsWith('.jsonl'),
  );
  const total = files.reduce((a, e) => a + statSync(join(e.parentPath, e.name)).size, 0);
  console.log(
    `${files.length} generated Claude Code sessions, ${(total / 1e6).toFixed(0)} MB, ${PROJECTS} projects; ` +
      `${availableParallelism()} cores, load average ${loadavg()[0].toFixed(1)} (figures move with the machine's load)`,
  );
  const env = { CLAUDE_CONFIG_DIR: home, CODEX_HOME: join(home, 'no-codex') };

  // Sessions view: the listing that gives every row its title (the first bytes of each file).
  let t = performance.now();
  const listed = await claudeSessions(env);
  console.log(
    `Sessions view listing: ${listed.length} sessions with their titles in ${(performance.now() - t).toFixed(0)} ms`,
  );

  const ccusage = installCcusage() ? timed(CCUSAGE, ['session', '--json', '--offline'], env) : null;
  if (ccusage) {
    const cost = JSON.parse(ccusage.out).totals?.totalCost;
    console.log(
      `ccusage session (offline): ${sec(ccusage.s)}, peak ${ccusage.peakMb.toFixed(0)} MB, total $${Number(cost).toFixed(2)}`,
    );
  } else console.log('ccusage could not be installed: no reference time');

  const cache = mkdtempSync(join(tmpdir(), 'context-lens-report-bench-'));
  try {
    const args = [CLI, 'report', '--json', '--token-cache', cache];
    const first = timed(process.execPath, args, env);
    const second = timed(process.execPath, args, env);
    const replayed = timed(process.execPath, [...args, '--recompute'], env);
    const report = JSON.parse(second.out) as {
      total: { sessions: number; recordedCost: number };
      policies: string[];
    };
    const ratio = (s: number) => (ccusage ? ` (${(s / ccusage.s).toFixed(1)}× ccusage)` : '');
    console.log(
      `report, ${report.policies.length} policies (${report.policies.join(', ')}), ${report.total.sessions} sessions, ` +
        `recorded $${report.total.recordedCost.toFixed(2)}:`,
    );
    const counts = (err: string) =>
      /(\d+) unchanged since an earlier report; token counts: ([\d,]+) texts tokenized, ([\d,]+) from the token cache/.exec(
        err,
      );
    for (const [name, r] of [
      ['first run (empty caches)', first],
      ['second run (same folder, nothing changed)', second],
      ['--recompute (every session replayed, token cache warm)', replayed],
    ] as const) {
      const c = counts(r.err);
      console.log(
        `  ${name}: ${sec(r.s)}${ratio(r.s)}, peak ${r.peakMb.toFixed(0)} MB` +
          (c
            ? `; ${c[1]} sessions' figures kept, ${c[2]} texts tokenized, ${c[3]} counts from the cache`
            : ''),
      );
    }
    const cacheBytes = readdirSync(cache).reduce((a, f) => a + statSync(join(cache, f)).size, 0);
    console.log(`  cache folder (token counts, kept figures): ${(cacheBytes / 1e6).toFixed(1)} MB`);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }

  // The sweep: counted first (the view sweeps a session it has counted), then the grid.
  const session = generateSession();
  const base = defaultPolicyFor(session.format);
  analyzeSync(session, base);
  const rows = parseSweepAxis('tiered.keepRecent=4..13');
  const cols = parseSweepAxis('tiered.tier1Distance=10..40:5');
  const run = (p: typeof base) => analyzeSync(session, p).analysis;
  await sweepTranscript(base, rows, cols, run); // the rule tables of each setting, built once
  t = performance.now();
  const grid = await sweepTranscript(base, rows, cols, run);
  const sweepMs = performance.now() - t;
  t = performance.now();
  for (const k of rows.values)
    for (const d of cols.values)
      if (d >= k) run({ ...base, tiered: { ...base.tiered, keepRecent: k, tier1Distance: d } });
  const eachMs = performance.now() - t;
  console.log(
    `sweep 10 × 7 on ${session.messages.length.toLocaleString('en-US')} messages: ${(sweepMs / 1000).toFixed(2)} s ` +
      `(${grid.replays} replays for ${grid.cells.filter(Boolean).length} cells; a replay per cell: ${(eachMs / 1000).toFixed(2)} s)`,
  );
}
