// Full collections of this thread's heap, made where V8 would wait too long on its own (see the callers), in a
// worker thread only: a full collection of the extension host's heap holds every extension's thread for a long
// moment on a long session (measured in the editor: docs/performance.md).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collector: (() => void) | null = null;

/** Collects this thread's garbage now. The flag is the process's: it only makes `gc` visible in contexts made
 * after it, as the one made here, so no other code (nor another extension) sees a `gc` it did not ask for. */
export function collectGarbage(): void {
  if (!collector) {
    setFlagsFromString('--expose-gc');
    collector = runInNewContext('gc') as () => void;
  }
  collector();
}

/** When to collect a heap that keeps growing between the collections V8 makes on its own (a session's thread: its
 * transcript stays, and each analysis run ahead leaves megabytes of garbage, which V8 let pile up to more than the
 * transcript itself before collecting it). `due(used)` says whether the heap in use now, in bytes, grew enough
 * since the last collection it asked for (by `growth` of what that one left, at least `minBytes`); `collected(used)`
 * notes what a collection left. */
export class HeapGrowth {
  private left = 0;

  constructor(
    private readonly minBytes: number,
    private readonly growth: number,
  ) {}

  due(used: number): boolean {
    // V8's own collections lower the mark too: growth is counted from the least seen since.
    this.left = Math.min(this.left || used, used);
    return used - this.left >= Math.max(this.minBytes, this.left * this.growth);
  }

  collected(used: number): void {
    this.left = used;
  }
}
