// When each cache was last used, for its lifetime (SPEC §5): the times of the requests, and of the replies on
// abandoned branches, which used the caches too. Derived once per prepared transcript (derived.ts).
import { derive, derived } from './derived';
import type { PreparedTranscript } from './prepare';

interface Use {
  model: string | undefined;
  time: number;
}

/** The replies of this conversation on an abandoned branch (a rewound or edited turn), by time. Each sent the
 * conversation up to where the branch left it, so it used (and, past its lifetime, wrote again) the cache of every
 * request before the rewind: the cache of the request after it has not expired then, whatever the gap. */
const offBranchUses = derived('offBranchUses', (prep): Use[] => {
  const replies = prep.transcript.replies ?? [];
  // The thread replayed: the main one (`main`, model.ts) when it has replies, else the sub-agent this one is.
  const thread = replies.some((r) => r.onBranch && r.thread === 'main')
    ? 'main'
    : replies.find((r) => r.onBranch)?.thread;
  const uses: Use[] = [];
  for (const r of replies) {
    const time = r.timestamp ? Date.parse(r.timestamp) : Number.NaN;
    if (!r.onBranch && r.thread === thread && !Number.isNaN(time)) uses.push({ model: r.model, time });
  }
  uses.sort((a, b) => a.time - b.time);
  return uses;
});

/** Each request's time in ms (NaN when not recorded), parsed once. */
const requestTimes = derived('requestTimes', (prep): Float64Array => {
  const messages = prep.transcript.messages;
  return Float64Array.from(prep.requestEnds, (end) => {
    const ts = messages[end].timestamp;
    return ts ? Date.parse(ts) : Number.NaN;
  });
});

/** Request k's time in ms, undefined when not recorded. */
export function requestTime(prep: PreparedTranscript, k: number): number | undefined {
  const t = derive(prep, requestTimes)[k];
  return Number.isNaN(t) ? undefined : t;
}

/** The last time the cache `key` was used before `time`: its previous request's (`since`), or a later off-branch
 * reply's (of the same model when each model has its cache, `keyedByModel`). */
export function lastUse(
  prep: PreparedTranscript,
  keyedByModel: boolean,
  key: string,
  since: number,
  time: number,
): number {
  let last = since;
  for (const use of derive(prep, offBranchUses)) {
    if (use.time > time) break;
    if (use.time > last && (!keyedByModel || use.model === key)) last = use.time;
  }
  return last;
}

/** Whether the cache `key`, written at `previous`, is gone at `time`: unused for longer than its lifetime `ttlMs`
 * (undefined: it does not expire). */
export function cacheExpired(
  prep: PreparedTranscript,
  ttlMs: number | undefined,
  keyedByModel: boolean,
  key: string,
  previous: number | undefined,
  time: number | undefined,
): boolean {
  return (
    ttlMs !== undefined &&
    time !== undefined &&
    previous !== undefined &&
    time - previous > ttlMs &&
    time - lastUse(prep, keyedByModel, key, previous, time) > ttlMs
  );
}
