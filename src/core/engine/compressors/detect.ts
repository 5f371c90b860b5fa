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

export function detectType(text: string): ContentType {
  if (parseJsonArray(text)) return 'json-array';
  if (isUnifiedDiff(text)) return 'diff';
  if (HTML_START.test(text) || (text.match(HTML_TAGS)?.length ?? 0) >= 5) return 'html';
  const lines = nonEmptyLines(text);
  if (lines.length === 0) return 'text';
  const searchLines = lines.filter((l) => searchLinePath(l) !== null).length;
  if (searchLines >= 3 && searchLines >= lines.length * 0.5) return 'search';
  const signal = lines.filter((l) => ERROR_LINE.test(l) || WARNING_LINE.test(l) || STACK_LINE.test(l)).length;
  const prefixed = lines.filter((l) => LOG_PREFIX.test(l)).length;
  if (prefixed >= lines.length * 0.3 || (signal > 0 && lines.length >= 10)) return 'log';
  if (lines.length >= 3) {
    for (const sep of ['\t', '|', ',']) {
      const counts = lines.map((l) => l.split(sep).length - 1);
      const first = counts[0];
      if (first >= 1 && counts.filter((c) => c === first).length >= lines.length * 0.8) return 'tabular';
    }
  }
  const code = lines.filter((l) => CODE_LINE.test(l)).length;
  if (code >= Math.max(2, lines.length * 0.2)) return 'code';
  return 'text';
}
