// Claude Code session logs (`~/.claude/projects/<project>/<session>.jsonl`): one record per line, forming a
// tree through `uuid`/`parentUuid`. The conversation shown is the active branch; one assistant reply is spread
// over several lines sharing `message.id`; compactions, sub-agents and bookkeeping records stay visible.

import { pushAll } from '../arrays';
import type {
  Block,
  Conversation,
  Marker,
  Message,
  RecordedReply,
  RecordedUsage,
  Reload,
  SourceRange,
  Transcript,
} from '../model';
import { isRealPrompt } from '../sessionTitle';
import { anthropicContent, anthropicNested } from './anthropicBlocks';
import { isObject, str } from './json';
import { brokenLineMarker, type JsonlRecord, readJsonl, unknownRecordMarker } from './jsonl';
import { mostFrequent } from './mostFrequent';
import { contentText, flatPrompt } from './sessionHead';
import { joinRanges } from './text';
import { Diagnostics, type FormatAdapter, type SessionHeadFacts, type Sniff, type Verdict } from './types';
import {
  isContextTokens,
  MAX_CONTEXT_TOKENS,
  reportUsageProblems,
  shownFigure,
  tokenFigure,
  type UsageProblem,
  valuePosition,
} from './usage';

/** Record types Claude Code writes that are not conversation messages: shown as markers, never guessed at. */
const META_RECORD_TYPES = new Set([
  'summary',
  'file-history-snapshot',
  'queue-operation',
  'last-prompt',
  'custom-title',
  'progress',
  'attachment',
]);
const CLAUDE_CODE_TYPES = new Set(['user', 'assistant', 'system', ...META_RECORD_TYPES]);

/** One record of the log. Every entry has every field (in one order) so that the hot loops over tens of
 * thousands of records see one object shape. */
interface Entry {
  order: number;
  kind: 'turn' | 'marker';
  uuid: string | undefined;
  parentUuid: string | undefined;
  /** Set on `compact_boundary` records, whose `parentUuid` is null: the branch continues through it. */
  logicalParentUuid: string | undefined;
  sidechain: boolean;
  agentId: string | undefined;
  /** On the branch shown (set by `activeBranch`). */
  shown: boolean;
  /** The last main-thread turn before this record in file order: where the session continues past a compaction
   * whose parent is not in the file, and what a slash command really follows. */
  prevTurn: Entry | undefined;
  /** A slash command's records (`/model`, `/clear`…): the runtime hangs them off an older parent, yet the
   * conversation goes on from the turn before them. */
  localCommand: boolean;
  /** A compaction (`compact_boundary`, or an `isCompactSummary` user record): the session goes on from before it. */
  compaction: boolean;
  /** A `progress` record (a hook or tool reporting while it runs): bookkeeping, never a turn of its own. */
  progress: boolean;
  /** The index of the message this record is part of (set by `buildMessages`), or -1. */
  message: number;
  role: 'user' | 'assistant';
  msgId: string | undefined;
  model: string | undefined;
  source: SourceRange | undefined;
  blocks: Block[];
  usage: RecordedUsage | undefined;
  timestamp: string | undefined;
  flags: string[];
  compactSummary: boolean;
  /** A user record whose content is only tool_result blocks (the runtime writes one per tool output). */
  onlyToolResults: boolean;
  marker: Omit<Marker, 'beforeMessage'> | undefined;
  /** On a `microcompact_boundary` record: the tool calls whose results the runtime cleared from then on. */
  clearedToolIds: string[] | undefined;
  /** A sub-agent's message as a `progress` record (`agent_progress`) carries it, not a record of its own. */
  fromProgress: boolean;
  /** The server-side compaction passes the reply's request billed beside it (`usage.iterations`). */
  compactionUsage: RecordedUsage | undefined;
}

function newEntry(order: number, r: Record<string, unknown> | undefined): Entry {
  return {
    order,
    kind: 'marker',
    uuid: r ? str(r.uuid) : undefined,
    parentUuid: r ? str(r.parentUuid) : undefined,
    logicalParentUuid: r ? str(r.logicalParentUuid) : undefined,
    sidechain: r?.isSidechain === true,
    agentId: r ? str(r.agentId) : undefined,
    shown: false,
    prevTurn: undefined,
    localCommand: false,
    compaction: false,
    progress: false,
    message: -1,
    role: 'user',
    msgId: undefined,
    model: undefined,
    source: undefined,
    blocks: [],
    usage: undefined,
    timestamp: undefined,
    flags: [],
    compactSummary: false,
    onlyToolResults: false,
    marker: undefined,
    clearedToolIds: undefined,
    fromProgress: false,
    compactionUsage: undefined,
  };
}

function detect(sniff: Sniff): Verdict {
  let turns = 0;
  let meta = 0;
  for (const r of sniff.records) {
    const type = str(r.type);
    if ((type === 'user' || type === 'assistant') && isObject(r.message) && ('uuid' in r || 'sessionId' in r))
      turns++;
    else if (
      type &&
      CLAUDE_CODE_TYPES.has(type) &&
      ('sessionId' in r || 'leafUuid' in r || 'uuid' in r || 'operation' in r || 'snapshot' in r)
    )
      meta++;
  }
  if (turns > 0)
    return {
      ok: true,
      score: 10 + turns,
      reason: `JSONL records of type user/assistant with uuid/parentUuid and a message object: a Claude Code session (${turns} of the first ${sniff.records.length} records)`,
    };
  if (meta > 0 && meta === sniff.records.length)
    return {
      ok: true,
      score: 5,
      reason: `JSONL records of Claude Code's bookkeeping types (summary, system, queue-operation…) and no conversation yet`,
    };
  const first = sniff.records[0];
  return {
    ok: false,
    reason: first
      ? `no record looks like {type: "user"|"assistant", uuid, parentUuid, message} (the first record has keys ${keyList(first)})`
      : 'no line of the file is a JSON object',
  };
}

