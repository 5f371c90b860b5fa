// SPEC §3 observation window: only the newest `keep` GUI/browser observations keep their text.
import { codePointLength, OBSERVATION_STUB_PREFIX, observationStub } from './content';
import type { ToolMatcher } from './patterns';
import { blockKey, type ContentInfo, contentInfo, memoTable, type ToolUseInfo } from './prepare';
import type { EngineState } from './state';

/** The observation tool_uses of a transcript, oldest first. */
export function observationUses(uses: readonly ToolUseInfo[], isObservationTool: ToolMatcher): ToolUseInfo[] {
  return uses.filter((u) => isObservationTool(u.name));
}

/**
 * One pass over [0, messageCount): every string tool_result of all but the newest `keep` observations becomes the
 * elision stub. The window moves every turn, but an elided result stays elided, so the pass resumes where the
 * previous one stopped (`state.obsNext`).
 */
export function observationPass(
  state: EngineState,
  uses: readonly ToolUseInfo[],
  keep: number,
  messageCount: number,
): void {
  if (keep <= 0) return;
  let count = state.obsNext;
  while (count < uses.length && uses[count].messageIndex < messageCount) count++;
  const stop = count - keep;
  const stubs = memoTable(state.prep, 'observation');
  let next = state.obsNext;
  for (; next < stop; next++) {
    const use = uses[next];
    const results = state.prep.resultsByToolUse.get(use.id) ?? [];
    const inRequest = results.filter((r) => r.messageIndex < messageCount);
    // A result not sent yet will be elided by a later pass: stop here and resume from this one.
    if (inRequest.length < results.length) break;
    for (const ref of inRequest) {
      const content = state.current(ref);
      if (typeof content !== 'string' || content.startsWith(OBSERVATION_STUB_PREFIX)) continue;
      // Memoised only for original content; a result another rule rewrote is measured as it is now.
      let elided: string | ContentInfo;
      if (state.isRewritten(ref)) elided = observationStub(use.name, codePointLength(content));
      else {
        const key = blockKey(ref.messageIndex, ref.blockIndex);
        let info = stubs.get(key);
        if (!info) {
          info = contentInfo(observationStub(use.name, codePointLength(content)), state.counter);
          stubs.set(key, info);
        }
        elided = info;
      }
      state.rewrite(ref, elided, 'obs_window', undefined, use.id);
    }
  }
  state.obsNext = next;
}
