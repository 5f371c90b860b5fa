// Export of a compacted transcript to disk (Node; the editor's Export command calls it, with its dialogs around):
// compact through the shared core path (analyze → write back → re-parse and verify), convert to an Anthropic
// Messages request when asked, refuse to write over the source or to write anything whose tool pairs broke, then
// write every file together (writeAll: all or none). Nothing is written unless everything checked out. The CLI's
// `compact` goes through here too, so both refuse the same things.
import { basename, dirname, extname, join } from 'node:path';
import type { Analysis } from '../core/analysisTypes';
import { pushAll } from '../core/arrays';
import { type CompactOptions, type CompactResult, compactTranscript } from '../core/compact';
import type { Policy } from '../core/engine/policy';
import { nextRequestSpan } from '../core/formats/nextRequest';
import { type AnthropicRequest, toAnthropicRequest } from '../core/formats/toAnthropicRequest';
import type { Transcript } from '../core/model';
import { applyStrategy, strategyRequestParts } from '../core/strategyRequest';
import { vsNoneAsync } from '../core/vsNone';
import { mirroredStore } from './openCodeStore';
import { checkTargets, type FileOps, type FileToWrite, writeAll } from './writeAll';

/** `<name>.compacted.<ext>` beside the source (the CLI's default too). */
export function compactedPathFor(source: string): string {
  const ext = extname(source);
  return join(dirname(source), `${basename(source, ext)}.compacted${ext}`);
}

/** The CCR store beside an export: `<out>.ccr.json` (as `context-lens compact` writes it). */
export function ccrPathFor(out: string): string {
  return `${out}.ccr.json`;
}

/** The Anthropic Messages request beside an export: `<out without extension>.anthropic.json`. */
export function anthropicRequestPathFor(out: string): string {
  const ext = extname(out);
  return join(dirname(out), `${basename(out, ext)}.anthropic.json`);
}

const CANCELLED = 'export cancelled: nothing was written';

/** Thrown when the export would lose or break something; `reasons` says what, nothing was written. */
export class ExportRefusedError extends Error {
  constructor(
    readonly reasons: string[],
    what: string,
  ) {
    super(
      `${what}:\n  ${reasons.slice(0, 20).join('\n  ')}${reasons.length > 20 ? `\n  … ${reasons.length - 20} more` : ''}`,
    );
    this.name = 'ExportRefusedError';
  }
}

/**
 * The API's pairing rule on a request: every tool_use of an assistant message is answered in the next user
 * message, and every tool_result there answers a call of that assistant message. Returns the ids that break it.
 */
export function requestPairBreaks(request: AnthropicRequest): { id: string; why: string }[] {
  const breaks: { id: string; why: string }[] = [];
  const ms = request.messages;
  ms.forEach((m, i) => {
    if (m.role === 'assistant') {
      const next = ms[i + 1];
      const answered = new Set(
        next?.role === 'user'
          ? next.content.filter((b) => b.type === 'tool_result').map((b) => String(b.tool_use_id))
          : [],
      );
      for (const b of m.content)
        if (b.type === 'tool_use' && !answered.has(String(b.id)))
          breaks.push({
            id: String(b.id),
            why: `request message ${i}: tool_use ${String(b.id)} is not answered in the next user message`,
          });
    } else {
      const prev = ms[i - 1];
      const called = new Set(
        prev?.role === 'assistant'
          ? prev.content.filter((b) => b.type === 'tool_use').map((b) => String(b.id))
          : [],
      );
      for (const b of m.content)
        if (b.type === 'tool_result' && !called.has(String(b.tool_use_id)))
          breaks.push({
            id: String(b.tool_use_id),
            why: `request message ${i}: tool_result for ${String(b.tool_use_id)} does not answer a call of the message before it`,
          });
    }
  });
  return breaks;
}

/** Ids that have both a tool_use and a tool_result in the main conversation. */
export function pairedIds(t: Transcript, from = 0): Set<string> {
  const uses = new Set<string>();
  const results = new Set<string>();
  for (const m of t.messages.slice(from))
    for (const b of m.blocks) {
      if (b.type === 'tool_use') uses.add(b.id);
      else if (b.type === 'tool_result') results.add(b.toolUseId);
    }
  return new Set([...uses].filter((id) => results.has(id)));
}

export interface ExportRequest {
  /** Path of the transcript the export reads (never written). */
  source: string;
  transcript: Transcript;
  policy: Policy;
  /** Where the compacted transcript goes (default: `compactedPathFor(source)`). */
  target?: string;
  /** Also write the Anthropic Messages request. */
  anthropicRequest?: boolean;
  /** Also write the Analysis as JSON here (the CLI's `--report`). */
  report?: string;
  /** Also run "none" (and one pass now) and give the Analysis its `vsNone` (SPEC §5; the CLI). */
  vsNone?: boolean;
  /** Replace outputs that exist (the editor: its save dialog asked; the CLI: `--force`). */
  replace: boolean;
  compact?: CompactOptions;
  /** Tests only: file operations that fail where a full disk would. */
  ops?: FileOps;
}

export interface ExportResult {
  target: string;
  /** The CCR store, when live-zone markers were written. */
  ccr?: string;
  /** The Anthropic Messages request, when asked. */
  request?: string;
  /** The Analysis as JSON, when asked. */
  report?: string;
  /** What the request conversion could not carry over. */
  requestNotes: string[];
  analysis: Analysis;
  tokensBefore: number;
  tokensAfter: number;
  /** Share of the tokens saved, 0..1. */
  saved: number;
  rewrites: number;
  ccrDisabled: boolean;
}

