// Every message between the extension host and the Context Lens webview, typed, in one place.
// Both sides validate what arrives (`parseHostMessage` in the webview, `parseWebviewMessage` in the host)
// before acting on it: a webview is a web page, and the host must not trust it blindly.
import {
  type AnalysisPatch,
  type AnalysisWire,
  KEPT_FIELDS,
  LIVE_FACT_WIDTH,
  type MessageColumns,
  type RequestColumns,
  type WireWhy,
} from './analysisWire';
import {
  type AnalysisTotals,
  type CompressionEvent,
  LIVE_OUTCOMES,
  LIVE_TYPES,
  type Payback,
  type VsNone,
} from './core/analysisTypes';
import type { SettingSpec } from './core/engine/policies/descriptor';
import { POLICY_NAMES, SECTIONS, SETTING_PATHS, type SettingPath } from './core/engine/policies/registry';
import type { Policy } from './core/engine/policy';
import { FORMATS } from './core/formats/registry';
import type { FormatId, Role } from './core/model';
import type { SweepAxis, SweepCell, SweepGrid } from './core/sweep';
import { type Check, check, v } from './protocolCheck';

// ---------------------------------------------------------------------------------------------------------
// Shared pieces

/** What the list shows of a message besides its analysis: a short plain-text preview and where it sits. */
export interface MessageSummary {
  index: number;
  role: Role;
  /** First characters of the message's text, rendered as text (never as HTML). */
  preview: string;
  /** Kinds of its blocks, in order (`text`, `tool_use`, `tool_result`…). */
  blockKinds: string[];
  /** 1-based source line of the message's first record, when known. */
  line?: number;
  flags?: string[];
  /** Names of the tools this message calls, or of the calls its results answer. */
  toolNames?: string[];
}

export interface MarkerSummary {
  kind: 'compaction' | 'unknown-record' | 'meta-record';
  label: string;
  beforeMessage: number;
  line?: number;
  text?: string;
}

export interface DiagnosticSummary {
  severity: 'error' | 'warning' | 'info';
  code: string;
  message: string;
  line: number;
  column: number;
}

export type SummarizerName = 'none' | 'extractive' | 'vscode-lm';

export interface ModelPresetSummary {
  id: string;
  label: string;
}

/** One block of the selected message, as the Details view shows it. */
export interface BlockDetail {
  blockIndex: number;
  kind: string;
  /** The original content as text (nested text blocks joined; images and others described). */
  original: string;
  /** The content after the policy, when the policy rewrote this block. */
  compressed: string | null;
  toolUseId?: string;
  toolName?: string;
  /** The paired tool call's input as pretty JSON (for a tool_result), or this call's input (for a tool_use). */
  toolArgs?: string;
  /** 1-based source line of the block, when known. */
  line?: number;
}

/** The requests of another policy, for the chart's side-by-side comparison. */
export interface PolicyComparison {
  policyName: string;
  totals: AnalysisTotals;
  requests: RequestColumns;
}

// ---------------------------------------------------------------------------------------------------------
// Host → webview

