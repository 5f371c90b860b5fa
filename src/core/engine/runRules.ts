// The policy's settings turned into what the passes of one run read: tool matchers, the trigger, observation uses,
// the hidden prefix and the prices.
import type { ModelPreset } from './models';
import { observationUses } from './observation';
import { toolMatcher } from './patterns';
import { type Policy, resolveTrigger } from './policy';
import type { PreparedTranscript } from './prepare';
import type { RunRules } from './replay';
import { hiddenFor, pricingFor } from './transcriptFacts';

/** The policy's settings turned into what a pass reads (tool matchers, observation uses, the hidden prefix). */
export function runRules(
  policy: Policy,
  model: ModelPreset,
  prep: PreparedTranscript,
  summarize: boolean,
): RunRules {
  const isObservationTool = toolMatcher(policy.observation.tools);
  return {
    policy,
    trigger: resolveTrigger(policy.replay.trigger, prep.transcript.format, prep.requestEnds.length),
    model,
    tiered: {
      settings: policy.tiered,
      isFloorTool: toolMatcher(policy.tiered.floorTools),
      isNoSummaryTool: toolMatcher(policy.tiered.noSummaryTools),
      summarize,
    },
    contextEditing: {
      settings: policy.contextEditing,
      isExcluded: toolMatcher(policy.contextEditing.excludeTools.map(exactName)),
    },
    observationUses: observationUses(prep.toolUseList, isObservationTool),
    isObservationTool,
    hidden: hiddenFor(prep).info,
    hiddenBySegment: hiddenFor(prep).bySegment,
    ...(hiddenFor(prep).byModel ? { hiddenByModel: hiddenFor(prep).byModel } : {}),
    pricing: pricingFor(prep, policy, model),
  };
}

/** An exact tool name as a pattern (the API's `exclude_tools` are names; a name ending in `*` is not a prefix). */
function exactName(name: string): string {
  return name.endsWith('*') ? `${name}\u0000` : name;
}
