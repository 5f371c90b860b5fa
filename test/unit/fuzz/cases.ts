// The fuzz cases: every mutation of every real log, seeded. The unit test runs a small sample of them; `npm run
// fuzz` runs them all at full size.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import { REAL_LONG_DIR } from '../../sharedFixtures';
import { type FuzzCase, MUTATIONS, type Mutation, mutate, rng, type Sizes } from './mutate';

const ROOT = join(import.meta.dirname, '..', '..', '..');
/** The real logs in the repository, and the long ones kept outside it (read from there, never copied). */
export const REAL_DIRS = [join(ROOT, 'test', 'fixtures', 'real'), REAL_LONG_DIR];

export function realLogs(dirs = REAL_DIRS): string[] {
  const walk = (dir: string): string[] => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return [];
    }
    return names.sort().flatMap((name) => {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) return walk(p);
      return /\.(jsonl|json)$/.test(name) ? [p] : [];
    });
  };
  return dirs.flatMap(walk);
}

/** `perLog` cases of each mutation for each log, the seed derived from `seed`, the log and the mutation. */
export function* fuzzCases(
  logs: string[],
  seed: number,
  sizes: Sizes,
  perLog = 1,
  mutations: readonly Mutation[] = MUTATIONS,
): Generator<FuzzCase> {
  const r = rng(seed);
  for (const log of logs) {
    const source = readFileSync(log);
    const ext = extname(log);
    for (const kind of mutations)
      for (let k = 0; k < perLog; k++) {
        const caseSeed = Math.floor(r() * 2 ** 32);
        const bytes = mutate(source, ext, kind, caseSeed, sizes);
        if (bytes === undefined) continue;
        yield {
          name: `${relative(ROOT, log).replace(/^\.\.\/+/, '')}#${kind}@${caseSeed}`,
          kind,
          bytes,
          ext,
        };
      }
  }
}