export type HostMessage =
  | { type: 'loading'; fileName: string; phase: string; fraction?: number }
  | {
      type: 'transcript';
      fileName: string;
      /** What the view calls the session: its project and first prompt (the file name when it has none). */
      title?: string;
      format: FormatId;
      formatReason: string;
      messages: MessageSummary[];
      markers: MarkerSummary[];
      diagnostics: DiagnosticSummary[];
      sidechains: number;
      /** Bumped each time the file changed on disk and was read again. */
      revision: number;
      /** The request streams of the file (`main`, then each sub-agent) when it has more than one, and which one
       * the messages and the analysis are of. */
      threads?: ThreadSummary[];
      thread?: string;
      /** Present when these are the messages of the file's first `bytes` only (a large session is shown from its
       * beginning while the rest is parsed); the whole file's transcript follows. */
      beginning?: { bytes: number; fileBytes: number };
    }
  | {
      type: 'analysis';
      /** The `seq` of the webview change this analysis answers (0 when the host started it). */
      seq: number;
      /** This analysis, for the patch that follows it. */
      id: number;
      policy: Policy;
      /** The engine's Analysis in columns (see analysisWire.ts); with `patch`, only the columns' changed rows. */
      analysis: AnalysisWire;
      /** Present when `analysis` holds only what changed since analysis `patch.base`. */
      patch?: AnalysisPatch;
      /** Absent when unchanged since the previous analysis message (the baseline rarely changes, and it is
       * as large as the analysis itself). */
      comparisons?: PolicyComparison[];
      elapsedMs: number;
    }
  /** An analysis run ahead, as a patch on the analysis the view shows: the view shows it at once, without asking,
   * when the user moves to its settings (then says so: `updateSettings.holds`). */
  | { type: 'ahead'; summarizer: SummarizerName; analysis: Extract<HostMessage, { type: 'analysis' }> }
  | {
      type: 'settings';
      policy: Policy;
      summarizer: SummarizerName;
      models: ModelPresetSummary[];
      /** Where changes are saved. */
      scope: 'workspace' | 'global';
      /** When the host refused a change: why (names the key and the allowed range). */
      problem?: string;
      /** The webview change (`updateSettings.seq`) this answers, in the message to the panel that sent it: a
       * panel that has sent newer changes since keeps its own policy (this one is already out of date). */
      seq?: number;
    }
  | { type: 'details'; messageIndex: number; blocks: BlockDetail[]; events: CompressionEvent[] }
  | {
      type: 'comparisons';
      /** Every policy under the current settings (summarizer `none`), for the requests chart. */
      comparisons: PolicyComparison[];
      /** A replayed session: one pass before the next request against none ("if compacted now"). */
      compactedNow?: Payback;
    }
  | { type: 'error'; message: string }
  /** The view's layout as last saved in this workspace (sent before the transcript, so the first paint has it). */
  | { type: 'layout'; layout: ViewLayout }
  /** The messages whose full text (results, arguments, thinking) holds `query`, answering `find` `seq`. */
  | { type: 'found'; seq: number; query: string; messages: number[] }
  /** The sweep asked for by `sweep` `seq`: the cells done so far of `total`, then the grid (or why there is none). */
  | { type: 'sweepGrid'; seq: number; done: number; total: number; grid?: SweepGridWire; error?: string };

/** The tier constants the Tuning tab sweeps. */
export const SWEEP_KEYS = ['tiered.keepRecent', 'tiered.tier1Distance'] as const;
export type SweepKey = (typeof SWEEP_KEYS)[number];
export type SweepAxisWire = SweepAxis;
export type SweepCellWire = SweepCell;

/** core/sweep.ts's SweepGrid as it crosses to the view: each cell the policy's cost against none and the tokens
 * it saves. */
export type SweepGridWire = Omit<SweepGrid, 'policy'> & { policy: string };

/** How the user arranged the view, remembered per workspace. */
export interface ViewLayout {
  /** The controls side panel is open. */
  controlsOpen: boolean;
  /** The list's share of the list/details split, 0.2 to 0.8 (the webview clamps what it reads). */
  split: number;
}

// ---------------------------------------------------------------------------------------------------------
// Webview → host

/** A `contextLens.*` setting key below the section (e.g. `tiered.keepRecent`, `policy`, `summarizer`). */
export type SettingKey = (typeof SETTING_KEYS)[number];

/** The policy's name, every section's settings in registry order, the model and the Tier-2 summarizer. */
export const SETTING_KEYS: readonly ('policy' | SettingPath | 'model' | 'summarizer')[] = [
  'policy',
  ...SETTING_PATHS,
  'model',
  'summarizer',
];

export type SettingValue = number | boolean | string | string[];

