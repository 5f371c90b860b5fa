// Lists of any length: spreading an array into a call's arguments (`push(...xs)`, `Math.max(...xs)`) puts every
// element on the stack, and throws "Maximum call stack size exceeded" somewhere past 100,000 of them (a report over
// 140,000 session files, a message of 150,000 parts). Nothing whose length comes from the input is spread.

/** Appends `items` to `target` (in place) and returns it. */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const x of items) target.push(x);
  return target;
}

/** The smallest of `values`, and at most `ceiling`. */
export function minOf(values: Iterable<number>, ceiling = Number.POSITIVE_INFINITY): number {
  let m = ceiling;
  for (const v of values) if (v < m) m = v;
  return m;
}

/** The largest of `values`, and at least `floor`. */
export function maxOf(values: Iterable<number>, floor = Number.NEGATIVE_INFINITY): number {
  let m = floor;
  for (const v of values) if (v > m) m = v;
  return m;
}
