// A Cline, Roo Code or Kilo Code task read into the model. The transcript is the task's
// `api_conversation_history.json` (Anthropic `MessageParam`s as sent, each with the agent's `ts`), because it holds
// every message the model was sent, block by block, where an export can splice a rewrite; the chat's rows in
// `ui_messages.json` beside it hold only what the user saw. Those rows give each request its recorded usage, cost
// and model, and the ranges of history the agent stopped sending.
import type { Block, Marker, Message, RecordedReply, RecordedUsage, Reload, Transcript } from '../../model';
import { anthropicContent } from '../anthropicBlocks';
import { isObject, str } from '../json';
import { type DocPositions, documentParts } from '../jsonDoc';
import { mostFrequent } from '../mostFrequent';
import { userOrAssistant, warnNotAnObject } from '../requestBody';
import type { Diagnostics, Sniff } from '../types';
import { readUiMessages, UI_MESSAGES, type UiMessages, type UiRequest } from './uiMessages';

/** What opens a text of the user message after tool calls that is not a tool's output: Cline writes the outputs
 * first, in the calls' order ("[<tool> for '…'] Result:" texts, or our rewrites of them in an exported file), then
 * its reminders and the environment's details; a task resumed after an interruption starts with its notice. */
const NOT_A_RESULT =
  /^\s*(?:<environment_details>|\[TASK RESUMPTION\]|<feedback>|<user_message>|#\s*(?:task_progress|TODO LIST))/;

const MODEL_TAG = /<model>([^<\n]{1,120})<\/model>/;
/** Roo Code's and Kilo Code's mode in the environment details of a prompt: each mode has its own system prompt. */
const MODE_TAG = /<slug>([^<\n]{1,60})<\/slug>/;

function messageOf(
  m: Record<string, unknown>,
  k: number,
  s: Sniff,
  pos: DocPositions,
  diags: Diagnostics,
  index: number,
): Message {
  const source = pos.rangeAt([k]);
  const role = userOrAssistant(m.role, diags, source);
  const contentPath = [k, 'content'];
  const blocks = anthropicContent(
    m.content,
    { recordStart: 0, recordEnd: s.bytes.length, recordLine: 1, path: contentPath },
    (i) => pos.rangeAt(i === null ? contentPath : [...contentPath, i]),
    diags,
  );
  const message: Message = { index, role, blocks, source };
  if (typeof m.ts === 'number' && Number.isFinite(m.ts) && Math.abs(m.ts) < 8.64e15)
    message.timestamp = new Date(m.ts).toISOString();
  const model = isObject(m.modelInfo) ? str(m.modelInfo.modelId) : undefined;
  if (role === 'assistant' && model) message.model = model;
  const flags = ['isSummary', 'isTruncationMarker'].filter((f) => m[f] === true);
  // Before December 2025 Roo Code's condensation deleted the messages it condensed: the call that wrote the summary
  // sent messages the file no longer holds.
  if (m.isSummary === true && !str(m.condenseId)) flags.push('summary-without-call');
  if (flags.length) message.flags = flags;
  return message;
}

/** The texts that answer a reply's tool_use blocks (Cline hands outputs back as text, not tool_result blocks) become
 * those calls' tool_result, in order, so that results pair with their calls; a rewrite still replaces only the
 * text. By position, not by the "[tool] Result:" header: an exported file's rewrite may have cut the header. */
function pairTextResults(messages: Message[]): void {
  for (let i = 0; i + 1 < messages.length; i++) {
    const reply = messages[i];
    const next = messages[i + 1];
    if (reply.role !== 'assistant' || next.role !== 'user') continue;
    const answered = new Set(next.blocks.flatMap((b) => (b.type === 'tool_result' ? [b.toolUseId] : [])));
    const calls = reply.blocks.filter(
      (b): b is Extract<Block, { type: 'tool_use' }> => b.type === 'tool_use' && !answered.has(b.id),
    );
    let c = 0;
    for (let j = 0; j < next.blocks.length && c < calls.length; j++) {
      const b = next.blocks[j];
      if (b.type === 'tool_result') continue;
      if (b.type !== 'text' || NOT_A_RESULT.test(b.text)) break;
      const result: Block = {
        type: 'tool_result',
        toolUseId: calls[c++].id,
        content: b.text,
        isError: false,
      };
      if (b.source) result.source = b.source;
      if (b.location) result.location = b.location;
      next.blocks[j] = result;
    }
  }
}

/** Cline's newer history records each reply's tokens (`metrics.tokens`: `prompt` the uncached input, `cached` the
 * cache reads and writes together), used when `ui_messages.json` is not beside it. */
function metricsUsage(m: Record<string, unknown>): { usage: RecordedUsage; cost?: number } | undefined {
  const metrics = isObject(m.metrics) ? m.metrics : undefined;
  const tokens = metrics && isObject(metrics.tokens) ? metrics.tokens : undefined;
  if (!tokens) return undefined;
  const n = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 1e12 ? v : 0);
  const out: { usage: RecordedUsage; cost?: number } = {
    usage: {
      inputTokens: n(tokens.prompt),
      outputTokens: n(tokens.completion),
      cacheReadInputTokens: n(tokens.cached),
      cacheCreationInputTokens: 0,
    },
  };
  if (typeof metrics?.cost === 'number' && Number.isFinite(metrics.cost) && metrics.cost >= 0)
    out.cost = metrics.cost;
  return out;
}

