// `context-lens inspect <file> [--json]`: what the file is, what it holds, and what is wrong with it.

import { basename, resolve } from 'node:path';
import { defaultPolicyFor } from '../core/engine/policy';
import { parseTranscript, UnrecognizedTranscriptError } from '../core/formats/index';
import { adapterFor } from '../core/formats/registry';
import { summarizeTranscript, type TranscriptSummary } from '../core/formats/summary';
import type { SubAgentFilesPlace } from '../core/formats/types';
import type { RecordedReply, Transcript } from '../core/model';
import { type Problem, transcriptProblems } from '../core/problems';
import {
  type RecordedUsageReport,
  recordedUsage,
  repliesOf,
  type UsageTotals,
  unpricedWords,
} from '../core/recordedUsage';
import { argPath, undecodedNameHint } from '../node/argPath';
import { NotRegularFileError, readRegularFileSync } from '../node/readRegularFile';
import { subAgentFilesOf } from '../node/sessionFiles';

/** A sub-agent's own file in the session's folder, read beside the session. */
interface SubAgentFile {
  path: string;
  agentId: string;
  messages: number;
  toolCalls: number;
  recordedUsage: UsageTotals | null;
  /** Why the file could not be read, when it could not. */
  error?: string;
}

/** The format's summary, with what the session cost over every reply the file records. */
type InspectSummary = Omit<TranscriptSummary, 'recordedUsage'> & {
  recordedUsage: RecordedUsageReport | null;
  /** What the Problems panel and the view's Problems tab show, from the same function, under the defaults. */
  problems: Problem[];
  /** The sub-agents' own files, for an agent that writes them (Claude Code: `<session>/subagents/`); empty when
   * there are none. */
  subAgentFiles: SubAgentFile[];
  /** The session with its sub-agent files, when it has any: tool calls (a sub-agent the file also echoes, in
   * progress records, counted once from its own file) and what every reply cost. */
  session: { toolCalls: number; recordedUsage: RecordedUsageReport | null } | null;
};

import { parseTranscriptFile } from '../node/parseFile';
import { type CommandSpec, helpText, type Option, type Parsed, parseCommand, UsageError } from './options';
import { print, printError, terminalText as t } from './terminal';

const JSON_SUMMARY: Option<boolean> = {
  name: 'json',
  description: 'print the summary as one JSON object, with every diagnostic and pairing problem',
};
const SPEC: CommandSpec = { usage: 'context-lens inspect [--json] [--] <file>', options: [JSON_SUMMARY] };
/** Text output lists this many diagnostics and pairing problems; `--json` lists them all. */
const TEXT_LIMIT = 40;
const SIDECHAINS_SHOWN = 5;