export type WebviewMessage =
  | { type: 'ready' }
  /** `holds`: the view already shows the analysis run ahead with this id for the changed settings (an `ahead`). */
  | {
      type: 'updateSettings';
      seq: number;
      changes: { key: SettingKey; value: SettingValue }[];
      holds?: number;
    }
  | { type: 'resetSettings'; seq: number }
  | { type: 'requestDetails'; messageIndex: number }
  | { type: 'revealInSource'; messageIndex: number; blockIndex?: number }
  | { type: 'exportCompacted' }
  /** The requests chart is shown: compare every policy under the current settings. */
  | { type: 'compareAll' }
  /** Whether the view shows the requests (the Requests tab): analyses carry their columns only then. */
  | { type: 'requestsShown'; shown: boolean }
  /** The user changed the layout: the host keeps it for this workspace. */
  | { type: 'saveLayout'; layout: ViewLayout }
  /** The list's search field: find the messages whose text holds `query`. */
  | { type: 'find'; seq: number; query: string }
  /** Show and analyse another request stream of the file: the main conversation or one sub-agent's. */
  | { type: 'selectThread'; thread: string }
  /** The Tuning tab: replay the policy over every pair of `rows` × `cols` values (answered by `sweepGrid`). */
  | {
      type: 'sweep';
      seq: number;
      rows: { key: SweepKey; values: number[] };
      cols: { key: SweepKey; values: number[] };
    };

/** One request stream of a file: its id (`main` or the sub-agent's), messages and replies with recorded usage. */
export interface ThreadSummary {
  id: string;
  messages: number;
  replies: number;
}

// ---------------------------------------------------------------------------------------------------------
// Validators

const role = v.oneOf(['system', 'user', 'assistant'] as const);
const formatId = v.oneOf(FORMATS.map((f) => f.id));

const compressionEvent: Check<CompressionEvent> = v.object({
  action: v.oneOf(['tier1', 'tier2', 'obs_window', 'live_zone', 'context_edit'] as const),
  messageIndex: v.int,
  blockIndex: v.int,
  toolUseId: v.nullable(v.string),
  tier: v.optional(v.oneOf([1, 2, 3] as const)),
  oldHash: v.string,
  newHash: v.string,
  oldLen: v.number,
  newLen: v.number,
  requestIndex: v.int,
});

const payback: Check<Payback> = v.object({
  extraWrittenTokens: v.number,
  extraCost: v.number,
  savedTokensPerRequest: v.number,
  savedCostPerRequest: v.number,
  paybackRequests: v.nullable(v.int),
});
const vsNone: Check<VsNone> = v.object({
  requests: v.int,
  cost: v.number,
  noneCost: v.number,
  deltaCost: v.number,
  deltaShare: v.number,
  promptTokens: v.number,
  nonePromptTokens: v.number,
  tokensSaved: v.number,
  writtenTokens: v.number,
  noneWrittenTokens: v.number,
  extraWritten: v.number,
  compactedNow: v.optional(payback),
});

/** `WireWhy.liveZone`: whole facts of `LIVE_FACT_WIDTH` integers, each code one of its list's. */
const liveFacts: Check<number[]> = (x, p) => {
  const wrong = v.array(v.int)(x, p);
  if (wrong) return wrong;
  const z = x as number[];
  if (z.length % LIVE_FACT_WIDTH !== 0)
    return `${p}: expected facts of ${LIVE_FACT_WIDTH} integers, got ${z.length}`;
  for (let i = 0; i < z.length; i += LIVE_FACT_WIDTH) {
    const type = z[i + 4];
    const outcome = z[i + 5];
    if (type < -1 || type >= LIVE_TYPES.length) return `${p}[${i + 4}]: no type has the code ${type}`;
    if (outcome < 0 || outcome >= LIVE_OUTCOMES.length)
      return `${p}[${i + 5}]: no outcome has the code ${outcome}`;
  }
  return null;
};

const why: Check<WireWhy> = v.object({
  firstTouch: v.array(v.int),
  floorTools: v.array(v.object({ message: v.int, tool: v.string })),
  liveZone: liveFacts,
  cleared: v.optional(
    v.array(
      v.object({
        message: v.int,
        block: v.int,
        request: v.int,
        kind: v.oneOf(['tool_result', 'tool_input', 'thinking'] as const),
      }),
    ),
  ),
  clearings: v.optional(
    v.array(
      v.object({
        request: v.int,
        promptTokens: v.number,
        toolUses: v.int,
        freedTokens: v.number,
        thinkingTurns: v.int,
      }),
    ),
  ),
});

