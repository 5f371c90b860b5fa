// "Compact a file": analyze → write back in the input's format → re-parse and check the result. The CLI's
// `compact` and the editor's Export command both go through here, so they write the same bytes.
import { type AnalysisResult, type AnalyzeOptions, analyze, analyzeSync } from './analysis';
import { ccrMarkerHashes } from './engine/ccr';
import { contentHashText } from './engine/content';
import type { Policy } from './engine/policy';
import { parseTranscript, writeTranscript } from './formats';
import type { Block, Transcript } from './model';

export interface CompactOptions extends AnalyzeOptions {
  /** Claude Code: drop `toolUseResult` (the runtime's copy of the original output) from rewritten records. */
  dropToolUseResult?: boolean;
  /** Used in messages and to re-parse the output the same way as the input. */
  fileName?: string;
}

export interface CompactResult extends AnalysisResult {
  /** The compacted transcript, in the input's format. */
  output: Uint8Array;
  /** The CCR store as the JSON file `<out>.ccr.json` holds, or null when no marker was written or
   * `liveZone.ccr` is off (then the markers point at nothing, and `ccrDisabled` says so). */
  ccrJson: string | null;
  ccrDisabled: boolean;
}

function blockSignature(b: Block): string {
  if (b.type === 'tool_use') return `tool_use:${b.id}`;
  if (b.type === 'tool_result') return `tool_result:${b.toolUseId}`;
  return b.type;
}

function rewritableText(b: Block): string | null {
  if (b.type === 'tool_result') return contentHashText(b.content);
  if (b.type === 'text') return b.text;
  return null;
}

/**
 * SPEC §8.5 as a check on every export: the output re-parses to the same messages, the same blocks with the same
 * tool ids (so every tool_use keeps its tool_result), rewritten blocks carry their new content, others their old
 * one, and every CCR marker's hash is in the store. Returns the problems found (empty: the export is sound).
 */
export function verifyExport(original: Transcript, result: AnalysisResult, reparsed: Transcript): string[] {
  const problems: string[] = [];
  if (reparsed.format !== original.format)
    problems.push(`format changed: ${original.format} → ${reparsed.format}`);
  if (reparsed.messages.length !== original.messages.length) {
    problems.push(`message count changed: ${original.messages.length} → ${reparsed.messages.length}`);
    return problems;
  }
  const rewritten = new Map(result.rewrites.map((r) => [`${r.messageIndex}.${r.blockIndex}`, r.content]));
  original.messages.forEach((m, i) => {
    const r = reparsed.messages[i];
    if (r.role !== m.role) problems.push(`message ${i}: role ${m.role} → ${r.role}`);
    const before = m.blocks.map(blockSignature).join(',');
    const after = r.blocks.map(blockSignature).join(',');
    if (before !== after) {
      problems.push(`message ${i}: blocks [${before}] → [${after}]`);
      return;
    }
    m.blocks.forEach((b, j) => {
      const want = rewritten.get(`${i}.${j}`);
      const expected = want === undefined ? rewritableText(b) : contentHashText(want);
      const got = rewritableText(r.blocks[j]);
      if (expected !== null && got !== expected)
        problems.push(
          `message ${i} block ${j}: ${want === undefined ? 'untouched block changed' : 'rewrite not written'}`,
        );
    });
  });
  for (const r of result.rewrites) {
    for (const hash of ccrMarkerHashes(contentHashText(r.content)))
      if (!(hash in result.ccr))
        problems.push(`message ${r.messageIndex} block ${r.blockIndex}: CCR hash ${hash} not in the store`);
  }
  return problems;
}

function finishCompact(
  transcript: Transcript,
  policy: Policy,
  result: AnalysisResult,
  options: CompactOptions,
): CompactResult {
  const output = writeTranscript(transcript, result.rewrites, {
    dropToolUseResult: options.dropToolUseResult,
  });
  const reparsed = parseTranscript(output, options.fileName);
  const problems = verifyExport(transcript, result, reparsed);
  if (problems.length > 0)
    throw new Error(
      `the compacted transcript did not survive re-parsing:\n  ${problems.slice(0, 20).join('\n  ')}`,
    );
  const hasMarkers = Object.keys(result.ccr).length > 0;
  const ccrJson = hasMarkers && policy.liveZone.ccr ? `${JSON.stringify(result.ccr, null, 2)}\n` : null;
  return { ...result, output, ccrJson, ccrDisabled: hasMarkers && !policy.liveZone.ccr };
}

export async function compactTranscript(
  transcript: Transcript,
  policy: Policy,
  options: CompactOptions = {},
): Promise<CompactResult> {
  return finishCompact(transcript, policy, await analyze(transcript, policy, options), options);
}

/** The same, synchronously (summarizer `none` or `extractive`). */
export function compactTranscriptSync(
  transcript: Transcript,
  policy: Policy,
  options: CompactOptions = {},
): CompactResult {
  return finishCompact(transcript, policy, analyzeSync(transcript, policy, options), options);
}
