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
