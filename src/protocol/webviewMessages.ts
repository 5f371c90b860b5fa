// Webview → host: every command (no reply) and request (a reply, see requests.ts), each declared once as its
// check, from which the `WebviewMessage` union is derived. The host checks every one on arrival: a webview is a
// web page, and the host must not trust it blindly. The setting keys come from the policy registry, so the webview
// imports this module's types only.
import { SETTING_PATHS } from '../core/engine/policies/registry';
import { type Check, type Infer, type KeyedByType, v } from './check';
import { type Parsed, parseByType } from './parse';
import type { SettingKey, SettingValue } from './settingValues';
import { SWEEP_KEYS, type SweepKey, viewLayoutCheck } from './shared';

/** The policy's name, every section's settings in registry order, the model and the Tier-2 summarizer. */
export const SETTING_KEYS: readonly SettingKey[] = ['policy', ...SETTING_PATHS, 'model', 'summarizer'];

/** An axis of a sweep the webview asks for: at most 100 whole values (a grid of 10,000 replays at most). */
const sweepAxis = v.refine(v.object({ key: v.oneOf(SWEEP_KEYS), values: v.array(v.int) }), (axis, p) => {
  const { values } = axis;
  if (values.length === 0 || values.length > 100)
    return `${p}.values: expected 1 to 100 values, got ${values.length}`;
  return values.every((n) => n >= 0) ? null : `${p}.values: expected values ≥ 0`;
}) as Check<{ key: SweepKey; values: number[] }>;

const settingValue: Check<SettingValue> = v.union([v.number, v.bool, v.string, v.array(v.string)]);

/** Lines to paste are a few hundred characters; anything far longer is not what the card copies. */
const MAX_COPIED_CHARS = 100_000;

const webviewChecks = {
  ready: v.object({ type: v.literal('ready') }),
  /** A request: answered by `settings` with its `seq` (then the analysis, with the same `seq`). `holds`: the view
   * already shows the analysis run ahead with this id for the changed settings (an `ahead`). */
  updateSettings: v.object({
    type: v.literal('updateSettings'),
    seq: v.int,
    changes: v.array(v.object({ key: v.oneOf(SETTING_KEYS), value: settingValue })),
    holds: v.optional(v.int),
  }),
  /** Answered by the analysis under the defaults, with this `seq`. */
  resetSettings: v.object({ type: v.literal('resetSettings'), seq: v.int }),
  requestDetails: v.object({ type: v.literal('requestDetails'), messageIndex: v.int }),
  revealInSource: v.object({
    type: v.literal('revealInSource'),
    messageIndex: v.int,
    blockIndex: v.optional(v.int),
  }),
  exportCompacted: v.object({ type: v.literal('exportCompacted') }),
  /** The requests chart is shown: compare every policy under the current settings. */
  compareAll: v.object({ type: v.literal('compareAll') }),
  /** The verdict card is shown: rank the strategies of the session's provider under the current settings. */
  askVerdict: v.object({ type: v.literal('askVerdict') }),
  /** Put lines to paste on the clipboard (a webview's own clipboard access depends on the editor's frame). */
  copyText: v.refine(v.object({ type: v.literal('copyText'), text: v.string }), (m, p) =>
    m.text.length <= MAX_COPIED_CHARS ? null : `${p}.text: longer than ${MAX_COPIED_CHARS} characters`,
  ),
  /** Whether the view shows the requests (the Requests tab): analyses carry their columns only then. */
  requestsShown: v.object({ type: v.literal('requestsShown'), shown: v.bool }),
  /** The user changed the layout: the host keeps it for this workspace. */
  saveLayout: v.object({ type: v.literal('saveLayout'), layout: viewLayoutCheck }),
  /** A request: the messages whose text holds `query` (answered by `found`). */
  find: v.object({ type: v.literal('find'), seq: v.int, query: v.string }),
  /** Show and analyse another request stream of the file: the main conversation or one sub-agent's. */
  selectThread: v.object({ type: v.literal('selectThread'), thread: v.string }),
  /** A request, from the Tuning tab: replay the policy over every pair of `rows` × `cols` values (answered by
   * `sweepGrid`). */
  sweep: v.object({ type: v.literal('sweep'), seq: v.int, rows: sweepAxis, cols: sweepAxis }),
  /** A request: the header's line on the cache breaks the log records (answered by `cacheView`); `tab`: the Cache
   * tab is shown, which also wants the breaks of the thread shown, recorded and under the policy shown, and what
   * would have avoided them (two more replays). */
  cacheBreaks: v.object({ type: v.literal('cacheBreaks'), seq: v.int, tab: v.bool }),
};

type WebviewChecks = KeyedByType<typeof webviewChecks>;
export type WebviewMessage = { [K in keyof WebviewChecks]: Infer<WebviewChecks[K]> }[keyof WebviewChecks];

/** Validates a message that arrived in the host from the webview. */
export function parseWebviewMessage(data: unknown): Parsed<WebviewMessage> {
  return parseByType<WebviewMessage>(data, webviewChecks, 'webview');
}
