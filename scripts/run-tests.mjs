// Runs every test file under test/ (unit, property, component, browser, editor) with Node's test runner.
// Node 20 has no glob for --test, so the files are listed here. Pass folders or files to run a subset:
//   node scripts/run-tests.mjs test/unit
// With --lint (`npm test`), the lint runs beside the tests (`npm run lint`): the run fails if it does.
import { spawn, spawnSync } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { bundleTests } from './lib/testBundles.mjs';

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

const lint = process.argv.includes('--lint');
const roots = process.argv.slice(2).filter((a) => a !== '--lint');
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
// The scratch folders of the files that run without the editor (made in the temporary folder, not all removed)
// go with the run: that pass gets a temporary folder of its own, removed at the end. (Not the end-to-end pass: the
// editor's sockets live under its scratch folder, whose path must stay short.) tsx keeps its compile cache in
// the temporary folder: the run's points to the system's, so that a TypeScript process a test starts finds it.
const scratch = mkdtempSync(join(tmpdir(), 'context-lens-test-run-'));
// As the system's temporary folder is: tests run some processes as another user.
chmodSync(scratch, 0o1777);
const tsxCache = `tsx-${userInfo().uid}`;
mkdirSync(join(tmpdir(), tsxCache), { recursive: true });
symlinkSync(join(tmpdir(), tsxCache), join(scratch, tsxCache));
// The CLI keeps token counts in the user's cache folder by default: the tests keep theirs in a scratch folder.
const env = {
  ...process.env,
  CONTEXT_LENS_TOKEN_CACHE: process.env.CONTEXT_LENS_TOKEN_CACHE ?? join(scratch, 'tokens'),
  CONTEXT_LENS_TEST_CLI: join(repo, 'dist', 'cli.js'),
};
// The end-to-end files each drive a real editor and browser: they run one at a time, in one process
// (test/e2e/oneProcess.ts: starting the editor and the browser is a good part of a suite's set-up, and there the
// suites share one editor, each in a window of its own). That pass spends most of its time waiting on the editor,
// so it runs beside the other files (two at a time): no test times what the user waits for, and the two
// comparisons of timings within one run see the same load on both sides.
const inEditor = (file) => /(^|[\\/])e2e[\\/]/.test(file);
// Each pass ends within a bound far above its usual time: a file whose process never exits (a handle left open
// after a failure) fails the run with a message instead of holding it until the CI's limit. The end-to-end pass's
// output is kept in test-output/e2e-pass.log as it runs, and printed once the other pass has printed its own; the
// lint's in test-output/lint.log, printed if it failed.
// The other pass runs its files bundled (scripts/lib/testBundles.mjs); the end-to-end files from their sources.
const unitFiles = files.filter((f) => !inEditor(f));
const unitBundles = unitFiles.length
  ? await bundleTests(repo, unitFiles).catch((error) => {
      console.error(`the tests could not be bundled: no test ran\n${error.message}`);
      process.exit(1);
    })
  : undefined;
const passes = [
  {
    name: 'unit, component and browser',
    files: unitFiles,
    command: () => [
      process.execPath,
      ['--enable-source-maps', '--test', '--test-concurrency=2', ...unitBundles.bundles],
    ],
    minutes: 30,
    env: { TMPDIR: scratch },
  },
  {
    name: 'end-to-end',
    files: files.filter(inEditor),
    command: (files) => [
      process.execPath,
      ['--import', 'tsx', join('test', 'e2e', 'oneProcess.ts'), ...files],
    ],
    minutes: 30,
    log: join(repo, 'test-output', 'e2e-pass.log'),
  },
  ...(lint
    ? [
        {
          name: 'lint',
          files,
          command: () => ['npm', ['run', 'lint']],
          minutes: 10,
          log: join(repo, 'test-output', 'lint.log'),
          quiet: true,
        },
      ]
    : []),
].filter((pass) => pass.files.length > 0);

function run(pass) {
  const start = Date.now();
  return new Promise((done) => {
    const [command, args] = pass.command(pass.files);
    const child = spawn(command, args, {
      stdio: ['ignore', pass.log ? 'pipe' : 'inherit', pass.log ? 'pipe' : 'inherit'],
      env: { ...env, ...pass.env },
    });
    const chunks = [];
    if (pass.log) {
      mkdirSync(dirname(pass.log), { recursive: true });
      writeFileSync(pass.log, '');
      const keep = (chunk) => {
        chunks.push(chunk);
        appendFileSync(pass.log, chunk);
      };
      child.stdout.on('data', keep);
      child.stderr.on('data', keep);
    }
    let timedOut = false;
    const bound = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, pass.minutes * 60_000);
    const end = (code) => {
      clearTimeout(bound);
      done({
        pass,
        ok: code === 0 && !timedOut,
        timedOut,
        output: Buffer.concat(chunks),
        ms: Date.now() - start,
      });
    };
    // Once stopped, its own processes may still hold the output open: the pass ends when it exits.
    child.on('exit', (code) => timedOut && end(code));
    child.on('close', end);
  });
}

const results = await Promise.all(passes.map(run));
if (unitBundles) rmSync(unitBundles.folder, { recursive: true, force: true });
// (A link is removed, not followed: tsx's cache stays.)
rmSync(scratch, { recursive: true, force: true });
let failed = false;
for (const { pass, ok, timedOut, output, ms } of results) {
  if (pass.log && !(pass.quiet && ok)) process.stdout.write(output);
  if (timedOut) console.error(`the ${pass.name} tests did not end within ${pass.minutes} minutes: stopped`);
  if (!ok) failed = true;
  console.log(`# ${pass.name}: ${ok ? 'passed' : 'FAILED'} in ${(ms / 60_000).toFixed(1)} min`);
}
process.exit(failed ? 1 : 0);
