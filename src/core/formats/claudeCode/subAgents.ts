// Sub-agents inside a session's file: the sidechain records grouped into one conversation per agent, and the
// messages older runtimes carried in `agent_progress` records.
import type { Conversation, Marker, Message, SourceRange } from '../../model';
import { describedBy, firstPrompt, subAgentCalls } from '../../threads';
import { anthropicContent } from '../anthropicBlocks';
import { isObject, str } from '../json';
import type { JsonlRecord } from '../jsonl';
import type { Diagnostics } from '../types';
import { activeBranch } from './branch';
import { type Entry, lastTurn, linkPrevTurns, newEntry } from './entry';
import { buildMessages } from './messages';

/** The sub-agent message an `agent_progress` record carries (Claude Code 2.1.x before sub-agents had files of their
 * own in the session's folder; the Task tool's calls are nowhere else in the file): a turn of the sub-agent's
 * conversation, keyed by its `agentId`. Its usage is left to the sub-agent's own file (where the runtime wrote it,
 * and where usage readers count it): counted here as well, it would be paid twice. */
export function agentProgressTurn(rec: JsonlRecord, order: number, diags: Diagnostics): Entry | undefined {
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

/** The file's records apart: the main thread's, and each sub-agent's conversation (one per agent, or per root when
 * older files have no agentId) with its branch marked, where its first record is and which thread each record is. */
export function subAgentsOf(
  entries: Entry[],
  byUuid: Map<string, Entry>,
  diags: Diagnostics,
): {
  main: Entry[];
  sidechains: Conversation[];
  /** Every sub-agent's records, by its id, progress copies included. */
  groups: Map<string, Entry[]>;
  /** The first record of each sub-agent's conversation. */
  firstOf: Map<Entry, Conversation>;
  threadOf: Map<Entry, string>;
} {
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

  return { main, sidechains, groups: sideGroups, firstOf: sideFirst, threadOf };
}

/** Where each sub-agent conversation began, so the main view shows that one ran. */
export function sidechainMarkers(firstOf: Map<Entry, Conversation>, messages: readonly Message[]): Marker[] {
  const markers: Marker[] = [];
  const calls = subAgentCalls(messages);
  for (const [first, conv] of firstOf) {
    const description = describedBy(calls, firstPrompt(conv.messages));
    const start = (first.source as SourceRange).start;
    const before = messages.findIndex((m) => (m.source?.start ?? 0) > start);
    markers.push({
      kind: 'meta-record',
      label: 'sidechain',
      beforeMessage: before === -1 ? messages.length : before,
      source: first.source,
      text: `sub-agent conversation ${description ? `"${description}" (${conv.id})` : conv.id}: ${conv.messages.length} messages`,
    });
  }
  return markers;
}
