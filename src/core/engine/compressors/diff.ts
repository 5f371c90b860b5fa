// SPEC §4 unified-diff compressor: 2 context lines around changes, at most 10 hunks per file, 20 files. Hunks
// whose context is trimmed are split, with headers recomputed, so the result is still a well-formed diff.

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

function parse(text: string): { preamble: string[]; files: FileDiff[] } {
  const preamble: string[] = [];
  const files: FileDiff[] = [];
  let file: FileDiff | null = null;
  let hunk: Hunk | null = null;
  let oldLeft = 0;
  let newLeft = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // Inside a hunk its header's counts say how many lines belong to it (a removed "-- x" line is not a header).
    if (hunk && (oldLeft > 0 || newLeft > 0)) {
      hunk.lines.push(line);
      if (line.startsWith('+')) newLeft--;
      else if (line.startsWith('-')) oldLeft--;
      else if (!line.startsWith('\\')) {
        oldLeft--;
        newLeft--;
      }
      continue;
    }
    if (hunk && line.startsWith('\\')) {
      hunk.lines.push(line);
      continue;
    }
    hunk = null;
    const h = HUNK.exec(line);
    const gitHeaderWaiting =
      file !== null && file.hunks.length === 0 && !file.header.some((l) => l.startsWith('--- '));
    if (
      line.startsWith('diff --git ') ||
      (line.startsWith('--- ') && lines[i + 1]?.startsWith('+++ ') && !gitHeaderWaiting)
    ) {
      file = { header: [line], hunks: [] };
      files.push(file);
    } else if (h && file) {
      hunk = { oldStart: Number(h[1]), newStart: Number(h[3]), tail: h[5], lines: [] };
      oldLeft = h[2] === undefined ? 1 : Number(h[2]);
      newLeft = h[4] === undefined ? 1 : Number(h[4]);
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
    out.push(
      `@@ -${group.oldStart},${group.old} +${group.newStart},${group.new} @@${first ? h.tail : ''}`,
      ...group.lines,
    );
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

export function compressDiff(text: string, hash: string): string | null {
  const { preamble, files } = parse(text);
  const out: string[] = [...preamble];
  for (const file of files.slice(0, DIFF_MAX_FILES)) {
    out.push(...file.header);
    for (const hunk of file.hunks.slice(0, DIFF_MAX_HUNKS_PER_FILE)) out.push(...trimHunk(hunk));
  }
  const result = out.join('\n');
  if (result === text || out.length >= text.split('\n').length) return null;
  return `${result}\nRetrieve full diff: hash=${hash}`;
}
