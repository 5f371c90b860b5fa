// Codex CLI rollouts (`~/.codex/sessions/…/rollout-*.jsonl`): `{timestamp, type, payload}` per line.
// `response_item` payloads are Responses API items; `event_msg` token_count events carry the recorded usage.
import type { Message, RecordedUsage, Reload, Transcript } from '../model';
import { isRealPrompt } from '../sessionTitle';
import { compactJson, findValue, isObject, keyList, str } from './json';
import { brokenLineMarker, readJsonl, unknownRecordMarker } from './jsonl';
import { mostFrequent } from './mostFrequent';
import { openaiNested, type PartPlace } from './openaiParts';
import { carriedText, ItemConversation } from './responseItems';
import { contentText, flatPrompt } from './sessionHead';
import { decodeUtf8 } from './text';
import { Diagnostics, type FormatAdapter, type SessionHeadFacts, type Sniff, type Verdict } from './types';
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
    type === 'web_search_call' ||
    type === 'tool_search_call'
  );
}

/** A reply the model never finished: reasoning only, and no token_count for it before the agent restarted (a new
 * `session_meta`) or the turn was aborted. The log counts no request for it; the agent drops the reasoning at the
 * next user message. */
function cutShort(reply: Message | undefined): boolean {
  return (
    reply !== undefined &&
    !reply.usage &&
    reply.blocks.length > 0 &&
    reply.blocks.every((b) => b.type === 'thinking') &&
    !reply.flags?.includes('cut')
  );
}

/** Context the agent writes as a user message (instructions, the environment, an interruption's notice): no turn of
 * the user's, so a rollback does not count it (Codex's `is_user_turn_boundary`). */
