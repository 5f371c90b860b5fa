// Conversations the agent reloaded from its own log (Transcript.reloads): from each reload on, the requests leave
// out the messages the log's chain does not hold, although the agent had sent them before. A prompt then shrinks
// at the reload, and the cache breaks at the first message left out.
import type { Reload } from '../model';

export class Reloads {
  /** Reload points, ascending, and per point the runs [from, to) of messages left out from then on (every earlier
   * reload's as well: what the chain did not hold then, it does not hold later). */
  private readonly points: number[] = [];
  private readonly runs: [number, number][][] = [];

  constructor(reloads: readonly Reload[]) {
    const sorted = [...reloads].sort((a, b) => a.at - b.at);
    const left = new Set<number>();
    for (const r of sorted) {
      for (const m of r.forgotten) if (m < r.at) left.add(m);
      const ms = [...left].sort((a, b) => a - b);
      const runs: [number, number][] = [];
      for (const m of ms) {
        const last = runs[runs.length - 1];
        if (last && last[1] === m) last[1] = m + 1;
        else runs.push([m, m + 1]);
      }
      this.points.push(r.at);
      this.runs.push(runs);
    }
  }

  /** The runs a request ending before message `end` leaves out (none before the first reload). */
  private runsAt(end: number): [number, number][] {
    let i = -1;
    while (i + 1 < this.points.length && this.points[i + 1] < end) i++;
    return i >= 0 ? this.runs[i] : [];
  }

  /** Tokens of messages [start, upTo) that a request ending before `end` no longer sends, by `prefix` (the tokens
   * before a message index). */
  dropped(prefix: (m: number) => number, start: number, upTo: number, end: number): number {
    let total = 0;
    for (const [from, to] of this.runsAt(end)) {
      const a = Math.max(from, start);
      const b = Math.min(to, upTo);
      if (b > a) total += prefix(b) - prefix(a);
    }
    return total;
  }

  /** Whether the agent reloaded between the request ending before `prevEnd` and the one ending before `end`. */
  between(prevEnd: number, end: number): boolean {
    return this.points.some((p) => p > prevEnd && p < end);
  }

  /** The first message in [from, to) a request ending before `end` leaves out, or -1. */
  firstIn(from: number, to: number, end: number): number {
    for (const [a, b] of this.runsAt(end)) if (b > from && a < to) return Math.max(a, from);
    return -1;
  }
}
