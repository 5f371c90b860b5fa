// Binary search over ascending positions (message indices, tool-result positions): the replay looks these up
// once per request, so a linear walk would make long sessions quadratic.

/** How many values of the ascending array are below `limit` (the first position whose value is at least it). */
export function countBelow(sorted: readonly number[], limit: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < limit) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