const tierTotals = v.object({ count: v.number, tokensSaved: v.number });
const totals: Check<AnalysisTotals> = v.object({
  messages: v.number,
  toolResults: v.number,
  tokensBefore: v.number,
  tokensAfter: v.number,
  promptTokens: v.number,
  cachedTokens: v.number,
  writtenTokens: v.number,
  cost: v.number,
  tiers: v.object({ '1': tierTotals, '2': tierTotals, '3': tierTotals }),
  summarizerAttempts: v.number,
  summarizerFailures: v.number,
});

/** A column of one-character codes, each from `alphabet`. */
const codes = (alphabet: string): Check<string> =>
  ((x: unknown, p: string) => {
    if (typeof x !== 'string') return `${p}: expected a string of codes, got ${typeof x}`;
    for (let i = 0; i < x.length; i++)
      if (!alphabet.includes(x[i]))
        return `${p}[${i}]: expected one of "${alphabet}", got ${JSON.stringify(x[i])}`;
    return null;
  }) as Check<string>;

/** Every column of a table has the same length; with `emptyAllowed`, a column may be empty instead (one a patch
 * leaves out: `analysisMessage` checks that the patch names it). */
function sameLength<T extends object>(inner: Check<T>, emptyAllowed = false): Check<T> {
  return ((x: unknown, p: string) => {
    const e = inner(x, p);
    if (e) return e;
    const cols = Object.entries(x as Record<string, { length: number }>);
    const full = emptyAllowed ? cols.filter(([, c]) => c.length > 0) : cols;
    const n = full[0]?.[1].length ?? 0;
    const bad = full.find(([, c]) => c.length !== n);
    return bad ? `${p}.${bad[0]}: ${bad[1].length} entries, but ${full[0][0]} has ${n}` : null;
  }) as Check<T>;
}

const numbers = v.array(v.number);
const requestColumns: Check<RequestColumns> = sameLength(
  v.object({
    messageCount: numbers,
    promptTokens: numbers,
    cachedTokens: numbers,
    writtenTokens: numbers,
    boundaryMessage: numbers,
    cost: numbers,
    recordedInput: numbers,
    recordedCacheRead: numbers,
    recordedCacheCreation: numbers,
    recordedOutput: numbers,
  }),
);
const messageColumns: Check<MessageColumns> = sameLength(
  v.object({
    tier: codes('123-'),
    distance: numbers,
    floored: codes('01'),
    zone: codes('prl'),
    rewritten: codes('01'),
    tokensBefore: numbers,
    tokensAfter: numbers,
  }),
  true,
);

export const analysisCheck: Check<AnalysisWire> = v.object({
  format: formatId,
  policyName: v.string,
  trigger: v.oneOf(['once', 'everyRequest', 'pressure'] as const),
  totals,
  cacheBoundary: v.nullable(v.int),
  boundaryEvent: v.nullable(compressionEvent),
  eventCount: v.int,
  tokenEstimate: v.bool,
  messages: messageColumns,
  requests: requestColumns,
  sentRequests: v.int,
  hiddenPrefix: v.optional(
    v.object({
      hiddenTokens: v.number,
      calibration: v.number,
      samples: v.number,
      source: v.string,
      warmAtStart: v.bool,
      warmTokens: v.number,
      byModel: v.optional(
        v.array(
          v.object({ model: v.string, hiddenTokens: v.number, calibration: v.number, samples: v.number }),
        ),
      ),
    }),
  ),
  recorded: v.optional(
    v.object({
      requests: v.number,
      fileReplies: v.number,
      sessionCost: v.number,
      sessionCostEstimate: v.optional(v.object({ cost: v.number, models: v.string })),
      recordedCacheRead: v.number,
      simulatedCached: v.number,
      recordedWritten: v.number,
      simulatedWritten: v.number,
      cachedError: v.number,
      writtenError: v.number,
    }),
  ),
  grewEvents: v.optional(v.int),
  vsNone: v.optional(vsNone),
  why: v.optional(why),
  flags: v.optional(
    v.array(
      v.object({
        kind: v.oneOf(['beyond-window', 'recorded-differs', 'hidden-prefix'] as const),
        where: v.oneOf(['requests', 'recorded', 'hidden-prefix'] as const),
        message: v.string,
      }),
    ),
  ),
  contextWindow: v.optional(v.int),
  tokensPending: v.optional(v.bool),
  compactions: v.optional(
    v.object({
      simulated: v.array(
        v.object({
          request: v.int,
          contextTokens: v.number,
          promptTokens: v.number,
          cachedTokens: v.number,
          writtenTokens: v.number,
          outputTokens: v.number,
          fromLog: v.bool,
          cost: v.number,
          keptFrom: v.int,
        }),
      ),
      recorded: v.array(v.object({ request: v.int, beforeMessage: v.int, preTokens: v.optional(v.number) })),
    }),
  ),
});

