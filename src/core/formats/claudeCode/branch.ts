// Which records were sent: the active branch of each conversation in the record tree, and where a new
// conversation under a new root begins.
import { pushAll } from '../../arrays';
import type { Reload, SourceRange } from '../../model';
import type { Diagnostics } from '../types';
import { type Entry, typedPrompt } from './entry';

/** Marks the records shown for one conversation: the chain the agent really sent, from `leaf` back to the
 * first record, plus what the runtime writes beside it (parallel tool calls of one reply are siblings in the tree,
 * and so are their results). The chain goes on through compactions of every generation (a `compact_boundary`
 * with or without its logical parent in the file; a 1.x `isCompactSummary` with no parent) and through slash
 * commands that hang off an older parent, and past the hook progress chains older runtimes hung off a turn's first
 * tool call; only true rewinds and edits stay off the branch. */
export function activeBranch(
  leaf: Entry,
  group: Entry[],
  byUuid: Map<string, Entry>,
  diags: Diagnostics,
): Entry[] {
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
export function earlierConversations(
  main: Entry[],
  byUuid: Map<string, Entry>,
  diags: Diagnostics,
): Entry[][] {
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
export function newConversations(
  chains: Entry[][],
  diags: Diagnostics,
): { reloads: Reload[]; starts: Entry[] } {
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
