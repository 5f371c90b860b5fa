// `npm run bench`: runs every test/bench/*.bench.ts in turn; each prints its own figures.
// Generated inputs go to .bench/ (not committed). Pass names to run a subset: npm run bench -- parse
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const only = process.argv.slice(2);
const dir = import.meta.dirname;
const benches = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();
// No top-level await: the package is CommonJS, so tsx compiles this file to CJS.
async function main(): Promise<void> {
  for (const file of benches) {
    console.log(`\n## ${file.replace('.bench.ts', '')}`);
    const mod = (await import(pathToFileURL(join(dir, file)).href)) as { run(): Promise<void> };
    await mod.run();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
