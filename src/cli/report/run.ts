// `report`'s running: the sessions not kept from an earlier report go through the worker threads (one per core;
// the CLI's own entry runs as the worker: cli.ts dispatches on workerData), largest first.
import type { PolicyName } from '../../core/engine/policy';
import type { SessionFigures } from '../../core/history';
import type { SweepGrid } from '../../core/sweep';
import type { TokenizerName } from '../../core/tokens/counter';
import { poolThreads, runHistoryPool } from '../../node/historyPool';
import type { TokenStore } from '../../node/tokenStore';
import { REPORT_WORKER, type ReportWorkerData } from '../reportWorker';
import type { Options } from './args';
import type { Found } from './files';
import type { KeptResults } from './kept';
import type { Progress } from './progress';

export interface Outcome {
  /** The worker threads the sessions to replay were given. */
  threads: number;
  tokenized: number;
  fromCache: number;
  /** Sessions whose figures were kept from an earlier report. */
  kept: number;
  rows: SessionFigures[];
  /** With --sweep: each session's grid, by path. */
  grids: Map<string, SweepGrid>;
  skipped: { path: string; reason: string }[];
  grew: { path: string; bytes: number }[];
}

/** Runs the sessions; token counts the workers made are added to the stores. */
export async function runWorkers(
  found: Found[],
  o: Options,
  names: PolicyName[],
  sweep: ReportWorkerData['sweep'],
  stores: Map<TokenizerName, TokenStore>,
  progress: Progress,
  kept: KeptResults | null,
): Promise<Outcome> {
  const out: Outcome = {
    threads: 0,
    tokenized: 0,
    fromCache: 0,
    kept: 0,
    rows: [],
    grids: new Map(),
    skipped: [],
    grew: [],
  };
  let finished = 0;
  let bytesDone = 0;
  const done = (size: number) => {
    finished++;
    bytesDone += size;
    progress.update(finished, bytesDone);
  };
  const need: Found[] = [];
  for (const f of found) {
    const k = kept && !o.recompute ? kept.get(f) : undefined;
    if (!k) {
      need.push(f);
      continue;
    }
    out.kept++;
    out.rows.push(k.row);
    if (k.grid) out.grids.set(f.path, k.grid);
    done(f.size);
  }
  const data: ReportWorkerData = {
    role: REPORT_WORKER,
    names,
    model: o.model,
    sets: o.sets,
    ...(sweep ? { sweep } : {}),
  };
  const byPath = new Map(need.map((f) => [f.path, f]));
  out.threads = poolThreads(need, o.jobs);
  await runHistoryPool(need, {
    script: process.argv[1],
    data,
    threads: o.jobs,
    stores,
    onReply: (reply, file) => {
      out.tokenized += reply.tokenized;
      out.fromCache += reply.fromCache;
      if ('error' in reply) out.skipped.push({ path: file.path, reason: reply.error });
      else {
        out.rows.push(reply.row);
        if (reply.grid) out.grids.set(reply.row.path, reply.grid);
        if (reply.grew || reply.cutPartialLine)
          out.grew.push({ path: reply.row.path, bytes: reply.row.bytes });
        else {
          const f = byPath.get(file.path);
          if (kept && f) kept.set(f, reply.row, reply.grid);
        }
      }
      done(file.size);
    },
    onCrash: (file, error) => {
      out.skipped.push({ path: file.path, reason: `${file.path}: ${error.message}` });
      done(file.size);
    },
  });
  return out;
}