const policyName = v.oneOf(POLICY_NAMES);

/** The wire shape of a setting's value (the host checks ranges and patterns with validatePolicy). */
function settingShape(spec: SettingSpec<unknown>): Check<unknown> {
  switch (spec.kind) {
    case 'int':
      return v.int;
    case 'fraction':
      return v.number;
    case 'bool':
      return v.bool;
    case 'patterns':
    case 'names':
      return v.array(v.string);
    case 'enum':
      return v.oneOf(spec.values);
    case 'intOrAll':
      return v.union([v.int, v.literal('all')]);
  }
}

export const policyCheck = v.object({
  name: policyName,
  ...Object.fromEntries(
    SECTIONS.map((s) => [
      s.key,
      v.object(
        Object.fromEntries(
          Object.entries(s.settings as Record<string, SettingSpec<unknown>>).map(([field, spec]) => [
            field,
            settingShape(spec),
          ]),
        ),
      ),
    ]),
  ),
  model: v.string,
}) as Check<Policy>;

const summarizerName = v.oneOf(['none', 'extractive', 'vscode-lm'] as const);

const viewLayout: Check<ViewLayout> = v.object({ controlsOpen: v.bool, split: v.number });

/** A message column is empty only where the patch says the rows it holds have the base's values (a whole analysis
 * has every column, each as long as the others). */
function emptyColumnsNamed<T extends { analysis: AnalysisWire; patch?: AnalysisPatch }>(
  inner: Check<T>,
): Check<T> {
  return ((x: unknown, p: string) => {
    const e = inner(x, p);
    if (e) return e;
    const m = x as T;
    const named = m.patch?.sameColumns ?? [];
    const columns = Object.entries(m.analysis.messages as unknown as Record<string, { length: number }>);
    let rows = 0;
    for (const [, c] of columns) rows = Math.max(rows, c.length);
    const bad = columns.find(([k, c]) => c.length === 0 && rows > 0 && !named.includes(k));
    return bad
      ? `${p}.analysis.messages.${bad[0]}: empty, and the patch does not name it as the base's`
      : null;
  }) as Check<T>;
}

const analysisMessage: Check<Extract<HostMessage, { type: 'analysis' }>> = emptyColumnsNamed(
  v.object({
    type: v.literal('analysis'),
    seq: v.int,
    id: v.int,
    policy: policyCheck,
    analysis: analysisCheck,
    patch: v.optional(
      v.object({
        base: v.int,
        rows: v.array(v.int),
        messageCount: v.int,
        requestsFrom: v.int,
        requestCount: v.int,
        kept: v.optional(v.array(v.oneOf(KEPT_FIELDS))),
        firstTouchRuns: v.optional(v.array(v.int)),
        sameColumns: v.optional(v.array(v.string)),
      }),
    ),
    comparisons: v.optional(v.array(v.object({ policyName: v.string, totals, requests: requestColumns }))),
    elapsedMs: v.number,
  }),
);

