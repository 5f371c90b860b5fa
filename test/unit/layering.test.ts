// No source file over 400 lines: past that a file holds more than one job and is read by scrolling. The files over
// the bound today are listed with what splits them; the list may only shrink, so a file split below the bound (or
// gone) fails here until it leaves the list, and a new file over the bound fails until it is split.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const MAX_LINES = 400;
const ROOTS = ['src', 'webview'];

/** Files allowed over the bound, each with its reason: none today, and a new entry needs one. */
const OVERSIZE: Record<string, string> = {};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return sourceFiles(path);
      return /\.(ts|tsx|mts|cts|js|mjs|cjs)$/.test(name) ? [path.split('\\').join('/')] : [];
    });
}

const lineCount = (path: string) => readFileSync(path, 'utf8').split('\n').length - 1;

test(`no source file in ${ROOTS.join(' or ')} is over ${MAX_LINES} lines, but for the listed ones`, () => {
  const over = ROOTS.flatMap(sourceFiles)
    .filter((file) => !(file in OVERSIZE))
    .map((file) => ({ file, lines: lineCount(file) }))
    .filter(({ lines }) => lines > MAX_LINES)
    .map(({ file, lines }) => `${file}: ${lines} lines`);
  assert.deepEqual(over, [], 'split these files (or, for a reason, add them to OVERSIZE)');
});

test('every file listed as over the bound still is: the list only shrinks', () => {
  const stale = Object.keys(OVERSIZE).flatMap((file) => {
    let lines: number;
    try {
      lines = lineCount(file);
    } catch {
      return [`${file}: no longer exists`];
    }
    return lines > MAX_LINES ? [] : [`${file}: ${lines} lines, under the bound`];
  });
  assert.deepEqual(stale, [], 'take these files off OVERSIZE');
});
