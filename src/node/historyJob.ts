// One session of a history (the report, the Sessions view), in a worker thread: read as it stood when opened,
// parsed, replayed under the policies asked for (core/history.ts), optionally swept (core/sweep.ts). The thread's
// token counters read the main thread's snapshot of the cache on disk (shared memory, one copy) and send back what
// they counted anew, which the main thread saves.
import { parentPort, workerData } from 'node:worker_threads';
import { analyzeSync } from '../core/analysis';
import type { Policy } from '../core/engine/policy';
import { type SessionFigures, sessionFigures } from '../core/history';
import type { Transcript } from '../core/model';
import { type SweepAxis, type SweepGrid, sweepTranscript } from '../core/sweep';
import { TOKENIZERS, type TokenizerName, tokenCounter } from '../core/tokens/counter';
import { parseTranscriptFile } from './parseFile';
import { NotRegularFileError } from './readRegularFile';
import { readSessionSync, sessionHead } from './sessionRead';
import { withLoggedSummarizations } from './summarizationFiles';
import { TokenStore } from './tokenStore';

export interface HistoryJob {
  id: number;
  path: string;
  /** The path's own bytes, where a name on it is not UTF-8 (path is then its decoded form, for display). */
  bytes?: Uint8Array;
  /** The file's modification time when listed (ms), the day of a log with no timestamps. */
  modified: number;
}

export type HistoryReply = {
  id: number;
  /** Texts this session tokenized, and counts it found in the token cache. */
  tokenized: number;
  fromCache: number;
  /** New token counts per tokenizer: [digest, tokens, stamp]. */
  counts: { tokenizer: TokenizerName; entries: [string, number, number][] }[];
  /** The thread found a count of the cache wrong (its spot checks): why, per tokenizer, told once. */
  distrusted?: { tokenizer: TokenizerName; why: string }[];
} & (
  | { row: SessionFigures; grid?: SweepGrid; grew: boolean; cutPartialLine: boolean; warnings: number }
  | { error: string }
);

/** What every history worker is given: the token cache as read by the main thread, per tokenizer (empty when the
 * cache is off), beside its own settings. */
export interface HistoryWorkerBase {
  stores: { tokenizer: TokenizerName; records: Uint8Array }[];
}

export interface HistoryPlan {
  /** The policies to replay the session under (none is always added). */
  policies(transcript: Transcript): Policy[];
  /** The policy the settings put in force, when the first of `policies` is it (the Sessions view). */
  inForce?(transcript: Transcript): Policy['name'];
  /** A grid to sweep, and the policy swept. */
  sweep?(transcript: Transcript): { base: Policy; rows: SweepAxis; cols: SweepAxis };
}

/** The first line of what went wrong, with the path (a history lists many files; the parser's full explanation is
 * for `inspect`). */
export function jobError(path: string, error: unknown): string {
  if (error instanceof NotRegularFileError) return error.message;
  const code = (error as NodeJS.ErrnoException).code;
  if (code) return `${path}: cannot read (${code})`;
  const message = (error instanceof Error ? error.message : String(error)).split('\n')[0];
  return message.startsWith(path) ? message : `${path}: ${message}`;
}

/** One session's figures (and its grid). */
export async function historySession(job: HistoryJob, plan: HistoryPlan) {
  const read = readSessionSync(job.bytes ? Buffer.from(job.bytes) : job.path);
  const transcript = withLoggedSummarizations(parseTranscriptFile(read.bytes, job.path), job.path);
  const head = sessionHead(job.path, read.bytes, transcript.format);
  const row = sessionFigures(transcript, plan.policies(transcript), {
    path: job.path,
    bytes: read.bytes.length,
    modified: new Date(job.modified),
    ...head,
    ...(plan.inForce ? { inForce: plan.inForce(transcript) } : {}),
  });
  const warnings = transcript.diagnostics.filter((d) => d.severity === 'error').length;
  const sweep = plan.sweep?.(transcript);
  const grid = sweep
    ? await sweepTranscript(sweep.base, sweep.rows, sweep.cols, (p) => analyzeSync(transcript, p).analysis)
    : undefined;
  return { row, ...(grid ? { grid } : {}), grew: read.grew, cutPartialLine: read.cutPartialLine, warnings };
}

/** The worker thread's loop: one job at a time, each answered with its figures or its error and the new counts. */
export function serveHistoryJobs(plan: (data: unknown) => HistoryPlan): void {
  const data = workerData as HistoryWorkerBase;
  const p = plan(workerData);
  const stores = data.stores.map((s) => {
    const store = TokenStore.fromSnapshot(s.records);
    tokenCounter(s.tokenizer).backing = store;
    return { tokenizer: s.tokenizer, store };
  });
  const counters = TOKENIZERS.map((t) => tokenCounter(t));
  const told = new Set<TokenizerName>();
  const figures = () => counters.reduce((a, c) => [a[0] + c.misses, a[1] + c.backingHits], [0, 0]);
  parentPort?.on('message', async (job: HistoryJob) => {
    const [misses, hits] = figures();
    let reply: HistoryReply;
    const base = { id: job.id, counts: [], tokenized: 0, fromCache: 0 };
    try {
      reply = { ...base, ...(await historySession(job, p)) };
    } catch (error) {
      reply = { ...base, error: jobError(job.path, error) };
    }
    const [misses2, hits2] = figures();
    reply.tokenized = misses2 - misses;
    reply.fromCache = hits2 - hits;
    reply.counts = stores.map((s) => ({ tokenizer: s.tokenizer, entries: s.store.takeAdded() }));
    const distrusted = stores.flatMap((s) => {
      const why = tokenCounter(s.tokenizer).backingDistrusted;
      if (!why || told.has(s.tokenizer)) return [];
      told.add(s.tokenizer);
      return [{ tokenizer: s.tokenizer, why }];
    });
    if (distrusted.length > 0) reply.distrusted = distrusted;
    parentPort?.postMessage(reply);
  });
}
