// What the webview is sent about a transcript: short previews for the list, full blocks for the details
// pane on demand. Plain functions of the model, no editor API, so the browser tests' stand-in host uses them.
import type { Analysis } from '../core/analysisTypes';
import { CLEARED_TOOL_INPUT, CLEARED_TOOL_RESULT } from '../core/engine/contextEditing';
import { AUTO_MODEL } from '../core/engine/models';
import { POLICY_NAMES, policiesOfferedFor, sessionKindOf } from '../core/engine/policy';
import type { Block, Message, Rewrite, Transcript } from '../core/model';
import { fileProblems } from '../core/problems';
import type { BlockDetail, HostMessage, MarkerSummary, MessageSummary, ThreadSummary } from '../protocol';

export const PREVIEW_CHARS = 160;

/** The text of a block as the details pane shows it. Not an engine rule: images and others are described. */
export function blockText(block: Block | { type: 'content'; content: string | Block[] }): string {
  switch (block.type) {
    case 'text':
    case 'thinking':
      return block.text;
    case 'tool_use':
      return block.inputInvalid ? String(block.input) : JSON.stringify(block.input, null, 2);
    case 'tool_result':
      return contentText(block.content);
    case 'content':
      return contentText(block.content);
    case 'image':
      return `[image${block.mediaType ? ` ${block.mediaType}` : ''}${block.dataLength ? `, ${block.dataLength} chars of data` : ''}]`;
    case 'other':
      return block.raw;
  }
}

function contentText(content: string | Block[]): string {
  if (typeof content === 'string') return content;
  return content.map((b) => blockText(b)).join('\n');
}

