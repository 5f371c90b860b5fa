// The summarization requests of the log's own compactions, where the agent keeps them apart (Claude Code writes each
// into a sub-agent file, `<session>/subagents/agent-acompact-*.jsonl`; Transcript.summarizations holds what was read).
// They were paid: a replay that follows the log's compactions prices each from its file, and estimates the ones whose
// file was not kept (compactionRequest.ts), marked so.
//
// A file belongs to the first compaction recorded at or after its last reply: the agent writes the compaction once
// the summary has come back. A compaction with no time to go by takes the files in order when there are as many.
import { maxOf } from '../arrays';
import type { LoggedSummarization, RecordedReply } from '../model';
import { billsTokens, replyCost } from '../recordedUsage';
import { loggedCompactions } from './compaction';
import { derive, derived } from './derived';
import type { CacheTtl } from './models';
import type { PreparedTranscript } from './prepare';
import { billedCost, type ModelPrices, tablePrices } from './prices';

/** How far (ms) a summary's reply may come after its compaction's own time (two clocks of one process, rounded). */
const SLACK_MS = 5_000;

/** Per compaction point (the message the compaction stands before): the summarization request logged for it. */
export function summarizationsAt(prep: PreparedTranscript): ReadonlyMap<number, LoggedSummarization> {
  return derive(prep, matched);
}

const timeOf = (t: string | undefined) => (t ? Date.parse(t) : Number.NaN);

const matched = derived('loggedSummarizations', (prep): Map<number, LoggedSummarization> => {
  const out = new Map<number, LoggedSummarization>();
  const files = (prep.transcript.summarizations ?? []).filter((f) =>
    f.replies.some((r) => billsTokens(r.usage)),
  );
  if (files.length === 0) return out;
  const messages = prep.transcript.messages;
  const points = loggedCompactions(prep).map((c) => ({
    at: c.beforeMessage,
    time: timeOf(messages[c.beforeMessage]?.timestamp),
  }));
  const add = (at: number, f: LoggedSummarization) => {
    const found = out.get(at);
    out.set(at, found ? { file: `${found.file}, ${f.file}`, replies: [...found.replies, ...f.replies] } : f);
  };
  if (points.some((p) => Number.isNaN(p.time))) {
    if (points.length === files.length) for (let i = 0; i < files.length; i++) add(points[i].at, files[i]);
    return out;
  }
  for (const f of files) {
    const last = maxOf(f.replies.map((r) => timeOf(r.timestamp)).filter((t) => !Number.isNaN(t)));
    const point = Number.isFinite(last) ? points.find((p) => p.time + SLACK_MS >= last) : undefined;
    if (point) add(point.at, f);
  }
  return out;
});

/** What a logged summarization request sent and cost: every reply of its file, at the model that answered it
 * (`fallback` when the price table does not know it), with the log's own cache lifetimes, or `ttl` when the replay
 * prices writes at another lifetime than the log's. */
export function loggedFigures(
  s: LoggedSummarization,
  fallback: ModelPrices,
  ttl: CacheTtl,
  ttlAsLogged: boolean,
): { promptTokens: number; cachedTokens: number; writtenTokens: number; outputTokens: number; cost: number } {
  const out = { promptTokens: 0, cachedTokens: 0, writtenTokens: 0, outputTokens: 0, cost: 0 };
  for (const r of s.replies) {
    const u = r.usage;
    out.promptTokens += u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens;
    out.cachedTokens += u.cacheReadInputTokens;
    out.writtenTokens += u.inputTokens + u.cacheCreationInputTokens;
    out.outputTokens += u.outputTokens;
    out.cost += costOf(r, pricesOf(r) ?? fallback, ttl, ttlAsLogged);
  }
  return out;
}

function pricesOf(r: RecordedReply): ModelPrices | undefined {
  return r.model ? tablePrices(r.model, r.timestamp ? new Date(r.timestamp) : undefined) : undefined;
}

function costOf(r: RecordedReply, prices: ModelPrices, ttl: CacheTtl, ttlAsLogged: boolean): number {
  if (ttlAsLogged) return replyCost(prices, r);
  const u = r.usage;
  return billedCost(prices, {
    input: u.inputTokens,
    cacheRead: u.cacheReadInputTokens,
    cacheWrite5m: ttl === '5m' ? u.cacheCreationInputTokens : 0,
    cacheWrite1h: ttl === '1h' ? u.cacheCreationInputTokens : 0,
    output: u.outputTokens,
  });
}
