// Cline's, Roo Code's and Kilo Code's `ui_messages.json` (the rows the task's chat shows, `ClineMessage[]`), read for
// what the history file does not hold: each request's recorded usage and cost (`say: "api_req_started"`, whose
// `text` is a JSON `ClineApiReqInfo`, rewritten in place when the stream ends), the model (`modelInfo`, Cline), and
// the range of history the agent stopped sending (`conversationHistoryDeletedRange`, Cline).
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import type { RecordedUsage } from '../../model';
import { isObject, parseJson, str, withoutBom } from '../json';
import { decodeUtf8 } from '../text';
import { MAX_USAGE_TOKENS } from '../usage';

export const UI_MESSAGES = 'ui_messages.json';

/** One request the agent recorded. */
export interface UiRequest {
  /** Position of its row in the array. */
  row: number;
  ts?: number;
  /** Undefined when the row holds no token figure (a request that never finished). */
  usage?: RecordedUsage;
  /** The agent's own figure of what the request cost, in USD. */
  cost?: number;
  model?: string;
  /** Cline: the history's last index when the request started; its reply is two messages on. */
  historyIndex?: number;
  /** Cline: the history indices (inclusive) the request left out. */
  deletedRange?: [number, number];
  /** `deleted_api_reqs` (requests a checkpoint restore took back, summed) or `subagent_usage`: paid, never replayed. */
  aside?: 'deleted_api_reqs' | 'subagent_usage';
  cancelled?: string;
}

export interface UiProblem {
  message: string;
  line: number;
  column: number;
}

export interface UiMessages {
  requests: UiRequest[];
  /** Roo Code's or Kilo Code's rows (`apiProtocol` on requests), not Cline's (`conversationHistoryIndex`). */
  flavor: 'cline' | 'roo' | 'unknown';
  rows: number;
  problems: UiProblem[];
  /** What the task's first row says the task was (its first prompt). */
  task?: string;
}

/** Roo Code counted cache reads and writes into `tokensIn` of Anthropic-protocol requests from this day on (its
 * `calculateApiCostAnthropic` returning `totalInputTokens`); before, `tokensIn` was the uncached input. */
const ROO_TOTAL_INPUT_SINCE = Date.UTC(2025, 9, 31);

function figure(info: Record<string, unknown>, key: string, bad: (key: string) => void): number | undefined {
  const v = info[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0 && v <= MAX_USAGE_TOKENS) return Math.round(v);
  bad(key);
  return undefined;
}

function range(v: unknown): [number, number] | undefined {
  return Array.isArray(v) &&
    v.length === 2 &&
    Number.isInteger(v[0]) &&
    Number.isInteger(v[1]) &&
    v[0] >= 0 &&
    v[1] >= v[0]
    ? [v[0], v[1]]
    : undefined;
}

/** Reads the rows; never throws. A broken file is one problem at its line and column. */
export function readUiMessages(bytes: Uint8Array): UiMessages {
  const out: UiMessages = { requests: [], flavor: 'unknown', rows: 0, problems: [] };
  const { text } = decodeUtf8(bytes);
  const json = withoutBom(text);
  const parsed = parseJson(json);
  const at = (charOffset: number) => {
    const before = text.slice(0, charOffset);
    const lineStart = before.lastIndexOf('\n') + 1;
    return { line: before.split('\n').length, column: charOffset - lineStart + 1 };
  };
  if (!parsed.ok) {
    out.problems.push({ message: `${UI_MESSAGES}: ${parsed.message}`, ...at(parsed.offset) });
    return out;
  }
  // Where a row starts, only when one has something to report (the tree of a 10 MB file costs).
  let tree: ReturnType<typeof parseTree> | null = null;
  const rowAt = (k: number) => {
    tree ??= parseTree(json);
    const node = tree ? findNodeAtLocation(tree, [k]) : undefined;
    return at(node?.offset ?? 0);
  };
  if (!Array.isArray(parsed.value)) {
    out.problems.push({ message: `${UI_MESSAGES} is not a list of rows`, line: 1, column: 1 });
    return out;
  }
  const rows = parsed.value;
  out.rows = rows.length;
  let roo = 0;
  let cline = 0;
  let open: UiRequest | undefined;
  for (let k = 0; k < rows.length; k++) {
    const row = rows[k];
    if (!isObject(row)) continue;
    if ('conversationHistoryIndex' in row) cline++;
    const rowRange = range(row.conversationHistoryDeletedRange);
    const say = str(row.say);
    if (
      out.task === undefined &&
      (say === 'task' || (k === 0 && say === 'text')) &&
      typeof row.text === 'string'
    )
      out.task = row.text;
    const kind =
      say === 'api_req_started' || say === 'deleted_api_reqs' || say === 'subagent_usage' ? say : undefined;
    if (!kind) {
      // The range in force for a request is set while it is prepared, after its own row was written: the rows
      // written after it carry it.
      if (open && rowRange) open.deletedRange = rowRange;
      continue;
    }
    if (open && rowRange) open.deletedRange = rowRange;
    let info: unknown;
    try {
      info = JSON.parse(str(row.text) ?? '{}');
    } catch {
      out.problems.push({
        message: `${UI_MESSAGES}: row ${k} (${kind}) holds text that is not JSON`,
        ...rowAt(k),
      });
      continue;
    }
    if (!isObject(info)) continue;
    if (typeof info.apiProtocol === 'string') roo++;
    const bad = (key: string) =>
      out.problems.push({
        message: `${UI_MESSAGES}: row ${k} (${kind}) records ${key} ${JSON.stringify(info[key])?.slice(0, 40)}, not a token count: left out`,
        ...rowAt(k),
      });
    const tokensIn = figure(info, 'tokensIn', bad);
    const tokensOut = figure(info, 'tokensOut', bad);
    const writes = figure(info, 'cacheWrites', bad) ?? 0;
    const reads = figure(info, 'cacheReads', bad) ?? 0;
    const cost =
      typeof info.cost === 'number' && Number.isFinite(info.cost) && info.cost >= 0 ? info.cost : undefined;
    const ts = typeof row.ts === 'number' ? row.ts : undefined;
    const request: UiRequest = { row: k };
    if (ts !== undefined) request.ts = ts;
    if (kind !== 'api_req_started') request.aside = kind;
    if (typeof row.conversationHistoryIndex === 'number') request.historyIndex = row.conversationHistoryIndex;
    const model = isObject(row.modelInfo) ? str(row.modelInfo.modelId) : undefined;
    if (model) request.model = model;
    if (typeof info.cancelReason === 'string') request.cancelled = info.cancelReason;
    if (tokensIn !== undefined || tokensOut !== undefined || cost !== undefined) {
      const input = tokensIn ?? 0;
      // OpenAI-protocol requests count the cached part into the input (Roo Code; Cline's OpenAI-compatible
      // providers report it apart); Roo Code's Anthropic-protocol requests did too from ROO_TOTAL_INPUT_SINCE.
      const protocol = str(info.apiProtocol);
      const includesCache =
        (protocol === 'openai' || (protocol === 'anthropic' && (ts ?? 0) >= ROO_TOTAL_INPUT_SINCE)) &&
        input >= writes + reads;
      request.usage = {
        inputTokens: includesCache ? input - writes - reads : input,
        outputTokens: tokensOut ?? 0,
        cacheReadInputTokens: reads,
        cacheCreationInputTokens: writes,
      };
    }
    if (cost !== undefined) request.cost = cost;
    if (kind === 'api_req_started') open = request;
    out.requests.push(request);
  }
  out.flavor = cline > 0 ? 'cline' : roo > 0 ? 'roo' : 'unknown';
  return out;
}