export function keyList(r: Record<string, unknown>): string {
  const keys = Object.keys(r);
  return `[${keys.slice(0, 8).join(', ')}${keys.length > 8 ? ', …' : ''}]`;
}

function usageOf(value: unknown, report?: UsageProblem): RecordedUsage | undefined {
  if (!isObject(value)) return undefined;
  const usage: RecordedUsage = {
    inputTokens: tokenFigure(value, 'input_tokens', report),
    outputTokens: tokenFigure(value, 'output_tokens', report),
    cacheReadInputTokens: tokenFigure(value, 'cache_read_input_tokens', report),
    cacheCreationInputTokens: tokenFigure(value, 'cache_creation_input_tokens', report),
  };
  // Which cache lifetime the writes used (Claude Code 2.x writes most with the 1-hour one).
  if (isObject(value.cache_creation))
    usage.cacheCreation1hInputTokens = tokenFigure(
      value.cache_creation,
      'ephemeral_1h_input_tokens',
      (f, v) => report?.(`cache_creation.${f}`, v),
    );
  return usage;
}

/** What the server-side compaction passes of a request cost (Anthropic compaction: `usage.iterations` lists each
 * sampling pass; the top-level figures are the message's passes only, so a summarizing pass is billed on top of
 * them). Undefined when the request ran none. */
function compactionUsageOf(value: unknown, report?: UsageProblem): RecordedUsage | undefined {
  if (!isObject(value) || !Array.isArray(value.iterations)) return undefined;
  let total: RecordedUsage | undefined;
  value.iterations.forEach((it, i) => {
    if (!isObject(it) || it.type !== 'compaction') return;
    const u = usageOf(it, (f, v) => report?.(`iterations.${i}.${f}`, v)) as RecordedUsage;
    if (!total) {
      total = u;
      return;
    }
    total.inputTokens += u.inputTokens;
    total.outputTokens += u.outputTokens;
    total.cacheReadInputTokens += u.cacheReadInputTokens;
    total.cacheCreationInputTokens += u.cacheCreationInputTokens;
    if (u.cacheCreation1hInputTokens !== undefined)
      total.cacheCreation1hInputTokens =
        (total.cacheCreation1hInputTokens ?? 0) + u.cacheCreation1hInputTokens;
  });
  return total;
}

/** Records a slash command leaves: the caveat, the command line, its output (user records), or a system record. */
const LOCAL_COMMAND =
  /^\s*<(local-command-caveat|command-name|command-message|local-command-stdout|local-command-stderr)>/;
function isLocalCommand(type: string, r: Record<string, unknown>, blocks: Block[]): boolean {
  if (type === 'system') return str(r.subtype) === 'local_command';
  if (type !== 'user') return false;
  const first = blocks[0];
  return first?.type === 'text' && LOCAL_COMMAND.test(first.text);
}

/** A `microcompact_boundary` record's cleared tool calls: from it on, the runtime sends their results as a short
 * placeholder, not their content. */
function clearedToolIds(type: string, r: Record<string, unknown>): string[] | undefined {
  if (type !== 'system' || str(r.subtype) !== 'microcompact_boundary') return undefined;
  const meta = r.microcompactMetadata;
  if (!isObject(meta) || !Array.isArray(meta.compactedToolIds)) return undefined;
  return meta.compactedToolIds.filter((id): id is string => typeof id === 'string');
}

function markerOf(
  rec: JsonlRecord,
  type: string,
  bytes: Uint8Array,
  diags: Diagnostics,
): Omit<Marker, 'beforeMessage'> {
  const r = rec.value;
  if (type === 'system') {
    const subtype = str(r.subtype) ?? '';
    if (subtype === 'compact_boundary') {
      const meta = isObject(r.compactMetadata) ? r.compactMetadata : {};
      const preTokens = contextCount(meta.preTokens, rec, bytes, diags);
      const pre = preTokens !== undefined ? `, ${preTokens} tokens before` : '';
      const marker: Omit<Marker, 'beforeMessage'> = {
        kind: 'compaction',
        label: 'compact_boundary',
        source: rec.source,
        text: `compaction (${str(meta.trigger) ?? 'unknown trigger'}${pre})`,
      };
      if (preTokens !== undefined) marker.preTokens = preTokens;
      return marker;
    }
    const cleared = clearedToolIds(type, r);
    if (cleared) {
      const meta = r.microcompactMetadata as Record<string, unknown>;
      const saved = typeof meta.tokensSaved === 'number' ? `, ${meta.tokensSaved} tokens saved` : '';
      return {
        kind: 'meta-record',
        label: `system:${subtype}`,
        source: rec.source,
        text: `microcompact: ${cleared.length} older tool results cleared from the requests after this${saved}`,
      };
    }
    return {
      kind: 'meta-record',
      label: subtype ? `system:${subtype}` : 'system',
      source: rec.source,
      text: str(r.content) ?? '',
    };
  }
  if (META_RECORD_TYPES.has(type)) {
    const text =
      str(r.summary) ?? str(r.content) ?? str(r.lastPrompt) ?? str(r.operation) ?? str(r.customTitle) ?? '';
    return { kind: 'meta-record', label: type, source: rec.source, text };
  }
  return unknownRecordMarker(type, rec.source, diags);
}

