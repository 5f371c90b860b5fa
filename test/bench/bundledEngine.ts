// The engine as the extension bundles it (esbuild, minified), for the benchmarks: under tsx every function
// creation also pays for a name-keeping helper, which is not what users run. Built into .bench/ (not committed).
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import * as esbuild from 'esbuild';
import type { analyze, analyzeSync } from '../../src/core/analysis';
import type { TokenCounter } from '../../src/core/tokens/counter';

export interface BundledEngine {
  analyze: typeof analyze;
  analyzeSync: typeof analyzeSync;
  TokenCounter: typeof TokenCounter;
}

export async function bundledEngine(): Promise<BundledEngine> {
  mkdirSync('.bench', { recursive: true });
  const outfile = resolve('.bench/analysis.cjs');
  await esbuild.build({
    stdin: {
      contents: `export { analyze, analyzeSync } from './src/core/analysis';
export { TokenCounter } from './src/core/tokens/counter';`,
      resolveDir: resolve('.'),
      loader: 'ts',
    },
    outfile,
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
    // tiktoken stays the package's own (it finds its WASM beside itself), as the raw-encode figure uses it.
    external: ['tiktoken'],
    logLevel: 'silent',
  });
  return createRequire(import.meta.url)(outfile) as BundledEngine;
}
