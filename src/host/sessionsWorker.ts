// The Sessions view's worker threads (bundled as dist/sessionsWorker.js): each session replayed under the policy
// the contextLens.* settings make for it (its format's defaults, then the keys the user set), as the Context Lens
// view would, and under every other strategy its provider is offered with the same settings (the verdict's
// candidates, as the view's card ranks them), beside the baseline (node/historyJob.ts does the work).
import { setPriority } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { Policy } from '../core/engine/policy';
import type { Transcript } from '../core/model';
import { offeredPolicies, verdictSession } from '../core/verdict';
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
    const inForce = (t: Transcript): Policy =>
      policyFromSettings(t, (key: PolicySettingKey) =>
        Object.hasOwn(data.explicit, key) ? data.explicit[key] : undefined,
      ).policy;
    return {
      policies: (t) => {
        const policy = inForce(t);
        const { provider } = verdictSession(t, policy, undefined);
        const others = offeredPolicies(provider).filter((name) => name !== policy.name);
        return [policy, ...others.map((name) => ({ ...policy, name }))];
      },
      inForce: (t) => inForce(t).name,
    };
  });
