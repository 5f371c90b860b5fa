// SPEC §6 summarizers. A summarizer turns one long Tier-2 tool result into a sentence or two; `none` means "no
// model client", where every Tier-2 block falls back to head-and-tail exactly as the reference runtime does.
import { sha256Hex } from './hash';

/** SPEC §6: `(toolName, content, signal) => Promise<string>`. A rejection (or an empty string) is a failure. */
export type SummarizeFn = (toolName: string, content: string, signal: AbortSignal) => Promise<string>;

export interface Summarizer {
  /** `extractive`, or e.g. `vscode-lm:<model id>`: part of the summary cache key (SPEC §6). */
  readonly id: string;
  readonly summarize: SummarizeFn;
  /** Offline summarizers also answer synchronously, so that the CLI and tests can analyse without awaiting. */
  readonly summarizeSync?: (toolName: string, content: string) => string;
}

export type SummarizerName = 'none' | 'extractive';

/** SPEC §2: the instruction sent with every summary request, followed by the tool name and the content. */
export const SUMMARY_INSTRUCTION =
  'Summarize this tool result in 1-2 sentences. Preserve exact error strings, file paths, URLs, IDs, and numbers when present. Focus on the final outcome or conclusion.';
export const SUMMARY_TEMPERATURE = 0;
export const SUMMARY_MAX_OUTPUT_TOKENS = 200;

/** The whole prompt of a summary request (what a model-backed summarizer sends). */
export function summaryPrompt(toolName: string, content: string): string {
  return `${SUMMARY_INSTRUCTION}\n\nTool: ${toolName}\nResult:\n${content}`;
}

// ---- extractive ------------------------------------------------------------------------------------------------

const ERROR_WORDS =
  /\b(error|errors|failed|failure|fatal|exception|panic|traceback|denied|not found|cannot|invalid|timeout|refused)\b/i;
const PATH = /(?:^|[\s"'(=])(?:\.{0,2}\/|~\/|[A-Za-z]:\\)[^\s"')]+|\b[\w.-]+\/[\w./-]+\.\w+\b/;
const URL = /\bhttps?:\/\/\S+/;
const ID = /\b[0-9a-f]{7,40}\b|\b[A-Za-z]+[_-][A-Za-z0-9_-]*\d[A-Za-z0-9_-]*\b/;
const NUMBER = /\d/;

function score(line: string): number {
  let s = 0;
  if (ERROR_WORDS.test(line)) s += 8;
  if (URL.test(line)) s += 4;
  if (PATH.test(line)) s += 4;
  if (ID.test(line)) s += 2;
  if (NUMBER.test(line)) s += 1;
  return s;
}

/**
 * Offline and deterministic (SPEC §6): keeps the lines (or sentences of a one-line text) that hold error strings,
 * paths, URLs, ids and numbers, best first but shown in their original order, up to `maxChars` code points.
 */
export function extractiveSummary(content: string, maxChars: number): string {
  let units = content
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  if (units.length <= 2)
    units = content
      .split(/(?<=[.!?])\s+/)
      .map((s) => s.trim())
      .filter(Boolean);
  const ranked = units
    .map((text, index) => ({ text, index, score: score(text) }))
    .filter((u) => u.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index);
  const chosen: { text: string; index: number }[] = [];
  let used = 0;
  for (const u of ranked) {
    const len = Array.from(u.text).length + (chosen.length > 0 ? 1 : 0);
    if (used + len > maxChars) continue;
    chosen.push(u);
    used += len;
  }
  chosen.sort((a, b) => a.index - b.index);
  return chosen.map((u) => u.text).join('\n');
}

/** The `extractive` summarizer, bounded by `tiered.maxResultChars`. An empty extract counts as a failure. */
export function extractiveSummarizer(maxChars: number): Summarizer {
  const summarizeSync = (_tool: string, content: string): string => {
    const summary = extractiveSummary(content, maxChars);
    if (summary.length === 0)
      throw new Error('nothing to extract: no line holds an error, path, URL, id or number');
    return summary;
  };
  return {
    id: `extractive:${maxChars}`,
    summarize: async (tool, content) => summarizeSync(tool, content),
    summarizeSync,
  };
}

/** `none` is no summarizer at all (null): Tier 2 then makes no attempts and truncates. */
export function createSummarizer(name: SummarizerName, maxResultChars: number): Summarizer | null {
  return name === 'extractive' ? extractiveSummarizer(maxResultChars) : null;
}

// ---- cache -----------------------------------------------------------------------------------------------------

export type SummaryOutcome = { ok: true; summary: string } | { ok: false; error: string };

/** Summaries by (content hash, summarizer/model, prompt), so replays and slider moves never ask twice (SPEC §6).
 * Failures are cached too: asking again in the same session would give a different attempt count. */
export class SummaryCache {
  private readonly entries = new Map<string, SummaryOutcome>();

  key(summarizerId: string, toolName: string, content: string): string {
    return `${summarizerId}\u0000${sha256Hex(summaryPrompt(toolName, content))}`;
  }

  get(key: string): SummaryOutcome | undefined {
    return this.entries.get(key);
  }

  set(key: string, outcome: SummaryOutcome): void {
    this.entries.set(key, outcome);
  }
}
