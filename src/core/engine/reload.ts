// Conversations the agent reloaded from its own log (Transcript.reloads), and microcompactions: from each reload on,
// the requests leave out the messages the log's chain does not hold (or whose results were cleared), although the
// agent had sent them before. A prompt then shrinks at the reload, and the cache breaks at the first message left
// out. A microcompaction goes block by block: the results it cleared are sent as a placeholder, the other blocks of
// their messages as they were.
//
// What is left out only grows (what the chain did not hold then, it does not hold later), so one number per message
// says it all: the first reload point from which on it is left out; and one per cleared block, the point from which on
// it is sent cleared (unless its whole message is left out by then). Thousands of reload points (a microcompaction
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
  /** Cleared blocks of messages not left out when they were cleared, by message then block: message, block and the
   * position in `points` of the first reload clearing it; `clearedStart[m] .. clearedStart[m + 1]` are message m's. */
  private readonly clearedMessage: Int32Array;
  private readonly clearedBlock: Int32Array;
  private readonly clearedFrom: Int32Array;
  private readonly clearedStart: Int32Array;
  /** Blocks cleared at each point: `clearedOrder[clearedAtStart[i] .. clearedAtStart[i + 1])` index the above. */
  private readonly clearedAtStart: Int32Array;
  private readonly clearedOrder: Int32Array;
  /** Minimum over ranges of messages of the first point that leaves it out or clears one of its blocks (a segment
   * tree, leaves at `size + m`): finds the first message left out or sent cleared within a range. */
  private readonly minTree: Int32Array;
  private readonly size: number;

  constructor(reloads: readonly Reload[]) {
    this.points = [...new Set(reloads.map((r) => r.at))].sort((a, b) => a - b);
    const valid = (m: number, at: number) => Number.isInteger(m) && m >= 0 && m < at;
    let n = 0;
    for (const r of reloads) {
      for (const m of r.forgotten) if (valid(m, r.at) && m >= n) n = m + 1;
      for (const [m, b] of r.cleared ?? [])
        if (valid(m, r.at) && Number.isInteger(b) && b >= 0 && m >= n) n = m + 1;
    }
    this.leftFrom = new Int32Array(n).fill(NEVER);
    // [message, block, point] of every clearing, to be sorted and kept at each block's first.
    const clearings: number[] = [];
    for (const r of reloads) {
      const point = countBelow(this.points, r.at);
      for (const m of r.forgotten) if (valid(m, r.at) && point < this.leftFrom[m]) this.leftFrom[m] = point;
      for (const [m, b] of r.cleared ?? [])
        if (valid(m, r.at) && Number.isInteger(b) && b >= 0) clearings.push(m, b, point);
    }
    const order = Array.from({ length: clearings.length / 3 }, (_, i) => 3 * i);
    order.sort(
      (x, y) =>
        clearings[x] - clearings[y] ||
        clearings[x + 1] - clearings[y + 1] ||
        clearings[x + 2] - clearings[y + 2],
    );
    const kept: number[] = [];
    for (const x of order) {
      const [m, b, point] = [clearings[x], clearings[x + 1], clearings[x + 2]];
      const last = kept.length - 3;
      if (last >= 0 && kept[last] === m && kept[last + 1] === b) continue;
      // A block whose message is left out by then counts with its message.
      if (point < this.leftFrom[m]) kept.push(m, b, point);
    }
    const k = kept.length / 3;
    this.clearedMessage = new Int32Array(k);
    this.clearedBlock = new Int32Array(k);
    this.clearedFrom = new Int32Array(k);
    this.clearedStart = new Int32Array(n + 1);
    const firstPoint = Int32Array.from(this.leftFrom);
    const atCounts = new Int32Array(this.points.length + 1);
    for (let i = 0; i < k; i++) {
      const [m, b, point] = [kept[3 * i], kept[3 * i + 1], kept[3 * i + 2]];
      this.clearedMessage[i] = m;
      this.clearedBlock[i] = b;
      this.clearedFrom[i] = point;
      this.clearedStart[m + 1]++;
      atCounts[point + 1]++;
      if (point < firstPoint[m]) firstPoint[m] = point;
    }
    for (let m = 0; m < n; m++) this.clearedStart[m + 1] += this.clearedStart[m];
    for (let i = 0; i < this.points.length; i++) atCounts[i + 1] += atCounts[i];
    this.clearedAtStart = atCounts;
    this.clearedOrder = new Int32Array(k);
    const atFill = atCounts.slice(0, this.points.length);
    for (let i = 0; i < k; i++) this.clearedOrder[atFill[this.clearedFrom[i]]++] = i;
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
    this.minTree.set(firstPoint, size);
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

  /** The first message in [from, to) a request ending before `end` leaves out or sends a block of cleared, or -1. */
  firstIn(from: number, to: number, end: number): number {
    const before = this.pointsBefore(end);
    const hi = Math.min(to, this.leftFrom.length);
    return from < hi ? this.firstBelow(1, 0, this.size, Math.max(0, from), hi, before) : -1;
  }

  /** Within node `node` (messages [lo, hi)), the first message of [from, to) left out or with a block cleared by a
   * point before `before`. */
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

  /** The blocks reload point `i` clears first (indices for `cleared`). */
  clearedAt(i: number): Int32Array {
    return this.clearedOrder.subarray(this.clearedAtStart[i], this.clearedAtStart[i + 1]);
  }

  /** Cleared block `i`: its message, its block and the position in the points of the first reload clearing it. */
  cleared(i: number): [number, number, number] {
    return [this.clearedMessage[i], this.clearedBlock[i], this.clearedFrom[i]];
  }

  /** Message `m`'s cleared blocks (indices for `cleared`): [from, to). */
  clearedOf(m: number): [number, number] {
    return m >= 0 && m < this.leftFrom.length ? [this.clearedStart[m], this.clearedStart[m + 1]] : [0, 0];
  }

  /** The tokens left out, as they change: `weight` gives a message's tokens now, `block` a block's as sent now. */
  leftOut(weight: (m: number) => number, block: (m: number, b: number) => number): LeftOut {
    return new LeftOut(this, weight, block);
  }
}