/** The first `tag` in a prompt's text (its environment details). */
function tagInPrompt(m: Message | undefined, tag: RegExp): string | undefined {
  if (!m) return undefined;
  for (const b of m.blocks) {
    const text =
      b.type === 'text' ? b.text : b.type === 'tool_result' && typeof b.content === 'string' ? b.content : '';
    const found = tag.exec(text);
    if (found) return found[1].trim();
  }
  return undefined;
}

export function parseClineTask(s: Sniff, reason: string): Transcript {
  const { doc, pos, diags } = documentParts(s);
  const list = Array.isArray(doc.value) ? doc.value : [];
  const messages: Message[] = [];
  /** History index → message index (-1: the entry is not a message). */
  const at: number[] = [];
  const raw: Record<string, unknown>[] = [];
  list.forEach((m, k) => {
    if (!isObject(m)) {
      warnNotAnObject(diags, pos.rangeAt([k]));
      at.push(-1);
      return;
    }
    at.push(messages.length);
    raw.push(m);
    messages.push(messageOf(m, k, s, pos, diags, messages.length));
  });
  pairTextResults(messages);

  const uiBytes = s.beside?.(UI_MESSAGES);
  const ui = uiBytes ? readUiMessages(uiBytes) : undefined;
  for (const p of ui?.problems ?? [])
    diags.add(
      'warning',
      'ui-messages',
      `${p.message} (line ${p.line}, column ${p.column} of ${UI_MESSAGES})`,
      1,
      1,
    );
  const replies: RecordedReply[] = [];
  const reloads: Reload[] = [];
  const markers: Marker[] = [];
  if (ui && ui.requests.length > 0) usageFromRows(ui, messages, at, replies, reloads, markers, diags);
  else
    messages.forEach((m, i) => {
      const found = m.role === 'assistant' ? metricsUsage(raw[i]) : undefined;
      if (!found) return;
      m.usage = found.usage;
      const reply: RecordedReply = {
        thread: 'main',
        onBranch: true,
        usage: found.usage,
        line: m.source?.line ?? 1,
      };
      if (found.cost !== undefined) reply.agentCost = found.cost;
      if (m.model) reply.model = m.model;
      if (m.timestamp) reply.timestamp = m.timestamp;
      replies.push(reply);
    });
  if (!ui && replies.length > 1) unknownTruncations(replies, messages, diags);
  condensations(raw, reloads, markers);
  let mode: string | undefined;
  for (const m of messages)
    if (m.role === 'user') mode = tagInPrompt(m, MODE_TAG) ?? mode;
    else {
      if (!m.model) {
        const named = tagInPrompt(messages[m.index - 1], MODEL_TAG);
        if (named) m.model = named;
      }
      if (mode !== undefined) m.agentMode = mode;
    }
  for (const r of replies) {
    const named = r.onBranch ? messages.find((m) => m.usage === r.usage)?.model : undefined;
    if (!r.model && named) r.model = named;
  }
  const t: Transcript = {
    format: 'cline-task',
    formatReason: ui
      ? `${reason}; usage from ${UI_MESSAGES} beside it (${ui.requests.length} requests)`
      : reason,
    messages,
    markers: markers.sort((a, b) => a.beforeMessage - b.beforeMessage),
    sidechains: [],
    diagnostics: diags.list,
    raw: s.bytes,
  };
  if (replies.length || ui) t.replies = replies;
  if (reloads.length) t.reloads = reloads;
  const model = mostFrequent(messages.flatMap((m) => (m.role === 'assistant' && m.model ? [m.model] : [])));
  if (model) t.model = model;
  return t;
}

