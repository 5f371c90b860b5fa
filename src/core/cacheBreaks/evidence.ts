// What the transcript shows between two requests that explains a cache break: a new conversation, a compaction, a
// microcompaction, a rewind, a reload, tools loaded or a command that changes the system prompt. Each finder looks
// only at the messages and markers from the previous request's end to this one's, and says where the prompt first
// differs.
import { minOf, pushAll } from '../arrays';
import type { Marker, Transcript } from '../model';
import type { BreakEvidence, ClearedResult } from './types';

/** The two requests compared: the previous one sent messages [prevStart, prevEnd), this one [start, end). */
export interface Between {
  prevStart: number;
  prevEnd: number;
  start: number;
  end: number;
}

/** A transcript's markers in the order of the message each sits before, by the list they come from (a list that
 * grew in place is sorted again): a long session has hundreds, and every break looks at those of its own span. */
const sortedMarkers = new WeakMap<readonly Marker[], { length: number; sorted: Marker[] }>();

/** The markers that sit before a message in (`after`, `upTo`], in the transcript's order. */
function markersWithin(t: Transcript, after: number, upTo: number): Marker[] {
  let kept = sortedMarkers.get(t.markers);
  if (!kept || kept.length !== t.markers.length) {
    kept = {
      length: t.markers.length,
      sorted: [...t.markers].sort((x, y) => x.beforeMessage - y.beforeMessage),
    };
    sortedMarkers.set(t.markers, kept);
  }
  const { sorted } = kept;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid].beforeMessage <= after) lo = mid + 1;
    else hi = mid;
  }
  const out: Marker[] = [];
  for (let i = lo; i < sorted.length && sorted[i].beforeMessage <= upTo; i++) out.push(sorted[i]);
  return out;
}

/** A marker written after the previous request and before this one's reply. */
function markersBetween(t: Transcript, b: Between, label: (l: string) => boolean): Marker[] {
  return markersWithin(t, b.prevEnd, b.end).filter((m) => label(m.label));
}

/** Plan mode's "clear context" or a new start in the same session: the earlier conversation is no longer sent. */
export function newConversation(t: Transcript, b: Between): BreakEvidence | undefined {
  const [m] = markersBetween(t, b, (l) => l === 'new-conversation');
  return m ? { cause: 'first', message: m.beforeMessage } : undefined;
}

/** Claude Code writes what started a compaction in its marker's text ("compaction (auto, …)"). */
const COMPACTION_TRIGGER = /^compaction \((auto|manual)\b/;

/** The request carries a compaction's summary instead of the older messages. */
export function compaction(t: Transcript, b: Between): BreakEvidence | undefined {
  if (b.start === b.prevStart) return undefined;
  const markers = markersWithin(t, b.start - 1, b.start).filter((m) => m.kind === 'compaction');
  const trigger = markers.map((m) => COMPACTION_TRIGGER.exec(m.text ?? '')?.[1]).find(Boolean);
  return trigger === 'auto' || trigger === 'manual'
    ? { cause: 'compaction', kind: trigger, message: b.start }
    : { cause: 'compaction', message: b.start };
}

/** The tool name of every call, by id. */
function toolNames(t: Transcript): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of t.messages)
    for (const block of m.blocks) if (block.type === 'tool_use') names.set(block.id, block.name);
  return names;
}

/** The results a reload clears: the messages it leaves out whole and the blocks it sends cleared. */
function clearedResults(t: Transcript, forgotten: number[], cleared: [number, number][]): ClearedResult[] {
  const names = toolNames(t);
  const out: ClearedResult[] = [];
  const add = (message: number, block: number) => {
    const b = t.messages[message]?.blocks[block];
    if (b?.type === 'tool_result') out.push({ message, block, tool: names.get(b.toolUseId) ?? 'unknown' });
  };
  for (const m of forgotten) for (let i = 0; i < (t.messages[m]?.blocks.length ?? 0); i++) add(m, i);
  for (const [m, i] of cleared) add(m, i);
  return out.sort((x, y) => x.message - y.message || x.block - y.block);
}

/** The reloads that take effect at this request: the first one to send their message `at`. */
function reloadsBetween(t: Transcript, b: Between) {
  return (t.reloads ?? []).filter((r) => r.at >= b.prevEnd && r.at < b.end);
}

