// Claude Code session logs (`~/.claude/projects/<project>/<session>.jsonl`): one record per line, forming a
// tree through `uuid`/`parentUuid`. The conversation shown is the active branch; one assistant reply is spread
// over several lines sharing `message.id`; compactions, sub-agents and bookkeeping records stay visible.
import type { Block, Conversation, Marker, Message, RecordedUsage, SourceRange, Transcript } from '../model';
import { anthropicContent, anthropicNested } from './anthropicBlocks';
import { isObject, str } from './json';
import { brokenLineMarker, type JsonlRecord, readJsonl } from './jsonl';
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

interface TreeNode {
  order: number;
  uuid?: string;
  parentUuid?: string;
  /** Set on `compact_boundary` records, whose `parentUuid` is null: the branch continues through it. */
  logicalParentUuid?: string;
  sidechain: boolean;
  agentId?: string;
}

interface ConvRecord extends TreeNode {
  kind: 'turn';
  role: 'user' | 'assistant';
  msgId?: string;
  source: SourceRange;
  blocks: Block[];
  usage?: RecordedUsage;
  timestamp?: string;
  flags: string[];
  compactSummary: boolean;
  /** A user record whose content is only tool_result blocks (the runtime writes one per tool output). */
  onlyToolResults: boolean;
}

interface MarkerRecord extends TreeNode {
  kind: 'marker';
  marker: Omit<Marker, 'beforeMessage'>;
}

type Entry = ConvRecord | MarkerRecord;

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

function treeFields(r: Record<string, unknown>, order: number): TreeNode {
  const node: TreeNode = { order, sidechain: r.isSidechain === true };
  const uuid = str(r.uuid);
  if (uuid) node.uuid = uuid;
  const parent = str(r.parentUuid);
  if (parent) node.parentUuid = parent;
  const logical = str(r.logicalParentUuid);
  if (logical) node.logicalParentUuid = logical;
  const agentId = str(r.agentId);
  if (agentId) node.agentId = agentId;
  return node;
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
  diags.once(
    `record:${type}`,
    'info',
    'unknown-record',
    `record type "${type}" is not a message: kept and shown as a marker`,
    rec.source,
  );
  return { kind: 'unknown-record', label: type || '(no type)', source: rec.source };
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
      const base = treeFields(r, entries.length);
      const message = r.message;
      if ((type === 'user' || type === 'assistant') && isObject(message)) {
        const blocks = anthropicContent(
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
        const flags: string[] = [];
        if (r.isMeta === true) flags.push('isMeta');
        if (r.isCompactSummary === true) flags.push('isCompactSummary');
        if (r.isSidechain === true) flags.push('isSidechain');
        if (r.isApiErrorMessage === true) flags.push('isApiErrorMessage');
        const entry: ConvRecord = {
          ...base,
          kind: 'turn',
          role: type,
          source: rec.source,
          blocks,
          flags,
          compactSummary: r.isCompactSummary === true,
          onlyToolResults:
            type === 'user' && blocks.length > 0 && blocks.every((b) => b.type === 'tool_result'),
        };
        const msgId = str(message.id);
        if (msgId) entry.msgId = msgId;
        const timestamp = str(r.timestamp);
        if (timestamp) entry.timestamp = timestamp;
        if (type === 'assistant') {
          const usage = usageOf(message.usage);
          if (usage) entry.usage = usage;
          const m = str(message.model);
          if (!model && m && !m.startsWith('<')) model = m;
        }
        entries.push(entry);
      } else {
        entries.push({ ...base, kind: 'marker', marker: markerOf(rec, type, diags) });
      }
    },
    (line) => {
      const { beforeMessage: _, ...marker } = brokenLineMarker(line, 0);
      entries.push({ order: entries.length, sidechain: false, kind: 'marker', marker });
    },
  );
  return { entries, model };
}

/** The records shown for one conversation: the branch from `leaf` back to the root, plus what the runtime
 * writes beside it (parallel tool calls of one reply are siblings in the tree, and so are their results). */
