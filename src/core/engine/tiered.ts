// SPEC §2 tiered compression: a pass over the tool-result messages, by distance from the newest.
import type { Block } from '../model';
import {
  contentLength,
  contentText,
  headAndTail,
  IMAGE_REMOVED,
  MICRO_COMPACT_PREFIX,
  stubArgs,
  tier1Stub,
} from './content';
import { derive, derived } from './derived';
import type { ToolMatcher } from './patterns';
import type { TieredSettings } from './policy';
import { blockKey, contentInfo, memoTable, type PreparedTranscript } from './prepare';
import { countBelow } from './sorted';
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

/** The tool of each block of each tool-result message (by its place among them; undefined for other blocks), looked
 * up by its call's id once per transcript rather than by every pass of every replay. */
const resultToolNames = derived('resultToolNames', (prep): (string | undefined)[][] =>
  prep.toolResultMessages.map((m) =>
    prep.transcript.messages[m].blocks.map((b) =>
      b.type === 'tool_result' ? (prep.toolUses.get(b.toolUseId)?.name ?? 'unknown') : undefined,
    ),
  ),
);

/** The floor tool of each tool-result message (the tool of its first result that floorTools names; null: none), by
 * the floorTools setting: every step of the other settings reads the same. */
const floorToolsBySetting = derived('floorToolsBySetting', (): Map<string, (string | null)[]> => new Map());

/** The same, by the rules of one run: a run's pass asks at every request. */
const floorToolsByRules = new WeakMap<TieredRules, (string | null)[]>();

function floorToolOfResults(prep: PreparedTranscript, rules: TieredRules): (string | null)[] {
  let found = floorToolsByRules.get(rules);
  if (found) return found;
  const bySetting = derive(prep, floorToolsBySetting);
  const key = rules.settings.floorTools.join('\n');
  found = bySetting.get(key);
  if (!found) {
    found = derive(prep, resultToolNames).map(
      (names) => names.find((name) => name !== undefined && rules.isFloorTool(name)) ?? null,
    );
    bySetting.set(key, found);
  }
  floorToolsByRules.set(rules, found);
  return found;
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
 * One tiered pass over the messages [firstMessage, messageCount): after a compaction a request carries only the
 * summary and what follows, so older messages are neither counted nor rewritten. Thanks to first touch, every tool-result message older
 * than the pass's Tier-3 window was classified by an earlier pass, so the pass starts at the first message it has
 * not met (`state.tieredNext`): a replay costs each message once, not once per request.
 */
export function* tieredPass(
  state: EngineState,
  rules: TieredRules,
  messageCount: number,
  firstMessage = 0,
): Generator<SummaryRequest, void, SummaryOutcome> {
  const { prep } = state;
  const { keepRecent, tier1Distance, maxResultChars, summaryMinChars, summariesPerPass, argsChars } =
    rules.settings;
  const trm = prep.toolResultMessages;
  const first = countBelow(trm, firstMessage);
  if (state.tieredNext < first) state.tieredNext = first;
  let total = state.tieredNext;
  while (total < trm.length && trm[total] < messageCount) total++;
  // Tool-result messages in this request: positions [first, total). Nothing happens with keepRecent or fewer.
  if (total - first <= keepRecent) return;
  let attempts = 0;
  const messages = prep.transcript.messages;
  // Rule outputs on original blocks depend only on the block and one setting: memo tables per setting value.
  const stubs = memoTable(prep, `tier1:${argsChars}`);
  const truncations = memoTable(prep, `tier2:${maxResultChars}`);
  const toolNames = derive(prep, resultToolNames);
  const floorTools = floorToolOfResults(prep, rules);
  for (let p = state.tieredNext; p < total - keepRecent; p++) {
    const m = trm[p];
    const distance = total - 1 - p;
    const blocks = messages[m].blocks;
    const names = toolNames[p];
    const floorTool = floorTools[p];
    const floored = floorTool !== null;
    const tier: 1 | 2 = distance >= tier1Distance && !floored ? 1 : 2;
    state.messageTier[m] = tier;
    state.messageFloored[m] = distance >= tier1Distance && floored;
    // First touch, for the why-line: which request's pass met it, at what distance, and which floor tool kept it.
    state.touchRequest[m] = state.requestIndex;
    state.touchDistance[m] = distance;
    if (floorTool !== null && distance >= tier1Distance) state.floorTool.set(m, floorTool);
    for (let index = 0; index < blocks.length; index++) {
      const block = blocks[index];
      if (block.type !== 'tool_result') continue;
      const ref = { messageIndex: m, blockIndex: index };
      const key = blockKey(m, index);
      // Not-yet-compressed only: first touch, and blocks another policy already rewrote keep their bytes.
      if (state.tierMark.has(key) || state.isRewritten(ref)) continue;
      state.tierMark.set(key, tier);
      // Not rewritten, so the content is the original.
      const content = block.content;
      const name = names[index] as string;
      if (tier === 1) {
        let stub = stubs.get(key);
        if (!stub) {
          const use = prep.toolUses.get(block.toolUseId);
          const args = use ? stubArgs(use.input, use.inputInvalid, argsChars) : '{}';
          stub = contentInfo(tier1Stub(name, args, contentLength(content)), state.counter);
          stubs.set(key, stub);
        }
        state.rewrite(ref, stub, 'tier1', 1, block.toolUseId);
        continue;
      }
      let replacement: string | null = null;
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
      if (replacement !== null) {
        state.rewrite(ref, replacement, 'tier2', 2, block.toolUseId);
        continue;
      }
      let truncated = truncations.get(key);
      if (!truncated) {
        truncated = contentInfo(tier2Truncate(content, maxResultChars), state.counter);
        truncations.set(key, truncated);
      }
      state.rewrite(ref, truncated, 'tier2', 2, block.toolUseId);
    }
  }
  state.tieredNext = total - keepRecent;
}
