// The facts behind each block's fate, gathered while the passes ran (state.ts), in the shape the Analysis carries:
// the view words them ("distance 33 ≥ tier1Distance 20, but Read is a floor tool → Tier 2"), it never re-derives
// a rule.
import type { WhyFacts } from '../analysisTypes';
import type { EngineState } from './state';

export function whyFacts(state: EngineState, contextEditing = false): WhyFacts {
  const firstTouch: number[] = [];
  for (let m = 0; m < state.touchRequest.length; m++)
    if (state.touchRequest[m] >= 0) firstTouch.push(m, state.touchRequest[m], state.touchDistance[m]);
  const floorTools = [...state.floorTool.entries()].map(([message, tool]) => ({ message, tool }));
  const facts: WhyFacts = {
    firstTouch,
    floorTools,
    liveZone: [...state.liveOutcomes],
    notShorter: [...state.notShorter],
  };
  if (contextEditing) {
    facts.cleared = [...state.cleared];
    facts.clearings = [...state.clearings];
  }
  return facts;
}
