// Sums over message positions that change one value at a time: a Fenwick (binary indexed) tree, so that a
// request's prefix sum costs O(log n) and a replay never re-adds N messages N times.

/** Fenwick (binary indexed) tree of message token counts. */
export class PrefixSums {
  private readonly tree: Float64Array;
  constructor(values: readonly number[]) {
    const n = values.length;
    this.tree = new Float64Array(n + 1);
    for (let i = 0; i < n; i++) this.tree[i + 1] = values[i];
    for (let i = 1; i <= n; i++) {
      const j = i + (i & -i);
      if (j <= n) this.tree[j] += this.tree[i];
    }
  }
  add(index: number, delta: number): void {
    for (let i = index + 1; i < this.tree.length; i += i & -i) this.tree[i] += delta;
  }
  /** Sum of values [0, end). */
  prefix(end: number): number {
    let s = 0;
    for (let i = end; i > 0; i -= i & -i) s += this.tree[i];
    return s;
  }
}
