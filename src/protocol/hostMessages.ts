// Host → webview: every notification and reply the host sends, each declared once as its check, from which the
// `HostMessage` union is derived. The checks that name the registries' ids (policies, settings, formats) are built
// from the descriptors the host sends with the page (viewDescriptors.ts), so this module holds no engine code.
import { analysisCheckOf, compressionEventCheck, paybackCheck } from '../analysisWire/check';
import { analysisPatchCheck } from '../analysisWire/patch';
import type { AnalysisWire } from '../analysisWire/types';
import { cacheHeadlineCheck, cacheViewCheck } from './cacheView';
import { type Infer, type KeyedByType, v } from './check';
import {
  blockDetailCheck,
  diagnosticSummaryCheck,
  markerSummaryCheck,
  messageSummaryCheck,
  modelPresetSummaryCheck,
  policyComparisonCheck,
  summarizerNameCheck,
  sweepGridCheck,
  threadSummaryCheck,
  verdictCheck,
  viewLayoutCheck,
} from './shared';
import { formatCheckOf, policyCheckOf, type ViewDescriptors } from './viewDescriptors';

/** A message column is empty only where the patch says the rows it holds have the base's values (a whole analysis
 * has every column, each as long as the others). */
function emptyColumnsNamed(
  m: { analysis: AnalysisWire; patch?: { sameColumns?: string[] } },
  p: string,
): string | null {
  const named = m.patch?.sameColumns ?? [];
  const columns = Object.entries(m.analysis.messages as unknown as Record<string, { length: number }>);
  let rows = 0;
  for (const [, c] of columns) rows = Math.max(rows, c.length);
  const bad = columns.find(([k, c]) => c.length === 0 && rows > 0 && !named.includes(k));
  return bad ? `${p}.analysis.messages.${bad[0]}: empty, and the patch does not name it as the base's` : null;
}

