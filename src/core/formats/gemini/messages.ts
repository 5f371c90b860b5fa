// Gemini CLI's message records (`ConversationRecord.messages`, the same in the JSON document and the JSONL log) into
// the canonical messages. What a request sends is what the agent rebuilds its history from: a `user` record's parts,
// a `gemini` record's text and function calls, and the calls' results as the user turn after it (in `toolCalls[].result`,
// or, in newer versions, a `user` record of `functionResponse` parts of its own). `info`, `error` and `warning`
// records, slash commands and the thought summaries are shown but never sent.
import type { Block, Marker, Message, RecordedUsage, SourceRange, ValueLocation } from '../../model';
import { functionResponseBlock, type GeminiPartPlace, geminiPartBlock } from '../geminiParts';
import { isObject, str } from '../json';
import type { Diagnostics } from '../types';

/** One message record and where it sits: the JSON text holding it and the path of the record in that text. */
export interface GeminiEntry {
  value: Record<string, unknown>;
  recordStart: number;
  recordEnd: number;
  recordLine: number;
  path: (string | number)[];
  source: SourceRange;
  /** A copy the agent wrote when it replaced its history (`$set.messages`): its reply was paid for where it was
   * first written, never again. */
  copy?: boolean;
}

export interface GeminiConversation {
  messages: Message[];
  markers: Marker[];
  models: string[];
}

/** User text the agent never sends (`isIgnoredUserContent`): slash commands, `?` help, injected context. */
function ignoredUserText(text: string): boolean {
  const t = text.trim();
  return t.startsWith('/') || t.startsWith('?');
}

/** `tokens` as the recorded usage of one request: `input` is the whole prompt (the cached part included), the
 * thoughts are billed as output. */
export function geminiUsage(tokens: unknown): RecordedUsage | undefined {
  if (!isObject(tokens)) return undefined;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
  const input = n(tokens.input);
  const cached = Math.min(n(tokens.cached), input);
  const thoughts = n(tokens.thoughts);
  const usage: RecordedUsage = {
    inputTokens: input - cached,
    outputTokens: n(tokens.output) + thoughts,
    cacheReadInputTokens: cached,
    cacheCreationInputTokens: 0,
  };
  if (thoughts > 0) usage.reasoningOutputTokens = thoughts;
  return usage;
}

/** A message's `content` (a string, one part, or a list of parts and strings) as parts with their paths. */
function partsOf(
  content: unknown,
  path: (string | number)[],
): { part: unknown; path: (string | number)[] }[] {
  if (Array.isArray(content)) return content.map((part, i) => ({ part, path: [...path, i] }));
  if (content === undefined || content === null) return [];
  return [{ part: content, path }];
}

function textOf(content: unknown): string {
  return partsOf(content, [])
    .map(({ part }) => (typeof part === 'string' ? part : isObject(part) ? (str(part.text) ?? '') : ''))
    .join('');
}

class Reader {
  readonly messages: Message[] = [];
  readonly markers: Marker[] = [];
  readonly models: string[] = [];
  /** Call ids whose results a `user` record of their own carries: their `toolCalls[].result` copy is not sent. */
  private readonly answered = new Set<string>();
  private callCount = 0;

  constructor(private readonly diags: Diagnostics) {}

  prescan(entries: GeminiEntry[]): void {
    for (const e of entries) {
      if (e.value.type !== 'user') continue;
      for (const { part } of partsOf(e.value.content, []))
        if (isObject(part) && isObject(part.functionResponse)) {
          const id = str(part.functionResponse.id);
          if (id) this.answered.add(id);
        }
    }
  }

  private loc(e: GeminiEntry, path: (string | number)[], valuePath?: (string | number)[]): ValueLocation {
    const l: ValueLocation = {
      recordStart: e.recordStart,
      recordEnd: e.recordEnd,
      recordLine: e.recordLine,
      path: [...e.path, ...path],
    };
    if (valuePath) l.valuePath = [...e.path, ...valuePath];
    return l;
  }

  private marker(m: Omit<Marker, 'beforeMessage'>): void {
    this.markers.push({ ...m, beforeMessage: this.messages.length });
  }

  private push(role: Message['role'], blocks: Block[], e: GeminiEntry): Message {
    const m: Message = { index: this.messages.length, role, blocks, source: e.source };
    const ts = str(e.value.timestamp);
    if (ts) m.timestamp = ts;
    this.messages.push(m);
    return m;
  }

  /** Where the parts of `e` sit, for the shared reading of Gemini API parts. */
  private place(e: GeminiEntry): GeminiPartPlace {
    return {
      source: e.source,
      at: (path, valuePath) => this.loc(e, path, valuePath),
      nextCall: () => ++this.callCount,
      strings: true,
      diags: this.diags,
      unknownKey: 'gemini-part',
    };
  }

  private block(e: GeminiEntry, part: unknown, path: (string | number)[]): Block | undefined {
    return geminiPartBlock(this.place(e), part, path);
  }

