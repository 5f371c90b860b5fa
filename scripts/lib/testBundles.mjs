// The test files that run without the editor, each bundled with the sources it imports (packages left to Node's
// own resolution) into a scratch folder under test-output/: Node then starts each file as plain JavaScript, where
// compiling TypeScript through a loader on the way costs about half a second of CPU a file, 150 files a run.
// A file run alone (`node --import tsx --test FILE`) still runs from its source.
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

/** Each source keeps its own location: `import.meta.dirname`, `import.meta.url`, `__dirname` and `__filename` in a
 * bundle would otherwise name the bundle's folder, not the file's (tests find their fixtures that way). */
const ownLocation = {
  name: 'own-location',
  setup(build) {
    build.onLoad({ filter: /\.tsx?$/ }, (args) => {
      if (args.path.includes('/node_modules/')) return undefined;
      const folder = JSON.stringify(dirname(args.path));
      const contents = readFileSync(args.path, 'utf8')
        .replace(/\bimport\.meta\.dirname\b/g, folder)
        .replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(args.path).href))
        .replace(/\b__dirname\b/g, folder)
        .replace(/\b__filename\b/g, JSON.stringify(args.path));
      return { contents, loader: args.path.endsWith('.tsx') ? 'tsx' : 'ts' };
    });
  },
};

/** Bundles `files` (paths from `repo`) into a new folder under test-output/; resolves with the folder and each
 * bundle's path, in the order of `files`. */
export async function bundleTests(repo, files) {
  const parent = join(repo, 'test-output');
  mkdirSync(parent, { recursive: true });
  // A folder of this run's own (two runs in one tree must not overwrite each other's bundles); inside the
  // repository, so that the bundles find its node_modules.
  const folder = mkdtempSync(join(parent, 'test-bundles-'));
  const names = files.map((file) => relative(repo, join(repo, file)).replace(/\.tsx?$/, ''));
  await esbuild.build({
    entryPoints: files.map((file, i) => ({ in: join(repo, file), out: names[i] })),
    outdir: folder,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    // A failure's stack names the test's own lines (`node --enable-source-maps`).
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    plugins: [ownLocation],
  });
  return { folder, bundles: names.map((name) => join(folder, `${name}.cjs`)) };
}