function oneLine(text: string): string {
  const cut = text.length > PREVIEW_CHARS * 2 ? text.slice(0, PREVIEW_CHARS * 2) : text;
  const flat = cut.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS - 1)}…` : flat;
}

export function messagePreview(message: Message): string {
  for (const b of message.blocks) {
    if (b.type === 'text' && b.text.trim()) return oneLine(b.text);
    if (b.type === 'tool_result') return oneLine(contentText(b.content));
    if (b.type === 'tool_use')
      return oneLine(`${b.name}(${b.inputInvalid ? String(b.input) : JSON.stringify(b.input)})`);
  }
  const first = message.blocks[0];
  return first
    ? oneLine(`(${first.type === 'other' ? first.kind : first.type}) ${blockText(first)}`)
    : '(empty)';
}

function lineOf(message: Message): number | undefined {
  return message.source?.line ?? message.blocks.find((b) => b.location)?.location?.recordLine;
}

export function messageSummary(
  message: Message,
  calls: Map<string, Extract<Block, { type: 'tool_use' }>> = new Map(),
): MessageSummary {
  const s: MessageSummary = {
    index: message.index,
    role: message.role,
    preview: messagePreview(message),
    blockKinds: message.blocks.map((b) => (b.type === 'other' ? b.kind : b.type)),
  };
  const names: string[] = [];
  for (const b of message.blocks) {
    if (b.type === 'tool_use') names.push(b.name);
    else if (b.type === 'tool_result') names.push(calls.get(b.toolUseId)?.name ?? 'unknown');
  }
  if (names.length) s.toolNames = names;
  const line = lineOf(message);
  if (line !== undefined) s.line = line;
  if (message.flags?.length) s.flags = message.flags;
  return s;
}

export function transcriptMessage(
  transcript: Transcript,
  fileName: string,
  revision: number,
  /** The file's request streams and the one `transcript` is (see core/threads.ts); shown when there are several. */
  threads?: { threads: ThreadSummary[]; thread: string },
): Extract<HostMessage, { type: 'transcript' }> {
  return {
    type: 'transcript',
    fileName,
    format: transcript.format,
    formatReason: transcript.formatReason,
    messages: messageSummaries(transcript),
    markers: transcript.markers.map((m) => {
      const s: MarkerSummary = { kind: m.kind, label: m.label, beforeMessage: m.beforeMessage };
      if (m.source) s.line = m.source.line;
      if (m.text !== undefined) s.text = oneLine(m.text);
      return s;
    }),
    diagnostics: fileProblems(transcript).map((d) => ({
      severity: d.severity,
      code: d.code,
      message: d.message,
      line: d.line,
      column: d.column,
    })),
    sidechains: transcript.sidechains.length,
    revision,
    offered: policiesOfferedFor(transcript, AUTO_MODEL, POLICY_NAMES),
    ...providerOf(transcript),
    ...(threads && threads.threads.length > 1 ? threads : {}),
  };
}

const summariesOf = new WeakMap<Transcript, MessageSummary[]>();

/** The list's summaries, computed once per transcript (a large session's take a noticeable time). */
export function messageSummaries(transcript: Transcript): MessageSummary[] {
  let summaries = summariesOf.get(transcript);
  if (!summaries) {
    const calls = toolCalls(transcript);
    summaries = transcript.messages.map((m) => messageSummary(m, calls));
    summariesOf.set(transcript, summaries);
  }
  return summaries;
}

/** Summaries of `transcript` computed elsewhere (the parse worker, on an identical copy of it). */
export function rememberSummaries(transcript: Transcript, summaries: MessageSummary[]): void {
  summariesOf.set(transcript, summaries);
}

/** tool_use id → the call, over the main conversation. */
export function toolCalls(transcript: Transcript): Map<string, Extract<Block, { type: 'tool_use' }>> {
  const calls = new Map<string, Extract<Block, { type: 'tool_use' }>>();
  for (const m of transcript.messages)
    for (const b of m.blocks) if (b.type === 'tool_use') calls.set(b.id, b);
  return calls;
}

export function detailsMessage(
  transcript: Transcript,
  analysis: Analysis | null,
  rewrites: readonly Rewrite[],
  calls: Map<string, Extract<Block, { type: 'tool_use' }>>,
  messageIndex: number,
): Extract<HostMessage, { type: 'details' }> | null {
  const message = transcript.messages[messageIndex];
  if (!message) return null;
  const byBlock = new Map<number, Rewrite>();
  for (const r of rewrites) if (r.messageIndex === messageIndex) byBlock.set(r.blockIndex, r);
  const events = analysis ? analysis.events.filter((e) => e.messageIndex === messageIndex) : [];
  // What the provider's server puts in place of a block it clears (the client's own content is the rewrite).
  const cleared = new Set(events.filter((e) => e.action === 'context_edit').map((e) => e.blockIndex));
  const blocks: BlockDetail[] = message.blocks.map((b, blockIndex) => {
    const rewrite = byBlock.get(blockIndex);
    const d: BlockDetail = {
      blockIndex,
      kind: b.type === 'other' ? b.kind : b.type,
      original: blockText(b),
      compressed: rewrite
        ? contentText(rewrite.content)
        : cleared.has(blockIndex)
          ? b.type === 'tool_use'
            ? CLEARED_TOOL_INPUT
            : b.type === 'thinking'
              ? ''
              : CLEARED_TOOL_RESULT
          : null,
    };
    const line = b.source?.line ?? b.location?.recordLine;
    if (line !== undefined) d.line = line;
    if (b.type === 'tool_use') {
      d.toolUseId = b.id;
      d.toolName = b.name;
    } else if (b.type === 'tool_result') {
      d.toolUseId = b.toolUseId;
      const call = calls.get(b.toolUseId);
      if (call) {
        d.toolName = call.name;
        d.toolArgs = blockText(call);
      }
    }
    return d;
  });
  return { type: 'details', messageIndex, blocks, events };
}

export interface SourcePosition {
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
}

/** Where "Reveal in source" goes: the block's own range, else its record's line, else the message's. */
export function sourcePosition(
  transcript: Transcript,
  messageIndex: number,
  blockIndex?: number,
): SourcePosition | null {
  const message = transcript.messages[messageIndex];
  if (!message) return null;
  const block = blockIndex !== undefined ? message.blocks[blockIndex] : undefined;
  const range = block?.source ?? message.source;
  if (range)
    return { line: range.line, column: range.column, endLine: range.endLine, endColumn: range.endColumn };
  const line = block?.location?.recordLine ?? lineOf(message);
  return line !== undefined ? { line, column: 1 } : null;
}

/** The provider of the session's models, when its model is known. */
function providerOf(transcript: Transcript): { provider?: 'anthropic' | 'openai' } {
  const provider = sessionKindOf(transcript, AUTO_MODEL).provider;
  return provider === 'anthropic' || provider === 'openai' ? { provider } : {};
}
