// What a Copilot CLI log records of usage: no figure per request (`assistant.usage` is transient, never written),
// each run's totals per model at `session.shutdown`, and each compaction's own summarizing call
// (`session.compaction_complete.data.compactionTokensUsed`). The agent's `inputTokens` count the cache reads and
// writes (ccusage reads them so too).
import type { RecordedReply } from '../../model';
import { isObject, str } from '../json';
import type { JsonlRecord } from '../jsonl';

/** Per model, what one run of the agent recorded at its shutdown. */
export interface ShutdownMetric {
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

/** A token figure, or 0 where the log has none (or not a count). */
export const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);

/** One shutdown's `modelMetrics`. */
export function shutdownRun(data: Record<string, unknown>): Record<string, ShutdownMetric> {
  const metrics = isObject(data.modelMetrics) ? data.modelMetrics : {};
  const run: Record<string, ShutdownMetric> = {};
  for (const [model, v] of Object.entries(metrics)) {
    if (!isObject(v)) continue;
    const usage = isObject(v.usage) ? v.usage : {};
    const requests = isObject(v.requests) ? v.requests : {};
    run[model] = {
      requests: num(requests.count),
      inputTokens: num(usage.inputTokens),
      outputTokens: num(usage.outputTokens),
      cacheReadTokens: num(usage.cacheReadTokens),
      cacheWriteTokens: num(usage.cacheWriteTokens),
    };
  }
  return run;
}

/** The requests each model answered over every run of the session (a resumed session has one shutdown per run). */
export function recordedRequests(
  shutdowns: Record<string, ShutdownMetric>[],
): Record<string, ShutdownMetric> {
  const out: Record<string, ShutdownMetric> = {};
  for (const run of shutdowns)
    for (const [model, m] of Object.entries(run)) {
      const o = out[model] ?? {
        requests: 0,
        inputTokens: 0,
        outputTokens: 0,
        cacheReadTokens: 0,
        cacheWriteTokens: 0,
      };
      out[model] = o;
      o.requests += m.requests;
      o.inputTokens += m.inputTokens;
      o.outputTokens += m.outputTokens;
      o.cacheReadTokens += m.cacheReadTokens;
      o.cacheWriteTokens += m.cacheWriteTokens;
    }
  return out;
}

/** A compaction's summarizing call as the reply it recorded, at the model it names (else the session's). */
export function compactionReply(
  data: Record<string, unknown>,
  rec: JsonlRecord,
  model: string | undefined,
): RecordedReply | undefined {
  const used = isObject(data.compactionTokensUsed) ? data.compactionTokensUsed : undefined;
  if (!used) return undefined;
  const read = num(used.cacheReadTokens);
  const written = num(used.cacheWriteTokens);
  const reply: RecordedReply = {
    thread: 'main',
    onBranch: true,
    usage: {
      inputTokens: Math.max(0, num(used.inputTokens) - read - written),
      outputTokens: num(used.outputTokens),
      cacheReadInputTokens: read,
      cacheCreationInputTokens: written,
    },
    line: rec.span.index + 1,
  };
  const named = str(used.model) ?? str(data.model) ?? model;
  if (named) reply.model = named;
  const ts = str(rec.value.timestamp);
  if (ts) reply.timestamp = ts;
  return reply;
}
