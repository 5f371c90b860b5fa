// The token cache on disk: `simulate` on each real long session (../shared/fixtures/real-long) with an empty cache,
// then again with the cache it left (what it tokenized the second time, from the command's own count), and with
// no cache at all; wall-clock medians of three runs of the built CLI, each in its own process.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { REAL_LONG_DIR } from '../sharedFixtures';

const CLI = resolve(import.meta.dirname, '../../dist/cli.js');

function sessions(): string[] {
  if (!existsSync(REAL_LONG_DIR)) return [];
  return readdirSync(REAL_LONG_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => readdirSync(join(REAL_LONG_DIR, e.name)).map((f) => join(REAL_LONG_DIR, e.name, f)))
    .filter((f) => f.endsWith('.jsonl'))
    .sort();
}

function simulate(file: string, cacheArgs: string[]): { ms: number; counting: string } {
  const t = performance.now();
  const out = execFileSync(process.execPath, [CLI, 'simulate', ...cacheArgs, file], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
  });
  const ms = performance.now() - t;
  const counting = out.trimEnd().split('\n').at(-1) ?? '';
  return { ms, counting: counting.replace(/ \(.*\)$/, '') };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export async function run(): Promise<void> {
  const files = sessions();
  if (files.length === 0) {
    console.log(`no real long sessions in ${REAL_LONG_DIR}: nothing to measure`);
    return;
  }
  console.log(`load average ${loadavg()[0].toFixed(2)} (figures move with the machine's load)`);
  console.log(
    'file | MB | first run (empty cache) | second run (median of 3) | no cache (median of 3) | cache file',
  );
  for (const file of files) {
    const dir = mkdtempSync(join(tmpdir(), 'context-lens-tokencache-'));
    try {
      const first = simulate(file, ['--token-cache', dir]);
      const warm = [1, 2, 3].map(() => simulate(file, ['--token-cache', dir]));
      const none = [1, 2, 3].map(() => simulate(file, ['--no-token-cache']));
      const store = readdirSync(dir).find((f) => f.endsWith('.counts'));
      const size = store ? statSync(join(dir, store)).size : 0;
      const mb = (statSync(file).size / 1e6).toFixed(1);
      console.log(
        `${file.split('/').pop()} | ${mb} | ${first.ms.toFixed(0)} ms, ${first.counting} | ` +
          `${median(warm.map((w) => w.ms)).toFixed(0)} ms, ${warm[0].counting} | ` +
          `${median(none.map((w) => w.ms)).toFixed(0)} ms | ${(size / 1024).toFixed(0)} KB`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}
