// Messages and recorded replies from the shown records: one reply's lines merged into one message, one batch of
// tool results into one user message.
import type { Marker, Message, RecordedReply, SourceRange } from '../../model';
import { mostFrequent } from '../mostFrequent';
import { joinRanges } from '../text';
import type { Entry } from './entry';

function firstLine(text: string): string {
  const line = text.trimStart().split('\n', 1)[0];
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** The model that answered most replies shown (a session that switched models is named after its main one). */
export function mainModel(group: Entry[]): string | undefined {
  const seen = new Set<string>();
  const models: string[] = [];
  for (const e of group) {
    if (!e.shown || !e.model || (e.msgId && seen.has(e.msgId))) continue;
    if (e.msgId) seen.add(e.msgId);
    models.push(e.model);
  }
  return mostFrequent(models);
}

/** Every reply with usage, once per reply (its last line carries the final output count), in file order. */
export function recordedReplies(entries: Entry[], threadOf: (e: Entry) => string): RecordedReply[] {
  const byReply = new Map<string, RecordedReply>();
  const passes = new Map<RecordedReply, RecordedReply>();
  const out: RecordedReply[] = [];
  for (const e of entries) {
    if (e.kind !== 'turn' || e.role !== 'assistant' || !e.usage || !e.source) continue;
    const reply: RecordedReply = {
      thread: threadOf(e),
      onBranch: e.shown,
      usage: e.usage,
      line: e.source.line,
    };
    if (e.model) reply.model = e.model;
    if (e.timestamp) reply.timestamp = e.timestamp;
    const key = e.msgId ? `${reply.thread}:${e.msgId}` : undefined;
    let target = key ? byReply.get(key) : undefined;
    if (target) {
      target.usage = e.usage;
      target.onBranch ||= e.shown;
    } else {
      target = reply;
      if (key) byReply.set(key, reply);
      out.push(reply);
    }
    if (!e.compactionUsage) continue;
    // The reply's lines repeat its usage: the pass is counted once, as the last line says it.
    const pass = passes.get(target);
    if (pass) {
      pass.usage = e.compactionUsage;
      pass.onBranch = target.onBranch;
      continue;
    }
    const added: RecordedReply = {
      ...target,
      usage: e.compactionUsage,
      line: e.source.line,
      compaction: true,
    };
    passes.set(target, added);
    out.push(added);
  }
  return out;
}

/** Builds messages from the shown records in file order; `onSkipped` sees each record left off the branch. */
export function buildMessages(
  group: Entry[],
  onMarker: (marker: Omit<Marker, 'beforeMessage'>, messages: Message[]) => void,
  onSkipped: (record: Entry, messages: Message[]) => void,
): Message[] {
  const messages: Message[] = [];
  /** Per message index: the reply id of an assistant message; whether a user message holds only results. */
  const replyOf: (string | undefined)[] = [];
  const onlyResults: boolean[] = [];
  let lastAssistant: Message | undefined;
  for (const e of group) {
    if (e.kind === 'marker') {
      if (e.marker) onMarker(e.marker, messages);
      continue;
    }
    const source = e.source as SourceRange;
    if (!e.shown) {
      onSkipped(e, messages);
      continue;
    }
    if (e.compactSummary) {
      // The summary is what the requests after a compaction start with: a message of its own, after the marker
      // that says a compaction happened (1.x writes no boundary record, so the summary says it).
      const text = e.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
      onMarker({ kind: 'compaction', label: 'isCompactSummary', source, text: firstLine(text) }, messages);
    }
    const last = messages[messages.length - 1];
    let target: Message | undefined;
    if (e.role === 'assistant' && e.msgId && lastAssistant && replyOf[lastAssistant.index] === e.msgId) {
      // Same reply: either the previous message, or only its tool results were written in between.
      let between = true;
      for (let i = lastAssistant.index + 1; i < messages.length; i++) between &&= onlyResults[i];
      if (between) target = lastAssistant;
    } else if (e.role === 'user' && e.onlyToolResults && last && onlyResults[last.index]) {
      target = last; // one tool-result message per batch of results, as the API request holds them
    }
    if (target) {
      e.message = target.index;
      for (const b of e.blocks) target.blocks.push(b);
      const src = target.source as SourceRange;
      if (source.end > src.end) target.source = joinRanges(src, source);
      for (const f of e.flags) {
        target.flags ??= [];
        if (!target.flags.includes(f)) target.flags.push(f);
      }
      if (e.usage) target.usage = e.usage; // the reply's last line carries the final output count
      continue;
    }
    const msg: Message = { index: messages.length, role: e.role, blocks: e.blocks.slice(), source };
    e.message = msg.index;
    if (e.timestamp) msg.timestamp = e.timestamp;
    if (e.model) msg.model = e.model;
    if (e.usage) msg.usage = e.usage;
    if (e.flags.length) msg.flags = e.flags.slice();
    messages.push(msg);
    replyOf.push(e.role === 'assistant' ? e.msgId : undefined);
    onlyResults.push(e.role === 'user' && e.onlyToolResults);
    if (e.role === 'assistant') lastAssistant = msg;
  }
  return messages;
}
