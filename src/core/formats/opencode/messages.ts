// OpenCode's messages and parts (`MessageV2.WithParts`) into the canonical messages, as the agent builds its model
// messages from them (`toModelMessages`): a user message's text and files; an assistant message's steps, each one
// request (`step-start` … `step-finish`, whose tokens and cost are that request's), its text, reasoning and tool
// calls, the calls' results the user turn after the step. A user message holding a `compaction` part starts what the
// later requests send (older messages are filtered out once its summary is written), and the tail it kept when it
// names one (`tail_start_id`: `filterCompacted` sends the compaction, its summary, then the messages from that one
// on; the same messages as from the tail on, in another order: `Marker.keptFrom`).
import type { Block, Marker, Message, RecordedReply, RecordedUsage, SourceRange } from '../../model';
import { compactJson, isObject, str } from '../json';
import type { Diagnostics } from '../types';

/** One message of the document and where it is. */
export interface OpenCodeEntry {
  info: Record<string, unknown>;
  parts: unknown[];
  /** The path of the message (`{info, parts}`) in the document. */
  path: (string | number)[];
  source: SourceRange;
  raw: Uint8Array;
}

export interface OpenCodeConversation {
  messages: Message[];
  markers: Marker[];
  replies: RecordedReply[];
  models: string[];
}

const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);

/** `tokens` {input, output, reasoning, cache{read, write}}: `input` excludes the cache; reasoning is billed as output. */
export function openCodeUsage(tokens: unknown): RecordedUsage | undefined {
  if (!isObject(tokens)) return undefined;
  const cache = isObject(tokens.cache) ? tokens.cache : {};
  const reasoning = n(tokens.reasoning);
  const usage: RecordedUsage = {
    inputTokens: n(tokens.input),
    outputTokens: n(tokens.output) + reasoning,
    cacheReadInputTokens: n(cache.read),
    cacheCreationInputTokens: n(cache.write),
  };
  if (reasoning > 0) usage.reasoningOutputTokens = reasoning;
  return usage.inputTokens +
    usage.outputTokens +
    usage.cacheReadInputTokens +
    usage.cacheCreationInputTokens >
    0
    ? usage
    : undefined;
}

const CLEARED = '[Tool execution was interrupted]';