/** The tokens of the messages left out so far, and of the blocks sent cleared in the others, kept in a prefix-sum tree
 * of their own: a replay asks at every request what [start, upTo) no longer sends, and reading each left-out message
 * then made long sessions quadratic. Requests come in order, so each point's messages and blocks are added once; a
 * request before the last one asked for starts over. */
export class LeftOut {
  private sums: PrefixSums;
  /** Per message, what `sums` holds for it: the whole message once it is left out, else its cleared blocks. */
  private value: Float64Array;
  /** Reload points whose messages and blocks are in `sums`. */
  private applied = 0;
  /** Messages not left out whose cleared blocks may have changed size since `value` was taken. */
  private dirty: number[] = [];
  private readonly isDirty: Uint8Array;

  constructor(
    private readonly reloads: Reloads,
    private readonly weight: (m: number) => number,
    private readonly block: (m: number, b: number) => number,
  ) {
    this.sums = new PrefixSums(new Array<number>(reloads.messages).fill(0));
    this.value = new Float64Array(reloads.messages);
    this.isDirty = new Uint8Array(reloads.messages);
  }

  /** Tokens of messages [start, upTo) that a request ending before `end` no longer sends. */
  dropped(start: number, upTo: number, end: number): number {
    this.advance(this.reloads.pointsBefore(end));
    this.settle();
    const a = Math.max(0, start);
    const b = Math.min(upTo, this.reloads.messages);
    return b > a ? this.sums.prefix(b) - this.sums.prefix(a) : 0;
  }

  /** Message `m`'s tokens changed by `delta` (a policy rewrote it). */
  changed(m: number, delta: number): void {
    if (this.reloads.leftBy(m, this.applied)) {
      this.sums.add(m, delta);
      this.value[m] += delta;
      return;
    }
    const [from, to] = this.reloads.clearedOf(m);
    // The rewritten block may be a cleared one: its size is read again at the next request (the rewrite may not be
    // in place yet when its message's total changes).
    if (from < to && !this.isDirty[m]) {
      this.isDirty[m] = 1;
      this.dirty.push(m);
    }
  }

  private settle(): void {
    for (const m of this.dirty) {
      this.isDirty[m] = 0;
      if (this.reloads.leftBy(m, this.applied)) continue;
      const [from, to] = this.reloads.clearedOf(m);
      let now = 0;
      for (let i = from; i < to; i++) {
        const [, b, point] = this.reloads.cleared(i);
        if (point < this.applied) now += this.block(m, b);
      }
      this.sums.add(m, now - this.value[m]);
      this.value[m] = now;
    }
    this.dirty = [];
  }

  private advance(points: number): void {
    if (points < this.applied) {
      this.sums = new PrefixSums(new Array<number>(this.reloads.messages).fill(0));
      this.value = new Float64Array(this.reloads.messages);
      for (const m of this.dirty) this.isDirty[m] = 0;
      this.dirty = [];
      this.applied = 0;
    }
    for (; this.applied < points; this.applied++) {
      for (const m of this.reloads.leftAt(this.applied)) {
        const w = this.weight(m);
        this.sums.add(m, w - this.value[m]);
        this.value[m] = w;
      }
      for (const i of this.reloads.clearedAt(this.applied)) {
        const [m, b] = this.reloads.cleared(i);
        const w = this.block(m, b);
        this.sums.add(m, w);
        this.value[m] += w;
      }
    }
  }
}