const hostChecks: { [K in HostMessage['type']]: Check<Extract<HostMessage, { type: K }>> } = {
  loading: v.object({
    type: v.literal('loading'),
    fileName: v.string,
    phase: v.string,
    fraction: v.optional(v.number),
  }),
  transcript: v.object({
    type: v.literal('transcript'),
    fileName: v.string,
    title: v.optional(v.string),
    format: formatId,
    formatReason: v.string,
    messages: v.array(
      v.object({
        index: v.int,
        role,
        preview: v.string,
        blockKinds: v.array(v.string),
        line: v.optional(v.int),
        flags: v.optional(v.array(v.string)),
        toolNames: v.optional(v.array(v.string)),
      }),
    ),
    markers: v.array(
      v.object({
        kind: v.oneOf(['compaction', 'unknown-record', 'meta-record'] as const),
        label: v.string,
        beforeMessage: v.int,
        line: v.optional(v.int),
        text: v.optional(v.string),
      }),
    ),
    diagnostics: v.array(
      v.object({
        severity: v.oneOf(['error', 'warning', 'info'] as const),
        code: v.string,
        message: v.string,
        line: v.int,
        column: v.int,
      }),
    ),
    sidechains: v.int,
    revision: v.int,
    threads: v.optional(v.array(v.object({ id: v.string, messages: v.int, replies: v.int }))),
    thread: v.optional(v.string),
    beginning: v.optional(v.object({ bytes: v.int, fileBytes: v.int })),
  }),
  analysis: analysisMessage,
  ahead: v.object({ type: v.literal('ahead'), summarizer: summarizerName, analysis: analysisMessage }),
  settings: v.object({
    type: v.literal('settings'),
    policy: policyCheck,
    summarizer: summarizerName,
    models: v.array(v.object({ id: v.string, label: v.string })),
    scope: v.oneOf(['workspace', 'global'] as const),
    problem: v.optional(v.string),
    seq: v.optional(v.int),
  }),
  details: v.object({
    type: v.literal('details'),
    messageIndex: v.int,
    blocks: v.array(
      v.object({
        blockIndex: v.int,
        kind: v.string,
        original: v.string,
        compressed: v.nullable(v.string),
        toolUseId: v.optional(v.string),
        toolName: v.optional(v.string),
        toolArgs: v.optional(v.string),
        line: v.optional(v.int),
      }),
    ),
    events: v.array(compressionEvent),
  }),
  comparisons: v.object({
    type: v.literal('comparisons'),
    comparisons: v.array(v.object({ policyName: v.string, totals, requests: requestColumns })),
    compactedNow: v.optional(payback),
  }),
  error: v.object({ type: v.literal('error'), message: v.string }),
  layout: v.object({ type: v.literal('layout'), layout: viewLayout }),
  found: v.object({ type: v.literal('found'), seq: v.int, query: v.string, messages: v.array(v.int) }),
  sweepGrid: v.object({
    type: v.literal('sweepGrid'),
    seq: v.int,
    done: v.int,
    total: v.int,
    grid: v.optional(
      v.object({
        policy: v.string,
        rows: v.object({ key: v.string, values: v.array(v.int) }),
        cols: v.object({ key: v.string, values: v.array(v.int) }),
        cells: v.array(
          v.nullable(
            v.object({
              cost: v.number,
              noneCost: v.number,
              deltaCost: v.number,
              deltaShare: v.number,
              tokensSaved: v.number,
              extraWritten: v.number,
            }),
          ),
        ),
        refused: v.array(v.nullable(v.string)),
        current: v.nullable(v.int),
        sessions: v.int,
        replays: v.int,
      }),
    ),
    error: v.optional(v.string),
  }),
};

/** An axis of a sweep the webview asks for: at most 100 whole values (a grid of 10,000 replays at most). */
const sweepAxis = ((x: unknown, p: string) => {
  const e = v.object({ key: v.oneOf(SWEEP_KEYS), values: v.array(v.int) })(x, p);
  if (e) return e;
  const values = (x as { values: number[] }).values;
  if (values.length === 0 || values.length > 100)
    return `${p}.values: expected 1 to 100 values, got ${values.length}`;
  return values.every((n) => n >= 0) ? null : `${p}.values: expected values ≥ 0`;
}) as Check<{ key: SweepKey; values: number[] }>;

