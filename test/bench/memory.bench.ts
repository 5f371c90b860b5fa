// The memory of opening a large session as the editor opens it, without the editor (the real editor's figures are
// `npm run bench -- editor`'s): memoryProbe.ts runs the extension host's open path in a process of its own (the
// session's worker thread, the parse thread, the token processes) on the generated 100 MB Claude Code session, a
// first open (no token counts on disk, no kept view), then a reopen (both kept). This process samples the probe's
// resident memory and its token processes' every 50 ms; each figure is a multiple of the file's size, "added" the
// same less what the probe held before the open. Load average beside it: the 2-core machine is shared.
//
// MEMORY_BENCH_MB=40 npm run bench -- memory (another size of the generated session).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { childrenOf, rssOf } from '../e2e/hostProcess';
import { writeClaudeCodeSession } from './generate';

const SEED = 7;
const SAMPLE_MS = 50;

interface Mark {
  phase: string;
  at: number;
  heap: number;
  rss: number;
  hwm: number;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

interface Run {
  marks: Mark[];
  /** The highest sample of the probe's resident memory between two marks, by the later mark's phase. */
  peaks: Map<string, number>;
  /** The token processes' highest resident memory together. */
  tokenPeak: number;
  load: string;
}

function probe(file: string, storage: string): Promise<Run> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'memoryProbe.ts'), file, storage],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const pid = child.pid ?? 0;
  const marks: Mark[] = [];
  const peaks = new Map<string, number>();
  let since = 0;
  let tokenPeak = 0;
  let children: number[] = [];
  let ticks = 0;
  const timer = setInterval(() => {
    since = Math.max(since, rssOf(pid));
    // The token processes are looked for every half second (a scan of /proc), read every sample.
    if (ticks++ % 10 === 0) children = childrenOf(pid);
    tokenPeak = Math.max(
      tokenPeak,
      children.reduce((sum, c) => sum + rssOf(c), 0),
    );
  }, SAMPLE_MS);
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (!line.startsWith('{')) continue;
      const m = JSON.parse(line) as Mark;
      marks.push(m);
      peaks.set(m.phase, Math.max(since, m.rss));
      since = 0;
    }
  });
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      clearInterval(timer);
      if (code !== 0) reject(new Error(`the probe ended with code ${code}`));
      else resolve({ marks, peaks, tokenPeak, load: load() });
    });
  });
}

function report(label: string, run: Run, fileBytes: number): void {
  const x = (n: number) => `${(n / fileBytes).toFixed(2)}×`;
  const base = run.marks.find((m) => m.phase === 'open')?.rss ?? 0;
  const last = run.marks.at(-1);
  const peak = Math.max(last?.hwm ?? 0, ...run.peaks.values());
  console.log(
    `${label}: peak ${x(peak)} (added ${x(peak - base)}; before the open ${(base / 1e6).toFixed(0)} MB); token processes' peak ${x(run.tokenPeak)}; load ${run.load}`,
  );
  console.log("| phase | at | resident now (added) | highest since the phase before | this thread's heap |");
  console.log('|---|---|---|---|---|');
  for (const m of run.marks)
    console.log(
      `| ${m.phase} | ${(m.at / 1000).toFixed(1)} s | ${x(m.rss)} (${x(m.rss - base)}) | ${x(run.peaks.get(m.phase) ?? 0)} | ${(m.heap / 1e6).toFixed(0)} MB |`,
    );
}

export async function run(): Promise<void> {
  const mb = Number(process.env.MEMORY_BENCH_MB ?? 100);
  const file = join(process.cwd(), '.bench', `claude-code-${mb * 1_000_000}-${SEED}.jsonl`);
  if (!existsSync(file)) writeClaudeCodeSession(file, mb * 1_000_000, SEED);
  for (const w of ['sessionWorker.js', 'parseWorker.js', 'tokenWorker.js'])
    if (!existsSync(join(process.cwd(), 'dist', w)))
      throw new Error(`dist/${w} is missing: run \`npm run build\` first`);
  const bytes = statSync(file).size;
  const storage = mkdtempSync(join(tmpdir(), 'context-lens-memory-'));
  try {
    console.log(`generated ${mb} MB Claude Code session (${bytes} bytes); load average ${load()} at start`);
    report('first open', await probe(file, storage), bytes);
    report('reopened (counts and view kept)', await probe(file, storage), bytes);
  } finally {
    rmSync(storage, { recursive: true, force: true });
  }
}
