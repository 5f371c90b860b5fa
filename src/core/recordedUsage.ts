// What the session really cost: every reply the file records (main thread, sub-agents, off-branch), once each,
// priced at the model that answered it and the cache lifetime it wrote with.
import { presetForRecordedModel } from './engine/models';
import { billedCost, type ModelPrices, tablePrices } from './engine/prices';
import type { RecordedReply, Transcript } from './model';

export interface UsageTotals {
  replies: number;
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  /** Of the cache writes, those with the 1-hour lifetime. */
  cacheCreation1hInputTokens: number;
  /** USD at the list prices of the kept table. */
  cost: number;
}

export interface RecordedUsageReport extends UsageTotals {
  /** The main conversation shown (the branch replayed). */
  main: UsageTotals;
  /** Sub-agent conversations, together. */
  sidechains: UsageTotals;
  /** Replies on an abandoned branch (a rewound or edited turn): paid for, not replayed. */
  offBranch: UsageTotals;
  /** Per model, as the log names it. */
  byModel: Record<string, UsageTotals>;
  /** Models the price table does not know, priced as the nearest preset instead. */
  unpriced: string[];
}

function zero(): UsageTotals {
  return {
    replies: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadInputTokens: 0,
    cacheCreationInputTokens: 0,
    cacheCreation1hInputTokens: 0,
    cost: 0,
  };
}

/** The replies with usage: the format's own list, else the main conversation's messages. */
export function repliesOf(t: Transcript): RecordedReply[] {
  if (t.replies) return t.replies;
  const out: RecordedReply[] = [];
  for (const m of t.messages) {
    if (!m.usage) continue;
    const reply: RecordedReply = {
      thread: 'main',
      onBranch: true,
      usage: m.usage,
      line: m.source?.line ?? 0,
    };
    if (m.model) reply.model = m.model;
    if (m.timestamp) reply.timestamp = m.timestamp;
    out.push(reply);
  }
  return out;
}

function pricesFor(reply: RecordedReply, fallbackModel: string | undefined, unpriced: Set<string>) {
  const name = reply.model ?? fallbackModel;
  if (!name) return undefined;
  const at = reply.timestamp ? new Date(reply.timestamp) : undefined;
  const found = tablePrices(name, at);
  if (found) return found;
  unpriced.add(name);
  const preset = presetForRecordedModel(name);
  return preset ? tablePrices(preset.pricedAs) : undefined;
}

/** What one reply cost: its uncached input, cache reads, 5-minute and 1-hour writes and output. */
export function replyCost(prices: ModelPrices, reply: RecordedReply): number {
  const u = reply.usage;
  const oneHour = Math.min(u.cacheCreation1hInputTokens ?? 0, u.cacheCreationInputTokens);
  return billedCost(prices, {
    input: u.inputTokens,
    cacheRead: u.cacheReadInputTokens,
    cacheWrite5m: u.cacheCreationInputTokens - oneHour,
    cacheWrite1h: oneHour,
    output: u.outputTokens,
  });
}

function add(t: UsageTotals, reply: RecordedReply, cost: number): void {
  const u = reply.usage;
  // A compaction's summarizing pass is paid with its reply, and is no reply of its own.
  if (!reply.compaction) t.replies++;
  t.inputTokens += u.inputTokens;
  t.outputTokens += u.outputTokens;
  t.cacheReadInputTokens += u.cacheReadInputTokens;
  t.cacheCreationInputTokens += u.cacheCreationInputTokens;
  t.cacheCreation1hInputTokens += u.cacheCreation1hInputTokens ?? 0;
  t.cost += cost;
}

export function recordedUsage(t: Transcript): RecordedUsageReport | null {
  const replies = repliesOf(t);
  if (replies.length === 0) return null;
  const unpriced = new Set<string>();
  const report: RecordedUsageReport = {
    ...zero(),
    main: zero(),
    sidechains: zero(),
    offBranch: zero(),
    byModel: Object.create(null),
    unpriced: [],
  };
  for (const reply of replies) {
    const prices = pricesFor(reply, t.model, unpriced);
    const cost = prices ? replyCost(prices, reply) : 0;
    add(report, reply, cost);
    add(
      !reply.onBranch ? report.offBranch : reply.thread === 'main' ? report.main : report.sidechains,
      reply,
      cost,
    );
    const model = reply.model ?? t.model ?? 'unknown';
    report.byModel[model] ??= zero();
    add(report.byModel[model], reply, cost);
  }
  report.unpriced = [...unpriced];
  return report;
}
