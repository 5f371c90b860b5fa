// Runs every test file under test/ (unit, property, component, browser, editor) with Node's test runner.
// Node 20 has no glob for --test, so the files are listed here. Pass folders or files to run a subset:
//   node scripts/run-tests.mjs test/unit
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function testFiles(dir) {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (name === 'node_modules' || name === 'fixtures') return [];
      if (statSync(path).isDirectory()) return testFiles(path);
      return /\.test\.tsx?$/.test(name) ? [path] : [];
    });
}

const roots = process.argv.slice(2);
const files = (roots.length ? roots : ['test']).flatMap((root) =>
  statSync(root).isDirectory() ? testFiles(root) : [root],
);
if (files.length === 0) {
  console.error('no test files found');
  process.exit(1);
}
// The bundles of what is in the tree now: the end-to-end tests load the extension's, and the tests that start the
// CLI as a process start its bundle (test/unit/cliProcess.ts), which starts on a fraction of the CPU that the
// sources compiled through tsx take.
const repo = join(import.meta.dirname, '..');
const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: repo, encoding: 'utf8' });
if (build.status !== 0) {
  console.error(`the build failed: no test ran\n${build.stderr}`);
  process.exit(1);
}
// The CLI keeps token counts in the user's cache folder by default: the tests keep theirs in a scratch folder.
const env = {
  ...process.env,
  CONTEXT_LENS_TOKEN_CACHE:
    process.env.CONTEXT_LENS_TOKEN_CACHE ?? mkdtempSync(join(tmpdir(), 'context-lens-test-tokens-')),
  CONTEXT_LENS_TEST_CLI: join(repo, 'dist', 'cli.js'),
};
// The end-to-end files each drive a real editor and browser and some of them time what the user waits for: on two
// cores, two of them side by side (or one beside CPU-bound unit tests) made those figures the machine's, not the
// product's. The other files run two at a time first; the end-to-end files then run one at a time.
const inEditor = (file) => /(^|[\\/])e2e[\\/]/.test(file);
// Each pass ends within a bound far above its usual time (2–4 min here): a file whose process never exits (a
// handle left open after a failure) fails the run with a message instead of holding it until the CI's limit.
// The end-to-end files run in one process (test/e2e/oneProcess.ts): starting the editor and the browser is a good
// part of a suite's set-up, and there the suites share one editor, each in a window of its own.
const passes = [
  {
    name: 'unit, component and browser',
    files: files.filter((f) => !inEditor(f)),
    args: (files) => ['--test', '--test-concurrency=2', ...files],
    minutes: 20,
  },
  {
    name: 'end-to-end',
    files: files.filter(inEditor),
    args: (files) => [join('test', 'e2e', 'oneProcess.ts'), ...files],
    minutes: 30,
  },
].filter((pass) => pass.files.length > 0);
let failed = false;
for (const pass of passes) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', ...pass.args(pass.files)], {
    stdio: 'inherit',
    env,
    timeout: pass.minutes * 60_000,
    killSignal: 'SIGKILL',
  });
  if (run.error?.code === 'ETIMEDOUT')
    console.error(`the ${pass.name} tests did not end within ${pass.minutes} minutes: stopped`);
  if (run.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
