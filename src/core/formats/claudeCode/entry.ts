// One record of a Claude Code log as the parser holds it, and the questions asked of one record.
import type { Block, Marker, RecordedUsage, SourceRange } from '../../model';
import { str } from '../json';

/** Record types Claude Code writes that are not conversation messages: shown as markers, never guessed at. */
export const META_RECORD_TYPES = new Set([
  'summary',
  'file-history-snapshot',
  'queue-operation',
  'last-prompt',
  'custom-title',
  'progress',
  'attachment',
]);
export const CLAUDE_CODE_TYPES = new Set(['user', 'assistant', 'system', ...META_RECORD_TYPES]);

/** One record of the log. Every entry has every field (in one order) so that the hot loops over tens of
 * thousands of records see one object shape. */
export interface Entry {
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

export function newEntry(order: number, r: Record<string, unknown> | undefined): Entry {
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

/** A typed prompt (not a tool result, a hook's or slash command's record, a compaction summary). */
export function typedPrompt(e: Entry): boolean {
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

/** Links each record of a conversation to the last turn before it (see `Entry.prevTurn`). */
export function linkPrevTurns(group: Entry[]): void {
  let prev: Entry | undefined;
  for (const e of group) {
    e.prevTurn = prev;
    if (e.kind === 'turn') prev = e;
  }
}

export function lastTurn(group: Entry[]): Entry | undefined {
  for (let i = group.length - 1; i >= 0; i--) if (group[i].kind === 'turn') return group[i];
  return undefined;
}
