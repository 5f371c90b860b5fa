// How long a cache sat unused before a request: since the previous request, or since a later reply on an abandoned
// branch of the same conversation (a rewound turn used the cache too), as the replay's lifetime rule counts it
// (engine/cacheTimes.ts).
import { ANTHROPIC_CACHE_TTL_MS, type CacheTtl } from '../engine/models';
import type { RecordedUsage, Transcript } from '../model';

/** The times (ms) of the replies of `thread` off the branch shown, in order. */
export function offBranchTimes(t: Transcript, thread: string): number[] {
  const times: number[] = [];
  for (const r of t.replies ?? []) {
    const time = r.timestamp ? Date.parse(r.timestamp) : Number.NaN;
    if (!r.onBranch && r.thread === thread && !Number.isNaN(time)) times.push(time);
  }
  return times.sort((a, b) => a - b);
}

/** The idle time before `time`, the cache last used at `since` or at an off-branch reply in between. */
export function idleBefore(offBranch: readonly number[], since: number, time: number): number {
  let last = since;
  for (const use of offBranch) {
    if (use > time) break;
    if (use > last) last = use;
  }
  return time - last;
}

/** The lifetime the previous request's entries had: the one most of its writes used, else the session's. */
export function lifetimeAfter(usage: RecordedUsage | undefined, session: CacheTtl): CacheTtl {
  if (!usage || usage.cacheCreation1hInputTokens === undefined || usage.cacheCreationInputTokens === 0)
    return session;
  return usage.cacheCreation1hInputTokens * 2 > usage.cacheCreationInputTokens ? '1h' : '5m';
}

export function outlived(idleMs: number, ttl: CacheTtl): boolean {
  return idleMs > ANTHROPIC_CACHE_TTL_MS[ttl];
}
