// How a test runs the CLI as a process. scripts/run-tests.mjs builds the bundles once per run and names the CLI's
// in CONTEXT_LENS_TEST_CLI: a process of the bundle starts on a fraction of the CPU that one compiling the sources
// through tsx takes, and the CLI tests start many. A test file run alone (`node --test FILE`) runs the sources.
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

/** The arguments of `node` that start the CLI: `spawnSync(process.execPath, [...cliArgs, 'inspect', file])`. */
export const cliArgs: readonly string[] = process.env.CONTEXT_LENS_TEST_CLI
  ? [process.env.CONTEXT_LENS_TEST_CLI]
  : ['--import', 'tsx', join(ROOT, 'src', 'cli.ts')];
