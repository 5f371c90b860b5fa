// The bundled sample transcripts that `npm start` opens: the real ones committed in samples/ (see
// samples/NOTICE.md) and two Claude Code sessions generated on first start (not committed): the one Context Lens
// opens on (test/bench/showcase/) and a large one, by the generator the benchmarks use (test/bench/generate.ts).
import { existsSync, readFileSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeClaudeCodeSession } from '../../test/bench/generate';
import { writeShowcaseSession } from '../../test/bench/showcase/session';
import { repoRoot } from './editor';

/**
 * The sample Context Lens opens on start: a generated Claude Code session (2.7 MB, 191 requests, two compactions
 * near the window) that holds what the product shows: Tier 3 and first-touch Tier 2 results, a wide parallel
 * batch, Playwright snapshots and screenshots, an output for every live-zone compressor, and usage that the replay
 * matches. It sits in a folder named as Claude Code names a project's (`-home-dev-storefront`), so that the view
 * titles it "storefront · <first prompt>". The version in its name changes with the generator's output, so that a
 * sample written by an earlier generator is not reused.
 */
export const startSample = 'generated/-home-dev-storefront/storefront-session-v1.jsonl';
const startSeed = 1;
/** A long session that stays within the model's window: it compacts as Claude Code does, and its recorded usage
 * is what the provider would record (the replay matches it), so the view raises no implausible-number flag. The
 * name changed with that: a sample written by the earlier generator (random usage, 4M-token contexts) is not
 * reused. */
export const generatedSample = 'generated/claude-code-generated-40mb-v2.jsonl';
const generatedOptions = { realistic: { hiddenTokens: 14_000, compactAtTokens: 120_000 } };
/** About the size of the engine's benchmark transcript (10,000 messages). */
const generatedBytes = 40 * 1024 * 1024;
const generatedSeed = 1;

interface CustomEditorContribution {
  viewType: string;
  displayName?: string;
  selector?: { filenamePattern: string }[];
}

/** The extension's custom editor, as its manifest declares it. */
export function customEditor(): CustomEditorContribution | undefined {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    contributes?: { customEditors?: CustomEditorContribution[] };
  };
  return manifest.contributes?.customEditors?.[0];
}

/**
 * User settings for `npm start`: the transcripts of the samples folder open in Context Lens directly (the
 * custom editor's priority is `option`, so elsewhere the text editor stays the default).
 */
export function startSettings(): Record<string, unknown> {
  const editor = customEditor();
  if (!editor) return {};
  return {
    'workbench.editorAssociations': {
      '**/samples/**/*.jsonl': editor.viewType,
      '**/samples/**/*.request.json': editor.viewType,
    },
  };
}

/** Writes `name` under samplesDir with `write` when it is missing. Written aside, then renamed: a start interrupted
 * while writing leaves no half file taken as done. The pid keeps two starts at once (two test runs in one tree)
 * from writing the same temporary file. */
function ensure(samplesDir: string, name: string, what: string, write: (path: string) => void): string {
  const target = join(samplesDir, name);
  if (existsSync(target) && statSync(target).size > 0) return target;
  console.log(`generating samples/${name} (${what}), once…`);
  const temporary = `${target}.${process.pid}.tmp`;
  write(temporary);
  renameSync(temporary, target);
  return target;
}

/** Writes the large generated sample when it is missing, with the project's deterministic generator. */
export function ensureGeneratedSample(samplesDir: string): string {
  return ensure(
    samplesDir,
    generatedSample,
    `about ${generatedBytes >> 20} MB, seed ${generatedSeed}`,
    (path) => writeClaudeCodeSession(path, generatedBytes, generatedSeed, generatedOptions),
  );
}

/** Writes the sample Context Lens opens on start when it is missing (about a second). */
export function ensureStartSample(samplesDir: string): string {
  return ensure(samplesDir, startSample, `seed ${startSeed}`, (path) =>
    writeShowcaseSession(path, startSeed),
  );
}
