// SPEC §4 type detection, in the SPEC's order: JSON array → unified diff → HTML → search results → build/log
// output → tabular → source code → plain text. Heuristics on lines; the first that holds wins.
import type { LIVE_TYPES } from '../../analysisTypes';

export type ContentType = (typeof LIVE_TYPES)[number];

/** A grep/ripgrep match line, `path:line:text`. The path holds no whitespace (a Windows drive letter may lead it),
 * so a sentence like `notes for sprint 14:3: …` is not one. */
const SEARCH_LINE = /^((?:[A-Za-z]:)?[^:\s]+):(\d+):/;
/** A line led by a clock time (`2026-05-02T19:30:00.000Z`, `19:30:00`): its `2026-05-02T19:30:` reads as
 * `path:line:`, but the line is a log line. */
const TIMESTAMP_START = /^\[?(\d{4}-\d\d-\d\d[T ])?\d{1,2}:\d\d:\d\d/;
const HTML_START = /^\s*(<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i;
const HTML_TAGS = /<\/?(div|span|p|a|table|tr|td|ul|li|script|style|meta|link)[\s>/]/gi;
export const ERROR_LINE = /\b(error|errors|fatal|failed|failure|exception|panic)\b|ERR!/i;
export const WARNING_LINE = /\bwarn(ing)?s?\b/i;
export const STACK_LINE = /^\s+at\s+\S|^Traceback \(most recent call last\)|^\s+File ".+", line \d+/;
const LOG_PREFIX = /^\s*(\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d|\[?(TRACE|DEBUG|INFO|WARN|WARNING|ERROR|FATAL)\b)/;
/** The line-number gutter of a file read (`cat -n`'s tab, Claude Code's `→`): what follows it is the file's own line. */
const GUTTER = /^\s*-?\d+(\t|\u2192)/;
/** Lines a person wrote for people: markdown structure (headings, lists, quotes, fences, front matter, tables), or a
 * sentence of five words or more ending in punctuation, or a run of CJK text. A mention of "error" in such a line
 * does not make the text a log: summaries, plans and notes discuss errors. */
const PROSE_STRUCTURE = /^\s*(#{1,6}\s|[-*+]\s+\S|\d+[.)]\s+\S|>\s|---\s*$|```|\|.*\|\s*$)/;
const SENTENCE = /^\s*\S+(\s+\S+){4,}[^.\s][.!?:;。！？]\s*$/;
const CJK_RUN = /[\u3000-\u9fff\uac00-\ud7af]{8,}/;
const CODE_LINE =
  /^\s*(import\s|export\s|from\s\S+\simport|def\s|class\s|function\s|const\s|let\s|var\s|return\b|if\s*\(|for\s*\(|while\s*\(|#include|package\s|public\s|private\s|fn\s|func\s|[}{]\s*$|\/\/|#\s)/;

/** The file a search-result line names, or null when the line is not `path:line:text`. */
export function searchLinePath(line: string): string | null {
  const m = SEARCH_LINE.exec(line);
  return m && !TIMESTAMP_START.test(line) ? m[1] : null;
}

function nonEmptyLines(text: string): string[] {
  return text.split('\n').filter((l) => l.trim().length > 0);
}

/** Most lines carry a gutter of consecutive line numbers: the text is a file the agent read (a table whose first
 * column is a number is not). */
function isFileRead(lines: string[]): boolean {
  const numbers = lines.flatMap((l) => {
    const m = GUTTER.exec(l);
    return m ? [Number.parseInt(m[0], 10)] : [];
  });
  if (numbers.length < 2 || numbers.length < lines.length * 0.5) return false;
  let consecutive = 0;
  for (let i = 1; i < numbers.length; i++) if (numbers[i] === numbers[i - 1] + 1) consecutive++;
  return consecutive >= (numbers.length - 1) * 0.8;
}

function isSignal(line: string): boolean {
  return ERROR_LINE.test(line) || WARNING_LINE.test(line) || STACK_LINE.test(line);
}

/** What SENTENCE needs at the line's end (a mark after a character that is neither a dot nor a space), checked
 * first: the pattern's backtracking over a long line that cannot match is most of detection's time. */
const SENTENCE_END = /[^.\s][.!?:;。！？]\s*$/;

function isProse(line: string): boolean {
  return (
    PROSE_STRUCTURE.test(line) ||
    CJK_RUN.test(line) ||
    (SENTENCE_END.test(line) && SENTENCE.test(line) && !isSignal(line) && !LOG_PREFIX.test(line))
  );
}

/** Whether at least `needed` of `lines` satisfy `holds`: stops as soon as that is settled either way. */
function atLeast(lines: readonly string[], needed: number, holds: (line: string) => boolean): boolean {
  let yes = 0;
  for (let i = 0; i < lines.length; i++) {
    if (yes >= needed) return true;
    if (yes + (lines.length - i) < needed) return false;
    if (holds(lines[i])) yes++;
  }
  return yes >= needed;
}

export function parseJsonArray(text: string): unknown[] | null {
  if (!text.trimStart().startsWith('[')) return null;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

export function isUnifiedDiff(text: string): boolean {
  return (
    /^(diff --git |--- \S)/m.test(text) &&
    /^\+\+\+ \S/m.test(text) &&
    /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m.test(text)
  );
}

/** How many times `sep` occurs in `line`. */
function separators(line: string, sep: string): number {
  let n = 0;
  for (let i = line.indexOf(sep); i !== -1; i = line.indexOf(sep, i + 1)) n++;
  return n;
}

export function detectType(text: string): ContentType {
  if (parseJsonArray(text)) return 'json-array';
  if (isUnifiedDiff(text)) return 'diff';
  if (HTML_START.test(text) || (text.match(HTML_TAGS)?.length ?? 0) >= 5) return 'html';
  const numbered = nonEmptyLines(text);
  if (numbered.length === 0) return 'text';
  // A file read is judged by the file's own lines, without the gutter.
  const fileRead = isFileRead(numbered);
  const lines = fileRead ? numbered.map((l) => l.replace(GUTTER, '')) : numbered;
  const isSearchLine = (l: string) => searchLinePath(l) !== null;
  if (atLeast(lines, Math.max(3, lines.length * 0.5), isSearchLine)) return 'search';
  // Build/log output only when most lines have the shape of log lines: led by a time or a level, or a command's
  // output with error or warning lines in it, which neither prose nor source code is. A file read is a log only by
  // its lines' prefixes: the word "error" in a source file or a note is the file's content, which the agent needs.
  if (atLeast(lines, lines.length * 0.3, (l) => LOG_PREFIX.test(l))) return 'log';
  if (!fileRead && lines.length >= 10 && lines.some(isSignal)) {
    if (!atLeast(lines, lines.length * 0.3, (l) => isProse(l) || CODE_LINE.test(l))) return 'log';
  }
  if (lines.length >= 3) {
    for (const sep of ['\t', '|', ',']) {
      const first = separators(lines[0], sep);
      if (first >= 1 && atLeast(lines, lines.length * 0.8, (l) => separators(l, sep) === first))
        return 'tabular';
    }
  }
  if (atLeast(lines, Math.max(2, lines.length * 0.2), (l) => CODE_LINE.test(l))) return 'code';
  return 'text';
}