function activeBranch(
  leaf: Entry,
  group: Entry[],
  byUuid: Map<string, Entry>,
  diags: Diagnostics,
): Set<Entry> {
  const chain = new Set<Entry>();
  let cur: Entry | undefined = leaf;
  while (cur && !chain.has(cur)) {
    chain.add(cur);
    const parent: string | undefined = cur.parentUuid ?? cur.logicalParentUuid;
    if (!parent) break;
    const next = byUuid.get(parent);
    if (!next && cur.kind === 'turn') {
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
  const replyIds = new Set<string>();
  const calls = new Set<string>();
  const answered = new Set<string>();
  for (const e of chain) {
    if (e.kind !== 'turn') continue;
    if (e.role === 'assistant' && e.msgId) replyIds.add(e.msgId);
  }
  for (const e of group) {
    if (e.kind === 'turn' && e.role === 'assistant' && !chain.has(e) && e.msgId && replyIds.has(e.msgId))
      chain.add(e);
  }
  for (const e of chain) {
    if (e.kind !== 'turn') continue;
    for (const b of e.blocks) {
      if (b.type === 'tool_use') calls.add(b.id);
      else if (b.type === 'tool_result') answered.add(b.toolUseId);
    }
  }
  for (const e of group) {
    if (e.kind !== 'turn' || !e.onlyToolResults || chain.has(e)) continue;
    const ids = e.blocks.map((b) => (b.type === 'tool_result' ? b.toolUseId : ''));
    if (ids.every((id) => calls.has(id) && !answered.has(id))) {
      chain.add(e);
      for (const id of ids) answered.add(id);
    }
  }
  return chain;
}

function lastTurn(group: Entry[]): Entry | undefined {
  for (let i = group.length - 1; i >= 0; i--) if (group[i].kind === 'turn') return group[i];
  return undefined;
}

/** Builds messages from the shown records in file order; `onSkipped` sees each record left off the branch. */
function buildMessages(
  group: Entry[],
  shown: Set<Entry>,
  onMarker: (marker: Omit<Marker, 'beforeMessage'>, messages: Message[]) => void,
  onSkipped: (record: ConvRecord, messages: Message[]) => void,
): Message[] {
  const messages: Message[] = [];
  const replyOf = new Map<Message, string>();
  const onlyResults = new Set<Message>();
  let lastAssistant: Message | undefined;
  for (const e of group) {
    if (e.kind === 'marker') {
      onMarker(e.marker, messages);
      continue;
    }
    if (!shown.has(e)) {
      onSkipped(e, messages);
      continue;
    }
    if (e.compactSummary) {
      const text = e.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
      onMarker({ kind: 'compaction', label: 'isCompactSummary', source: e.source, text }, messages);
      continue;
    }
    const last = messages[messages.length - 1];
    let target: Message | undefined;
    if (e.role === 'assistant' && e.msgId && lastAssistant && replyOf.get(lastAssistant) === e.msgId) {
      // Same reply: either the previous message, or only its tool results were written in between.
      const since = messages.slice(lastAssistant.index + 1);
      if (since.every((m) => onlyResults.has(m))) target = lastAssistant;
    } else if (e.role === 'user' && e.onlyToolResults && last && onlyResults.has(last)) {
      target = last; // one tool-result message per batch of results, as the API request holds them
    }
    if (target) {
      target.blocks.push(...e.blocks);
      const src = target.source as SourceRange;
      if (e.source.end > src.end) target.source = joinRanges(src, e.source);
      for (const f of e.flags) {
        target.flags ??= [];
        if (!target.flags.includes(f)) target.flags.push(f);
      }
      if (e.usage) target.usage = e.usage; // the reply's last line carries the final output count
      continue;
    }
    const msg: Message = { index: messages.length, role: e.role, blocks: [...e.blocks], source: e.source };
    if (e.timestamp) msg.timestamp = e.timestamp;
    if (e.usage) msg.usage = e.usage;
    if (e.flags.length) msg.flags = [...e.flags];
    messages.push(msg);
    if (e.role === 'assistant') {
      lastAssistant = msg;
      if (e.msgId) replyOf.set(msg, e.msgId);
    } else if (e.onlyToolResults) onlyResults.add(msg);
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
    const leaf = lastTurn(group) as Entry;
    const shown = activeBranch(leaf, group, byUuid, diags);
    const messages = buildMessages(
      group,
      shown,
      () => {},
      () => {},
    );
    const conv = { id, messages };
    sidechains.push(conv);
    sideFirst.set(group[0], conv);
  }

  const markers: Marker[] = [];
  const leaf = lastTurn(main);
  const shown = leaf ? activeBranch(leaf, main, byUuid, diags) : new Set<Entry>();
  let offBranch: { marker: Marker; count: number } | undefined;
  const messages = buildMessages(
    main,
    shown,
    (marker, msgs) => {
      markers.push({ ...marker, beforeMessage: msgs.length });
    },
    (record, msgs) => {
      if (offBranch && offBranch.marker.beforeMessage === msgs.length) {
        offBranch.count++;
        offBranch.marker.source = joinRanges(offBranch.marker.source as SourceRange, record.source);
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
      const start = (first as ConvRecord).source.start;
      const before = messages.findIndex((m) => (m.source?.start ?? 0) > start);
      markers.push({
        kind: 'meta-record',
        label: 'sidechain',
        beforeMessage: before === -1 ? messages.length : before,
        source: (first as ConvRecord).source,
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
