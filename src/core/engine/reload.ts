// Conversations the agent reloaded from its own log (Transcript.reloads): from each reload on, the requests leave
// out the messages the log's chain does not hold, although the agent had sent them before. A prompt then shrinks
// at the reload, and the cache breaks at the first message left out. A microcompaction is one too, block by block:
// the results it cleared are sent as a placeholder, the other blocks of their messages as they were.
import type { Reload } from '../model';

export class Reloads {
  /** Reload points, ascending, and per point the runs [from, to) of messages left out from then on (every earlier
   * reload's as well: what the chain did not hold then, it does not hold later), and the blocks cleared by then
   * in messages that are not left out, as [message, block], ascending. */
  private readonly points: number[] = [];
  private readonly runs: [number, number][][] = [];
  private readonly blocks: [number, number][][] = [];

  constructor(reloads: readonly Reload[]) {
    const sorted = [...reloads].sort((a, b) => a.at - b.at);
    const left = new Set<number>();
    const cleared = new Map<number, Set<number>>();
    for (const r of sorted) {
      for (const m of r.forgotten) if (m < r.at) left.add(m);
      for (const [m, b] of r.cleared ?? []) {
        if (m >= r.at) continue;
        const set = cleared.get(m) ?? new Set<number>();
        set.add(b);
        cleared.set(m, set);
      }
      const ms = [...left].sort((a, b) => a - b);
      const runs: [number, number][] = [];
      for (const m of ms) {
        const last = runs[runs.length - 1];
        if (last && last[1] === m) last[1] = m + 1;
        else runs.push([m, m + 1]);
      }
      const blocks: [number, number][] = [];
      for (const m of [...cleared.keys()].sort((a, b) => a - b))
        if (!left.has(m)) for (const b of [...cleared.get(m)!].sort((x, y) => x - y)) blocks.push([m, b]);
      this.points.push(r.at);
      this.runs.push(runs);
      this.blocks.push(blocks);
    }
  }

  /** The point of the last reload before a request ending before message `end` (-1: none). */
  private pointAt(end: number): number {
    let i = -1;
    while (i + 1 < this.points.length && this.points[i + 1] < end) i++;
    return i;
  }

  /** Tokens of messages [start, upTo) that a request ending before `end` no longer sends, by `prefix` (the tokens
   * before a message index) and `block` (a block's tokens as sent). */
  dropped(
    prefix: (m: number) => number,
    start: number,
    upTo: number,
    end: number,
    block: (m: number, b: number) => number,
  ): number {
    const i = this.pointAt(end);
    if (i < 0) return 0;
    let total = 0;
    for (const [from, to] of this.runs[i]) {
      const a = Math.max(from, start);
      const b = Math.min(to, upTo);
      if (b > a) total += prefix(b) - prefix(a);
    }
    for (const [m, b] of this.blocks[i]) if (m >= start && m < upTo) total += block(m, b);
    return total;
  }

  /** Whether the agent reloaded between the request ending before `prevEnd` and the one ending before `end`. */
  between(prevEnd: number, end: number): boolean {
    return this.points.some((p) => p > prevEnd && p < end);
  }

  /** The first message in [from, to) a request ending before `end` leaves out or sends cleared, or -1. */
  firstIn(from: number, to: number, end: number): number {
    const i = this.pointAt(end);
    if (i < 0) return -1;
    let first = -1;
    for (const [a, b] of this.runs[i])
      if (b > from && a < to) {
        first = Math.max(a, from);
        break;
      }
    for (const [m] of this.blocks[i])
      if (m >= from && m < to) {
        if (first < 0 || m < first) first = m;
        break;
      }
    return first;
  }
}
