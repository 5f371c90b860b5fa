// Codex CLI rollouts (`~/.codex/sessions/…/rollout-*.jsonl`): `{timestamp, type, payload}` per line.
// `response_item` payloads are Responses API items; `event_msg` token_count events carry the recorded usage.
import type { RecordedUsage, Transcript } from '../model';
import { keyList } from './claudeCode';
import { compactJson, isObject, str } from './json';
import { brokenLineMarker, readJsonl, unknownRecordMarker } from './jsonl';
import { mostFrequent } from './mostFrequent';
import { openaiNested, type PartPlace } from './openaiParts';
import { carriedText, ItemConversation } from './responseItems';
import { Diagnostics, type FormatAdapter, type Sniff, type Verdict } from './types';
import { reportUsageProblems, tokenFigure, type UsageProblem } from './usage';

const CODEX_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);
/** Events that echo a response item already in the log (shown once, as the item). */
const ECHO_EVENTS = new Set([
  'user_message',
  'agent_message',
  'agent_reasoning',
  'agent_reasoning_raw_content',
  'token_count',
]);

function detect(s: Sniff): Verdict {
  let n = 0;
  for (const r of s.records) if (CODEX_TYPES.has(str(r.type) ?? '') && isObject(r.payload)) n++;
  if (n > 0)
    return {
      ok: true,
      score: 10 + n,
      reason: `JSONL records {timestamp, type: session_meta|response_item|event_msg|turn_context, payload}: a Codex CLI rollout (${n} of the first ${s.records.length} records)`,
    };
  // Early rollouts (spring 2025): a {id, timestamp, instructions} header, then bare Responses items.
  let bare = 0;
  for (const r of s.records) if (isLegacyItem(r)) bare++;
  const header = s.records[0];
  if (
    bare > 0 &&
    header &&
    typeof header.id === 'string' &&
    typeof header.timestamp === 'string' &&
    !('type' in header)
  )
    return {
      ok: true,
      score: 8 + bare,
      reason: `a {id, timestamp} header and bare Responses items (message, function_call…): an early Codex CLI rollout (${bare} of the first ${s.records.length} records)`,
    };
  const first = s.records[0];
  return {
    ok: false,
    reason: first
      ? `no record looks like {timestamp, type: "session_meta"|"response_item"|"event_msg"…, payload} (the first record has keys ${keyList(first)})`
      : 'no line of the file is a JSON object',
  };
}

const LEGACY_ITEMS = new Set([
  'message',
  'function_call',
  'function_call_output',
  'reasoning',
  'local_shell_call',
  'custom_tool_call',
  'custom_tool_call_output',
]);

function isLegacyItem(r: Record<string, unknown>): boolean {
  return (
    !('payload' in r) &&
    LEGACY_ITEMS.has(str(r.type) ?? '') &&
    ('role' in r || 'call_id' in r || 'summary' in r)
  );
}

/** An item the model produced (a reply's part), as opposed to the user's messages and the tools' outputs. */
function isReplyItem(payload: Record<string, unknown>): boolean {
  const type = str(payload.type);
  if (type === 'message') return payload.role === 'assistant';
  return (
    type === 'reasoning' ||
    type === 'function_call' ||
    type === 'custom_tool_call' ||
    type === 'local_shell_call' ||
    type === 'web_search_call'
  );
}

function usageOf(info: Record<string, unknown>, report: UsageProblem): RecordedUsage | undefined {
  const last = info.last_token_usage;
  if (!isObject(last)) return undefined;
  const input = tokenFigure(last, 'input_tokens', report);
  let cached = tokenFigure(last, 'cached_input_tokens', report);
  if (cached > input) {
    // More cached than sent: one of the two is wrong, and the split below would go negative.
    report('cached_input_tokens', `${cached}, more than input_tokens (${input})`);
    cached = 0;
  }
  // OpenAI counts cached tokens inside input_tokens; the model keeps Anthropic's split (input = uncached part),
  // so that input + cacheRead + cacheCreation is the prompt size for every format.
  const usage: RecordedUsage = {
    inputTokens: input - cached,
    outputTokens: tokenFigure(last, 'output_tokens', report),
    cacheReadInputTokens: cached,
    cacheCreationInputTokens: 0,
  };
  if (last.reasoning_output_tokens !== undefined)
    usage.reasoningOutputTokens = tokenFigure(last, 'reasoning_output_tokens', report);
  return usage;
}

