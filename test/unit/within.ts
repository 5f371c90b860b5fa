/** Resolves true once `cond` holds, false after `ms`: a test of something that happens after a while (a timer, a
 * thread's end) waits for it rather than a fixed time, which a loaded machine may overrun. */
export async function within(ms: number, cond: () => boolean): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 25)))
    if (cond()) return true;
  return cond();
}
