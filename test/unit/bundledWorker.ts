// A worker thread's bundle built as esbuild.mjs builds it, its tokenizer WASM next to it, in a scratch folder:
// the tests run the real thread without building the whole extension.
import { copyFileSync, mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as esbuild from 'esbuild';

// One build per bundle and test process: the sources do not change while a test file runs, and each test that
// starts a worker asks for its bundle again.
const built = new Map<string, Promise<string>>();

/** The path of `<name>.js`, bundled from `entry` (a path from the repository's root). */
export function bundledWorker(name: string, entry: string): Promise<string> {
  const key = `${name}\0${entry}`;
  let path = built.get(key);
  if (!path) {
    path = build(name, entry);
    built.set(key, path);
    // A failed build is not kept: the next test asks again and sees its own error.
    path.catch(() => built.delete(key));
  }
  return path;
}

async function build(name: string, entry: string): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `context-lens-${name}-`));
  await esbuild.build({
    entryPoints: { [name]: entry },
    outdir: dir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
    logLevel: 'silent',
  });
  // tiktoken looks for its WASM next to the bundle.
  const wasm = join(dirname(createRequire(import.meta.url).resolve('tiktoken')), 'tiktoken_bg.wasm');
  copyFileSync(wasm, join(dir, 'tiktoken_bg.wasm'));
  return join(dir, `${name}.js`);
}
