// Conversations the agent reloaded from its own log (Transcript.reloads), and microcompactions: from each reload on,
// the requests leave out the messages the log's chain does not hold (or whose results were cleared), although the
// agent had sent them before. A prompt then shrinks at the reload, and the cache breaks at the first message left
// out.
//
// What is left out only grows (what the chain did not hold then, it does not hold later), so one number per message
// says it all: the first reload point from which on it is left out. Thousands of reload points (a microcompaction
// every few turns) then cost a pass over the messages, not a copy of every run per point and a scan of them all per
// request.
import type { Reload } from '../model';
import { PrefixSums } from './prefixSums';
import { countBelow } from './sorted';

/** A message no reload leaves out. */
const NEVER = 0x7fffffff;

export class Reloads {
  /** Reload points, distinct and ascending. */
  private readonly points: number[];
  /** Per message, the position in `points` of the first reload leaving it out (NEVER: none). */
  private readonly leftFrom: Int32Array;
  /** Messages left out from each point on: `leftMessages[leftStart[i] .. leftStart[i + 1])` for point i. */
  private readonly leftStart: Int32Array;
  private readonly leftMessages: Int32Array;
  /** Minimum of `leftFrom` over ranges of messages (a segment tree, leaves at `size + m`): finds the first message
   * left out within a range. */
  private readonly minTree: Int32Array;
  private readonly size: number;

  constructor(reloads: readonly Reload[]) {
    this.points = [...new Set(reloads.map((r) => r.at))].sort((a, b) => a - b);
    let n = 0;
    for (const r of reloads)
      for (const m of r.forgotten) if (Number.isInteger(m) && m >= 0 && m < r.at && m >= n) n = m + 1;
    this.leftFrom = new Int32Array(n).fill(NEVER);
    for (const r of reloads) {
      const point = countBelow(this.points, r.at);
      for (const m of r.forgotten)
        if (Number.isInteger(m) && m >= 0 && m < r.at && point < this.leftFrom[m]) this.leftFrom[m] = point;
    }
    const counts = new Int32Array(this.points.length + 1);
    for (let m = 0; m < n; m++) if (this.leftFrom[m] !== NEVER) counts[this.leftFrom[m] + 1]++;
    for (let i = 0; i < this.points.length; i++) counts[i + 1] += counts[i];
    this.leftStart = counts;
    this.leftMessages = new Int32Array(counts[this.points.length]);
    const fill = counts.slice(0, this.points.length);
    for (let m = 0; m < n; m++)
      if (this.leftFrom[m] !== NEVER) this.leftMessages[fill[this.leftFrom[m]]++] = m;
    let size = 1;
    while (size < n) size *= 2;
    this.size = size;
    this.minTree = new Int32Array(2 * size).fill(NEVER);
    this.minTree.set(this.leftFrom, size);
    for (let i = size - 1; i >= 1; i--)
      this.minTree[i] = Math.min(this.minTree[2 * i], this.minTree[2 * i + 1]);
  }

  /** Messages that may be left out: [0, messages). */
  get messages(): number {
    return this.leftFrom.length;
  }

  /** How many reload points a request ending before message `end` comes after. */
  pointsBefore(end: number): number {
    return countBelow(this.points, end);
  }

  /** Whether the agent reloaded between the request ending before `prevEnd` and the one ending before `end`. */
  between(prevEnd: number, end: number): boolean {
    const i = countBelow(this.points, prevEnd + 1);
    return i < this.points.length && this.points[i] < end;
  }

  /** The first message in [from, to) a request ending before `end` leaves out, or -1. */
  firstIn(from: number, to: number, end: number): number {
    const before = this.pointsBefore(end);
    const hi = Math.min(to, this.leftFrom.length);
    return from < hi ? this.firstBelow(1, 0, this.size, Math.max(0, from), hi, before) : -1;
  }

  /** Within node `node` (messages [lo, hi)), the first message of [from, to) left out by a point before `before`. */
  private firstBelow(node: number, lo: number, hi: number, from: number, to: number, before: number): number {
    if (hi <= from || to <= lo || this.minTree[node] >= before) return -1;
    if (hi - lo === 1) return lo;
    const mid = (lo + hi) >>> 1;
    const left = this.firstBelow(2 * node, lo, mid, from, to, before);
    return left >= 0 ? left : this.firstBelow(2 * node + 1, mid, hi, from, to, before);
  }

  /** Whether message `m` is left out once `points` reload points have passed. */
  leftBy(m: number, points: number): boolean {
    return m >= 0 && m < this.leftFrom.length && this.leftFrom[m] < points;
  }

  /** The messages reload point `i` leaves out first. */
  leftAt(i: number): Int32Array {
    return this.leftMessages.subarray(this.leftStart[i], this.leftStart[i + 1]);
  }

  /** The tokens left out, as they change: `weight` gives a message's tokens now. */
  leftOut(weight: (m: number) => number): LeftOut {
    return new LeftOut(this, weight);
  }
}

/** The tokens of the messages left out so far, kept in a prefix-sum tree of their own: a replay asks at every request
 * what [start, upTo) no longer sends, and reading each left-out message then made long sessions quadratic. Requests
 * come in order, so each point's messages are added once; a request before the last one asked for starts over. */
export class LeftOut {
  private sums: PrefixSums;
  /** Reload points whose messages are in `sums`. */
  private applied = 0;

  constructor(
    private readonly reloads: Reloads,
    private readonly weight: (m: number) => number,
  ) {
    this.sums = new PrefixSums(new Array<number>(reloads.messages).fill(0));
  }

  /** Tokens of messages [start, upTo) that a request ending before `end` no longer sends. */
  dropped(start: number, upTo: number, end: number): number {
    this.advance(this.reloads.pointsBefore(end));
    const a = Math.max(0, start);
    const b = Math.min(upTo, this.reloads.messages);
    return b > a ? this.sums.prefix(b) - this.sums.prefix(a) : 0;
  }

  /** Message `m`'s tokens changed by `delta` (a policy rewrote it). */
  changed(m: number, delta: number): void {
    if (this.reloads.leftBy(m, this.applied)) this.sums.add(m, delta);
  }

  private advance(points: number): void {
    if (points < this.applied) {
      this.sums = new PrefixSums(new Array<number>(this.reloads.messages).fill(0));
      this.applied = 0;
    }
    for (; this.applied < points; this.applied++)
      for (const m of this.reloads.leftAt(this.applied)) this.sums.add(m, this.weight(m));
  }
}