/** A compaction's `compactMetadata.preTokens`, the agent's count of its context then: the replay compacts where it
 * says, so a figure out of range (1e308 compacted a short session; -5 never did) is reported and not used. */
function contextCount(
  value: unknown,
  rec: JsonlRecord,
  bytes: Uint8Array,
  diags: Diagnostics,
): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (isContextTokens(value)) return value;
  const at = valuePosition(bytes, rec.span, ['compactMetadata', 'preTokens']);
  diags.add(
    'warning',
    'figure-out-of-range',
    `compactMetadata.preTokens is ${shownFigure(value)}, not a context size (a whole number from 1 to ${MAX_CONTEXT_TOKENS}): the compaction is kept, the count is not used`,
    at.line,
    at.column,
  );
  return undefined;
}

function readRecords(bytes: Uint8Array, diags: Diagnostics) {
  const entries: Entry[] = [];
  readJsonl(
    bytes,
    diags,
    (rec) => {
      const r = rec.value;
      const type = str(r.type) ?? '';
      const e = newEntry(entries.length, r);
      e.source = rec.source;
      const message = r.message;
      if ((type === 'user' || type === 'assistant') && isObject(message)) {
        e.kind = 'turn';
        e.role = type;
        e.blocks = anthropicContent(
          message.content,
          {
            recordStart: rec.span.start,
            recordEnd: rec.span.end,
            recordLine: rec.span.index + 1,
            path: ['message', 'content'],
          },
          () => rec.source,
          diags,
        );
        if (r.isMeta === true) e.flags.push('isMeta');
        if (r.isCompactSummary === true) e.flags.push('isCompactSummary');
        if (r.isSidechain === true) e.flags.push('isSidechain');
        if (r.isApiErrorMessage === true) e.flags.push('isApiErrorMessage');
        e.compactSummary = r.isCompactSummary === true;
        e.onlyToolResults =
          type === 'user' && e.blocks.length > 0 && e.blocks.every((b) => b.type === 'tool_result');
        e.msgId = str(message.id);
        e.timestamp = str(r.timestamp);
        e.localCommand = isLocalCommand(type, r, e.blocks);
        e.compaction = e.compactSummary;
        if (type === 'assistant') {
          const report = reportUsageProblems(diags, bytes, rec.span, ['message', 'usage']);
          e.usage = usageOf(message.usage, report);
          e.compactionUsage = compactionUsageOf(message.usage, report);
          const m = str(message.model);
          // `<synthetic>`: a reply the runtime wrote itself (an API error, an interruption), not a model's.
          if (m && !m.startsWith('<')) e.model = m;
          else if (m) e.flags.push('synthetic');
        }
      } else {
        e.marker = markerOf(rec, type, bytes, diags);
        e.localCommand = isLocalCommand(type, r, e.blocks);
        e.compaction = type === 'system' && str(r.subtype) === 'compact_boundary';
        e.progress = type === 'progress';
        e.clearedToolIds = clearedToolIds(type, r);
      }
      entries.push(e);
      if (e.progress) {
        const sub = agentProgressTurn(rec, entries.length, diags);
        if (sub) entries.push(sub);
      }
    },
    (line) => {
      const { beforeMessage: _, ...marker } = brokenLineMarker(line, 0);
      const e = newEntry(entries.length, undefined);
      e.source = line.source;
      e.marker = marker;
      entries.push(e);
    },
    'toolUseResult',
  );
  return { entries };
}

/** The sub-agent message an `agent_progress` record carries (Claude Code 2.1.x before sub-agents had files of their
 * own in the session's folder; the Task tool's calls are nowhere else in the file): a turn of the sub-agent's
 * conversation, keyed by its `agentId`. Its usage is left to the sub-agent's own file (where the runtime wrote it,
 * and where usage readers count it): counted here as well, it would be paid twice. */
function agentProgressTurn(rec: JsonlRecord, order: number, diags: Diagnostics): Entry | undefined {
  const data = rec.value.data;
  if (!isObject(data) || data.type !== 'agent_progress' || !isObject(data.message)) return undefined;
  const wrapped = data.message;
  const role = str(wrapped.type);
  const message = wrapped.message;
  if ((role !== 'user' && role !== 'assistant') || !isObject(message)) return undefined;
  const e = newEntry(order, undefined);
  e.kind = 'turn';
  e.role = role;
  e.sidechain = true;
  e.fromProgress = true;
  e.agentId = str(data.agentId) ?? 'agent_progress';
  e.source = rec.source;
  e.timestamp = str(wrapped.timestamp);
  e.msgId = str(message.id);
  e.blocks = anthropicContent(
    message.content,
    {
      recordStart: rec.span.start,
      recordEnd: rec.span.end,
      recordLine: rec.span.index + 1,
      path: ['data', 'message', 'message', 'content'],
    },
    () => rec.source,
    diags,
  );
  e.flags.push('isSidechain');
  e.onlyToolResults =
    role === 'user' && e.blocks.length > 0 && e.blocks.every((b) => b.type === 'tool_result');
  const model = str(message.model);
  if (role === 'assistant' && model && !model.startsWith('<')) e.model = model;
  return e;
}

/** Marks the records shown for one conversation: the chain the agent really sent, from `leaf` back to the
 * first record, plus what the runtime writes beside it (parallel tool calls of one reply are siblings in the tree,
 * and so are their results). The chain goes on through compactions of every generation (a `compact_boundary`
 * with or without its logical parent in the file; a 1.x `isCompactSummary` with no parent) and through slash
 * commands that hang off an older parent, and past the hook progress chains older runtimes hung off a turn's first
 * tool call; only true rewinds and edits stay off the branch. */