/**
 * Roo Code's and Kilo Code's rows name no history index. Where the history's messages carry the agent's `ts`, each
 * reply is the answer to the last request row started before it was written, a row answering one reply at most: a
 * condensation that deleted the older messages from the history (the summary then answers no row), or replies whose
 * rows a restore took back, leave the other rows unanswered instead of shifting every later one.
 */
function repliesByTime(ui: UiMessages, messages: Message[]): Map<UiRequest, number> | undefined {
  const rows = ui.requests.filter((r) => !r.aside && r.historyIndex === undefined && r.ts !== undefined);
  const replies = messages.filter(
    (m) => m.role === 'assistant' && !m.flags?.includes('summary-without-call'),
  );
  if (rows.length === 0 || replies.some((m) => m.timestamp === undefined)) return undefined;
  const out = new Map<UiRequest, number>();
  let row = -1;
  let claimed = -1;
  for (const m of replies) {
    const written = Date.parse(m.timestamp as string);
    while (row + 1 < rows.length && (rows[row + 1].ts as number) <= written) row++;
    if (row > claimed) {
      out.set(rows[row], m.index);
      claimed = row;
    }
  }
  return out;
}

/** Each request row's usage on the reply it produced; the ranges the agent left out, as reloads. */
function usageFromRows(
  ui: UiMessages,
  messages: Message[],
  at: number[],
  replies: RecordedReply[],
  reloads: Reload[],
  markers: Marker[],
  diags: Diagnostics,
): void {
  const claimed = new Set<number>();
  const byTime = repliesByTime(ui, messages);
  let next = 0;
  let unfinished = 0;
  let unrecorded = 0;
  let lastRange = '';
  for (const req of ui.requests) {
    let target: number | undefined;
    if (!req.aside) {
      if (req.historyIndex !== undefined) {
        // Cline: the row was written before the request's user message was added; the reply follows that.
        const m = at[req.historyIndex + 2];
        if (m !== undefined && m >= 0 && messages[m].role === 'assistant' && !claimed.has(m)) target = m;
      } else if (byTime) {
        const m = byTime.get(req);
        if (m !== undefined && !claimed.has(m)) target = m;
      } else {
        while (next < messages.length && (messages[next].role !== 'assistant' || claimed.has(next))) next++;
        if (next < messages.length && req.usage) target = next;
      }
    }
    if (req.deletedRange && req.historyIndex !== undefined) {
      const key = req.deletedRange.join(',');
      const sentAt = at[req.historyIndex + 1];
      if (key !== lastRange && sentAt !== undefined && sentAt >= 0) {
        lastRange = key;
        const forgotten: number[] = [];
        for (let h = req.deletedRange[0]; h <= req.deletedRange[1]; h++)
          if (at[h] !== undefined && at[h] >= 0 && at[h] < sentAt) forgotten.push(at[h]);
        reloads.push({ at: sentAt, forgotten });
        markers.push({
          kind: 'meta-record',
          label: 'conversationHistoryDeletedRange',
          beforeMessage: sentAt,
          text: `the agent stopped sending history messages ${req.deletedRange[0]}–${req.deletedRange[1]} (its context window was full): ${forgotten.length} messages left out from here on`,
        });
      }
    }
    if (!req.usage) {
      // A row without figures whose reply the history holds was answered: its figures were not written.
      if (target !== undefined) unrecorded++;
      else unfinished++;
      continue;
    }
    if (target !== undefined) {
      claimed.add(target);
      next = target + 1;
      messages[target].usage = req.usage;
      if (req.model) messages[target].model = req.model;
    }
    const reply: RecordedReply = {
      thread: req.aside ?? 'main',
      onBranch: target !== undefined,
      usage: req.usage,
      line: target !== undefined ? (messages[target].source?.line ?? 1) : 1,
    };
    const model = req.model ?? (target !== undefined ? messages[target].model : undefined);
    if (model) reply.model = model;
    if (req.cost !== undefined) reply.agentCost = req.cost;
    if (req.ts !== undefined) reply.timestamp = new Date(req.ts).toISOString();
    replies.push(reply);
  }
  const paid = replies.filter((r) => !r.onBranch).length;
  if (paid)
    diags.add(
      'info',
      'request-without-reply',
      `${paid} of the ${UI_MESSAGES} requests have no reply in this history (failed, deleted by a checkpoint restore or run by sub-agents): counted in the cost, not replayed`,
      1,
      1,
    );
  if (unfinished)
    diags.add(
      'info',
      'request-unfinished',
      `${unfinished} requests in ${UI_MESSAGES} never recorded usage (cancelled before the first token)`,
      1,
      1,
    );
  if (unrecorded)
    diags.add(
      'info',
      'request-unrecorded',
      `${unrecorded} requests in ${UI_MESSAGES} recorded no usage though the history holds their replies: replayed, their usage estimated`,
      1,
      1,
    );
}

