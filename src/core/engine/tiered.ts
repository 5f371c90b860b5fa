// SPEC §2 tiered compression: a pass over the tool-result messages, by distance from the newest.
import type { Block, ToolResultBlock } from '../model';
import {
  contentLength,
  contentText,
  headAndTail,
  IMAGE_REMOVED,
  MICRO_COMPACT_PREFIX,
  stubArgs,
  tier1Stub,
} from './content';
import type { ToolMatcher } from './patterns';
import type { TieredSettings } from './policy';
import { memoized } from './prepare';
import type { EngineState } from './state';
import type { SummaryOutcome } from './summarizer';

/** What the pass asks its driver for: a summary of one Tier-2 result (SPEC §6). The driver answers with the
 * outcome, synchronously (CLI, tests) or after awaiting a model (editor). */
export interface SummaryRequest {
  toolName: string;
  content: string;
}

export interface TieredRules {
  settings: TieredSettings;
  isFloorTool: ToolMatcher;
  isNoSummaryTool: ToolMatcher;
  /** Whether a summarizer is available at all (`none`: no attempts, head-and-tail only). */
  summarize: boolean;
}

/** SPEC §2 step 3, without the summarizer: nested images become text, text blocks are truncated one by one. */
export function tier2Truncate(content: string | Block[], max: number): string | Block[] {
  if (typeof content === 'string') return headAndTail(content, max);
  return content.map((b): Block => {
    if (b.type === 'image') return { type: 'text', text: IMAGE_REMOVED };
    if (b.type === 'text') {
      const text = headAndTail(b.text, max);
      return text === b.text ? b : { type: 'text', text };
    }
    return b;
  });
}

/**
 * One tiered pass over the messages [0, messageCount). Thanks to first touch, every tool-result message older
 * than the pass's Tier-3 window was classified by an earlier pass, so the pass starts at the first message it has
 * not met (`state.tieredNext`): a replay costs each message once, not once per request.
 */
export function* tieredPass(
  state: EngineState,
  rules: TieredRules,
  messageCount: number,
): Generator<SummaryRequest, void, SummaryOutcome> {
  const { prep } = state;
  const { keepRecent, tier1Distance, maxResultChars, summaryMinChars, summariesPerPass, argsChars } =
    rules.settings;
  const trm = prep.toolResultMessages;
  let total = state.tieredNext;
  while (total < trm.length && trm[total] < messageCount) total++;
  // Tool-result messages in this request: positions [0, total). Nothing happens with keepRecent or fewer.
  if (total <= keepRecent) return;
  let attempts = 0;
  const messages = prep.transcript.messages;
  for (let p = state.tieredNext; p < total - keepRecent; p++) {
    const m = trm[p];
    const distance = total - 1 - p;
    const blocks = messages[m].blocks;
    const nameOf = (b: ToolResultBlock) => prep.toolUses.get(b.toolUseId)?.name ?? 'unknown';
    const results: { block: ToolResultBlock; index: number }[] = [];
    blocks.forEach((block, index) => {
      if (block.type === 'tool_result') results.push({ block, index });
    });
    const floored = results.some((r) => rules.isFloorTool(nameOf(r.block)));
    const tier: 1 | 2 = distance >= tier1Distance && !floored ? 1 : 2;
    state.messageTier[m] = tier;
    state.messageFloored[m] = distance >= tier1Distance && floored;
    for (const { block, index } of results) {
      const ref = { messageIndex: m, blockIndex: index };
      const key = m * 0x10000 + index;
      // Not-yet-compressed only: first touch, and blocks another policy already rewrote keep their bytes.
      if (state.tierMark.has(key) || state.isRewritten(ref)) continue;
      state.tierMark.set(key, tier);
      const content = state.current(ref);
      const name = nameOf(block);
      if (tier === 1) {
        const use = prep.toolUses.get(block.toolUseId);
        const stub = () =>
          tier1Stub(
            name,
            use ? stubArgs(use.input, use.inputInvalid, argsChars) : '{}',
            contentLength(content),
          );
        state.rewrite(ref, memoized(prep, `t1:${key}:${argsChars}`, stub), 'tier1', 1, block.toolUseId);
        continue;
      }
      let replacement: string | Block[] | null = null;
      if (
        rules.summarize &&
        contentLength(content) > summaryMinChars &&
        !contentText(content).startsWith(MICRO_COMPACT_PREFIX) &&
        !rules.isNoSummaryTool(name) &&
        attempts < summariesPerPass
      ) {
        // The attempt is counted FIRST: a failing summarizer still spends the pass's budget.
        attempts++;
        state.summarizerAttempts++;
        const outcome: SummaryOutcome = yield { toolName: name, content: contentText(content) };
        if (outcome.ok) replacement = `${MICRO_COMPACT_PREFIX}${outcome.summary}`;
        else state.summarizerFailures++;
      }
      // Blocks are always original here (not-yet-compressed), so the truncation can be memoised per block and limit.
      const next =
        replacement ??
        memoized(prep, `t2:${key}:${maxResultChars}`, () => tier2Truncate(content, maxResultChars));
      state.rewrite(ref, next, 'tier2', 2, block.toolUseId);
    }
  }
  state.tieredNext = total - keepRecent;
}
