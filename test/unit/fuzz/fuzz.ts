// `npm run fuzz`: the full fuzzing of the real logs (test/fixtures/real and, when present,
// ../shared/fixtures/real-long beside the repository, read where they are): every mutation of every log, at full size (long lines of
// 1, 50 and 200 MB, nesting to 100k, thousands of parallel calls). Prints one line per case and every problem;
// the inputs of failing cases are written to test-output/fuzz/ to be replayed. Exit code 1 when any case fails.
//   npm run fuzz -- [--seed N] [--per-log K] [--only mutation,…] [--logs substring] [--built]
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fuzzCases, realLogs } from './cases';
import { FULL_SIZES, MUTATIONS, type Mutation } from './mutate';
import { runCase } from './runCase';

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i === -1 ? undefined : process.argv[i + 1];
}

async function main(): Promise<number> {
  const seed = Number(option('--seed') ?? 20260113);
  const perLog = Number(option('--per-log') ?? 2);
  const only = option('--only')?.split(',') as Mutation[] | undefined;
  const logsFilter = option('--logs');
  // --built: run the commands as dist/cli.js (npm run build first) instead of in this process.
  const built = process.argv.includes('--built')
    ? join(import.meta.dirname, '..', '..', '..', 'dist', 'cli.js')
    : undefined;
  const logs = realLogs().filter((p) => !logsFilter || p.includes(logsFilter));
  const out = join(import.meta.dirname, '..', '..', '..', 'test-output', 'fuzz');
  console.log(`fuzz: seed ${seed}, ${logs.length} logs, ${perLog} case(s) per mutation and log`);
  let cases = 0;
  let failed = 0;
  let slowest = { name: '', secondsPerMB: 0 };
  for (const c of fuzzCases(logs, seed, FULL_SIZES, perLog, only ?? MUTATIONS)) {
    cases++;
    const r = await runCase(c, built);
    const mb = r.bytes / (1 << 20);
    const perMB = r.ms / 1000 / Math.max(mb, 1);
    if (perMB > slowest.secondsPerMB) slowest = { name: c.name, secondsPerMB: perMB };
    console.log(
      `${r.problems.length ? 'FAIL' : 'ok  '} ${c.name} ${mb.toFixed(2)} MB ${(r.ms / 1000).toFixed(1)} s, exit codes ${r.codes.join('/')}`,
    );
    if (r.problems.length) {
      failed++;
      for (const p of r.problems) console.log(`     ${p.replace(/\n/g, '\n     ')}`);
      mkdirSync(out, { recursive: true });
      writeFileSync(join(out, c.name.replace(/[/#@]/g, '_') + c.ext), c.bytes);
    }
  }
  console.log(
    `fuzz: ${cases} cases, ${failed} failed; slowest ${slowest.secondsPerMB.toFixed(2)} s per MB (${slowest.name})`,
  );
  return failed ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
