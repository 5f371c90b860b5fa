// The report's worker threads (one per core): each reads, parses and replays whole sessions, one at a time, and
// sends back their figures. Token counts: every worker reads the main thread's snapshot of the cache on disk
// (shared memory, one copy) and sends back what it counted anew, which the main thread saves once at the end.
import { parentPort, workerData } from 'node:worker_threads';
import { analyzeSync } from '../core/analysis';
import type { PolicyName } from '../core/engine/policy';
import { parseTranscript } from '../core/formats';
import { type SessionFigures, sessionFigures } from '../core/history';
import { type SweepAxis, type SweepGrid, sweepTranscript } from '../core/sweep';
import { TOKENIZERS, type TokenizerName, tokenCounter } from '../core/tokens/counter';
import { NotRegularFileError } from '../node/readRegularFile';
import { readSessionSync, sessionHead } from '../node/sessionRead';
import { TokenStore } from '../node/tokenStore';
import { buildPolicy } from './policyArgs';

export const REPORT_WORKER = 'context-lens report worker';

export interface ReportWorkerData {
  role: typeof REPORT_WORKER;
  names: PolicyName[];
  model: string | undefined;
  sets: string[];
  /** With `--sweep`: the policy swept and the grid's axes (each session's grid comes back with its row). */
  sweep?: { policy: PolicyName; rows: SweepAxis; cols: SweepAxis };
  /** The token cache as read by the main thread, per tokenizer (empty when the cache is off). */
  stores: { tokenizer: TokenizerName; records: Uint8Array }[];
}

export interface ReportJob {
  id: number;
  path: string;
  /** The file's modification time when listed (ms), the day of a log with no timestamps. */
  modified: number;
}

export type ReportReply = {
  id: number;
  /** Texts this session tokenized, and counts it found in the token cache. */
  tokenized: number;
  fromCache: number;
  /** New token counts per tokenizer: [digest, tokens, stamp]. */
  counts: { tokenizer: TokenizerName; entries: [string, number, number][] }[];
} & (
  | { row: SessionFigures; grid?: SweepGrid; grew: boolean; cutPartialLine: boolean; warnings: number }
  | { error: string }
);

function errorText(path: string, error: unknown): string {
  if (error instanceof NotRegularFileError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code) return `${path}: cannot read (${code})`;
  // The first line: a report lists many files, the parser's full explanation is for `inspect`.
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  return message.startsWith(path) ? message : `${path}: ${message}`;
}

/** One session's figures, exactly as `simulate` would compute them for the file (and its sweep grid). */
export async function reportSession(job: ReportJob, data: Omit<ReportWorkerData, 'role' | 'stores'>) {
  const read = readSessionSync(job.path);
  const transcript = parseTranscript(read.bytes, job.path);
  const policies = data.names.map((name) => buildPolicy(transcript, name, data.model, data.sets));
  const head = sessionHead(job.path, read.bytes, transcript.format);
  const row = sessionFigures(transcript, policies, {
    path: job.path,
    bytes: read.bytes.length,
    modified: new Date(job.modified),
    ...head,
  });
  const warnings = transcript.diagnostics.filter((d) => d.severity === 'error').length;
  const sweep = data.sweep;
  const grid = sweep
    ? await sweepTranscript(
        buildPolicy(transcript, sweep.policy, data.model, data.sets),
        sweep.rows,
        sweep.cols,
        (p) => analyzeSync(transcript, p).analysis,
      )
    : undefined;
  return { row, ...(grid ? { grid } : {}), grew: read.grew, cutPartialLine: read.cutPartialLine, warnings };
}

export function runReportWorker(): void {
  const data = workerData as ReportWorkerData;
  const stores = data.stores.map((s) => {
    const store = TokenStore.fromSnapshot(s.records);
    tokenCounter(s.tokenizer).backing = store;
    return { tokenizer: s.tokenizer, store };
  });
  const counters = TOKENIZERS.map((t) => tokenCounter(t));
  const figures = () => counters.reduce((a, c) => [a[0] + c.misses, a[1] + c.backingHits], [0, 0]);
  parentPort?.on('message', async (job: ReportJob) => {
    const [misses, hits] = figures();
    let reply: ReportReply;
    const base = { id: job.id, counts: [], tokenized: 0, fromCache: 0 };
    try {
      reply = { ...base, ...(await reportSession(job, data)) };
    } catch (error) {
      reply = { ...base, error: errorText(job.path, error) };
    }
    const [misses2, hits2] = figures();
    reply.tokenized = misses2 - misses;
    reply.fromCache = hits2 - hits;
    reply.counts = stores.map((s) => ({ tokenizer: s.tokenizer, entries: s.store.takeAdded() }));
    parentPort?.postMessage(reply);
  });
}
