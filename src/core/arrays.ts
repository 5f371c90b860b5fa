// Appending one array to another without spreading it into call arguments: `target.push(...items)` passes every
// item as an argument, and past ~100,000 of them (a message of 150,000 parts, a list of 140,000 files) the engine
// throws "Maximum call stack size exceeded".

/** Appends `items` to `target` in place; returns `target`. */
export function pushAll<T>(target: T[], items: readonly T[]): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** The largest of `values`; `empty` when there are none (`Math.max(...values)` has the same limit). */
export function maxOf(values: Iterable<number>, empty = Number.NEGATIVE_INFINITY): number {
  let max = empty;
  let first = true;
  for (const v of values) {
    if (first || v > max) max = v;
    first = false;
  }
  return max;
}
