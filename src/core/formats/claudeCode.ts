// Claude Code session logs (`~/.claude/projects/<project>/<session>.jsonl`): one record per line, forming a
// tree through `uuid`/`parentUuid`. The conversation shown is the active branch; one assistant reply is spread
// over several lines sharing `message.id`; compactions, sub-agents and bookkeeping records stay visible.
import type { Block, Conversation, Marker, Message, RecordedUsage, SourceRange, Transcript } from '../model';
import { anthropicContent, anthropicNested } from './anthropicBlocks';
import { isObject, str } from './json';
import { brokenLineMarker, type JsonlRecord, readJsonl, unknownRecordMarker } from './jsonl';
import { joinRanges } from './text';
import { Diagnostics, type FormatAdapter, type Sniff, type Verdict } from './types';

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
  role: 'user' | 'assistant';
  msgId: string | undefined;
  source: SourceRange | undefined;
  blocks: Block[];
  usage: RecordedUsage | undefined;
  timestamp: string | undefined;
  flags: string[];
  compactSummary: boolean;
  /** A user record whose content is only tool_result blocks (the runtime writes one per tool output). */
  onlyToolResults: boolean;
  marker: Omit<Marker, 'beforeMessage'> | undefined;
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
    role: 'user',
    msgId: undefined,
    source: undefined,
    blocks: [],
    usage: undefined,
    timestamp: undefined,
    flags: [],
    compactSummary: false,
    onlyToolResults: false,
    marker: undefined,
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

function usageOf(value: unknown): RecordedUsage | undefined {
  if (!isObject(value)) return undefined;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  return {
    inputTokens: n(value.input_tokens),
    outputTokens: n(value.output_tokens),
    cacheReadInputTokens: n(value.cache_read_input_tokens),
    cacheCreationInputTokens: n(value.cache_creation_input_tokens),
  };
}

function markerOf(rec: JsonlRecord, type: string, diags: Diagnostics): Omit<Marker, 'beforeMessage'> {
  const r = rec.value;
  if (type === 'system') {
    const subtype = str(r.subtype) ?? '';
    if (subtype === 'compact_boundary') {
      const meta = isObject(r.compactMetadata) ? r.compactMetadata : {};
      const pre = typeof meta.preTokens === 'number' ? `, ${meta.preTokens} tokens before` : '';
      return {
        kind: 'compaction',
        label: 'compact_boundary',
        source: rec.source,
        text: `compaction (${str(meta.trigger) ?? 'unknown trigger'}${pre})`,
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

function readRecords(bytes: Uint8Array, diags: Diagnostics) {
  const entries: Entry[] = [];
  let model: string | undefined;
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
        if (type === 'assistant') {
          e.usage = usageOf(message.usage);
          const m = str(message.model);
          if (!model && m && !m.startsWith('<')) model = m;
        }
      } else {
        e.marker = markerOf(rec, type, diags);
      }
      entries.push(e);
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
  return { entries, model };
}

/** Marks the records shown for one conversation: the branch from `leaf` back to the root, plus what the
 * runtime writes beside it (parallel tool calls of one reply are siblings in the tree, and so are their
 * results). */
function activeBranch(leaf: Entry, group: Entry[], byUuid: Map<string, Entry>, diags: Diagnostics): void {
  const replyIds = new Set<string>();
  let cur: Entry | undefined = leaf;
  while (cur && !cur.shown) {
    cur.shown = true;
    if (cur.kind === 'turn' && cur.role === 'assistant' && cur.msgId) replyIds.add(cur.msgId);
    const parent: string | undefined = cur.parentUuid ?? cur.logicalParentUuid;
    if (!parent) break;
    const next = byUuid.get(parent);
    if (!next && cur.kind === 'turn' && cur.source) {
      diags.once(
        `parent:${parent}`,
        'info',
        'missing-parent',
        `parentUuid ${parent} is not in this file: the branch starts here`,
        cur.source,
      );
    }
    cur = next;
  }
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const e of group) {
    if (e.kind !== 'turn') continue;
    if (!e.shown && e.role === 'assistant' && e.msgId && replyIds.has(e.msgId)) e.shown = true;
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
      const text = e.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
      onMarker({ kind: 'compaction', label: 'isCompactSummary', source, text }, messages);
      continue;
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
    if (e.timestamp) msg.timestamp = e.timestamp;
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
  const { entries, model } = readRecords(sniff.bytes, diags);
  const byUuid = new Map<string, Entry>();
  for (const e of entries) if (e.uuid && !byUuid.has(e.uuid)) byUuid.set(e.uuid, e);

  // Sub-agent records: one conversation per agent (or per root when older files have no agentId).
  const rootOf = (e: Entry): string => {
    let cur: Entry = e;
    const seen = new Set<Entry>();
    while (cur.parentUuid && !seen.has(cur)) {
      seen.add(cur);
      const p = byUuid.get(cur.parentUuid);
      if (!p?.sidechain) break;
      cur = p;
    }
    return cur.uuid ?? `line-${cur.order}`;
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
  for (const [id, group] of sideGroups) {
    activeBranch(lastTurn(group) as Entry, group, byUuid, diags);
    const messages = buildMessages(
      group,
      () => {},
      () => {},
    );
    const conv = { id, messages };
    sidechains.push(conv);
    sideFirst.set(group[0], conv);
  }

  const markers: Marker[] = [];
  const leaf = lastTurn(main);
  if (leaf) activeBranch(leaf, main, byUuid, diags);
  let offBranch: { marker: Marker; count: number } | undefined;
  const messages = buildMessages(
    main,
    (marker, msgs) => {
      markers.push({ ...marker, beforeMessage: msgs.length });
    },
    (record, msgs) => {
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
  let mainMessages = messages;
  if (mainMessages.length === 0 && main.every((e) => e.kind !== 'turn') && sidechains.length === 1) {
    // A sub-agent's own file (agent-*.jsonl): its one conversation is what the user opened. It stays in
    // `sidechains` too, so code that looks for sub-agents finds it.
    mainMessages = sidechains[0].messages;
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
  };
  if (model) transcript.model = model;
  return transcript;
}

export const claudeCode: FormatAdapter = {
  id: 'claude-code',
  shape: 'jsonl',
  expected:
    'Claude Code session: JSONL records {type: "user"|"assistant"|"system"|…, uuid, parentUuid, sessionId, message}',
  detect,
  parse,
  nestedBlock: anthropicNested,
};
