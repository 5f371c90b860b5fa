// The recorded requests of a `once` replay, kept on the prepared transcript (derived.ts): no pass runs before the
// pending request, so they depend only on the transcript, the model and the hidden prefix, never on the policy's
// constants. A threshold change then replays only the pending request (a 10,000-message session has 2,500
// recorded ones).
import type { HiddenPrefixInfo, RequestAnalysis } from '../analysisTypes';
import { derive, derived } from './derived';
import type { ModelPreset } from './models';
import type { PreparedTranscript } from './prepare';
import type { RequestPricing } from './requests';

export interface RecordedOnce {
  model: ModelPreset;
  hidden: HiddenPrefixInfo;
  pricing: RequestPricing;
  requests: RequestAnalysis[];
}

const slot = derived('recordedOnce', (): { kept?: RecordedOnce } => ({}));

/** The kept requests when they were replayed for the same model, hidden prefix and pricing (by identity). */
export function recordedOnce(
  prep: PreparedTranscript,
  model: ModelPreset,
  hidden: HiddenPrefixInfo,
  pricing: RequestPricing,
): RecordedOnce | undefined {
  const found = derive(prep, slot).kept;
  return found && found.model === model && found.hidden === hidden && found.pricing === pricing
    ? found
    : undefined;
}

/** Keeps the sent requests of a `once` replay (copies: the caller keeps its own). */
export function keepRecordedOnce(
  prep: PreparedTranscript,
  model: ModelPreset,
  hidden: HiddenPrefixInfo,
  pricing: RequestPricing,
  requests: readonly RequestAnalysis[],
): void {
  derive(prep, slot).kept = {
    model,
    hidden,
    pricing,
    requests: requests.filter((r) => !r.pending).map(copyRequest),
  };
}

/** A copy the caller owns (each Analysis has its own request objects, as without the memo). */
export function copyRequest(r: RequestAnalysis): RequestAnalysis {
  return { ...r, boundaryEvents: [...r.boundaryEvents] };
}
