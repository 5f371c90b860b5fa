// Full collections of this thread's heap, made where V8 would wait too long on its own (see the callers): in a
// worker thread, or on the extension host once the user left the view idle. A full collection of the host's heap
// holds every extension's thread for ~100 ms on a long session, so none is forced while the user may be acting.
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

/** `collectGarbage`, moving what survives together so that the pages it leaves empty go back to the system: a
 * plain collection frees the garbage but keeps every page that still holds something (after the kept analyses of a
 * large session were let go of, much of the heap was room in such pages). Slower (it copies what lives), so
 * made only where the user waits for nothing. */
export function compactGarbage(): void {
  setFlagsFromString('--compact-on-every-full-gc');
  try {
    collectGarbage();
  } finally {
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
}