function activeBranch(leaf: Entry, group: Entry[], byUuid: Map<string, Entry>, diags: Diagnostics): Entry[] {
  const replyIds = new Set<string>();
  const chain: Entry[] = [];
  let cur: Entry | undefined = leaf;
  while (cur && !cur.shown) {
    cur.shown = true;
    chain.push(cur);
    if (cur.kind === 'turn' && cur.role === 'assistant' && cur.msgId) replyIds.add(cur.msgId);
    const parent: string | undefined = cur.parentUuid ?? cur.logicalParentUuid;
    let next: Entry | undefined = parent ? byUuid.get(parent) : undefined;
    if (next && cur.localCommand && cur.prevTurn && next.order < cur.prevTurn.order && !next.localCommand)
      next = cur.prevTurn;
    else if (next && cur.progress && !next.progress && cur.prevTurn && next.order < cur.prevTurn.order)
      // Before 2.1.83 the runtime chained the hook progress records of a whole turn off its first tool call and
      // hung the next prompt off the last of them: the turns after that call are a sibling in the tree, yet they
      // were sent. The conversation goes on from the last turn written before the chain.
      next = cur.prevTurn;
    else if (!next && cur.compaction) next = cur.prevTurn;
    else if (!next && parent && cur.kind === 'turn' && cur.source) {
      // An id is 36 characters; a damaged one may be megabytes: quoted short, and keyed short as well.
      const id = parent.length > 80 ? `${parent.slice(0, 60)}… (${parent.length} characters)` : parent;
      diags.once(
        `parent:${id}`,
        'info',
        'missing-parent',
        `parentUuid ${id} is not in this file: the branch starts here`,
        cur.source,
      );
    }
    cur = next;
  }
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const e of group) {
    if (e.kind !== 'turn') continue;
    if (!e.shown && e.role === 'assistant' && e.msgId && replyIds.has(e.msgId) && hangsOffBranch(e, byUuid))
      e.shown = true;
    if (!e.shown) continue;
    for (const b of e.blocks) {
      if (b.type === 'tool_use') calls.add(b.id);
      else if (b.type === 'tool_result') answered.add(b.toolUseId);
    }
  }
  for (const e of group) {
    if (e.kind !== 'turn' || !e.onlyToolResults || e.shown) continue;
    const ids = e.blocks.map((b) => (b.type === 'tool_result' ? b.toolUseId : ''));
    if (ids.every((id) => calls.has(id) && !answered.has(id))) {
      e.shown = true;
      for (const id of ids) answered.add(id);
    }
  }
  return chain;
}

/** Conversations the session began under a new root before the one it ends in (plan mode's "clear context and
 * implement" starts the implementation as a new root in the same file; so may a resumed session): each was sent,
 * so each is shown and replayed, its own branch from its last turn. A root whose replies are on a branch already
 * shown is not one: it is the conversation the runtime wrote again under a new root (same replies, new uuids), shown
 * once from the copy. Only prompts written beside another under one parent (a rewind, an edit) stay off. Returns
 * the chain of each, in file order. */
function earlierConversations(main: Entry[], byUuid: Map<string, Entry>, diags: Diagnostics): Entry[][] {
  const children = new Map<string, Entry[]>();
  for (const e of main) {
    if (!e.parentUuid) continue;
    const list = children.get(e.parentUuid);
    if (list) list.push(e);
    else children.set(e.parentUuid, [e]);
  }
  const shownReplies = new Set<string>();
  for (const e of main) if (e.shown && e.role === 'assistant' && e.msgId) shownReplies.add(e.msgId);
  const out: Entry[][] = [];
  for (const root of main) {
    if (root.shown || !typedPrompt(root) || (root.parentUuid && byUuid.has(root.parentUuid))) continue;
    const tree: Entry[] = [];
    const seen = new Set<Entry>();
    const stack = [root];
    for (let e = stack.pop(); e; e = stack.pop()) {
      if (seen.has(e)) continue;
      seen.add(e);
      tree.push(e);
      if (e.uuid) pushAll(stack, children.get(e.uuid) ?? []);
    }
    const replies = tree.filter((e) => e.kind === 'turn' && e.role === 'assistant' && e.msgId);
    if (replies.length === 0 || replies.some((e) => shownReplies.has(e.msgId as string))) continue;
    if (tree.some((e) => e.shown)) continue;
    let last = root;
    for (const e of tree) if (e.kind === 'turn' && e.order > last.order) last = e;
    out.push(activeBranch(last, main, byUuid, diags));
    for (const e of tree) if (e.shown && e.role === 'assistant' && e.msgId) shownReplies.add(e.msgId);
  }
  return out;
}

/** Where each conversation after the first begins: from there on the requests no longer send the ones before. */
function newConversations(chains: Entry[][], diags: Diagnostics): { reloads: Reload[]; starts: Entry[] } {
  const firsts: Entry[] = [];
  for (const chain of chains) {
    let first: Entry | undefined;
    for (const e of chain) if (e.message >= 0 && (!first || e.message < first.message)) first = e;
    if (first) firsts.push(first);
  }
  firsts.sort((a, b) => a.message - b.message);
  const reloads: Reload[] = [];
  for (const first of firsts.slice(1)) {
    const forgotten = Array.from({ length: first.message }, (_, m) => m);
    reloads.push({ at: first.message, forgotten });
    const source = first.source as SourceRange;
    diags.add(
      'info',
      'new-conversation',
      `a new conversation begins here under a new root (plan mode's "clear context", or a new start in the same session): the requests from here on no longer send the ${first.message} messages before it`,
      source.line,
      source.column,
    );
  }
  return { reloads, starts: firsts.slice(1) };
}

