// Builds the bundles of Context Lens: the extension host, the webview, the CLI.
// `node esbuild.mjs` builds once (minified); `node esbuild.mjs --watch` rebuilds on change with source maps.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as esbuild from 'esbuild';

const watch = process.argv.includes('--watch');
const require = createRequire(import.meta.url);

const common = {
  bundle: true,
  minify: !watch && !process.env.KEEP_NAMES,
  sourcemap: watch ? 'inline' : false,
  logLevel: 'info',
  legalComments: 'none',
};

// The price table is half a megabyte of code: a file of its own (dist/prices.js), which a bundle reads when it first
// prices a model (src/core/engine/prices.ts) rather than compiling it as it starts (the extension host's activation
// among them).
const PRICES = '@pydantic/genai-prices';
/** @type {import('esbuild').Plugin} */
const pricesApart = {
  name: 'prices-apart',
  setup(build) {
    build.onResolve({ filter: /^@pydantic\/genai-prices$/ }, () => ({ path: './prices.js', external: true }));
  },
};

/** @type {import('esbuild').BuildOptions[]} */
const bundles = [
  {
    ...common,
    // tokenWorker: the token-counting worker process the host forks (src/node/tokenPool.ts); parseWorker: the
    // thread that parses a large transcript (src/host/parseOffThread.ts); sessionWorker: the thread of one open
    // transcript's session (src/host/remoteSession.ts); sessionsWorker: the Sessions view's threads
    // (src/host/sessionsView.ts); storeWorker: the copy of an agent's own store (src/host/storeMirror.ts).
    entryPoints: {
      extension: 'src/host/extension.ts',
      tokenWorker: 'src/node/tokenWorker.ts',
      parseWorker: 'src/host/parseWorker.ts',
      sessionWorker: 'src/host/sessionWorker.ts',
      sessionsWorker: 'src/host/sessionsWorker.ts',
      storeWorker: 'src/host/storeWorker.ts',
    },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    // Without a target esbuild may emit APIs that Node 20 lacks (Uint8Array.fromBase64).
    target: 'node20',
    // jsonc-parser's `main` is a UMD build that requires its parts at run time; its `module` build bundles.
    mainFields: ['module', 'main'],
    external: ['vscode'],
    plugins: [pricesApart],
  },
  {
    ...common,
    entryPoints: { prices: PRICES },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    ...common,
    entryPoints: { cli: 'src/cli.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
    banner: { js: '#!/usr/bin/env node' },
    plugins: [pricesApart],
  },
  {
    ...common,
    entryPoints: { webview: 'webview/main.tsx' },
    outdir: 'dist',
    platform: 'browser',
    format: 'iife',
    target: 'chrome120',
    jsx: 'automatic',
  },
];

// tiktoken looks for its WASM next to the file that loads it: next to the bundle once packaged.
function copyTokenizerWasm() {
  mkdirSync('dist', { recursive: true });
  const wasm = join(dirname(require.resolve('tiktoken')), 'tiktoken_bg.wasm');
  copyFileSync(wasm, 'dist/tiktoken_bg.wasm');
}

copyTokenizerWasm();
if (watch) {
  const contexts = await Promise.all(bundles.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(bundles.map((b) => esbuild.build(b)));
}
