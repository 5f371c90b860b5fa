// What the analysis derives from a prepared transcript whatever the policy, kept on the preparation (derived.ts)
// so that every re-analysis of the same transcript reads the same objects: the `once` replay's memo recognises a
// preset, a pricing and a hidden prefix by identity.
import type { MessageAnalysis } from '../analysisTypes';
import { estimateHiddenPrefix } from './calibration';
import { derive, derived } from './derived';
import { type ModelPreset, provenWindow } from './models';
import type { Policy } from './policy';
import type { PreparedTranscript } from './prepare';
import { tablePrices } from './prices';
import { type RequestPricing, requestPricing } from './requests';

const provenWindows = derived('provenWindows', () => new Map<ModelPreset, ModelPreset>());
/** Under `auto`, the session's preset with the window the log proves (a recorded prompt beyond the preset's window
 * was accepted, so the window is larger: the table's window of the model that answered it). One object per
 * transcript and preset, so that the `once` replay's memo recognises it. */
export function withProvenWindow(prep: PreparedTranscript, model: ModelPreset): ModelPreset {
  const byPreset = derive(prep, provenWindows);
  let proven = byPreset.get(model);
  if (!proven) {
    let largest = 0;
    let largestModel: string | undefined;
    for (const end of prep.requestEnds) {
      const m = prep.transcript.messages[end];
      const u = m.usage;
      if (!u) continue;
      const prompt = u.inputTokens + u.cacheReadInputTokens + u.cacheCreationInputTokens;
      if (prompt > largest) {
        largest = prompt;
        largestModel = m.model;
      }
    }
    const window = provenWindow(
      model,
      largest,
      largestModel ? tablePrices(largestModel)?.contextWindow : undefined,
    );
    proven = window === model.contextWindow ? model : { ...model, contextWindow: window };
    byPreset.set(model, proven);
  }
  return proven;
}

const pricings = derived('pricings', () => new Map<string, RequestPricing>());
/** One pricing object per transcript and setting, so that the `once` replay's memo recognises it. */
export function pricingFor(prep: PreparedTranscript, policy: Policy, model: ModelPreset): RequestPricing {
  const byKey = derive(prep, pricings);
  const key = `${policy.model}\u0000${model.id}\u0000${policy.replay.cacheTtl}\u0000${policy.replay.openaiCacheRetention}`;
  let pricing = byKey.get(key);
  if (!pricing) {
    const spans = { ends: prep.requestEnds, starts: prep.requestStarts, segmentStarts: [] };
    pricing = requestPricing(
      prep.transcript,
      spans,
      policy.model,
      model,
      policy.replay.cacheTtl,
      policy.replay.openaiCacheRetention,
    );
    byKey.set(key, pricing);
  }
  return pricing;
}

const hiddenPrefix = derived('hiddenPrefix', estimateHiddenPrefix);
export function hiddenFor(prep: PreparedTranscript) {
  return derive(prep, hiddenPrefix);
}

export interface MessageFacts {
  role: MessageAnalysis['role'];
  distance: number | null;
  toolIds: string[];
  toolNames: string[];
}

/** What does not depend on the policy, computed once per transcript (the arrays are shared, read-only). */
export const messageFacts = derived('messageFacts', (prep): MessageFacts[] => {
  const trm = prep.toolResultMessages;
  return prep.transcript.messages.map((message, index) => {
    const pos = prep.toolResultPosition[index];
    const toolIds: string[] = [];
    const toolNames: string[] = [];
    for (const b of message.blocks) {
      if (b.type === 'tool_use') {
        toolIds.push(b.id);
        toolNames.push(b.name);
      } else if (b.type === 'tool_result') {
        toolIds.push(b.toolUseId);
        toolNames.push(prep.toolUses.get(b.toolUseId)?.name ?? 'unknown');
      }
    }
    return { role: message.role, distance: pos >= 0 ? trm.length - 1 - pos : null, toolIds, toolNames };
  });
});