/** Whether a record of a reply on the branch hangs off the branch: the first turn above it that belongs to another
 * reply is shown (a record with no such turn above it counts as on it). A reply's records are siblings when it
 * called tools in parallel; a copy of the conversation under a new root (the runtime writes one, same replies and
 * new uuids, when a session is resumed from an earlier point) holds the same replies, and its original is not sent
 * again: showing both doubled every request after it. */
function hangsOffBranch(e: Entry, byUuid: Map<string, Entry>): boolean {
  let parent = e.parentUuid ? byUuid.get(e.parentUuid) : undefined;
  // Bounded: a damaged file may loop.
  for (let steps = 0; parent && steps < 10_000; steps++) {
    if (parent.shown) return true;
    if (parent.kind === 'turn' && parent.msgId !== e.msgId) return false;
    parent = parent.parentUuid ? byUuid.get(parent.parentUuid) : undefined;
  }
  return true;
}

function firstLine(text: string): string {
  const line = text.trimStart().split('\n', 1)[0];
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** Links each record of a conversation to the last turn before it (see `Entry.prevTurn`). */
function linkPrevTurns(group: Entry[]): void {
  let prev: Entry | undefined;
  for (const e of group) {
    e.prevTurn = prev;
    if (e.kind === 'turn') prev = e;
  }
}

/** The model that answered most replies shown (a session that switched models is named after its main one). */
function mainModel(group: Entry[]): string | undefined {
  const seen = new Set<string>();
  const models: string[] = [];
  for (const e of group) {
    if (!e.shown || !e.model || (e.msgId && seen.has(e.msgId))) continue;
    if (e.msgId) seen.add(e.msgId);
    models.push(e.model);
  }
  return mostFrequent(models);
}

/** Every reply with usage, once per reply (its last line carries the final output count), in file order. */
function recordedReplies(entries: Entry[], threadOf: (e: Entry) => string): RecordedReply[] {
  const byReply = new Map<string, RecordedReply>();
  const passes = new Map<RecordedReply, RecordedReply>();
  const out: RecordedReply[] = [];
  for (const e of entries) {
    if (e.kind !== 'turn' || e.role !== 'assistant' || !e.usage || !e.source) continue;
    const reply: RecordedReply = {
      thread: threadOf(e),
      onBranch: e.shown,
      usage: e.usage,
      line: e.source.line,
    };
    if (e.model) reply.model = e.model;
    if (e.timestamp) reply.timestamp = e.timestamp;
    const key = e.msgId ? `${reply.thread}:${e.msgId}` : undefined;
    let target = key ? byReply.get(key) : undefined;
    if (target) {
      target.usage = e.usage;
      target.onBranch ||= e.shown;
    } else {
      target = reply;
      if (key) byReply.set(key, reply);
      out.push(reply);
    }
    if (!e.compactionUsage) continue;
    // The reply's lines repeat its usage: the pass is counted once, as the last line says it.
    const pass = passes.get(target);
    if (pass) {
      pass.usage = e.compactionUsage;
      pass.onBranch = target.onBranch;
      continue;
    }
    const added: RecordedReply = {
      ...target,
      usage: e.compactionUsage,
      line: e.source.line,
      compaction: true,
    };
    passes.set(target, added);
    out.push(added);
  }
  return out;
}

function lastTurn(group: Entry[]): Entry | undefined {
  for (let i = group.length - 1; i >= 0; i--) if (group[i].kind === 'turn') return group[i];
  return undefined;
}

/** Builds messages from the shown records in file order; `onSkipped` sees each record left off the branch. */
function buildMessages(
  group: Entry[],
  onMarker: (marker: Omit<Marker, 'beforeMessage'>, messages: Message[]) => void,
  onSkipped: (record: Entry, messages: Message[]) => void,
): Message[] {
  const messages: Message[] = [];
  /** Per message index: the reply id of an assistant message; whether a user message holds only results. */
  const replyOf: (string | undefined)[] = [];
  const onlyResults: boolean[] = [];
  let lastAssistant: Message | undefined;
  for (const e of group) {
    if (e.kind === 'marker') {
      if (e.marker) onMarker(e.marker, messages);
      continue;
    }
    const source = e.source as SourceRange;
    if (!e.shown) {
      onSkipped(e, messages);
      continue;
    }
    if (e.compactSummary) {
      // The summary is what the requests after a compaction start with: a message of its own, after the marker
      // that says a compaction happened (1.x writes no boundary record, so the summary says it).
      const text = e.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
      onMarker({ kind: 'compaction', label: 'isCompactSummary', source, text: firstLine(text) }, messages);
    }
    const last = messages[messages.length - 1];
    let target: Message | undefined;
    if (e.role === 'assistant' && e.msgId && lastAssistant && replyOf[lastAssistant.index] === e.msgId) {
      // Same reply: either the previous message, or only its tool results were written in between.
      let between = true;
      for (let i = lastAssistant.index + 1; i < messages.length; i++) between &&= onlyResults[i];
      if (between) target = lastAssistant;
    } else if (e.role === 'user' && e.onlyToolResults && last && onlyResults[last.index]) {
      target = last; // one tool-result message per batch of results, as the API request holds them
    }
    if (target) {
      e.message = target.index;
      for (const b of e.blocks) target.blocks.push(b);
      const src = target.source as SourceRange;
      if (source.end > src.end) target.source = joinRanges(src, source);
      for (const f of e.flags) {
        target.flags ??= [];
        if (!target.flags.includes(f)) target.flags.push(f);
      }
      if (e.usage) target.usage = e.usage; // the reply's last line carries the final output count
      continue;
    }
    const msg: Message = { index: messages.length, role: e.role, blocks: e.blocks.slice(), source };
    e.message = msg.index;
    if (e.timestamp) msg.timestamp = e.timestamp;
    if (e.model) msg.model = e.model;
    if (e.usage) msg.usage = e.usage;
    if (e.flags.length) msg.flags = e.flags.slice();
    messages.push(msg);
    replyOf.push(e.role === 'assistant' ? e.msgId : undefined);
    onlyResults.push(e.role === 'user' && e.onlyToolResults);
    if (e.role === 'assistant') lastAssistant = msg;
  }
  return messages;
}

function parse(sniff: Sniff, reason: string): Transcript {
  const diags = new Diagnostics();
  const { entries } = readRecords(sniff.bytes, diags);
  const byUuid = new Map<string, Entry>();
  for (const e of entries) if (e.uuid && !byUuid.has(e.uuid)) byUuid.set(e.uuid, e);

  // Sub-agent records: one conversation per agent (or per root when older files have no agentId).
  // Roots are remembered along every path walked, so grouping 20,000 records is linear, not quadratic.
  const roots = new Map<Entry, string>();
  const rootOf = (e: Entry): string => {
    const path: Entry[] = [];
    const onPath = new Set<Entry>();
    let cur: Entry = e;
    let root = roots.get(cur);
    while (root === undefined) {
      path.push(cur);
      onPath.add(cur);
      const p = cur.parentUuid ? byUuid.get(cur.parentUuid) : undefined;
      if (!p?.sidechain || onPath.has(p)) root = cur.uuid ?? `line-${cur.order}`;
      else {
        cur = p;
        root = roots.get(cur);
      }
    }
    for (const x of path) roots.set(x, root);
    return root;
  };
  const sideGroups = new Map<string, Entry[]>();
  const main: Entry[] = [];
  for (const e of entries) {
    if (e.sidechain && e.kind === 'turn') {
      const id = e.agentId ?? rootOf(e);
      const g = sideGroups.get(id);
      if (g) g.push(e);
      else sideGroups.set(id, [e]);
    } else main.push(e);
  }
  const sidechains: Conversation[] = [];
  const sideFirst = new Map<Entry, Conversation>();
  const threadOf = new Map<Entry, string>();
  for (const [id, all] of sideGroups) {
    // A sub-agent whose own records are in the file: the progress records' copies of its messages add nothing.
    const own = all.filter((e) => !e.fromProgress);
    const group = own.length > 0 ? own : all;
    for (const e of group) threadOf.set(e, id);
    linkPrevTurns(group);
    // Progress records hold no chain of their own: every message they carry was the sub-agent's, in file order.
    if (own.length === 0) for (const e of group) e.shown = true;
    else activeBranch(lastTurn(group) as Entry, group, byUuid, diags);
    const messages = buildMessages(
      group,
      () => {},
      () => {},
    );
    const conv: Conversation = own.length === 0 ? { id, messages, echoed: true } : { id, messages };
    sidechains.push(conv);
    sideFirst.set(group[0], conv);
  }

  const markers: Marker[] = [];
  linkPrevTurns(main);
  const leaf = lastTurn(main);
  const chains = leaf ? [activeBranch(leaf, main, byUuid, diags)] : [];
  if (leaf) pushAll(chains, earlierConversations(main, byUuid, diags));
  let offBranch: { marker: Marker; count: number } | undefined;
  const skipped: Entry[] = [];
  const clearedBy = new Map<object, string[]>();
  for (const e of main) if (e.marker && e.clearedToolIds) clearedBy.set(e.marker, e.clearedToolIds);
  const microcompacts: { at: number; ids: string[]; source: SourceRange }[] = [];
  const messages = buildMessages(
    main,
    (marker, msgs) => {
      markers.push({ ...marker, beforeMessage: msgs.length });
      const ids = clearedBy.get(marker);
      // The first request that sends the last message before the boundary is the first the clearing applies to
      // (a reload applies to the requests that send its `at` message and later ones).
      if (ids)
        microcompacts.push({ at: Math.max(0, msgs.length - 1), ids, source: marker.source as SourceRange });
    },
    (record, msgs) => {
      skipped.push(record);
      if (offBranch && offBranch.marker.beforeMessage === msgs.length) {
        offBranch.count++;
        offBranch.marker.source = joinRanges(
          offBranch.marker.source as SourceRange,
          record.source as SourceRange,
        );
        offBranch.marker.text = `${offBranch.count} records not on the active branch (an edited or abandoned turn)`;
      } else {
        const marker: Marker = {
          kind: 'meta-record',
          label: 'off-branch',
          beforeMessage: msgs.length,
          source: record.source,
          text: '1 record not on the active branch (an edited or abandoned turn)',
        };
        markers.push(marker);
        offBranch = { marker, count: 1 };
      }
    },
  );
  if (skipped.length > 0) offBranchWarning(skipped, main, diags);
  const conversations = newConversations(chains, diags);
  for (const first of conversations.starts)
    markers.push({
      kind: 'meta-record',
      label: 'new-conversation',
      beforeMessage: first.message,
      source: first.source,
      text: 'a new conversation in the same session: the earlier ones are no longer sent',
    });
  const reloads = [
    ...conversations.reloads,
    ...reloadsOf(main, byUuid, diags),
    ...microcompactReloads(messages, microcompacts, diags),
  ];
  let mainMessages = messages;
  let model = mainModel(main);
  if (mainMessages.length === 0 && main.every((e) => e.kind !== 'turn') && sidechains.length === 1) {
    // A sub-agent's own file (agent-*.jsonl): its one conversation is what the user opened. It stays in
    // `sidechains` too, so code that looks for sub-agents finds it.
    mainMessages = sidechains[0].messages;
    model = mainModel(sideGroups.values().next().value ?? []);
    diags.add(
      'info',
      'sidechain-only',
      `the file holds only the sub-agent conversation ${sidechains[0].id}: shown as the conversation`,
      1,
      1,
    );
  } else {
    // Where each sub-agent conversation began, so the main view shows that one ran.
    for (const [first, conv] of sideFirst) {
      const start = (first.source as SourceRange).start;
      const before = messages.findIndex((m) => (m.source?.start ?? 0) > start);
      markers.push({
        kind: 'meta-record',
        label: 'sidechain',
        beforeMessage: before === -1 ? messages.length : before,
        source: first.source,
        text: `sub-agent conversation ${conv.id}: ${conv.messages.length} messages`,
      });
    }
    markers.sort(
      (a, b) => a.beforeMessage - b.beforeMessage || (a.source?.start ?? 0) - (b.source?.start ?? 0),
    );
  }
  const transcript: Transcript = {
    format: 'claude-code',
    formatReason: reason,
    messages: mainMessages,
    markers,
    sidechains,
    diagnostics: diags.list,
    raw: sniff.bytes,
    replies: recordedReplies(entries, (e) => threadOf.get(e) ?? 'main'),
  };
  if (model) transcript.model = model;
  if (reloads.length > 0 && mainMessages === messages) transcript.reloads = reloads;
  return transcript;
}

/** A typed prompt (not a tool result, a hook's or slash command's record, a compaction summary). */
function typedPrompt(e: Entry): boolean {
  return (
    e.kind === 'turn' &&
    e.role === 'user' &&
    !e.onlyToolResults &&
    !e.localCommand &&
    !e.compactSummary &&
    !e.flags.includes('isMeta') &&
    e.blocks[0]?.type === 'text'
  );
}

/** Where the agent reloaded the conversation from this file. A prompt that hangs off a reply whose own
 * continuation (an unanswered tool call) was written before it is one: the runtime stopped mid-reply (closed,
 * crashed) and, restarted, rebuilt the conversation by walking the file's chain back from that reply, dropping the
 * call. From the prompt on, what that chain does not hold (the turns older runtimes left on a sibling of their hook
 * progress chains) is no longer sent, though it was before. */
function reloadsOf(main: Entry[], byUuid: Map<string, Entry>, diags: Diagnostics): Reload[] {
  const replyChildren = new Map<string, Entry[]>();
  for (const e of main) {
    if (e.kind !== 'turn' || e.role !== 'assistant' || !e.parentUuid) continue;
    const list = replyChildren.get(e.parentUuid);
    if (list) list.push(e);
    else replyChildren.set(e.parentUuid, [e]);
  }
  const out: Reload[] = [];
  for (const p of main) {
    if (!p.shown || !typedPrompt(p) || !p.parentUuid || p.message < 0) continue;
    const parent = byUuid.get(p.parentUuid);
    if (parent?.kind !== 'turn' || parent.role !== 'assistant') continue;
    if (!replyChildren.get(p.parentUuid)?.some((c) => c.order < p.order)) continue;
    const chain = new Set<Entry>();
    for (
      let e: Entry | undefined = p;
      e && !chain.has(e);
      e = e.parentUuid ? byUuid.get(e.parentUuid) : undefined
    )
      chain.add(e);
    const kept = new Set<number>();
    for (const e of chain) if (e.message >= 0) kept.add(e.message);
    const forgotten: number[] = [];
    for (let m = 0; m < p.message; m++) if (!kept.has(m)) forgotten.push(m);
    if (forgotten.length === 0) continue;
    out.push({ at: p.message, forgotten });
    const source = p.source as SourceRange;
    diags.add(
      'info',
      'reload',
      `the agent reloaded the conversation from this file here (a reply was cut off before its tool ran): ` +
        `${forgotten.length} earlier messages its chain does not hold are no longer sent from here on`,
      source.line,
      source.column,
    );
  }
  return out;
}

/** Microcompactions: from each boundary on, the requests send the cleared results as a placeholder of a few
 * tokens. Clearings add up (a result cleared at one boundary stays cleared at the next), and go result by result:
 * a message whose results are all cleared is left out (the placeholders' few tokens aside), one that also holds
 * others keeps them and sends only its cleared results as placeholders. */
function microcompactReloads(
  messages: readonly Message[],
  microcompacts: readonly { at: number; ids: string[]; source: SourceRange }[],
  diags: Diagnostics,
): Reload[] {
  // Where each call's result is, as [message, block]: a boundary looks at those of its own ids, not at every message
  // before it, and counts per message the results cleared so far (thousands of boundaries made a scan quadratic).
  const holders = new Map<string, number[]>();
  messages.forEach((m, i) => {
    if (m.role !== 'user') return;
    m.blocks.forEach((b, j) => {
      if (b.type !== 'tool_result') return;
      const list = holders.get(b.toolUseId);
      if (!list) holders.set(b.toolUseId, [i, j]);
      else list.push(i, j);
    });
  });
  /** Per id, how many of its [message, block] places are counted as cleared (they come in message order). */
  const counted = new Map<string, number>();
  const clearedIn = new Map<number, number>();
  const out: Reload[] = [];
  for (const { at, ids, source } of microcompacts) {
    const hit: number[] = [];
    for (const id of ids) {
      const places = holders.get(id) ?? [];
      let k = counted.get(id) ?? 0;
      for (; k < places.length && places[k] < at; k += 2) {
        clearedIn.set(places[k], (clearedIn.get(places[k]) ?? 0) + 1);
        hit.push(places[k], places[k + 1]);
      }
      counted.set(id, k);
    }
    const whole = new Set<number>();
    const blocks: [number, number][] = [];
    for (let k = 0; k < hit.length; k += 2) {
      const m = hit[k];
      if (clearedIn.get(m) === messages[m].blocks.length) whole.add(m);
      else blocks.push([m, hit[k + 1]]);
    }
    const forgotten = [...whole].sort((a, b) => a - b);
    blocks.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    if (forgotten.length === 0 && blocks.length === 0) continue;
    const reload: Reload = { at, forgotten };
    if (blocks.length > 0) reload.cleared = blocks;
    out.push(reload);
    diags.add(
      'info',
      'microcompact',
      `the agent cleared ${ids.length} older tool results here (microcompact): the ${forgotten.length} messages ` +
        `holding only cleared results are no longer sent from here on` +
        (blocks.length > 0
          ? `, and ${blocks.length} results in messages holding others are sent cleared`
          : ''),
      source.line,
      source.column,
    );
  }
  return out;
}

/** Says which lines the active branch leaves out and how many paid replies they hold. */
function offBranchWarning(skipped: Entry[], group: Entry[], diags: Diagnostics): void {
  const first = skipped[0].source as SourceRange;
  const last = skipped[skipped.length - 1].source as SourceRange;
  const shownReplies = new Set<string>();
  for (const e of group)
    if (e.shown && e.kind === 'turn' && e.role === 'assistant' && e.msgId) shownReplies.add(e.msgId);
  const replies = new Set(skipped.filter((e) => e.role === 'assistant').map((e) => e.msgId ?? `#${e.order}`));
  const again = [...replies].filter((id) => shownReplies.has(id)).length;
  const lines = first.line === last.endLine ? `line ${first.line}` : `lines ${first.line}–${last.endLine}`;
  const other = replies.size - again;
  const why =
    again === 0
      ? `a turn the user rewound or edited. Their ${other} replies are not replayed; their recorded usage still counts`
      : 'a turn the user rewound or edited, or a conversation the runtime wrote again under a new root (as when a ' +
        `session is resumed): ${again} of their replies are on the branch in that copy` +
        `${other > 0 ? `, the other ${other} are not replayed` : ''}; their recorded usage counts once`;
  diags.add(
    'warning',
    'off-branch',
    `${skipped.length} records (${lines}) are not on the active branch: ${why} in what the session cost`,
    first.line,
    first.column,
  );
}

/** Project, session and first prompt from a log's first records. A sub-agent's file holds only sidechain records;
 * its "prompt" is the task its parent gave it. */
function sessionHead(recs: Record<string, unknown>[]): SessionHeadFacts {
  let cwd: string | undefined;
  let sessionId: string | undefined;
  const subAgent = recs.some((r) => r.type === 'user' || r.type === 'assistant')
    ? recs.filter((r) => r.type === 'user' || r.type === 'assistant').every((r) => r.isSidechain === true)
    : false;
  for (const r of recs) {
    if (typeof r.cwd === 'string') cwd ??= r.cwd;
    if (typeof r.sessionId === 'string') sessionId ??= r.sessionId;
    if (r.type !== 'user' || r.isMeta || (r.isSidechain && !subAgent) || r.isCompactSummary) continue;
    const text = contentText((r.message as { content?: unknown } | undefined)?.content);
    if (isRealPrompt(text)) return { prompt: flatPrompt(text), cwd, sessionId, subAgent };
  }
  return { prompt: '', cwd, sessionId, subAgent };
}

export const claudeCode: FormatAdapter<'claude-code'> = {
  id: 'claude-code',
  shape: 'jsonl',
  expected:
    'Claude Code session: JSONL records {type: "user"|"assistant"|"system"|…, uuid, parentUuid, sessionId, message}',
  detect,
  parse,
  nestedBlock: anthropicNested,
  wire: 'anthropic',
  toolOutputCopy: 'toolUseResult',
  tools: {
    floorTools: [
      'Read',
      'Grep',
      'Glob',
      'LS',
      'WebFetch',
      'NotebookRead',
      'mcp__playwright__*',
      'mcp__browser*',
    ],
    noSummaryTools: [
      'Read',
      'Grep',
      'Glob',
      'LS',
      'TodoWrite',
      'Task',
      'mcp__playwright__*',
      'mcp__browser*',
    ],
    observationTools: [
      'mcp__playwright__browser_snapshot',
      'mcp__playwright__browser_take_screenshot',
      'mcp__puppeteer__puppeteer_screenshot',
      'mcp__computer-use__*',
    ],
  },
  session: {
    agent: 'Claude Code',
    // <project>/<session>.jsonl, and the sub-agents' files: <project>/agent-*.jsonl (older) or
    // <project>/<session>/subagents/agent-*.jsonl. The project folder name is the working directory with "/" as
    // "-"; the records' cwd is exact, the folder's name the fallback.
    location: { env: 'CLAUDE_CONFIG_DIR', home: '.claude', logs: 'projects', depth: 3 },
    head: sessionHead,
    groupBy: 'project',
    icon: 'sparkle',
    minHiddenPrefixTokens: 1000,
  },
};
