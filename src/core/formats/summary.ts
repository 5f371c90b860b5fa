// What `context-lens inspect` (and the editor's header) says about a transcript: counts, pairing problems,
// recorded usage. Pure: reads the model only.

import { pushAll } from '../arrays';
import type { Block, Diagnostic, FormatId, Message, RecordedUsage, Transcript } from '../model';
import { HOSTED_CALLS } from './responseItems';

export interface PairingProblem {
  kind: 'tool_use-without-result' | 'tool_result-without-use';
  id: string;
  /** Tool name of the call (for a result without a call: unknown). */
  name?: string;
  line: number;
  messageIndex: number;
  /** Which conversation: `main` or a sidechain id. */
  conversation: string;
}

export interface TranscriptSummary {
  format: FormatId;
  formatReason: string;
  bytes: number;
  model?: string;
  messages: { total: number; byRole: Record<string, number> };
  /** Tool calls of the main conversation. */
  toolCalls: { total: number; byName: Record<string, number> };
  /** Tool calls of the whole file: the main conversation and every sub-agent, echoes of a sub-agent in the
   * parent's progress records aside. */
  toolCallsInFile: number;
  /** Calls that load tool definitions (tool searches), counted apart from the tools the agent ran. */
  toolSearches: number;
  toolResults: number;
  toolResultMessages: number;
  images: number;
  markers: { total: number; byKind: Record<string, number>; byLabel: Record<string, number> };
  sidechains: { id: string; messages: number; toolCalls: number; echoed: boolean }[];
  pairing: PairingProblem[];
  /** Sum of the usage each reply recorded (null when the file records none). */
  recordedUsage: (RecordedUsage & { replies: number }) | null;
  diagnostics: Diagnostic[];
}

/** A table keyed by names from the transcript: without a prototype, `constructor` or `__proto__` is a name
 * like any other (on `{}` a tool named `constructor` made the count a string, and `__proto__` calls vanished). */
function countTable(): Record<string, number> {
  return Object.create(null);
}

function bump(map: Record<string, number>, key: string): void {
  map[key] = (map[key] ?? 0) + 1;
}

/** The counts as an ordinary object whose every name is an own property (defined, so that `__proto__` is a
 * key and not the prototype): readers compare and print it like any object. */
function plainCounts(table: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(table))
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

function countImages(blocks: Block[]): number {
  let n = 0;
  for (const b of blocks) {
    if (b.type === 'image') n++;
    else if (b.type === 'tool_result' && Array.isArray(b.content)) n += countImages(b.content);
  }
  return n;
}

/** The tool a block calls: a tool_use's name, or a hosted call's (a web search the provider ran: kept as the item
 * itself, with no result to pair). Undefined for every other block. */
function calledTool(b: Block): string | undefined {
  if (b.type === 'tool_use') return b.loadsTools ? undefined : b.name || '(no name)';
  if (b.type === 'other' && Object.hasOwn(HOSTED_CALLS, b.kind)) return HOSTED_CALLS[b.kind];
  return undefined;
}

/** tool_use without a result, and results without a call, in one conversation. */
export function pairingProblems(messages: Message[], conversation = 'main'): PairingProblem[] {
  const calls = new Map<string, { name: string; line: number; messageIndex: number }>();
  const results = new Map<string, { line: number; messageIndex: number }>();
  for (const m of messages)
    for (const b of m.blocks) {
      const line = b.source?.line ?? m.source?.line ?? 0;
      if (b.type === 'tool_use' && !calls.has(b.id))
        calls.set(b.id, { name: b.name, line, messageIndex: m.index });
      else if (b.type === 'tool_result' && !results.has(b.toolUseId))
        results.set(b.toolUseId, { line, messageIndex: m.index });
    }
  const problems: PairingProblem[] = [];
  for (const [id, c] of calls)
    if (!results.has(id))
      problems.push({
        kind: 'tool_use-without-result',
        id,
        name: c.name,
        line: c.line,
        messageIndex: c.messageIndex,
        conversation,
      });
  for (const [id, r] of results)
    if (!calls.has(id))
      problems.push({
        kind: 'tool_result-without-use',
        id,
        line: r.line,
        messageIndex: r.messageIndex,
        conversation,
      });
  return problems.sort((a, b) => a.line - b.line);
}

export function summarizeTranscript(t: Transcript): TranscriptSummary {
  const byRole: Record<string, number> = countTable();
  const byName: Record<string, number> = countTable();
  let toolResults = 0;
  let toolResultMessages = 0;
  let toolSearches = 0;
  let images = 0;
  let usage: (RecordedUsage & { replies: number }) | null = null;
  for (const m of t.messages) {
    bump(byRole, m.role);
    images += countImages(m.blocks);
    let results = 0;
    for (const b of m.blocks) {
      const called = calledTool(b);
      if (called !== undefined) bump(byName, called);
      else if (b.type === 'tool_use') toolSearches++;
      else if (b.type === 'tool_result') results++;
    }
    toolResults += results;
    if (results > 0) toolResultMessages++;
    if (m.usage) {
      usage ??= {
        inputTokens: 0,
        outputTokens: 0,
        cacheReadInputTokens: 0,
        cacheCreationInputTokens: 0,
        replies: 0,
      };
      usage.inputTokens += m.usage.inputTokens;
      usage.outputTokens += m.usage.outputTokens;
      usage.cacheReadInputTokens += m.usage.cacheReadInputTokens;
      usage.cacheCreationInputTokens += m.usage.cacheCreationInputTokens;
      usage.replies++;
    }
  }
  const byKind: Record<string, number> = countTable();
  const byLabel: Record<string, number> = countTable();
  for (const mk of t.markers) {
    bump(byKind, mk.kind);
    bump(byLabel, mk.label);
  }
  const pairing = pairingProblems(t.messages);
  for (const s of t.sidechains)
    if (s.messages !== t.messages) pushAll(pairing, pairingProblems(s.messages, s.id));
  const callsIn = (messages: Message[]) =>
    messages.reduce((n, m) => n + m.blocks.filter((b) => calledTool(b) !== undefined).length, 0);
  const sidechains = t.sidechains.map((s) => ({
    id: s.id,
    messages: s.messages.length,
    toolCalls: callsIn(s.messages),
    echoed: s.echoed === true,
  }));
  const mainCalls = Object.values(byName).reduce((a, b) => a + b, 0);
  const summary: TranscriptSummary = {
    format: t.format,
    formatReason: t.formatReason,
    bytes: t.raw.length,
    messages: { total: t.messages.length, byRole: plainCounts(byRole) },
    toolCalls: { total: mainCalls, byName: plainCounts(byName) },
    toolCallsInFile:
      mainCalls +
      t.sidechains.reduce(
        (n, s, i) => n + (s.messages === t.messages || s.echoed ? 0 : sidechains[i].toolCalls),
        0,
      ),
    toolSearches,
    toolResults,
    toolResultMessages,
    images,
    markers: { total: t.markers.length, byKind: plainCounts(byKind), byLabel: plainCounts(byLabel) },
    sidechains,
    pairing,
    recordedUsage: usage,
    diagnostics: t.diagnostics,
  };
  if (t.model) summary.model = t.model;
  return summary;
}
