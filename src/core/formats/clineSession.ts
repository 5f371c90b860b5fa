// Cline's sessions since its SDK (the CLI, and the editor's extension built on it): each session a folder
// `<sessions>/<id>/` under `~/.cline/data/sessions` (or `$CLINE_DATA_DIR/sessions`), the messages as sent in
// `<id>.messages.json`: `{version, agent, sessionId, system_prompt, messages: [MessageWithMetadata]}`, each message an
// Anthropic message with the agent's `id`, `ts`, and on each reply `modelInfo` and `metrics` (`inputTokens` the whole
// prompt, the cache's reads and writes included, and the agent's own `cost`). A compaction leaves the summary
// and the messages it kept, marked in their `metadata` (cline/cline `sdk/packages/shared/src/storage/paths.ts`,
// `sdk/packages/core/src/services/usage.ts`, `sdk/packages/core/src/extensions/context/basic-compaction.ts`).
import type { Marker, Message, RecordedReply, RecordedUsage, Transcript } from '../model';
import { anthropicContent, anthropicNested } from './anthropicBlocks';
import { isObject, parseJson, str, withoutBom } from './json';
import { brokenNote, documentParts } from './jsonDoc';
import { mostFrequent } from './mostFrequent';
import { userOrAssistant, warnNotAnObject } from './requestBody';
import { headPrompt, jsonStringBody } from './sessionHead';
import { decodeUtf8 } from './text';
import type { Diagnostics, FormatAdapter, SessionHeadFacts, Sniff, Verdict } from './types';

const READING_TOOLS = ['read_files', 'search_codebase', 'fetch_web_content'];
const MESSAGES_SUFFIX = '.messages.json';

/** A file beside a session's, by the session's own name or path: `<id>.messages.json` → `<id><ending>`; undefined
 * for a file named otherwise. */
function besideSession(name: string | undefined, ending: string): string | undefined {
  return name?.endsWith(MESSAGES_SUFFIX) ? `${name.slice(0, -MESSAGES_SUFFIX.length)}${ending}` : undefined;
}

function detect(s: Sniff): Verdict {
  const doc = s.document();
  const v = doc.value;
  const no = (reason: string): Verdict => ({ ok: false, reason });
  if (!isObject(v) || !Array.isArray(v.messages)) return no('not a JSON object with a "messages" list');
  if (typeof v.sessionId !== 'string' || typeof v.agent !== 'string')
    return no('no "sessionId" and "agent" beside the messages (a Cline session keeps both)');
  const list = v.messages;
  if (!list.every((m) => isObject(m) && typeof m.role === 'string'))
    return no('not every entry of "messages" is a message with a role');
  const blocks = list.reduce(
    (n: number, m) =>
      n + (Array.isArray((m as Record<string, unknown>).content) ? (m as { content: [] }).content.length : 1),
    0,
  );
  const measured = list.filter((m) => isObject((m as Record<string, unknown>).metrics)).length;
  return {
    ok: true,
    // Above what the same messages score as an Anthropic request body (3 per block at most).
    score: 10 + 3 * blocks + (measured > 0 ? 1 : 0),
    reason: `a JSON object {sessionId, agent, messages} of Anthropic messages, ${measured} of ${list.length} with the agent's metrics: a Cline session (its SDK's <id>.messages.json)${brokenNote(doc)}`,
  };
}

/** A reply's `metrics`: `inputTokens` is the whole prompt, the cache's reads and writes included. */
function metricsOf(m: Record<string, unknown>): { usage: RecordedUsage; cost?: number } | undefined {
  const metrics = isObject(m.metrics) ? m.metrics : undefined;
  if (!metrics) return undefined;
  const n = (x: unknown) =>
    typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= 1e12 ? Math.round(x) : 0;
  const read = n(metrics.cacheReadTokens);
  const written = n(metrics.cacheWriteTokens);
  const out: { usage: RecordedUsage; cost?: number } = {
    usage: {
      inputTokens: Math.max(0, n(metrics.inputTokens) - read - written),
      outputTokens: n(metrics.outputTokens),
      cacheReadInputTokens: read,
      cacheCreationInputTokens: written,
    },
  };
  if (typeof metrics.cost === 'number' && Number.isFinite(metrics.cost) && metrics.cost >= 0)
    out.cost = metrics.cost;
  return out;
}

/** A tool's output kept as a list of the tool's own objects (`read_files`: `[{query, result, success}]`), not of
 * content blocks, is sent to the model as its JSON text (cline/cline `sdk/packages/llms/src/providers/compat.ts`
 * passes it on as the tool call's structured output): that text is the result, as counted and compressed. */
