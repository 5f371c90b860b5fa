// GitHub Copilot Chat's requests (the editor's `ISerializableChatRequestData`, in a session's `requests`) into the
// canonical messages. One request is one prompt of the person; the agent's tool-calling loop answers it in rounds
// (`result.metadata.toolCallRounds[]`: each round one call of the model, its text and tool calls), and keeps what each
// tool returned to the model (`result.metadata.toolCallResults[<call id>].content[]`). A request without rounds (an
// "ask" without tools, an older build) is one call whose reply is the response's Markdown. A round with a `summary`
// is where the agent summarized the conversation: the requests after it send the summary instead.
import type { Block, Marker, Message, SourceRange, TextBlock, ValueLocation } from '../../model';
import { compactJson, isObject, str } from '../json';
import type { Diagnostics } from '../types';
import { promptTsxText } from './promptTsx';

/** Where a JSON object or array of the session sits: the JSON text holding it and its path in that text. */
export interface Origin {
  recordStart: number;
  recordEnd: number;
  recordLine: number;
  path: (string | number)[];
  source: SourceRange;
}

/** Finds where an object of the session was written (the last write of it in a log). */
export type OriginOf = (value: object) => Origin;

export interface ChatConversation {
  messages: Message[];
  markers: Marker[];
  models: string[];
}

