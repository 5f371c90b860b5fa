// Where the requests stop sending what came before (a restart mid-reply, a microcompaction), and what the active
// branch leaves out.
import type { Message, Reload, SourceRange } from '../../model';
import type { Diagnostics } from '../types';
import { type Entry, typedPrompt } from './entry';

/** Where the agent reloaded the conversation from this file. A prompt that hangs off a reply whose own
 * continuation (an unanswered tool call) was written before it is one: the runtime stopped mid-reply (closed,
 * crashed) and, restarted, rebuilt the conversation by walking the file's chain back from that reply, dropping the
 * call. From the prompt on, what that chain does not hold (the turns older runtimes left on a sibling of their hook
 * progress chains) is no longer sent, though it was before. */
export function reloadsOf(main: Entry[], byUuid: Map<string, Entry>, diags: Diagnostics): Reload[] {
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
export function microcompactReloads(
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
export function offBranchWarning(skipped: Entry[], group: Entry[], diags: Diagnostics): void {
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
