// `npm run package`: builds context-lens-<version>.vsix with @vscode/vsce (after `npm run build`), then prints
// its size and every file in it. --no-dependencies: the bundles are self-contained, node_modules stays out;
// .vscodeignore keeps the package to the bundles, the tokenizer's WASM, media, README, LICENSE and CHANGELOG.
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tsImport } from 'tsx/esm/api';

const repoRoot = resolve(import.meta.dirname, '..');
const { name, version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const out = join(repoRoot, `${name}-${version}.vsix`);
const vsce = spawnSync(
  process.execPath,
  [
    join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce'),
    'package',
    '--no-dependencies',
    '--allow-missing-repository',
    '--out',
    out,
  ],
  { cwd: repoRoot, stdio: 'inherit' },
);
if (vsce.status !== 0) process.exit(vsce.status ?? 1);

const { listVsix } = await tsImport('./lib/vsix.ts', import.meta.url);
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`\n${out.slice(repoRoot.length + 1)}: ${kib(statSync(out).size)}`);
for (const entry of listVsix(out)) {
  console.log(`  ${entry.name.padEnd(40)} ${kib(entry.size).padStart(12)}`);
}
