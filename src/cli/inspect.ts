// `context-lens inspect <file> [--json]`: what the file is, what it holds, and what is wrong with it.

import { defaultPolicyFor } from '../core/engine/policy';
import { parseTranscript, UnrecognizedTranscriptError } from '../core/formats/index';
import { summarizeTranscript, type TranscriptSummary } from '../core/formats/summary';
import { type Problem, transcriptProblems } from '../core/problems';
import { type RecordedUsageReport, recordedUsage, type UsageTotals } from '../core/recordedUsage';

/** The format's summary, with what the session cost over every reply the file records. */
type InspectSummary = Omit<TranscriptSummary, 'recordedUsage'> & {
  recordedUsage: RecordedUsageReport | null;
  /** What the Problems panel and the view's Problems tab show, from the same function, under the defaults. */
  problems: Problem[];
};

import { NotRegularFileError, readRegularFileSync } from '../node/readRegularFile';
import { print, printError, terminalText as t } from './terminal';

const USAGE = 'usage: context-lens inspect [--json] [--] <file>\n';
/** Text output lists this many diagnostics and pairing problems; `--json` lists them all. */
const TEXT_LIMIT = 40;
const SIDECHAINS_SHOWN = 5;

/** `--json` and `--help` before `--`; every word after `--` (or not starting with `-`) is a file. */
function parseArgs(args: string[]): { json: boolean; help: boolean; files: string[]; unknown?: string } {
  const r: { json: boolean; help: boolean; files: string[]; unknown?: string } = {
    json: false,
    help: false,
    files: [],
  };
  let options = true;
  for (const a of args) {
    if (!options) r.files.push(a);
    else if (a === '--') options = false;
    else if (a === '--json') r.json = true;
    else if (a === '--help' || a === '-h') r.help = true;
    else if (a.startsWith('-') && a !== '-') r.unknown ??= a;
    else r.files.push(a);
  }
  return r;
}

export async function runInspect(args: string[]): Promise<number> {
  const { json, help, files, unknown } = parseArgs(args);
  if (help) {
    print(USAGE);
    return 0;
  }
  if (unknown || files.length !== 1) {
    printError(`${unknown ? `context-lens inspect: unknown option ${t(unknown)}\n` : ''}${USAGE}`);
    return 2;
  }
  const file = files[0];
  let bytes: Uint8Array;
  try {
    bytes = readRegularFileSync(file);
  } catch (e) {
    if (e instanceof NotRegularFileError) {
      printError(`context-lens inspect: ${t(e.message)}\n`);
      return 1;
    }
    const why =
      e instanceof Error && 'code' in e ? `${(e as NodeJS.ErrnoException).code}: ${e.message}` : String(e);
    printError(
      `context-lens inspect: cannot read ${t(file)} (${t(why)}).\nExpected a transcript file: a Claude Code or Codex JSONL session, or an Anthropic / OpenAI Chat / OpenAI Responses request body in JSON.\n`,
    );
    return 1;
  }
  let summary: InspectSummary;
  try {
    const transcript = parseTranscript(bytes, file);
    summary = {
      ...summarizeTranscript(transcript),
      recordedUsage: recordedUsage(transcript),
      problems: transcriptProblems(transcript, defaultPolicyFor(transcript.format)),
    };
  } catch (e) {
    if (e instanceof UnrecognizedTranscriptError) {
      printError(`context-lens inspect: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
  print(json ? `${JSON.stringify({ file, ...summary }, null, 2)}\n` : render(file, summary));
  return 0;
}

function list(map: Record<string, number>): string {
  const entries = Object.entries(map).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return entries.length ? entries.map(([k, v]) => `${t(k)} ${v}`).join(', ') : 'none';
}

function usageLine(u: UsageTotals): string {
  const oneHour = u.cacheCreation1hInputTokens ? ` (1-hour ${u.cacheCreation1hInputTokens})` : '';
  return `${u.replies} replies: input ${u.inputTokens}, output ${u.outputTokens}, cache read ${u.cacheReadInputTokens}, cache write ${u.cacheCreationInputTokens}${oneHour}; $${u.cost.toFixed(4)}`;
}

function render(file: string, s: InspectSummary): string {
  const out: string[] = [];
  out.push(`${t(file)}: ${s.format} (${s.bytes} bytes)`);
  out.push(`  why: ${t(s.formatReason)}`);
  if (s.model) out.push(`  model: ${t(s.model)}`);
  out.push(`messages: ${s.messages.total} (${list(s.messages.byRole)})`);
  out.push(`tool calls: ${s.toolCalls.total} (${list(s.toolCalls.byName)})`);
  if (s.toolCallsInFile !== s.toolCalls.total)
    out.push(
      `  ${s.toolCallsInFile - s.toolCalls.total} more in sub-agents: ${s.toolCallsInFile} in the file`,
    );
  out.push(`tool results: ${s.toolResults} in ${s.toolResultMessages} tool-result messages`);
  out.push(`images: ${s.images}`);
  out.push(`markers: ${s.markers.total}${s.markers.total ? ` (${list(s.markers.byLabel)})` : ''}`);
  if (s.sidechains.length) {
    const shown = s.sidechains.slice(0, SIDECHAINS_SHOWN).map((c) => `${t(c.id)} (${c.messages} messages)`);
    const more =
      s.sidechains.length > SIDECHAINS_SHOWN ? `, … ${s.sidechains.length - SIDECHAINS_SHOWN} more` : '';
    out.push(`sidechains: ${s.sidechains.length}: ${shown.join(', ')}${more}`);
  }
  if (s.pairing.length === 0) out.push('pairing: every tool_use has its tool_result');
  else {
    out.push(`pairing problems: ${s.pairing.length}`);
    for (const p of s.pairing.slice(0, TEXT_LIMIT)) {
      const what =
        p.kind === 'tool_use-without-result'
          ? `tool_use ${t(p.id)} (${t(p.name)}) has no result`
          : `tool_result for ${t(p.id)} has no tool_use`;
      out.push(
        `  line ${p.line}: ${what}${p.conversation === 'main' ? '' : ` [sidechain ${t(p.conversation)}]`}`,
      );
    }
    if (s.pairing.length > TEXT_LIMIT) out.push(`  … ${s.pairing.length - TEXT_LIMIT} more (see --json)`);
  }
  const u = s.recordedUsage;
  if (u) {
    out.push(`recorded usage, the whole file (${usageLine(u)})`);
    const parts: [string, UsageTotals][] = [
      ['main thread', u.main],
      ['sub-agents', u.sidechains],
      ['off the branch', u.offBranch],
    ];
    for (const [name, part] of parts) if (part.replies > 0) out.push(`  ${name}: ${usageLine(part)}`);
    for (const [model, part] of Object.entries(u.byModel)) out.push(`  ${t(model)}: ${usageLine(part)}`);
    if (u.unpriced.length)
      out.push(`  not in the price table (priced as the nearest preset): ${u.unpriced.map(t).join(', ')}`);
  } else out.push('recorded usage: none in this file');
  if (s.problems.length === 0) out.push('problems: none');
  else {
    out.push(`problems: ${s.problems.length}`);
    for (const d of s.problems.slice(0, TEXT_LIMIT))
      out.push(`  ${t(file)}:${d.line}:${d.column}: ${d.severity} ${t(d.code)}: ${t(d.message)}`);
    if (s.problems.length > TEXT_LIMIT) out.push(`  … ${s.problems.length - TEXT_LIMIT} more (see --json)`);
  }
  return `${out.join('\n')}\n`;
}
