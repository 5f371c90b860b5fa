// An agent's clearing of old tool results after an idle gap (Claude Code's time-based microcompaction; the rule
// is the strategy's, policies/claudeCode.ts): when a request comes more than `idleMs` after the previous one, the
// cache is gone anyway, so the client sends the results of all but the newest `keepRecent` calls of the listed
// tools as a placeholder, and keeps them so from then on (a client rewrite: the cache is written again from the
// first one).
import { requestTime } from './cacheTimes';
import type { ClearingRule } from './policies/descriptor';
import { contentInfo } from './prepare';
import type { EngineState } from './state';

/** Whether request k comes more than the rule's idle gap after request k-1 (both times recorded). */
export function idleBefore(state: EngineState, rule: ClearingRule, k: number): boolean {
  if (k === 0) return false;
  const now = requestTime(state.prep, k);
  const before = requestTime(state.prep, k - 1);
  return now !== undefined && before !== undefined && now - before > rule.idleMs;
}

/** Before request k, over its messages [start, end): clears the old results when the gap says so. */
export function microcompactPass(
  state: EngineState,
  rule: ClearingRule,
  k: number,
  start: number,
  end: number,
): void {
  if (!idleBefore(state, rule, k)) return;
  const { prep } = state;
  const uses = prep.toolUseList.filter(
    (u) => u.messageIndex >= start && u.messageIndex < end && rule.tools.includes(u.name),
  );
  const placeholder = contentInfo(rule.placeholder, state.counter);
  for (const use of uses.slice(0, Math.max(0, uses.length - rule.keepRecent)))
    for (const ref of prep.resultsByToolUse.get(use.id) ?? [])
      if (ref.messageIndex < end) state.rewrite(ref, placeholder, 'microcompact', undefined, use.id);
}