function parse(s: Sniff, reason: string): Transcript {
  const diags = new Diagnostics();
  const conv = new ItemConversation(diags);
  /** The compaction marked where the next message will go, if one is. */
  const compactionHere = () => {
    for (let i = conv.markers.length - 1; i >= 0; i--) {
      const m = conv.markers[i];
      if (m.beforeMessage !== conv.messages.length) return undefined;
      if (m.kind === 'compaction') return m;
    }
    return undefined;
  };
  let model: string | undefined;
  let system: string | undefined;
  let previousTotal = '';
  // Codex before 0.6x wrote a reply's token_count before the reply's items (the same instant); later versions after
  // them. The first count says which: with no reply yet, each count waits for the reply that follows it.
  let countFirst: boolean | undefined;
  let waiting: RecordedUsage | undefined;
  const echoes = { count: 0, line: 0 };
  readJsonl(
    s.bytes,
    diags,
    (rec) => {
      const r = rec.value;
      const type = str(r.type) ?? '';
      const payload = isObject(r.payload) ? r.payload : {};
      const timestamp = str(r.timestamp);
      const place: PartPlace = {
        at: (path, valuePath) => {
          const loc = {
            recordStart: rec.span.start,
            recordEnd: rec.span.end,
            recordLine: rec.span.index + 1,
            path: [...path],
          };
          return valuePath ? { ...loc, valuePath: [...valuePath] } : loc;
        },
        source: () => rec.source,
      };
      switch (type) {
        case 'response_item': {
          conv.add(payload, ['payload'], place, rec.source, timestamp);
          const reply = waiting && isReplyItem(payload) ? conv.lastAssistant() : undefined;
          if (reply && waiting) {
            reply.usage = reply.usage ? sum(reply.usage, waiting) : waiting;
            waiting = undefined;
          }
          return;
        }
        case 'event_msg': {
          const event = str(payload.type) ?? '';
          if (event === 'token_count') {
            const info = isObject(payload.info) ? payload.info : undefined;
            if (!info) return;
            const total = compactJson(info.total_token_usage);
            if (total === previousTotal) return; // the same count repeated (Codex writes it twice at times)
            previousTotal = total;
            const usage = usageOf(
              info,
              reportUsageProblems(diags, s.bytes, rec.span, ['payload', 'info', 'last_token_usage']),
            );
            const reply = conv.lastAssistant();
            if (!usage) return;
            countFirst ??= !reply;
            if (countFirst) {
              waiting = waiting ? sum(waiting, usage) : usage;
              return;
            }
            if (!reply) {
              diags.add(
                'info',
                'usage-without-reply',
                'a token_count before any assistant reply: not attached',
                rec.source.line,
                1,
              );
              return;
            }
            reply.usage = reply.usage ? sum(reply.usage, usage) : usage;
            return;
          }
          // A compaction's event: the `compacted` record beside it says the rest. Some rollouts hold the event
          // alone: it is then the only sign that the requests after it no longer send the older turns.
          if (event === 'context_compacted' && !compactionHere()) {
            conv.marker({
              kind: 'compaction',
              label: 'context_compacted',
              source: rec.source,
              text: 'compaction (the log holds no summary: its tokens only the log tells)',
            });
            return;
          }
          if (ECHO_EVENTS.has(event)) {
            echoes.count++;
            echoes.line ||= rec.source.line;
            return;
          }
          conv.marker({
            kind: 'meta-record',
            label: `event_msg:${event}`,
            source: rec.source,
            text: str(payload.message) ?? '',
          });
          return;
        }
        case 'compacted': {
          // The event written just before it stood for this compaction: the record says it whole.
          const event = compactionHere();
          if (event?.label === 'context_compacted') conv.markers.splice(conv.markers.indexOf(event), 1);
          // Newer Codex writes the whole history that replaces the older turns (`replacement_history`: the user's
          // messages kept, the summary, or a server-side encrypted one); older ones the summary text alone.
          const message = str(payload.message) ?? '';
          const history = Array.isArray(payload.replacement_history)
            ? payload.replacement_history
            : undefined;
          const carried = history ? carriedText(history) : undefined;
          const encrypted = carried?.encrypted
            ? `, ${carried.encrypted} encrypted (their tokens only the log tells)`
            : '';
          conv.marker({
            kind: 'compaction',
            label: 'compacted',
            source: rec.source,
            text: history
              ? `${history.length} items carried over${encrypted}${message ? `: ${message}` : ''}`
              : message,
            summary: carried ? carried.text : message,
          });
          return;
        }
        case 'session_meta': {
          const base = isObject(payload.base_instructions) ? str(payload.base_instructions.text) : undefined;
          if (base) system = base;
          conv.marker({
            kind: 'meta-record',
            label: 'session_meta',
            source: rec.source,
            text: [str(payload.originator), str(payload.cli_version)].filter(Boolean).join(' '),
          });
          return;
        }
        case 'turn_context':
          model = str(payload.model) ?? model;
          conv.marker({
            kind: 'meta-record',
            label: 'turn_context',
            source: rec.source,
            text: str(payload.model) ?? '',
          });
          return;
        default:
          if (isLegacyItem(r)) {
            conv.add(r, [], place, rec.source, timestamp);
            return;
          }
          if (rec.span.index === 0 && !type && typeof r.id === 'string') {
            if (typeof r.instructions === 'string' && r.instructions) system = r.instructions;
            conv.marker({
              kind: 'meta-record',
              label: 'session header',
              source: rec.source,
              text: str(r.id) ?? '',
            });
            return;
          }
          if (str(r.record_type) === 'state') {
            conv.marker({ kind: 'meta-record', label: 'state', source: rec.source });
            return;
          }
          conv.marker(unknownRecordMarker(type, rec.source, diags));
      }
    },
    (line) => conv.markers.push(brokenLineMarker(line, conv.messages.length)),
  );
  const last = conv.lastAssistant();
  if (waiting && last) {
    // The count of a reply whose items the file does not hold (the session ended mid-reply): still paid for.
    last.usage = last.usage ? sum(last.usage, waiting) : waiting;
    diags.add(
      'info',
      'usage-without-reply',
      'the last token_count has no reply after it: added to the last reply',
      1,
      1,
    );
  }
  if (echoes.count > 0) {
    // Said once, so that no line of the file goes unaccounted for.
    diags.add(
      'info',
      'echo-events',
      `${echoes.count} event_msg records (agent_message, user_message, agent_reasoning…) repeat response items shown as messages: not shown twice`,
      echoes.line,
      1,
    );
  }
  const t: Transcript = {
    format: 'codex',
    formatReason: reason,
    messages: conv.messages,
    markers: conv.markers,
    sidechains: [],
    diagnostics: diags.list,
    raw: s.bytes,
  };
  if (model) t.model = model;
  if (system) t.system = system;
  modelsFromTurnContexts(t);
  t.reasoningKeptWithinTurn = true;
  return t;
}

