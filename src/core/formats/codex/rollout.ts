// What reading a Codex rollout carries from one record to the next, and the changes to the history that more than
// one kind of record makes: a reply cut short, a rollback, where the last compaction is.
import type { Marker, RecordedUsage, Reload } from '../../model';
import type { ItemConversation } from '../responseItems';
import type { Diagnostics } from '../types';
import { cutShort, userTurn } from './records';

export interface Rollout {
  readonly bytes: Uint8Array;
  readonly diags: Diagnostics;
  readonly conv: ItemConversation;
  /** The model the last `turn_context` named. */
  model: string | undefined;
  /** The base instructions of the last `session_meta` (or an early rollout's header). */
  system: string | undefined;
  /** The last token_count's total, to tell a repeated count from a new one. */
  previousTotal: string;
  /** Codex before 0.6x wrote a reply's token_count before the reply's items (the same instant); later versions
   * after them. The first count says which: with no reply yet, each count waits for the reply that follows it. */
  countFirst: boolean | undefined;
  waiting: RecordedUsage | undefined;
  /** Events that repeat a response item, counted to be said once. */
  readonly echoes: { count: number; line: number };
  sessions: number;
  readonly reloads: Reload[];
  /** Messages a rollback took out of the history: no turn to count back over again. */
  readonly rolledBack: Set<number>;
}

export function newRollout(bytes: Uint8Array, diags: Diagnostics, conv: ItemConversation): Rollout {
  return {
    bytes,
    diags,
    conv,
    model: undefined,
    system: undefined,
    previousTotal: '',
    countFirst: undefined,
    waiting: undefined,
    echoes: { count: 0, line: 0 },
    sessions: 0,
    reloads: [],
    rolledBack: new Set(),
  };
}

/** The compaction marked where the next message will go, if one is. */
export function compactionHere(st: Rollout): Marker | undefined {
  const { markers, messages } = st.conv;
  for (let i = markers.length - 1; i >= 0; i--) {
    const m = markers[i];
    if (m.beforeMessage !== messages.length) return undefined;
    if (m.kind === 'compaction') return m;
  }
  return undefined;
}

/** Where the conversation the requests send begins: after the last compaction. */
function compactionStart(st: Rollout): number {
  let start = 0;
  for (const m of st.conv.markers) if (m.kind === 'compaction') start = Math.max(start, m.beforeMessage);
  return start;
}

/** Flags the last reply when the model never finished it (see `cutShort`). */
export function markCut(st: Rollout, line: number, why: string): void {
  const reply = st.conv.lastAssistant();
  if (!reply || !cutShort(reply)) return;
  reply.flags = [...(reply.flags ?? []), 'cut'];
  st.diags.add(
    'info',
    'cut-reply',
    `the reply at line ${reply.source?.line ?? '?'} holds reasoning only and no token_count before ${why} (line ${line}): the model never finished it, so it is no request`,
    reply.source?.line ?? line,
    1,
  );
}

/** Codex's rollback: the last `turns` turns of the user's leave the history the next requests send. Returns how
 * many messages left it. */
export function rollBack(st: Rollout, turns: number, line: number): number {
  if (turns === 0) return 0;
  const { messages } = st.conv;
  const segment = compactionStart(st);
  const starts: number[] = [];
  for (let i = segment; i < messages.length; i++)
    if (!st.rolledBack.has(i) && userTurn(messages[i])) starts.push(i);
  if (starts.length === 0) return 0;
  const from = starts[Math.max(0, starts.length - turns)];
  const forgotten: number[] = [];
  for (let i = from; i < messages.length; i++)
    if (!st.rolledBack.has(i)) {
      forgotten.push(i);
      st.rolledBack.add(i);
    }
  if (starts.length < turns)
    st.diags.add(
      'info',
      'rollback-beyond-segment',
      `thread_rolled_back asks for ${turns} turns; ${starts.length} follow the last compaction: those are left out`,
      line,
      1,
    );
  st.reloads.push({ at: messages.length, forgotten });
  return forgotten.length;
}
