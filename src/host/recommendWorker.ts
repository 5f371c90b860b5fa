// Worker-thread entry (bundled as dist/recommendWorker.js): "Recommend a Strategy" replays a session some forty
// times (every policy under a few settings, core/recommend.ts), seconds of work on a long one: off the extension
// host's main thread, so that the editor stays responsive. It parses the file itself and answers with the words.
import { parentPort, workerData } from 'node:worker_threads';
import { defaultPolicyFor, type Policy, resolveTrigger } from '../core/engine/policy';
import { parseTranscript } from '../core/formats';
import { recommend, recommendationLines } from '../core/recommend';
import { withLoggedSummarizations } from '../node/summarizationFiles';
import { policyFromSettings } from './policySettings';

export interface RecommendWorkerData {
  bytes: Uint8Array;
  fileName: string;
  /** The settings in force, every candidate varies them: the open view's policy, or the contextLens.* values the
   * user set (made into the policy for this transcript's format here, as the editor does). */
  policy: Policy | { explicit: Partial<Record<string, unknown>> };
}

export type RecommendReply =
  | { ok: true; lines: string[]; requests: number; best: string | null }
  | { ok: false; error: string };

function run(data: RecommendWorkerData): RecommendReply {
  const transcript = withLoggedSummarizations(parseTranscript(data.bytes, data.fileName), data.fileName);
  const given = data.policy;
  const policy =
    'explicit' in given ? policyFromSettings(transcript, (key) => given.explicit[key]).policy : given;
  const r = recommend(transcript, policy, undefined, defaultPolicyFor(transcript.format));
  const sent = transcript.messages.filter((m) => m.role === 'assistant').length;
  const lines = recommendationLines(r, transcript, {
    oneRequestBody: resolveTrigger(policy.replay.trigger, transcript.format, sent) === 'once',
    fence: true,
  });
  return { ok: true, lines, requests: r.requests, best: r.best?.policy.name ?? null };
}

if (parentPort) {
  let reply: RecommendReply;
  try {
    reply = run(workerData as RecommendWorkerData);
  } catch (error) {
    reply = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort.postMessage(reply);
}
