// Long work on a thread that others share (the editor's extension host is every extension's) done in slices:
// after each slice of `everyMs`, other work runs before the next.

/** How long work on a shared thread holds it before it lets other work run: well under the 50 ms after which a
 * stall is felt (a key that waits, a view that does not answer). */
export const SLICE_MS = 16;

/** Returns a check to call between steps of long work: it resolves at once, or once other work on this thread ran
 * when the work has held it for `everyMs` since it last gave way. */
export function givingWay(everyMs: number): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < everyMs) return undefined;
    return new Promise<void>((resolve) =>
      setTimeout(() => {
        since = performance.now();
        resolve();
      }, 0),
    );
  };
}

/** `each` of `items` in turn, giving way every `everyMs`. */
export async function inSlices<T>(
  items: Iterable<T>,
  each: (item: T) => void,
  everyMs: number,
): Promise<void> {
  const giveWay = givingWay(everyMs);
  for (const item of items) {
    each(item);
    const pause = giveWay();
    if (pause) await pause;
  }
}