export async function exportCompacted(req: ExportRequest): Promise<ExportResult> {
  // A session copied out of an agent's store (OpenCode's database) has no file of the agent's to write back: the
  // export is the Anthropic request the agent would send next, and its first note says so.
  const store = mirroredStore(req.source);
  const asked = req.target ?? compactedPathFor(req.source);
  const target = store ? anthropicRequestPathFor(asked) : asked;
  const ccrPath = ccrPathFor(target);
  const requestPath = store ? target : anthropicRequestPathFor(target);
  const anthropicRequest = req.anthropicRequest || store !== undefined;
  // Every file this export may write is checked before any work is done (and again when they are written).
  const planned = store ? [target] : [target, ccrPath];
  if (anthropicRequest && !store) planned.push(requestPath);
  if (req.report !== undefined) planned.push(req.report);
  await checkTargets(planned, { source: req.source, replace: req.replace });

  let result: CompactResult;
  try {
    // Re-parses its own output and checks that every message, block and tool id survived (core/compact).
    result = await compactTranscript(req.transcript, req.policy, { fileName: req.source, ...req.compact });
  } catch (error) {
    // A replay that may be stopped stops when cancelled.
    if (req.compact?.signal?.aborted) throw new Error(CANCELLED);
    const message = error instanceof Error ? error.message : String(error);
    if (/did not survive re-parsing/.test(message))
      throw new ExportRefusedError(
        message
          .split('\n')
          .slice(1)
          .map((l) => l.trim()),
        `refusing to write ${target}: the compacted transcript would break`,
      );
    throw error;
  }

  if (req.vsNone) {
    const { summarizer, signal, models } = req.compact ?? {};
    const vs = await vsNoneAsync(req.transcript, req.policy, result.analysis, {
      summarizer,
      signal,
      models,
    }).catch((error) => {
      throw signal?.aborted ? new Error(CANCELLED) : error;
    });
    if (vs) result.analysis.vsNone = vs;
  }

  let requestJson: string | undefined;
  const requestNotes: string[] = [];
  if (store)
    requestNotes.push(
      `the session lives in ${store}, which is never written: the export is the Anthropic request it would send next`,
    );
  if (anthropicRequest) {
    const conversion = toAnthropicRequest(req.transcript, result.rewrites);
    // A provider's strategy: its block in the request, and what the body cannot say (a beta header) first in the notes.
    const strategy = strategyRequestParts(req.policy, req.transcript, result.analysis.contextWindow);
    applyStrategy(conversion.request, strategy, strategy.notes);
    // Calls the source already left unanswered are the source's problem (shown in Problems), not the export's.
    // Within the messages the request sends: a pair a compaction cut is the source's, as an unpaired call is.
    const paired = pairedIds(req.transcript, nextRequestSpan(req.transcript).from);
    const breaks = requestPairBreaks(conversion.request);
    const ours = breaks.filter((b) => paired.has(b.id));
    if (ours.length > 0)
      throw new ExportRefusedError(
        ours.map((b) => b.why),
        `refusing to write ${requestPath}: tool_use/tool_result pairs would break in the request`,
      );
    pushAll(requestNotes, strategy.notes);
    pushAll(requestNotes, conversion.notes);
    pushAll(
      requestNotes,
      breaks.filter((b) => !paired.has(b.id)).map((b) => `${b.why} (already unpaired in the source)`),
    );
    // Last: what the request leaves out as the agent would, and what the file does not hold (the notification
    // quotes the first note, which should be one the user can act on).
    pushAll(requestNotes, conversion.liveNotes);
    requestJson = `${JSON.stringify(conversion.request, null, 2)}\n`;
  }

  // Cancelled while the summarizer was asked: the summaries that did not come fell back, so the file would not be
  // what the user asked for. Nothing is written.
  if (req.compact?.signal?.aborted) throw new Error(CANCELLED);
  const files: FileToWrite[] = store ? [] : [{ path: target, data: result.output }];
  if (result.ccrJson && !store) files.push({ path: ccrPath, data: result.ccrJson });
  if (requestJson !== undefined) files.push({ path: requestPath, data: requestJson });
  if (req.report !== undefined)
    files.push({ path: req.report, data: `${JSON.stringify(result.analysis, null, 2)}\n` });
  await writeAll(files, { source: req.source, replace: req.replace, ops: req.ops });

  const t = result.analysis.totals;
  return {
    target,
    ccr: result.ccrJson && !store ? ccrPath : undefined,
    request: requestJson !== undefined ? requestPath : undefined,
    report: req.report,
    requestNotes,
    analysis: result.analysis,
    tokensBefore: t.tokensBefore,
    tokensAfter: t.tokensAfter,
    saved: t.tokensBefore > 0 ? (t.tokensBefore - t.tokensAfter) / t.tokensBefore : 0,
    rewrites: result.rewrites.length,
    ccrDisabled: result.ccrDisabled,
  };
}

/** "12,345 → 6,789 tokens (45.0% saved)": the figures the notification and the status bar show. */
export function tokensLine(before: number, after: number): string {
  const saved = before > 0 ? ((before - after) / before) * 100 : 0;
  return `${before.toLocaleString('en-US')} → ${after.toLocaleString('en-US')} tokens (${saved.toFixed(1)}% saved)`;
}