const CONTEXT_MESSAGE =
  /^\s*(<(environment_context|user_instructions|turn_aborted|user_shell_command|skill|subagent_notification|INSTRUCTIONS)>|# AGENTS\.md instructions)/;

/** Whether a message starts one of the user's turns (what `thread_rolled_back` counts back over). */
function userTurn(m: Message): boolean {
  if (m.role !== 'user' || m.flags?.includes('developer')) return false;
  if (m.blocks.some((b) => b.type === 'tool_result')) return false;
  const first = m.blocks[0];
  return !(first?.type === 'text' && CONTEXT_MESSAGE.test(first.text));
}

/** Why a `compacted` record cannot be read as a compaction, or undefined when it can: Codex's own reader wants a
 * payload object with a `message` string and, when present, a `replacement_history` list. */
function malformedCompaction(r: Record<string, unknown>): { why: string; path: string[] } | undefined {
  const payload = r.payload;
  if (!isObject(payload))
    return {
      why: `its payload is ${payload === null ? 'null' : Array.isArray(payload) ? 'a list' : `a ${typeof payload}`}, not an object`,
      path: ['payload'],
    };
  const history = payload.replacement_history;
  if (history !== undefined && history !== null && !Array.isArray(history))
    return {
      why: `its replacement_history is ${isObject(history) ? 'an object' : `a ${typeof history}`}, not a list of items`,
      path: ['payload', 'replacement_history'],
    };
  if (payload.message !== undefined && typeof payload.message !== 'string')
    return { why: 'its message is not a string', path: ['payload', 'message'] };
  if (typeof payload.message !== 'string' && !Array.isArray(history))
    return { why: 'it holds neither a summary message nor a replacement_history', path: ['payload'] };
  return undefined;
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
  // Codex 0.146 on: the tokens the request wrote to the cache (models that bill writes), also inside input_tokens.
  let written = tokenFigure(last, 'cache_write_input_tokens', report);
  if (cached + written > input) {
    report(
      'cache_write_input_tokens',
      `${written}, more than input_tokens (${input}) less the cached ${cached}`,
    );
    written = 0;
  }
  // OpenAI counts cached and written tokens inside input_tokens; the model keeps Anthropic's split (input = the
  // part neither read nor written), so that input + cacheRead + cacheCreation is the prompt size for every format.
  const usage: RecordedUsage = {
    inputTokens: input - cached - written,
    outputTokens: tokenFigure(last, 'output_tokens', report),
    cacheReadInputTokens: cached,
    cacheCreationInputTokens: written,
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
  let sessions = 0;
  const reloads: Reload[] = [];
  /** Messages a rollback took out of the history: no turn to count back over again. */
  const rolledBack = new Set<number>();
  const markCut = (line: number, why: string) => {
    const reply = conv.lastAssistant();
    if (!reply || !cutShort(reply)) return;
    reply.flags = [...(reply.flags ?? []), 'cut'];
    diags.add(
      'info',
      'cut-reply',
      `the reply at line ${reply.source?.line ?? '?'} holds reasoning only and no token_count before ${why} (line ${line}): the model never finished it, so it is no request`,
      reply.source?.line ?? line,
      1,
    );
  };
  /** Codex's rollback: the last `turns` turns of the user's leave the history the next requests send. */
  const rollBack = (turns: number, line: number) => {
    if (turns === 0) return 0;
    const segment = compactionStart();
    const starts: number[] = [];
    for (let i = segment; i < conv.messages.length; i++)
      if (!rolledBack.has(i) && userTurn(conv.messages[i])) starts.push(i);
    if (starts.length === 0) return 0;
    const from = starts[Math.max(0, starts.length - turns)];
    const forgotten: number[] = [];
    for (let i = from; i < conv.messages.length; i++)
      if (!rolledBack.has(i)) {
        forgotten.push(i);
        rolledBack.add(i);
      }
    if (starts.length < turns)
      diags.add(
        'info',
        'rollback-beyond-segment',
        `thread_rolled_back asks for ${turns} turns; ${starts.length} follow the last compaction: those are left out`,
        line,
        1,
      );
    reloads.push({ at: conv.messages.length, forgotten });
    return forgotten.length;
  };
  /** Where the conversation the requests send begins: after the last compaction. */
  const compactionStart = () => {
    let start = 0;
    for (const m of conv.markers) if (m.kind === 'compaction') start = Math.max(start, m.beforeMessage);
    return start;
  };
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
            // Counted after all (a count written after the restart): a request like any other.
            if (reply.flags?.includes('cut')) {
              reply.flags = reply.flags.filter((f) => f !== 'cut');
              const note = diags.list.findIndex(
                (d) => d.code === 'cut-reply' && d.line === (reply.source?.line ?? rec.source.line),
              );
              if (note >= 0) diags.list.splice(note, 1);
            }
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
          if (event === 'turn_aborted') markCut(rec.source.line, 'the turn was aborted');
          if (event === 'thread_rolled_back') {
            const turns = payload.num_turns;
            const valid = typeof turns === 'number' && Number.isInteger(turns) && turns >= 0;
            if (!valid) {
              const line = decodeLine(s.bytes, rec.span);
              const at = findValue(line, ['payload', 'num_turns']);
              diags.add(
                'warning',
                'unexpected-record',
                `thread_rolled_back: num_turns is ${compactJson(turns).slice(0, 40)}, not a count of turns: nothing rolled back`,
                rec.source.line,
                (at?.start ?? 0) + 1,
              );
            }
            const dropped = valid ? rollBack(turns, rec.source.line) : 0;
            conv.marker({
              kind: 'meta-record',
              label: 'event_msg:thread_rolled_back',
              source: rec.source,
              text: valid
                ? `${turns} turn${turns === 1 ? '' : 's'} rolled back: ${dropped} message${dropped === 1 ? '' : 's'} no longer sent`
                : 'not read (num_turns is not a count)',
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
          const bad = malformedCompaction(r);
          if (bad) {
            // Read as a compaction, it would drop every earlier turn on the strength of nothing.
            const line = decodeLine(s.bytes, rec.span);
            const at = findValue(line, bad.path);
            diags.add(
              'warning',
              'unexpected-record',
              `a compacted record that is no compaction: ${bad.why}; the earlier turns are still sent`,
              rec.source.line,
              (at?.start ?? 0) + 1,
            );
            conv.marker({ kind: 'unknown-record', label: 'compacted (malformed)', source: rec.source });
            return;
          }
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
          if (sessions++ > 0) markCut(rec.source.line, 'the agent restarted');
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
  if (reloads.length > 0) t.reloads = reloads;
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

/** A record's line as text, for the column of a value in it (a leading BOM kept as one column). */
function decodeLine(bytes: Uint8Array, span: { start: number; end: number }): string {
  const line = decodeUtf8(bytes.subarray(span.start, span.end)).text;
  return line.charCodeAt(0) === 0xfeff ? ` ${line.slice(1)}` : line;
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

/** The working directory and first prompt from a rollout's first records. */
function sessionHead(recs: Record<string, unknown>[]): SessionHeadFacts {
  let cwd: string | undefined;
  for (const r of recs) {
    const p = r.payload as Record<string, unknown> | undefined;
    if (!p) continue;
    if (r.type === 'session_meta' && typeof p.cwd === 'string') cwd ??= p.cwd;
    if (r.type === 'response_item' && p.type === 'message' && p.role === 'user') {
      const text = contentText(p.content);
      if (isRealPrompt(text)) return { prompt: flatPrompt(text), cwd };
    }
  }
  return { prompt: '', cwd };
}

export const codex: FormatAdapter<'codex'> = {
  id: 'codex',
  shape: 'jsonl',
  expected:
    'Codex CLI rollout: JSONL records {timestamp, type: "session_meta"|"response_item"|"event_msg"|"turn_context"|"compacted", payload}',
  detect,
  parse,
  nestedBlock: openaiNested('input_text'),
  wire: 'openai',
  tools: {
    // Every name Codex has given its shell tool: `shell`, `shell_command` (0.77–0.80), `exec_command`, `local_shell`.
    floorTools: [
      'shell',
      'shell_command',
      'exec_command',
      'local_shell',
      'read_file',
      'list_dir',
      'grep_files',
      'view_image',
    ],
    noSummaryTools: [
      'shell',
      'shell_command',
      'exec_command',
      'local_shell',
      'read_file',
      'list_dir',
      'grep_files',
      'apply_patch',
      'update_plan',
    ],
    observationTools: ['view_image'],
  },
  defaultModel: 'gpt-5',
  session: {
    agent: 'Codex',
    // sessions/YYYY/MM/DD/rollout-*.jsonl: the folders are the day, not the project.
    location: { env: 'CODEX_HOME', home: '.codex', logs: 'sessions', depth: 4 },
    head: sessionHead,
    unknownProject: '(unknown project)',
    groupBy: 'day',
    icon: 'terminal',
  },
};