function withStructuredResults(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  return content.map((b) =>
    isObject(b) &&
    b.type === 'tool_result' &&
    Array.isArray(b.content) &&
    b.content.some((x) => !isObject(x) || typeof x.type !== 'string')
      ? { ...b, content: JSON.stringify(b.content) }
      : b,
  );
}

function parse(s: Sniff, reason: string): Transcript {
  const { doc, pos, diags } = documentParts(s);
  const root = isObject(doc.value) ? doc.value : {};
  const list = Array.isArray(root.messages) ? root.messages : [];
  const messages: Message[] = [];
  const replies: RecordedReply[] = [];
  const markers: Marker[] = [];
  list.forEach((m, k) => {
    if (!isObject(m)) {
      warnNotAnObject(diags, pos.rangeAt(['messages', k]));
      return;
    }
    const source = pos.rangeAt(['messages', k]);
    const role = userOrAssistant(m.role, diags, source);
    const contentPath = ['messages', k, 'content'];
    const blocks = anthropicContent(
      withStructuredResults(m.content),
      { recordStart: 0, recordEnd: s.bytes.length, recordLine: 1, path: contentPath },
      (i) => pos.rangeAt(i === null ? contentPath : [...contentPath, i]),
      diags,
    );
    const message: Message = { index: messages.length, role, blocks, source };
    if (typeof m.ts === 'number' && Number.isFinite(m.ts) && Math.abs(m.ts) < 8.64e15)
      message.timestamp = new Date(m.ts).toISOString();
    const model = isObject(m.modelInfo) ? str(m.modelInfo.id) : undefined;
    if (role === 'assistant' && model) message.model = model;
    const kind = isObject(m.metadata) ? str(m.metadata.kind) : undefined;
    if (kind === 'compaction' || kind === 'compaction_summary')
      markers.push({
        kind: 'compaction',
        beforeMessage: message.index,
        label: 'compaction',
        source,
        text: 'the agent compacted the conversation: from here the file holds its summary and the messages it kept, not the older ones',
      });
    const found = role === 'assistant' ? metricsOf(m) : undefined;
    if (found) {
      message.usage = found.usage;
      const reply: RecordedReply = { thread: 'main', onBranch: true, usage: found.usage, line: source.line };
      if (found.cost !== undefined) reply.agentCost = found.cost;
      if (message.model) reply.model = message.model;
      if (message.timestamp) reply.timestamp = message.timestamp;
      replies.push(reply);
    }
    messages.push(message);
  });
  const state = compactionState(s, messages.length, diags);
  if (state) markers.push(state);
  promptFalls(replies, messages, diags, state?.beforeMessage);
  const t: Transcript = {
    format: 'cline-session',
    formatReason: reason,
    messages,
    markers,
    sidechains: [],
    diagnostics: diags.list,
    raw: s.bytes,
    replies,
  };
  const system = str(root.system_prompt);
  if (system) t.system = system;
  const model = mostFrequent(messages.flatMap((m) => (m.role === 'assistant' && m.model ? [m.model] : [])));
  if (model) t.model = model;
  return t;
}

/** The session's compaction state beside it (`<id>.compaction.json`: `{source_message_count, messages}`, cline/cline
 * `sdk/packages/core/src/session/models/session-compaction.ts`): the messages the agent sends in place of the first
 * `source_message_count` of the history, which the history still holds whole. A compaction marker before the first
 * message it did not compact, its summary the text of the messages sent instead. */
function compactionState(s: Sniff, count: number, diags: Diagnostics): Marker | undefined {
  const own = s.fileName?.split(/[\\/]/).pop();
  const name = besideSession(own, '.compaction.json');
  const bytes = name ? s.beside?.(name) : undefined;
  if (!name || !bytes) return undefined;
  const text = withoutBom(decodeUtf8(bytes).text);
  const parsed = parseJson(text);
  if (!parsed.ok) {
    const before = text.slice(0, parsed.offset);
    const line = before.split('\n').length;
    const column = parsed.offset - (before.lastIndexOf('\n') + 1) + 1;
    diags.add(
      'warning',
      'compaction-unreadable',
      `${name} beside it is broken at line ${line}, column ${column} (${parsed.message}): left out, the requests after its compaction replayed with the whole history`,
      1,
      1,
    );
    return undefined;
  }
  const v = parsed.value;
  const n = isObject(v) ? v.source_message_count : undefined;
  const list = isObject(v) && Array.isArray(v.messages) ? v.messages : undefined;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > count || !list) {
    diags.add(
      'warning',
      'compaction-unreadable',
      `${name} beside it names no compacted span of this history (source_message_count ${String(n)} of ${count} messages): left out`,
      1,
      1,
    );
    return undefined;
  }
  const texts = list.flatMap((m) => (isObject(m) ? contentTexts(m.content) : []));
  return {
    kind: 'compaction',
    label: 'compaction state',
    beforeMessage: n,
    summary: texts.join('\n\n'),
    text: `the agent compacted the first ${n} messages into ${list.length} (${name}): the requests from here send those in their place`,
  };
}

