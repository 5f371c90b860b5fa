// The Sessions view's worker threads (bundled as dist/sessionsWorker.js): each session replayed under the policy
// the contextLens.* settings make for it (its format's defaults, then the keys the user set), as the Context Lens
// view would, beside none (node/historyJob.ts does the work).
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { type HistoryWorkerBase, serveHistoryJobs } from '../node/historyJob';
import type { PolicySettingKey } from '../protocol';
import { policyFromSettings } from './policySettings';

export interface SessionsWorkerData {
  /** The contextLens.* keys the user set, and their values. */
  explicit: Record<string, unknown>;
}

// Background work beside the editor: on Linux, where the nice value belongs to each thread, the editor's own
// threads come first (as the token and parse workers do).
if (parentPort && process.platform === 'linux') {
  try {
    setPriority(0, 10);
  } catch {
    // Not allowed here: the work runs at the normal priority.
  }
}

if (parentPort)
  serveHistoryJobs((raw) => {
    const data = raw as SessionsWorkerData & HistoryWorkerBase;
    return {
      policies: (t) => [
        policyFromSettings(t, (key: PolicySettingKey) =>
          Object.hasOwn(data.explicit, key) ? data.explicit[key] : undefined,
        ).policy,
      ],
    };
  });