/** Each reply is answered by the model its turn's `turn_context` names; the session by the one most replies used. */
function modelsFromTurnContexts(t: Transcript): void {
  const contexts = t.markers.filter((m) => m.label === 'turn_context' && m.text);
  let c = 0;
  let current: string | undefined;
  const models: string[] = [];
  for (const m of t.messages) {
    while (c < contexts.length && contexts[c].beforeMessage <= m.index) current = contexts[c++].text;
    if (m.role !== 'assistant' || !current) continue;
    m.model = current;
    models.push(current);
  }
  const best = mostFrequent(models);
  if (best) t.model = best;
}

function sum(a: RecordedUsage, b: RecordedUsage): RecordedUsage {
  const total: RecordedUsage = {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cacheReadInputTokens: a.cacheReadInputTokens + b.cacheReadInputTokens,
    cacheCreationInputTokens: a.cacheCreationInputTokens + b.cacheCreationInputTokens,
  };
  if (a.reasoningOutputTokens !== undefined || b.reasoningOutputTokens !== undefined)
    total.reasoningOutputTokens = (a.reasoningOutputTokens ?? 0) + (b.reasoningOutputTokens ?? 0);
  return total;
}

export const codex: FormatAdapter = {
  id: 'codex',
  shape: 'jsonl',
  expected:
    'Codex CLI rollout: JSONL records {timestamp, type: "session_meta"|"response_item"|"event_msg"|"turn_context"|"compacted", payload}',
  detect,
  parse,
  nestedBlock: openaiNested('input_text'),
};
