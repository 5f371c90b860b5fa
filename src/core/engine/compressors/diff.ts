// SPEC §4 unified-diff compressor: 2 context lines around changes, at most 10 hunks per file, 20 files. Hunks
// whose context is trimmed are split, with headers recomputed, so the result is still a well-formed diff. A hunk runs
// as its header counts say, or, when they fall short of its body, up to the next header: hunks are counted by their
// headers.

import { pushAll } from '../../arrays';
import { diffMarker } from '../ccr';

export const DIFF_CONTEXT_LINES = 2;
export const DIFF_MAX_HUNKS_PER_FILE = 10;
export const DIFF_MAX_FILES = 20;

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;

interface Hunk {
  oldStart: number;
  newStart: number;
  tail: string;
  lines: string[];
}
interface FileDiff {
  header: string[];
  hunks: Hunk[];
}

function isFilePair(lines: readonly string[], i: number): boolean {
  return lines[i].startsWith('--- ') && (lines[i + 1]?.startsWith('+++ ') ?? false);
}

/** A line that may sit in a hunk body: context (' ', or '' where a tool stripped the space), removed, added, or
 * "\ No newline at end of file"; never a header. */
function bodyLike(lines: readonly string[], i: number): boolean {
  const line = lines[i];
  if (line === '') return true;
  return /^[ +\-\\]/.test(line) && !isFilePair(lines, i);
}

/**
 * A hunk's header counts ran out at line i, yet body lines go on: hand-edited and generated diffs often say
 * `@@ -1 +1 @@` over a longer body. The hunk then runs, by its headers, up to the next hunk or file header or the end
 * of the text (trailing blank lines left out), and this returns where it stops. When the lines run into other text
 * instead (an e-mail signature `-- `, a summary line), the counts were right: it returns i.
 */
function overrun(lines: readonly string[], i: number): number {
  let j = i;
  while (j < lines.length && bodyLike(lines, j)) j++;
  const atHeader =
    j === lines.length || HUNK.test(lines[j]) || lines[j].startsWith('diff ') || isFilePair(lines, j);
  if (!atHeader) return i;
  while (j > i && lines[j - 1] === '') j--;
  return j;
}

function parse(text: string): { preamble: string[]; files: FileDiff[] } {
  const preamble: string[] = [];
  const files: FileDiff[] = [];
  let file: FileDiff | null = null;
  let hunk: Hunk | null = null;
  let oldLeft = 0;
  let newLeft = 0;
  let runEnd = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (hunk) {
      let inBody: boolean;
      // While its header's counts last, a line belongs to the hunk (a removed "-- x" reads "--- x", not a file
      // header); a hunk or file header always ends it, so counts larger than the body swallow nothing.
      if (oldLeft > 0 || newLeft > 0) inBody = !HUNK.test(line) && !line.startsWith('diff ');
      else if (line.startsWith('\\') || i < runEnd) inBody = true;
      else {
        runEnd = overrun(lines, i);
        inBody = i < runEnd;
      }
      if (inBody) {
        hunk.lines.push(line);
        if (line.startsWith('+')) newLeft--;
        else if (line.startsWith('-')) oldLeft--;
        else if (!line.startsWith('\\')) {
          oldLeft--;
          newLeft--;
        }
        continue;
      }
      hunk = null;
    }
    const h = HUNK.exec(line);
    const gitHeaderWaiting =
      file !== null && file.hunks.length === 0 && !file.header.some((l) => l.startsWith('--- '));
    if (line.startsWith('diff --git ') || (isFilePair(lines, i) && !gitHeaderWaiting)) {
      file = { header: [line], hunks: [] };
      files.push(file);
    } else if (h && file) {
      hunk = { oldStart: Number(h[1]), newStart: Number(h[3]), tail: h[5], lines: [] };
      oldLeft = h[2] === undefined ? 1 : Number(h[2]);
      newLeft = h[4] === undefined ? 1 : Number(h[4]);
      runEnd = 0;
      file.hunks.push(hunk);
    } else if (file && file.hunks.length === 0) file.header.push(line);
    else if (file) {
      // Text after a file's hunks: kept, as a segment of its own.
      file = { header: [line], hunks: [] };
      files.push(file);
    } else preamble.push(line);
  }
  return { preamble, files };
}

function trimHunk(h: Hunk): string[] {
  // Which lines to keep: every change, and context within DIFF_CONTEXT_LINES of one.
  const isChange = h.lines.map((l) => l.startsWith('+') || l.startsWith('-'));
  const keep = h.lines.map((_, i) => {
    for (
      let j = Math.max(0, i - DIFF_CONTEXT_LINES);
      j <= Math.min(h.lines.length - 1, i + DIFF_CONTEXT_LINES);
      j++
    )
      if (isChange[j]) return true;
    return false;
  });
  const out: string[] = [];
  let oldLine = h.oldStart;
  let newLine = h.newStart;
  let group: { oldStart: number; newStart: number; old: number; new: number; lines: string[] } | null = null;
  let first = true;
  const flush = () => {
    if (!group) return;
    out.push(`@@ -${group.oldStart},${group.old} +${group.newStart},${group.new} @@${first ? h.tail : ''}`);
    pushAll(out, group.lines);
    first = false;
    group = null;
  };
  h.lines.forEach((line, i) => {
    const isOld = !line.startsWith('+') && !line.startsWith('\\');
    const isNew = !line.startsWith('-') && !line.startsWith('\\');
    if (keep[i] || (line.startsWith('\\') && group)) {
      if (!group) group = { oldStart: oldLine, newStart: newLine, old: 0, new: 0, lines: [] };
      group.lines.push(line);
      if (isOld) group.old++;
      if (isNew) group.new++;
    } else flush();
    if (isOld) oldLine++;
    if (isNew) newLine++;
  });
  flush();
  return out;
}

/** `hash` null: `liveZone.ccr` is off, so the marker is the plain form that points at no store. */
export function compressDiff(text: string, hash: string | null): string | null {
  const { preamble, files } = parse(text);
  const out: string[] = [...preamble];
  for (const file of files.slice(0, DIFF_MAX_FILES)) {
    pushAll(out, file.header);
    for (const hunk of file.hunks.slice(0, DIFF_MAX_HUNKS_PER_FILE)) pushAll(out, trimHunk(hunk));
  }
  const result = out.join('\n');
  const total = text.split('\n').length;
  if (result === text || out.length >= total) return null;
  return `${result}\n${diffMarker(total, out.length, hash)}`;
}
