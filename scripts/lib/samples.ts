// The bundled sample transcripts that `npm start` opens: the real ones committed in samples/ (see
// samples/NOTICE.md) and a large Claude Code session generated on first start (not committed).
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './editor';

/** The sample Context Lens opens on start: a real Claude Code session with 13 tool calls. */
export const startSample = 'claude-code/drmaciver-coverage-test-fix.jsonl';
export const generatedSample = 'generated/claude-code-generated-40mb.jsonl';
/** About the size of the engine's benchmark transcript (10,000 messages). */
const generatedBytes = 40 * 1024 * 1024;
const generatedSeed = 1;
const generatorPath = join(repoRoot, 'test', 'bench', 'generate.ts');

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

/**
 * Writes the large generated sample when it is missing, with the project's deterministic generator.
 * Returns its path, or undefined (with the reason printed) when the generator is not in this checkout.
 */
export async function ensureGeneratedSample(samplesDir: string): Promise<string | undefined> {
  const target = join(samplesDir, generatedSample);
  if (existsSync(target) && statSync(target).size > 0) return target;
  if (!existsSync(generatorPath)) {
    console.log('(no generator at test/bench/generate.ts in this checkout: the large sample is left out)');
    return undefined;
  }
  const generator = (await import(pathToFileURL(generatorPath).href)) as {
    generateClaudeCodeSession(targetBytes: number, seed: number): string | Uint8Array;
  };
  console.log(`generating ${generatedSample} (${generatedBytes / 1024 / 1024} MB, seed ${generatedSeed})…`);
  const text = generator.generateClaudeCodeSession(generatedBytes, generatedSeed);
  mkdirSync(dirname(target), { recursive: true });
  // Atomic: a start interrupted while writing leaves no half file that a later start would take as done.
  writeFileSync(`${target}.tmp`, text);
  renameSync(`${target}.tmp`, target);
  return target;
}