export async function runInspect(args: string[]): Promise<number> {
  let parsed: Parsed | undefined;
  try {
    parsed = parseCommand(SPEC, args);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    printError(`context-lens inspect: ${e.message}\n${helpText(SPEC)}`);
    return 2;
  }
  if (!parsed) return 0;
  const json = parsed.has(JSON_SUMMARY);
  const files = parsed.positionals;
  if (files.length !== 1) {
    printError(helpText(SPEC));
    return 2;
  }
  const file = files[0];
  let bytes: Uint8Array;
  const path = argPath(file);
  try {
    bytes = readRegularFileSync(path);
  } catch (e) {
    if (e instanceof NotRegularFileError) {
      printError(`context-lens inspect: ${t(e.message)}\n`);
      return 1;
    }
    const why =
      e instanceof Error && 'code' in e ? `${(e as NodeJS.ErrnoException).code}: ${e.message}` : String(e);
    printError(
      `context-lens inspect: cannot read ${t(file)} (${t(why)})${undecodedNameHint(file, path)}.\nExpected a transcript file: a Claude Code or Codex JSONL session, or an Anthropic / OpenAI Chat / OpenAI Responses request body in JSON.\n`,
    );
    return 1;
  }
  let summary: InspectSummary;
  try {
    // Its absolute path: the files an agent keeps beside a session (a task's ui_messages.json) are read by it.
    const transcript = parseTranscriptFile(bytes, resolve(file));
    const base = summarizeTranscript(transcript);
    // Only an agent that writes its sub-agents to files of their own has any to read.
    const place = adapterFor(transcript.format).session?.subAgentFiles;
    const subAgents = place ? readSubAgents(file, place) : [];
    summary = {
      ...base,
      recordedUsage: recordedUsage(transcript),
      problems: transcriptProblems(transcript, defaultPolicyFor(transcript.format)),
      subAgentFiles: subAgents.map((s) => s.file),
      session: subAgents.length ? withSubAgents(transcript, base, subAgents) : null,
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

/** Each sub-agent file of the session, parsed as the Sessions view parses it. */
function readSubAgents(
  file: string,
  place: SubAgentFilesPlace,
): { file: SubAgentFile; replies: RecordedReply[] }[] {
  return subAgentFilesOf(file, place).map((path) => {
    const agentId = basename(path, '.jsonl').slice(place.prefix.length);
    try {
      const t = parseTranscript(readRegularFileSync(path), path);
      const s = summarizeTranscript(t);
      const usage = recordedUsage(t);
      const replies = repliesOf(t).map((r) => ({ ...r, thread: `${agentId}` }));
      return {
        file: {
          path,
          agentId,
          messages: s.messages.total,
          toolCalls: s.toolCallsInFile,
          recordedUsage: usage,
        },
        replies,
      };
    } catch (e) {
      const error = e instanceof Error ? e.message : String(e);
      return {
        file: { path, agentId, messages: 0, toolCalls: 0, recordedUsage: null, error },
        replies: [],
      };
    }
  });
}

/** The session's figures with its sub-agents' files: a sub-agent the session's file also holds (the progress
 * records' copies, or its own records) is counted from its own file, once. */
function withSubAgents(
  t: Transcript,
  s: TranscriptSummary,
  subAgents: { file: SubAgentFile; replies: RecordedReply[] }[],
): NonNullable<InspectSummary['session']> {
  const read = new Set(subAgents.filter((a) => !a.file.error).map((a) => a.file.agentId));
  const echoed = s.sidechains.filter((c) => read.has(c.id) && !c.echoed).reduce((n, c) => n + c.toolCalls, 0);
  const toolCalls = s.toolCallsInFile - echoed + subAgents.reduce((n, a) => n + a.file.toolCalls, 0);
  const replies = [
    ...repliesOf(t).filter((r) => r.thread === 'main' || !read.has(r.thread)),
    ...subAgents.flatMap((a) => a.replies),
  ];
  return { toolCalls, recordedUsage: recordedUsage({ ...t, replies }) };
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
  const echoed = s.sidechains.reduce((n, c) => n + (c.echoed ? c.toolCalls : 0), 0);
  if (echoed > 0)
    out.push(
      `  ${echoed} more echoed in the sub-agents' progress records (their own files hold them; not counted)`,
    );
  if (s.toolSearches > 0) out.push(`tool searches (tool definitions loaded): ${s.toolSearches}`);
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
    if (u.agentCost !== undefined)
      out.push(
        `  the agent's own figure: $${u.agentCost.toFixed(4)} (ours above prices the recorded tokens)`,
      );
    if (u.unpriced.length)
      out.push(
        `  an estimate: $${u.unpricedCost.toFixed(4)} of the cost is for replies the price table cannot price, priced ${t(unpricedWords(u))}`,
      );
    if (u.agentCost !== undefined)
      out.push(
        `  the agent's own figure: $${u.agentCost.toFixed(4)} (at list prices: $${u.cost.toFixed(4)})`,
      );
  } else out.push('recorded usage: none in this file');
  if (s.subAgentFiles.length) {
    const shown = s.subAgentFiles
      .slice(0, SIDECHAINS_SHOWN)
      .map((a) =>
        a.error
          ? `${t(a.agentId)} (not read: ${t(a.error)})`
          : `${t(a.agentId)} (${a.messages} messages, ${a.toolCalls} tool calls)`,
      );
    const more =
      s.subAgentFiles.length > SIDECHAINS_SHOWN
        ? `, … ${s.subAgentFiles.length - SIDECHAINS_SHOWN} more`
        : '';
    out.push(
      `sub-agent files: ${s.subAgentFiles.length} in the session's subagents folder: ${shown.join(', ')}${more}`,
    );
    if (s.session) {
      out.push(`  the session with its sub-agent files: ${s.session.toolCalls} tool calls`);
      const total = s.session.recordedUsage;
      if (total) out.push(`  recorded usage, with the sub-agent files (${usageLine(total)})`);
    }
  }
  if (s.problems.length === 0) out.push('problems: none');
  else {
    out.push(`problems: ${s.problems.length}`);
    for (const d of s.problems.slice(0, TEXT_LIMIT))
      out.push(`  ${t(file)}:${d.line}:${d.column}: ${d.severity} ${t(d.code)}: ${t(d.message)}`);
    if (s.problems.length > TEXT_LIMIT) out.push(`  … ${s.problems.length - TEXT_LIMIT} more (see --json)`);
  }
  return `${out.join('\n')}\n`;
}
