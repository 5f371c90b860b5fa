// `npm run package`: builds context-lens-<version>.vsix with @vscode/vsce (after `npm run build`), then prints
// its size and every file in it. --no-dependencies: the bundles are self-contained, node_modules stays out;
// .vscodeignore keeps the package to the bundles, the tokenizer's WASM, media, README, LICENSE and CHANGELOG.
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tsImport } from 'tsx/esm/api';

const repoRoot = resolve(import.meta.dirname, '..');
const { name, version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const out = join(repoRoot, `${name}-${version}.vsix`);
const { listVsix, packageVsix } = await tsImport('./lib/vsix.ts', import.meta.url);
try {
  packageVsix(out);
} catch (error) {
  console.error(error.message);
  process.exit(1);
}
const kib = (n) => `${(n / 1024).toFixed(1)} KiB`;
console.log(`\n${out.slice(repoRoot.length + 1)}: ${kib(statSync(out).size)}`);
for (const entry of listVsix(out)) {
  console.log(`  ${entry.name.padEnd(40)} ${kib(entry.size).padStart(12)}`);
}