/** The texts of a message's content as sent: its text blocks and its tool results'. */
function contentTexts(content: unknown): string[] {
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((b) =>
    !isObject(b)
      ? []
      : b.type === 'text'
        ? [str(b.text) ?? '']
        : b.type === 'tool_result'
          ? typeof b.content === 'string'
            ? [b.content]
            : [JSON.stringify(b.content)]
          : [],
  );
}

/** Where a recorded prompt falls although the messages only grew, the agent sent fewer of them than the file holds
 * (it compacts for a model with a smaller window and keeps the whole history here): said, since the replay sends the
 * whole history there. */
function promptFalls(
  replies: RecordedReply[],
  messages: Message[],
  diags: Diagnostics,
  compactedBefore = Number.POSITIVE_INFINITY,
): void {
  const prompt = (r: RecordedReply) =>
    r.usage.inputTokens + r.usage.cacheReadInputTokens + r.usage.cacheCreationInputTokens;
  // A fall the compaction state beside the session explains (its first request after it) is no mystery.
  const at = (r: RecordedReply) => messages.find((m) => m.usage === r.usage)?.index ?? -1;
  const falls = replies.flatMap((r, k) =>
    k > 0 && prompt(r) < 0.8 * prompt(replies[k - 1]) && at(r) < compactedBefore ? [k] : [],
  );
  if (falls.length === 0) return;
  const first = messages.find((m) => m.usage === replies[falls[0]].usage);
  diags.add(
    'warning',
    'prompt-falls',
    `the recorded prompt falls at ${falls.length} of ${replies.length} requests (the first at message ${first?.index ?? '?'}: ${prompt(replies[falls[0] - 1])} → ${prompt(replies[falls[0]])} tokens): the agent sent less than this file holds there (compacted, or cut for a smaller window), which the file does not record; the replay sends the whole history`,
    first?.source?.line ?? 1,
    first?.source?.column ?? 1,
  );
}

/** The working directory a session's manifest names (`cwd`). */
function manifestCwd(text: string): string | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? str(v.cwd) || undefined : undefined;
  } catch {
    return undefined;
  }
}

/** The first prompt from the file's first bytes: the first text of the first message (a session is one JSON
 * document, its head read as text). */
export function clineSessionHead(text: string): SessionHeadFacts {
  const first =
    /"role"\s*:\s*"user"[\s\S]{0,400}?"type"\s*:\s*"text"\s*,\s*"text"\s*:\s*"((?:[^"\\]|\\.){0,2000})/.exec(
      text,
    );
  const prompt = first ? jsonStringBody(first[1]) : '';
  const facts: SessionHeadFacts = { prompt: headPrompt(prompt) };
  const cwd = /Working Directory: ([^\\\n"]{1,500})/.exec(text);
  if (cwd) facts.cwd = cwd[1].trim();
  const id = /"sessionId"\s*:\s*"([^"\\]{1,200})"/.exec(text);
  if (id) facts.sessionId = id[1];
  return facts;
}

export const clineSession: FormatAdapter<'cline-session'> = {
  id: 'cline-session',
  shape: 'json',
  expected:
    'Cline session (its SDK): <id>.messages.json, a JSON object {version, agent, sessionId, messages: [{role, content, ts, modelInfo, metrics}]}',
  detect,
  parse,
  nestedBlock: anthropicNested,
  wire: 'anthropic',
  tools: {
    floorTools: READING_TOOLS,
    noSummaryTools: [...READING_TOOLS, 'ask_question', 'skills'],
    observationTools: [],
  },
  defaultModel: 'claude-sonnet-4',
  session: {
    agent: 'Cline',
    location: {
      env: 'CLINE_DATA_DIR',
      home: '.cline/data',
      logs: 'sessions',
      depth: 1,
      fileSuffix: MESSAGES_SUFFIX,
    },
    head: () => ({ prompt: '' }),
    headText: clineSessionHead,
    // The working directory is in the system prompt, after the messages, and in the session's manifest beside it
    // (cline/cline `sdk/packages/core/src/session/stores/session-manifest-store.ts`).
    cwdBeside: {
      path: (p) => besideSession(p, '.json') ?? p,
      cwd: manifestCwd,
    },
    unknownProject: '(unknown project)',
    groupBy: 'project',
    icon: 'robot',
    minHiddenPrefixTokens: 1000,
  },
};