export function openCodeConversation(entries: OpenCodeEntry[], diags: Diagnostics): OpenCodeConversation {
  const messages: Message[] = [];
  const markers: Marker[] = [];
  const replies: RecordedReply[] = [];
  const models: string[] = [];
  const loc = (e: OpenCodeEntry, path: (string | number)[], valuePath?: (string | number)[]) => {
    const l = { recordStart: 0, recordEnd: e.raw.length, recordLine: 1, path: [...e.path, ...path] };
    return valuePath ? { ...l, valuePath: [...e.path, ...valuePath] } : l;
  };
  /** Each message id's first canonical message, and the compactions that keep a tail from one. */
  const firstOf = new Map<string, number>();
  const tails: { marker: Marker; from: string }[] = [];
  const push = (role: Message['role'], blocks: Block[], e: OpenCodeEntry): Message => {
    const id = str(e.info.id);
    if (id && !firstOf.has(id)) firstOf.set(id, messages.length);
    const m: Message = { index: messages.length, role, blocks, source: e.source };
    const created = isObject(e.info.time) ? e.info.time.created : undefined;
    if (typeof created === 'number') m.timestamp = new Date(created).toISOString();
    messages.push(m);
    return m;
  };

  for (const e of entries) {
    const role = str(e.info.role);
    if (role === 'user') {
      const blocks: Block[] = [];
      e.parts.forEach((p, j) => {
        if (!isObject(p)) return;
        const at = ['parts', j];
        const type = str(p.type);
        if (type === 'text' && p.ignored !== true)
          blocks.push({
            type: 'text',
            text: str(p.text) ?? '',
            source: e.source,
            location: loc(e, at, [...at, 'text']),
          });
        else if (type === 'file' && p.mime !== 'text/plain' && p.mime !== 'application/x-directory') {
          const mime = str(p.mime) ?? '';
          if (mime.startsWith('image/')) {
            const url = str(p.url) ?? '';
            blocks.push({
              type: 'image',
              mediaType: mime,
              dataLength: url.length,
              source: e.source,
              location: loc(e, at),
            });
          } else
            blocks.push({
              type: 'other',
              kind: mime || 'file',
              raw: compactJson(p),
              source: e.source,
              location: loc(e, at),
            });
        } else if (type === 'compaction') {
          const marker: Marker = {
            kind: 'compaction',
            label: p.auto === true ? 'compaction (automatic)' : 'compaction',
            beforeMessage: messages.length,
            source: e.source,
          };
          markers.push(marker);
          const tail = str(p.tail_start_id);
          if (tail) tails.push({ marker, from: tail });
          // The agent asks for the summary with these words.
          blocks.push({
            type: 'text',
            text: 'What did we do so far?',
            source: e.source,
            location: loc(e, at),
          });
        } else if (type === 'subtask')
          blocks.push({
            type: 'text',
            text: 'The following tool was executed by the user',
            source: e.source,
            location: loc(e, at),
          });
      });
      if (blocks.length > 0) push('user', blocks, e);
      continue;
    }
    if (role !== 'assistant') {
      diags.once(
        `opencode-role:${role}`,
        'info',
        'unknown-record',
        `a message of role "${role}" is kept out`,
        e.source,
      );
      continue;
    }
    const model = str(e.info.modelID);
    const messageUsage = openCodeUsage(e.info.tokens);
    // Steps: split at step-start; each ends with its step-finish (usage and cost of that request).
    const steps: { parts: [unknown, number][]; finish?: Record<string, unknown> }[] = [];
    let step: (typeof steps)[number] | undefined;
    e.parts.forEach((p, j) => {
      if (!isObject(p)) return;
      if (p.type === 'step-start' || !step) {
        step = { parts: [] };
        steps.push(step);
        if (p.type === 'step-start') return;
      }
      if (p.type === 'step-finish') {
        step.finish = p;
        step = undefined;
        return;
      }
      step.parts.push([p, j]);
    });
    const withFinish = steps.filter((s) => s.finish).length;
    for (const s of steps) {
      const blocks: Block[] = [];
      const results: Block[] = [];
      for (const [p, j] of s.parts as [Record<string, unknown>, number][]) {
        const at = ['parts', j];
        if (p.type === 'text')
          blocks.push({
            type: 'text',
            text: str(p.text) ?? '',
            source: e.source,
            location: loc(e, at, [...at, 'text']),
          });
        else if (p.type === 'reasoning')
          blocks.push({
            type: 'thinking',
            text: str(p.text) ?? '',
            redacted: false,
            source: e.source,
            location: loc(e, at),
          });
        else if (p.type === 'tool') {
          const state = isObject(p.state) ? p.state : {};
          const id = str(p.callID) ?? '';
          blocks.push({
            type: 'tool_use',
            id,
            name: str(p.tool) ?? '',
            input: state.input ?? {},
            source: e.source,
            location: loc(e, at),
          });
          const status = str(state.status);
          const key = status === 'completed' ? 'output' : status === 'error' ? 'error' : undefined;
          if (key && typeof state[key] === 'string')
            results.push({
              type: 'tool_result',
              toolUseId: id,
              content: state[key] as string,
              isError: key === 'error',
              source: e.source,
              location: loc(e, at, [...at, 'state', key]),
            });
          else
            results.push({
              type: 'tool_result',
              toolUseId: id,
              content: CLEARED,
              isError: true,
              fixed: true,
              source: e.source,
              location: loc(e, at),
            });
        }
      }
      if (blocks.length === 0 && !s.finish) continue;
      const m = push('assistant', blocks, e);
      if (model) m.model = model;
      const usage = s.finish ? openCodeUsage(s.finish.tokens) : withFinish === 0 ? messageUsage : undefined;
      if (usage) {
        m.usage = usage;
        if (model) models.push(model);
        const reply: RecordedReply = { thread: 'main', onBranch: true, usage, line: e.source.line };
        if (model) reply.model = model;
        if (m.timestamp) reply.timestamp = m.timestamp;
        const cost = s.finish ? s.finish.cost : e.info.cost;
        if (typeof cost === 'number' && Number.isFinite(cost)) reply.agentCost = cost;
        replies.push(reply);
      } else m.flags = ['no usage recorded'];
      // The summary of a compaction: its call was sent with the older messages, not as a request of the segment
      // it opens (its usage still counts in what the session cost).
      if (e.info.summary === true) m.flags = [...(m.flags ?? []), 'compaction-call'];
      if (results.length > 0) push('user', results, e);
    }
  }
  for (const { marker, from } of tails) {
    const start = firstOf.get(from);
    if (start !== undefined && start < marker.beforeMessage) marker.keptFrom = start;
  }
  return { messages, markers, replies, models };
}
