// What the session really cost: every reply the file records (main thread, sub-agents, off-branch), once each,
// priced at the model that answered it and the cache lifetime it wrote with.
import { type ModelPreset, presetForRecordedModel, sessionPreset } from './engine/models';
import { billedCost, type ModelPrices, tablePrices } from './engine/prices';
import { messageReplies } from './formats/usage';
import type { FormatId, RecordedReply, Transcript } from './model';

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
  /** Models the price table does not know (`(no model)` for replies that name none), priced as a preset instead:
   * the cost is an estimate for their replies. */
  unpriced: string[];
  /** Of `cost`, what those replies cost at the preset they were priced as. */
  unpricedCost: number;
  /** Per unknown model, the preset its replies were priced as. */
  unpricedAs: Record<string, string>;
  /** What the agent itself recorded the replies cost (Cline, Roo Code, OpenCode), summed over the replies that say; unset when none
   * does. */
  agentCost?: number;
}

/** What the replies of a log that names no model are listed under. */
export const NO_MODEL = '(no model)';

/** The preset a model the price table does not know (or no model at all) is priced as: the nearest by name, else
 * the session's default for the format (the replay prices its requests the same way). */
export function unpricedPreset(model: string | undefined, format: FormatId): ModelPreset | undefined {
  return presetForRecordedModel(model) ?? sessionPreset('auto', format, undefined);
}

/** Words for an estimate: "gpt-9-ultra as the Claude Sonnet 4 / 4.5 / 4.6 preset (claude-sonnet-4-5)". */
export function unpricedWords(u: Pick<RecordedUsageReport, 'unpriced' | 'unpricedAs'>): string {
  return u.unpriced.map((m) => `${m} as ${u.unpricedAs[m] ?? 'nothing (priced $0)'}`).join(', ');
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
  return t.replies ?? messageReplies(t.messages);
}

function pricesFor(
  reply: RecordedReply,
  t: Transcript,
  unpriced: Map<string, string | undefined>,
): { prices: ModelPrices | undefined; known: boolean } {
  const name = reply.model ?? t.model;
  const at = reply.timestamp ? new Date(reply.timestamp) : undefined;
  const found = name ? tablePrices(name, at) : undefined;
  if (found) return { prices: found, known: true };
  // A reply of no tokens (the runtime's own `<synthetic>` ones) costs nothing at any price.
  if (!billsTokens(reply.usage)) return { prices: undefined, known: true };
  const preset = unpricedPreset(name, t.format);
  unpriced.set(name || NO_MODEL, preset ? `the ${preset.label} preset (${preset.pricedAs})` : undefined);
  return { prices: preset ? tablePrices(preset.pricedAs) : undefined, known: false };
}

/** Whether a reply's usage has any token to bill. */
export function billsTokens(u: RecordedReply['usage']): boolean {
  return u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens + u.outputTokens > 0;
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
  const unpriced = new Map<string, string | undefined>();
  const report: RecordedUsageReport = {
    ...zero(),
    main: zero(),
    sidechains: zero(),
    offBranch: zero(),
    byModel: Object.create(null),
    unpriced: [],
    unpricedCost: 0,
    unpricedAs: Object.create(null),
  };
  for (const reply of replies) {
    const { prices, known } = pricesFor(reply, t, unpriced);
    const cost = prices ? replyCost(prices, reply) : 0;
    if (!known) report.unpricedCost += cost;
    add(report, reply, cost);
    add(
      !reply.onBranch ? report.offBranch : reply.thread === 'main' ? report.main : report.sidechains,
      reply,
      cost,
    );
    if (reply.agentCost !== undefined) report.agentCost = (report.agentCost ?? 0) + reply.agentCost;
    const model = reply.model || t.model || NO_MODEL;
    report.byModel[model] ??= zero();
    add(report.byModel[model], reply, cost);
  }
  report.unpriced = [...unpriced.keys()];
  for (const [model, as] of unpriced) if (as) report.unpricedAs[model] = as;
  return report;
}