/** Roo Code's condensations and sliding-window truncations (since Dec 2025 they keep the older messages, marked
 * with the `condenseParent`/`truncationParent` of the summary or marker that replaced them). */
function condensations(raw: Record<string, unknown>[], reloads: Reload[], markers: Marker[]): void {
  raw.forEach((m, i) => {
    const pairs: [string, string, string][] = [
      ['condenseId', 'condenseParent', 'condensation'],
      ['truncationId', 'truncationParent', 'sliding-window truncation'],
    ];
    for (const [idKey, parentKey, what] of pairs) {
      const id = str(m[idKey]);
      if (!id || (m.isSummary !== true && m.isTruncationMarker !== true)) continue;
      const forgotten: number[] = [];
      raw.forEach((o, j) => {
        if (o && j < i && o[parentKey] === id) forgotten.push(j);
      });
      reloads.push({ at: i, forgotten });
      markers.push({
        kind: 'meta-record',
        label: what,
        beforeMessage: i,
        text: `the agent's ${what}: ${forgotten.length} earlier messages are no longer sent`,
      });
    }
    if (m.isSummary === true && !str(m.condenseId))
      markers.push({
        kind: 'meta-record',
        label: 'condensation',
        beforeMessage: i,
        text: 'the agent condensed the conversation here (it removed the older messages from the file)',
      });
  });
}

/** Without ui_messages.json the ranges Cline stopped sending are unknown; where the recorded prompt falls although
 * the history only grew, one was made: said, since the replay then sends the whole history. */
function unknownTruncations(replies: RecordedReply[], messages: Message[], diags: Diagnostics): void {
  const prompt = (r: RecordedReply) =>
    r.usage.inputTokens + r.usage.cacheReadInputTokens + r.usage.cacheCreationInputTokens;
  const falls: number[] = [];
  for (let k = 1; k < replies.length; k++)
    if (prompt(replies[k]) < 0.8 * prompt(replies[k - 1])) falls.push(k);
  if (falls.length === 0) return;
  const first = messages.find((m) => m.usage === replies[falls[0]].usage);
  diags.add(
    'warning',
    'truncations-unknown',
    `${UI_MESSAGES} is not beside this history: the agent's truncations are not known. The recorded prompt falls at ${falls.length} requests (the first at message ${first?.index ?? '?'}), where it stopped sending older messages; the replay sends the whole history there and after`,
    first?.source?.line ?? 1,
    first?.source?.column ?? 1,
  );
}