/** Every host message's check, keyed by its `type`. */
export function hostMessageChecks(d: ViewDescriptors) {
  const policy = policyCheckOf(d);
  const format = formatCheckOf(d);
  const analysis = v.refine(
    v.object({
      type: v.literal('analysis'),
      /** The `seq` of the webview change this analysis answers (0 when the host started it). */
      seq: v.int,
      /** This analysis, for the patch that follows it. */
      id: v.int,
      policy,
      /** The engine's Analysis in columns (see analysisWire/); with `patch`, only the columns' changed rows. */
      analysis: analysisCheckOf(format),
      /** Present when `analysis` holds only what changed since analysis `patch.base`. */
      patch: v.optional(analysisPatchCheck),
      /** Absent when unchanged since the previous analysis message (the baseline rarely changes, and it is
       * as large as the analysis itself). */
      comparisons: v.optional(v.array(policyComparisonCheck)),
      elapsedMs: v.number,
    }),
    emptyColumnsNamed,
  );
  return {
    loading: v.object({
      type: v.literal('loading'),
      fileName: v.string,
      phase: v.string,
      fraction: v.optional(v.number),
    }),
    transcript: v.object({
      type: v.literal('transcript'),
      fileName: v.string,
      /** What the view calls the session: its project and first prompt (the file name when it has none). */
      title: v.optional(v.string),
      format,
      formatReason: v.string,
      messages: v.array(messageSummaryCheck),
      markers: v.array(markerSummaryCheck),
      diagnostics: v.array(diagnosticSummaryCheck),
      sidechains: v.int,
      /** Bumped each time the file changed on disk and was read again. */
      revision: v.int,
      /** The request streams of the file (`main`, then each sub-agent) when it has more than one, and which one
       * the messages and the analysis are of. */
      threads: v.optional(v.array(threadSummaryCheck)),
      thread: v.optional(v.string),
      /** Present when these are the messages of the file's first `bytes` only (a large session is shown from its
       * beginning while the rest is parsed); the whole file's transcript follows. */
      beginning: v.optional(v.object({ bytes: v.int, fileBytes: v.int })),
      /** The policies the session's provider and agent can use (the registry's answer), in the registry's order. */
      offered: v.optional(v.array(v.string)),
      /** The provider of the session's models, where known: the cache settings that apply are its own. */
      provider: v.optional(v.oneOf(['anthropic', 'openai'] as const)),
    }),
    /** A transcript message in its compact form (listWire.ts) as the session's thread made it: `json` its UTF-8
     * bytes, which the host forwards untouched; the view makes the transcript message of them and checks it as
     * any other. `key` and `messages` are for the host: which views hold it, how many messages it lists. */
    list: v.object({ type: v.literal('list'), key: v.string, messages: v.int, json: v.bytes }),
    /** An analysis or a run ahead as UTF-8 JSON made by the session's thread (packedMessage.ts): the host forwards
     * the bytes untouched (an object would be serialised on its thread, which every extension shares); the view
     * parses them and checks the message as any other. */
    packed: v.object({ type: v.literal('packed'), json: v.bytes }),
    analysis,
    /** An analysis run ahead, as a patch on the analysis the view shows: the view shows it at once, without
     * asking, when the user moves to its settings (then says so: `updateSettings.holds`). */
    ahead: v.object({ type: v.literal('ahead'), summarizer: summarizerNameCheck, analysis }),
    /** The settings in force; the reply to `updateSettings`. */
    settings: v.object({
      type: v.literal('settings'),
      policy,
      summarizer: summarizerNameCheck,
      models: v.array(modelPresetSummaryCheck),
      /** Where changes are saved. */
      scope: v.oneOf(['workspace', 'global'] as const),
      /** When the host refused a change: why (names the key and the allowed range). */
      problem: v.optional(v.string),
      /** The webview change (`updateSettings.seq`) this answers, in the message to the panel that sent it: a
       * panel that has sent newer changes since keeps its own policy (this one is already out of date). */
      seq: v.optional(v.int),
    }),
    details: v.object({
      type: v.literal('details'),
      messageIndex: v.int,
      blocks: v.array(blockDetailCheck),
      events: v.array(compressionEventCheck),
    }),
    comparisons: v.object({
      type: v.literal('comparisons'),
      /** Every policy under the current settings (summarizer `none`), for the requests chart. */
      comparisons: v.array(policyComparisonCheck),
      /** A replayed session: one pass before the next request against none ("if compacted now"). */
      compactedNow: v.optional(paybackCheck),
    }),
    /** The reply to `askVerdict`: the strategies of the session's provider ranked by cost against the baseline,
     * under the settings of `policy` (the view drops a verdict of settings it has moved on from). */
    verdict: v.object({ type: v.literal('verdict'), policy, verdict: verdictCheck }),
    error: v.object({ type: v.literal('error'), message: v.string }),
    /** The view's layout as last saved in this workspace (sent before the transcript, so the first paint has
     * it). */
    layout: v.object({ type: v.literal('layout'), layout: viewLayoutCheck }),
    /** The messages whose full text (results, arguments, thinking) holds `query`: the reply to `find`. */
    found: v.object({ type: v.literal('found'), seq: v.int, query: v.string, messages: v.array(v.int) }),
    /** The reply to `sweep`: the cells done so far of `total`, then the grid (or why there is none). */
    sweepGrid: v.object({
      type: v.literal('sweepGrid'),
      seq: v.int,
      done: v.int,
      total: v.int,
      grid: v.optional(sweepGridCheck),
      error: v.optional(v.string),
    }),
    /** The reply to `cacheBreaks`: the header's line on the cache and, when the Cache tab asked, its figures; or
     * why there are none. */
    cacheView: v.object({
      type: v.literal('cacheView'),
      seq: v.int,
      headline: v.optional(cacheHeadlineCheck),
      view: v.optional(cacheViewCheck),
      error: v.optional(v.string),
    }),
  };
}

type HostChecks = KeyedByType<ReturnType<typeof hostMessageChecks>>;
export type HostMessage = { [K in keyof HostChecks]: Infer<HostChecks[K]> }[keyof HostChecks];
/** The host message of type `K`. */
export type HostMessageOf<K extends HostMessage['type']> = Extract<HostMessage, { type: K }>;