/** The model as the log names it, without the vendor's prefix (`copilot/claude-sonnet-4` → `claude-sonnet-4`). */
export function chatModel(request: Record<string, unknown>): string | undefined {
  const id = str(request.modelId);
  if (id) return id.replace(/^copilot\//, '');
  return undefined;
}

export class ChatReader {
  readonly messages: Message[] = [];
  readonly markers: Marker[] = [];
  readonly models: string[] = [];

  constructor(
    private readonly diags: Diagnostics,
    private readonly origin: OriginOf,
  ) {}

  /** The location of `holder[key]` (or of `holder` itself), and of the value a rewrite replaces. */
  private loc(holder: object, key?: string | number, value?: { holder: object; key: string }): ValueLocation {
    const o = this.origin(holder);
    const l: ValueLocation = {
      recordStart: o.recordStart,
      recordEnd: o.recordEnd,
      recordLine: o.recordLine,
      path: key === undefined ? [...o.path] : [...o.path, key],
    };
    if (value) l.valuePath = [...this.origin(value.holder).path, value.key];
    return l;
  }

  private push(role: Message['role'], blocks: Block[], holder: object, timestamp?: number): Message {
    const m: Message = { index: this.messages.length, role, blocks, source: this.origin(holder).source };
    if (typeof timestamp === 'number' && Number.isFinite(timestamp))
      m.timestamp = new Date(timestamp).toISOString();
    this.messages.push(m);
    return m;
  }

  /** The text parts (`{type: 1, text}`) of a message the agent rendered for the model, each a block written back in
   * place (its cache breakpoints, `{type: 3}`, are not text). */
  private rendered(parts: unknown): TextBlock[] {
    if (!Array.isArray(parts)) return [];
    return parts
      .filter(
        (p): p is Record<string, unknown> & { text: string } => isObject(p) && typeof p.text === 'string',
      )
      .map((p) => ({
        type: 'text',
        text: p.text,
        source: this.origin(p).source,
        location: this.loc(p, 'text'),
      }));
  }

  request(r: Record<string, unknown>): void {
    const message = isObject(r.message) ? r.message : {};
    const result = isObject(r.result) ? r.result : {};
    const metadata = isObject(result.metadata) ? result.metadata : {};
    const ts = typeof r.timestamp === 'number' ? r.timestamp : undefined;
    // The agent's context of the workspace (environment, folders, the user's preferences) is rendered with the first
    // request and sent at the start of every later one in agent mode; it is kept with the first request only (the
    // conversation's first turn's `renderedGlobalContext` in the agent's prompt).
    const context = this.messages.length === 0 ? this.rendered(metadata.renderedGlobalContext) : [];
    // The prompt as rendered for the model when the agent kept it, else as typed.
    const rendered = this.rendered(metadata.renderedUserMessage);
    const prompt: Block[] =
      rendered.length > 0
        ? rendered
        : [
            {
              type: 'text',
              text: str(message.text) ?? '',
              source: this.origin(message).source,
              location: this.loc(message, 'text'),
            },
          ];
    this.push('user', [...context, ...prompt], r, ts);
    const model = chatModel(r);
    const rounds = Array.isArray(metadata.toolCallRounds) ? metadata.toolCallRounds.filter(isObject) : [];
    const results = isObject(metadata.toolCallResults) ? metadata.toolCallResults : {};
    if (rounds.length === 0) {
      this.reply(r, model);
      return;
    }
    for (const round of rounds) {
      const blocks: Block[] = [];
      const source = this.origin(round).source;
      const thinking = isObject(round.thinking) ? round.thinking : undefined;
      const thought = thinking
        ? (str(thinking.text) ?? (Array.isArray(thinking.text) ? thinking.text.join('') : undefined))
        : undefined;
      if (thinking && thought)
        blocks.push({
          type: 'thinking',
          text: thought,
          redacted: false,
          source,
          location: this.loc(thinking, 'text'),
        });
      const text = str(round.response);
      if (text) blocks.push({ type: 'text', text, source, location: this.loc(round, 'response') });
      const calls = Array.isArray(round.toolCalls) ? round.toolCalls.filter(isObject) : [];
      for (const c of calls) {
        const args = str(c.arguments);
        let input: unknown = c.arguments ?? {};
        let inputInvalid = false;
        if (args !== undefined) {
          try {
            input = args.trim() === '' ? {} : JSON.parse(args);
          } catch {
            input = args;
            inputInvalid = true;
          }
        }
        const use: Block = {
          type: 'tool_use',
          id: str(c.id) ?? '',
          name: str(c.name) ?? '',
          input,
          source: this.origin(c).source,
          location: this.loc(c),
        };
        if (inputInvalid) use.inputInvalid = true;
        blocks.push(use);
      }
      const m = this.push(
        'assistant',
        blocks,
        round,
        typeof round.timestamp === 'number' ? round.timestamp : ts,
      );
      if (model) {
        m.model = model;
        this.models.push(model);
      }
      m.flags = ['no usage recorded'];
      const out: Block[] = [];
      for (const c of calls) out.push(this.result(str(c.id) ?? '', results, source));
      if (out.length) this.push('user', out, round);
      const summary = str(round.summary);
      if (summary !== undefined)
        this.markers.push({
          kind: 'compaction',
          label: 'conversation summarized (toolCallRounds[].summary)',
          beforeMessage: this.messages.length,
          source,
          summary,
        });
    }
  }

  /** A tool's output as the model was sent it: the text parts of its result, a prompt-tsx tree as the text it
   * renders to. */
  private result(id: string, results: Record<string, unknown>, source: SourceRange): Block {
    const holder = results[id];
    const content = isObject(holder) && Array.isArray(holder.content) ? holder.content : undefined;
    const part = content?.length === 1 && isObject(content[0]) ? content[0] : undefined;
    if (isObject(holder) && part && typeof part.value === 'string')
      return {
        type: 'tool_result',
        toolUseId: id,
        content: part.value,
        isError: false,
        source: this.origin(holder).source,
        location: this.loc(holder, undefined, { holder: part, key: 'value' }),
      };
    const texts = content?.map((p) => this.partText(p));
    if (isObject(holder) && texts && texts.length > 0 && texts.every((t) => t !== undefined))
      return {
        type: 'tool_result',
        toolUseId: id,
        content: texts,
        isError: false,
        source: this.origin(holder).source,
        location: this.loc(holder, undefined, { holder, key: 'content' }),
      };
    // Parts of another kind (an image, data): shown whole, never rewritten.
    if (isObject(holder))
      return {
        type: 'tool_result',
        toolUseId: id,
        content: compactJson(holder),
        isError: false,
        fixed: true,
        source: this.origin(holder).source,
        location: this.loc(holder),
      };
    this.diags.once(
      `chat-missing-result:${id}`,
      'warning',
      'unpaired-tool-use',
      `no result is kept for tool call "${id}" (a call cancelled before it ran?): sent as an empty error`,
      source,
    );
    return { type: 'tool_result', toolUseId: id, content: '', isError: true, fixed: true, source };
  }

  /** A part of a tool's result as a text block: a text part (`{$mid: 21, value}`) or a prompt-tsx tree (`{$mid: 23,
   * value: {node}}`) as the text it renders to; undefined for a part of another kind. */
  private partText(p: unknown): TextBlock | undefined {
    if (!isObject(p)) return undefined;
    const text =
      typeof p.value === 'string' ? p.value : isObject(p.value) ? promptTsxText(p.value.node) : undefined;
    if (text === undefined) return undefined;
    return { type: 'text', text, source: this.origin(p).source, location: this.loc(p) };
  }

  /** A request answered in one call: the response's Markdown parts are the reply. */
  private reply(r: Record<string, unknown>, model: string | undefined): void {
    const parts = Array.isArray(r.response) ? r.response : [];
    const blocks: Block[] = [];
    for (const p of parts) {
      if (!isObject(p)) continue;
      // A Markdown part is stored as its MarkdownString ({value}), or, in older files, {kind: "markdownContent", content}.
      const md =
        p.kind === 'markdownContent' && isObject(p.content)
          ? p.content
          : p.kind === undefined
            ? p
            : undefined;
      if (md && typeof md.value === 'string' && md.value !== '')
        blocks.push({
          type: 'text',
          text: md.value,
          source: this.origin(md).source,
          location: this.loc(md, 'value'),
        });
    }
    const m = this.push('assistant', blocks, r);
    if (model) {
      m.model = model;
      this.models.push(model);
    }
    m.flags = r.isCanceled === true ? ['no usage recorded', 'canceled'] : ['no usage recorded'];
  }
}