/** A Claude Code microcompaction: older tool results sent as a placeholder from here on. */
export function microcompaction(t: Transcript, b: Between): BreakEvidence | undefined {
  if (markersBetween(t, b, (l) => l === 'system:microcompact_boundary').length === 0) return undefined;
  const cleared: ClearedResult[] = [];
  for (const r of reloadsBetween(t, b)) pushAll(cleared, clearedResults(t, r.forgotten, r.cleared ?? []));
  const first = cleared.length > 0 ? cleared[0].message : b.prevEnd;
  return { cause: 'compaction', kind: 'micro', message: first, cleared };
}

/** A turn rewound or edited (Claude Code's off-branch records, Codex's rollback): the branch differs from there. */
export function rewind(t: Transcript, b: Between): BreakEvidence | undefined {
  const found = markersBetween(t, b, (l) => l === 'off-branch' || l === 'event_msg:thread_rolled_back');
  if (found.length === 0) return undefined;
  const lines = found
    .map((m) => m.source)
    .filter((s) => s !== undefined)
    .map((s) => (s.line === s.endLine ? `${s.line}` : `${s.line}–${s.endLine}`));
  return {
    cause: 'rewind',
    message: minOf(found.map((m) => m.beforeMessage)),
    lines: lines.join(', '),
  };
}

/** The agent reloaded the conversation from its own log (a restart): what the log's chain leaves out is no longer
 * sent. Not a microcompaction (its reloads are the clearings) nor a new conversation. */
export function reload(t: Transcript, b: Between): BreakEvidence | undefined {
  if (
    markersBetween(t, b, (l) => l === 'system:microcompact_boundary' || l === 'new-conversation').length > 0
  )
    return undefined;
  const left = reloadsBetween(t, b).flatMap((r) => r.forgotten.filter((m) => m >= b.start));
  if (left.length === 0) return undefined;
  return {
    cause: 'rewrite',
    message: minOf(left),
    rule: `the agent reloaded the conversation from its log: ${left.length} messages it had sent are no longer sent`,
  };
}

/** The agent sends the model's reasoning back within a turn and drops it at the next prompt (Codex). */
export function reasoningDropped(t: Transcript, b: Between): BreakEvidence | undefined {
  if (!t.reasoningKeptWithinTurn) return undefined;
  let prompt = -1;
  for (let i = b.prevEnd; i < b.end && prompt < 0; i++) {
    if (isPrompt(t, i)) prompt = i;
  }
  if (prompt < 0) return undefined;
  // The turn the previous request was in began at the last prompt before it; its reasoning is what is dropped.
  let turn = b.prevEnd;
  while (turn > b.start && !isPrompt(t, turn)) turn--;
  let first = -1;
  for (let i = turn; i <= b.prevEnd && first < 0; i++)
    if (t.messages[i].role === 'assistant' && t.messages[i].blocks.some((x) => x.type === 'thinking'))
      first = i;
  if (first < 0) return undefined;
  return {
    cause: 'rewrite',
    message: first,
    rule: `the agent drops the last turn's reasoning at a new prompt (message ${prompt})`,
  };
}

/** A user message with text: a prompt, not only tool results. */
export function isPrompt(t: Transcript, i: number): boolean {
  const m = t.messages[i];
  return m.role === 'user' && m.blocks.some((x) => x.type === 'text');
}

/** Slash commands that change what the agent puts before the conversation (the system prompt names the model, the
 * MCP servers' instructions, the memory files, the working directories). */
const PROMPT_COMMANDS = /<command-name>\/(model|mcp|memory|add-dir|agents|output-style)<\/command-name>/;

/** The system prompt or tools changed, where the log shows it: tools loaded mid-session, or a command above. */
export function prefixChange(t: Transcript, b: Between): BreakEvidence | undefined {
  for (let i = Math.max(b.start, b.prevEnd); i < b.end; i++) {
    for (const block of t.messages[i].blocks) {
      if (block.type === 'tool_use' && block.loadsTools)
        return { cause: 'prefix-changed', message: i, what: `tools loaded mid-session by ${block.name}` };
      const command = block.type === 'text' ? PROMPT_COMMANDS.exec(block.text) : null;
      if (command)
        return {
          cause: 'prefix-changed',
          message: i,
          what: `/${command[1]} changes what precedes the conversation`,
        };
    }
  }
  return undefined;
}

/** Of the causes found at the same request, the one where the prompt differs first. */
export function earliest(found: (BreakEvidence | undefined)[]): BreakEvidence | undefined {
  let best: BreakEvidence | undefined;
  for (const e of found) if (e && (!best || at(e) < at(best))) best = e;
  return best;
}

function at(e: BreakEvidence): number {
  return 'message' in e ? e.message : Number.POSITIVE_INFINITY;
}
