// The report's worker threads (node/historyJob.ts does the work): the policies of the command line, built for each
// session as `simulate` builds them (its format's defaults, --model, --set), and the --sweep grid.
import type { PolicyName } from '../core/engine/policy';
import type { SweepAxis } from '../core/sweep';
import { type HistoryWorkerBase, serveHistoryJobs } from '../node/historyJob';
import { buildPolicy } from './policyArgs';

export const REPORT_WORKER = 'context-lens report worker';

export interface ReportWorkerData {
  role: typeof REPORT_WORKER;
  names: PolicyName[];
  model: string | undefined;
  sets: string[];
  /** With `--sweep`: the policy swept and the grid's axes (each session's grid comes back with its row). */
  sweep?: { policy: PolicyName; rows: SweepAxis; cols: SweepAxis };
}

export function runReportWorker(): void {
  serveHistoryJobs((raw) => {
    const data = raw as ReportWorkerData & HistoryWorkerBase;
    const sweep = data.sweep;
    return {
      policies: (t) => data.names.map((name) => buildPolicy(t, name, data.model, data.sets)),
      sweep: sweep
        ? (t) => ({
            base: buildPolicy(t, sweep.policy, data.model, data.sets),
            rows: sweep.rows,
            cols: sweep.cols,
          })
        : undefined,
    };
  });
}