  user(e: GeminiEntry): void {
    const content = e.value.content;
    const text = textOf(content);
    const parts = partsOf(content, ['content']);
    const responses = parts.some(({ part }) => isObject(part) && isObject(part.functionResponse));
    if (!responses && ignoredUserText(text)) {
      this.marker({ kind: 'meta-record', label: 'command', source: e.source, text: text.trim() });
      return;
    }
    const blocks: Block[] = [];
    for (const { part, path } of parts) {
      const b = this.block(e, part, path);
      if (b) blocks.push(b);
    }
    if (blocks.length > 0) this.push('user', blocks, e);
  }

  gemini(e: GeminiEntry): void {
    const r = e.value;
    const blocks: Block[] = [];
    const calls = new Set<string>();
    for (const { part, path } of partsOf(r.content, ['content'])) {
      if (typeof part === 'string' && part === '') continue;
      const b = this.block(e, part, path);
      if (!b) continue;
      if (b.type === 'text' && b.text === '' && typeof part === 'string') continue;
      if (b.type === 'tool_use') calls.add(b.id);
      blocks.push(b);
    }
    const toolCalls = Array.isArray(r.toolCalls) ? r.toolCalls : [];
    toolCalls.forEach((c, j) => {
      if (!isObject(c)) return;
      const id = str(c.id) ?? `${str(c.name) ?? 'call'}#${++this.callCount}`;
      if (calls.has(id)) return;
      calls.add(id);
      blocks.push({
        type: 'tool_use',
        id,
        name: str(c.name) ?? '',
        input: c.args ?? {},
        source: e.source,
        location: this.loc(e, ['toolCalls', j]),
      });
    });
    const thoughts = Array.isArray(r.thoughts) ? r.thoughts.filter(isObject) : [];
    if (thoughts.length > 0)
      this.marker({
        kind: 'meta-record',
        label: 'thoughts',
        source: e.source,
        text: thoughts.map((t) => str(t.subject) ?? str(t.description) ?? '').join(' · '),
      });
    const m = this.push('assistant', blocks, e);
    const model = str(r.model);
    if (model) m.model = model;
    const usage = e.copy ? undefined : geminiUsage(r.tokens);
    if (usage) {
      m.usage = usage;
      if (model) this.models.push(model);
    }
    if (e.copy) m.flags = ['synthetic'];
    else if (!usage) m.flags = ['no usage recorded'];
    this.results(e, toolCalls);
  }

  /** The results of a reply's calls, as the user turn the agent sends after it. */
  private results(e: GeminiEntry, toolCalls: unknown[]): void {
    const blocks: Block[] = [];
    toolCalls.forEach((c, j) => {
      if (!isObject(c) || (str(c.id) && this.answered.has(str(c.id) as string))) return;
      const failed = c.status === 'error' || c.status === 'cancelled';
      const list = Array.isArray(c.result) ? c.result : isObject(c.result) ? [c.result] : [];
      const base = Array.isArray(c.result) ? ['toolCalls', j, 'result'] : ['toolCalls', j];
      const at = list.findIndex((p) => isObject(p) && isObject(p.functionResponse));
      if (at === -1) {
        // No response recorded (a call cancelled before it ran): the agent sends an error in its place.
        blocks.push({
          type: 'tool_result',
          toolUseId: str(c.id) ?? '',
          content: str(c.resultDisplay) ?? '',
          isError: true,
          fixed: true,
          source: e.source,
          location: this.loc(e, ['toolCalls', j]),
        });
        return;
      }
      const partPath = Array.isArray(c.result) ? [...base, at] : ['toolCalls', j, 'result'];
      blocks.push(
        functionResponseBlock(this.place(e), list[at] as Record<string, unknown>, partPath, failed),
      );
      list.forEach((p, k) => {
        if (k === at) return;
        const b = this.block(e, p, [...base, k]);
        if (b) blocks.push(b);
      });
    });
    if (blocks.length > 0) this.push('user', blocks, e);
  }

  other(e: GeminiEntry, type: string): void {
    this.marker({
      kind: 'meta-record',
      label: type || '(no type)',
      source: e.source,
      text: textOf(e.value.content),
    });
  }
}

/** Reads the records left after the log's updates and rewinds, in order; a history the agent replaced starts a
 * segment (`compaction`). */
export class GeminiReader {
  private readonly r: Reader;
  constructor(diags: Diagnostics, all: GeminiEntry[]) {
    this.r = new Reader(diags);
    this.r.prescan(all);
  }

  read(entries: GeminiEntry[]): void {
    for (const e of entries) {
      const type = str(e.value.type) ?? '';
      if (type === 'user') this.r.user(e);
      else if (type === 'gemini') this.r.gemini(e);
      else this.r.other(e, type);
    }
  }

  /** The agent replaced its history (a chat compression's summary, tool outputs it masked): the requests after
   * this send the new history only. */
  compaction(label: string, source: SourceRange, text?: string): void {
    const m: Marker = { kind: 'compaction', label, beforeMessage: this.r.messages.length, source };
    if (text) m.text = text;
    this.r.markers.push(m);
  }

  marker(m: Omit<Marker, 'beforeMessage'>): void {
    this.r.markers.push({ ...m, beforeMessage: this.r.messages.length });
  }

  done(): GeminiConversation {
    return { messages: this.r.messages, markers: this.r.markers, models: this.r.models };
  }
}