const settingValue: Check<SettingValue> = v.union([v.number, v.bool, v.string, v.array(v.string)]);

const webviewChecks: { [K in WebviewMessage['type']]: Check<Extract<WebviewMessage, { type: K }>> } = {
  ready: v.object({ type: v.literal('ready') }),
  updateSettings: v.object({
    type: v.literal('updateSettings'),
    seq: v.int,
    changes: v.array(v.object({ key: v.oneOf(SETTING_KEYS), value: settingValue })),
    holds: v.optional(v.int),
  }),
  resetSettings: v.object({ type: v.literal('resetSettings'), seq: v.int }),
  requestDetails: v.object({ type: v.literal('requestDetails'), messageIndex: v.int }),
  revealInSource: v.object({
    type: v.literal('revealInSource'),
    messageIndex: v.int,
    blockIndex: v.optional(v.int),
  }),
  exportCompacted: v.object({ type: v.literal('exportCompacted') }),
  compareAll: v.object({ type: v.literal('compareAll') }),
  requestsShown: v.object({ type: v.literal('requestsShown'), shown: v.bool }),
  saveLayout: v.object({ type: v.literal('saveLayout'), layout: viewLayout }),
  find: v.object({ type: v.literal('find'), seq: v.int, query: v.string }),
  selectThread: v.object({ type: v.literal('selectThread'), thread: v.string }),
  sweep: v.object({ type: v.literal('sweep'), seq: v.int, rows: sweepAxis, cols: sweepAxis }),
};

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

function parseByType<T extends { type: string }>(
  data: unknown,
  checks: Record<string, Check<unknown>>,
  side: string,
): Parsed<T> {
  if (typeof data !== 'object' || data === null || typeof (data as { type?: unknown }).type !== 'string') {
    return { ok: false, error: `${side} message without a string "type"` };
  }
  const type = (data as { type: string }).type;
  const c = Object.hasOwn(checks, type) ? checks[type] : undefined;
  if (!c) return { ok: false, error: `unknown ${side} message type "${type}"` };
  const error = check(c, data, type);
  return error ? { ok: false, error: `invalid ${side} message: ${error}` } : { ok: true, value: data as T };
}

/** Validates a message that arrived in the webview from the host. */
export function parseHostMessage(data: unknown): Parsed<HostMessage> {
  return parseByType<HostMessage>(data, hostChecks as Record<string, Check<unknown>>, 'host');
}

/** Validates a message that arrived in the host from the webview. */
export function parseWebviewMessage(data: unknown): Parsed<WebviewMessage> {
  return parseByType<WebviewMessage>(data, webviewChecks as Record<string, Check<unknown>>, 'webview');
}

// ---------------------------------------------------------------------------------------------------------
// Setting keys ↔ policy fields (the keys are the policy's own paths, so the mapping is mechanical)

export type PolicySettingKey = Exclude<SettingKey, 'summarizer'>;

/** The value of a `contextLens.*` key in a policy (`policy` is the policy's name). */
export function policySetting(policy: Policy, key: PolicySettingKey): SettingValue {
  if (key === 'policy') return policy.name;
  if (key === 'model') return policy.model;
  const [group, field] = key.split('.') as [keyof Policy, string];
  return (policy[group] as unknown as Record<string, SettingValue>)[field];
}

/** A copy of `policy` with one key changed. The value's type is checked by the caller (host: validatePolicy). */
export function withPolicySetting(policy: Policy, key: PolicySettingKey, value: SettingValue): Policy {
  if (key === 'policy') return { ...policy, name: value as Policy['name'] };
  if (key === 'model') return { ...policy, model: value as string };
  const [group, field] = key.split('.') as [
    'tiered' | 'observation' | 'liveZone' | 'replay' | 'contextEditing' | 'compaction',
    string,
  ];
  return { ...policy, [group]: { ...policy[group], [field]: value } };
}
