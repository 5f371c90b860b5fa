// Parse benchmark: a generated ~100 MB Claude Code session, parsed the way the editor and the CLI parse it,
// against the bare minimum (read the file, JSON.parse every line). Targets: within 2× of the bare minimum,
// peak memory under 4× the file size. Each measurement runs in its own child process so that peak RSS is
// that of one measurement alone.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { writeClaudeCodeSession } from './generate';

const TARGET_BYTES = 100 * 1024 * 1024;
const SEED = 20260121;
/** Best of several fresh processes: on a shared machine one run can lose seconds waiting for a CPU. */
const RUNS = 5;

interface Figures {
  ms: number;
  /** User + system CPU time: steadier than wall time on a shared machine (includes GC helper threads). */
  cpuMs: number;
  /** The process's peak resident set (the OS's own high-water mark), and its RSS before the measurement. */
  peakRssMB: number;
  baseRssMB: number;
  /** Heap + array buffers still held after a full GC: what the result itself costs. */
  retainedMB: number;
  detail: string;
}

type Kind = 'parse' | 'bare' | 'write';

/** Runs inside the child: one measurement, figures printed as JSON on the last line. */
async function measure(kind: Kind, file: string): Promise<Figures> {
  const gc = (globalThis as { gc?: () => void }).gc;
  const { parseTranscript, writeTranscript } = await import('../../src/core/formats/index');
  gc?.();
  const baseRss = process.memoryUsage().rss;
  let ms = 0;
  let cpu = { user: 0, system: 0 };
  let detail = '';
  let keep: unknown;
  const timed = <T>(f: () => T): T => {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const result = f();
    ms = performance.now() - t0;
    cpu = process.cpuUsage(cpu0);
    return result;
  };
  if (kind === 'bare') {
    detail = timed(() => {
      const text = readFileSync(file, 'utf8');
      let n = 0;
      let start = 0;
      while (start < text.length) {
        let end = text.indexOf('\n', start);
        if (end === -1) end = text.length;
        if (end > start) {
          JSON.parse(text.slice(start, end));
          n++;
        }
        start = end + 1;
      }
      return `${n} lines`;
    });
  } else if (kind === 'parse') {
    const t = timed(() => parseTranscript(new Uint8Array(readFileSync(file)), file));
    detail = `${t.messages.length} messages, ${t.markers.length} markers, ${t.sidechains.length} sidechains, ${t.diagnostics.length} diagnostics`;
    keep = t; // the transcript is what the editor holds: count it
  } else {
    const t = parseTranscript(new Uint8Array(readFileSync(file)), file);
    const rewrites = t.messages.flatMap((m) =>
      m.blocks.flatMap((b, blockIndex) =>
        b.type === 'tool_result' ? [{ messageIndex: m.index, blockIndex, content: '[result snipped]' }] : [],
      ),
    );
    gc?.();
    const out = timed(() => writeTranscript(t, rewrites, { dropToolUseResult: true }));
    detail = `every tool result rewritten (${rewrites.length}), toolUseResult dropped: ${(out.length / 1024 / 1024).toFixed(1)} MB written`;
    keep = [t, out];
  }
  const peakRss = process.resourceUsage().maxRSS * 1024;
  gc?.();
  const m = process.memoryUsage();
  const mb = (n: number) => Math.round((n / 1024 / 1024) * 10) / 10;
  (globalThis as { keep?: unknown }).keep = keep;
  return {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    peakRssMB: mb(peakRss),
    baseRssMB: mb(baseRss),
    retainedMB: mb(m.heapUsed + m.arrayBuffers),
    detail,
  };
}

function child(kind: Kind, file: string): Figures {
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', import.meta.filename, '--measure', kind, file],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    },
  );
  return JSON.parse(out.trim().split('\n').pop() as string) as Figures;
}

export async function run(): Promise<void> {
  const file = join(process.cwd(), '.bench', `claude-code-${TARGET_BYTES}-${SEED}.jsonl`);
  if (!existsSync(file)) {
    const t0 = performance.now();
    writeClaudeCodeSession(file, TARGET_BYTES, SEED);
    console.log(`generated ${file} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  const size = statSync(file).size;
  const sizeMB = size / 1024 / 1024;
  console.log(`file: ${sizeMB.toFixed(1)} MB (seed ${SEED})`);
  const best = (kind: Kind) => {
    const runs = Array.from({ length: RUNS }, () => child(kind, file));
    return runs.reduce((a, b) => (b.ms < a.ms ? b : a));
  };
  const row = (name: string, f: Figures) =>
    `${name.padEnd(30)} ${(f.ms / 1000).toFixed(2).padStart(6)} s ${(sizeMB / (f.ms / 1000)).toFixed(0).padStart(5)} MB/s  CPU ${(f.cpuMs / 1000).toFixed(2)} s  peak RSS ${f.peakRssMB} MB (${(f.peakRssMB / sizeMB).toFixed(2)}× file; ${((f.peakRssMB - f.baseRssMB) / sizeMB).toFixed(2)}× above the ${f.baseRssMB} MB of a started process)  retained ${f.retainedMB} MB  ${f.detail}`;
  const bare = best('bare');
  const parse = best('parse');
  const write = best('write');
  const load = loadavg().map((l) => l.toFixed(1));
  console.log(
    `best of ${RUNS} runs, each in a fresh process (${cpus().length} CPUs, load average ${load.join(' ')}):`,
  );
  console.log(row('bare minimum (read+JSON.parse)', bare));
  console.log(row('parseTranscript', parse));
  console.log(row('writeTranscript (export)', write));
  const ratio = parse.ms / bare.ms;
  const memory = parse.peakRssMB / sizeMB;
  console.log(
    `parse / bare minimum: ${ratio.toFixed(2)}× wall, ${(parse.cpuMs / bare.cpuMs).toFixed(2)}× CPU (target ≤ 2×: ${ratio <= 2 ? 'met' : 'NOT met'})`,
  );
  console.log(
    `parse peak memory: ${memory.toFixed(2)}× file size, whole process (target < 4×: ${memory < 4 ? 'met' : 'NOT met'})`,
  );
}

if (process.argv[2] === '--measure') {
  measure(process.argv[3] as Kind, process.argv[4]).then((figures) => console.log(JSON.stringify(figures)));
}
