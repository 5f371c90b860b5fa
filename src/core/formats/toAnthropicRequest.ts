// "What would be sent to the model": a transcript, with the policy's rewrites applied, as one Anthropic Messages
// request body `{ model, system, tools, messages }`. Export offers it beside the same-format file. Anthropic-shaped
// sources (Claude Code sessions, Anthropic request logs) keep each untouched block's own JSON (thinking signatures,
// cache_control, image data); OpenAI sources are converted from the canonical model. A request that carries CCR
// markers declares the tool that redeems them (SPEC §4), so the model it is sent to can ask for any original back.
import { pushAll } from '../arrays';
// The marker grammar and the tool live with the CCR store, in one pure module the engine writes them from.
import { CCR_RETRIEVE_TOOL, hasCcrMarker } from '../engine/ccr';
import type { Block, Message, Rewrite, Role, Transcript, ValueLocation } from '../model';
import { isObject, str, withoutBom } from './json';
import { nextRequestSpan } from './nextRequest';
import { adapterFor } from './registry';
import { decodeUtf8 } from './text';

export type AnthropicBlock = Record<string, unknown> & { type: string };

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

export interface AnthropicRequest {
  model?: string;
  /** Required by the API. */
  max_tokens: number;
  system?: string;
  tools?: unknown[];
  tool_choice?: Record<string, unknown>;
  thinking?: Record<string, unknown>;
  messages: AnthropicMessage[];
  /** Anthropic context editing (a beta: the request needs the header its export notes name). */
  context_management?: { edits: Record<string, unknown>[] };
}

export interface AnthropicConversion {
  request: AnthropicRequest;
  /** What could not be carried over, in words (e.g. an OpenAI reasoning item, which Anthropic cannot take). */
  notes: string[];
  /** What the request leaves out as the agent would (the compacted-away messages) and what the file does not hold
   * (system prompt, tools), in words: nextRequest.ts. */
  liveNotes: string[];
}

const anthropicShaped = (format: Transcript['format']) => adapterFor(format).wire === 'anthropic';

/** Reads original JSON values out of the transcript's bytes. Blocks come in file order, so the record last parsed
 * is the only one kept: keeping every record's syntax tree (jsonc-parser's, a node object per value) held ~40×
 * the file (4.4 GB for a 114 MB session). A record is parsed as plain JSON, the path walked in it. */
class Originals {
  private at = -1;
  private root: unknown;
  constructor(private readonly raw: Uint8Array) {}

  value(loc: ValueLocation | undefined): unknown {
    if (!loc) return undefined;
    if (loc.recordStart !== this.at) {
      this.at = loc.recordStart;
      try {
        this.root = JSON.parse(
          withoutBom(decodeUtf8(this.raw.subarray(loc.recordStart, loc.recordEnd)).text),
        );
      } catch {
        this.root = undefined; // the parser kept what it could of a broken record; its own JSON is not there
      }
    }
    let v = this.root;
    for (const key of loc.path) {
      if (typeof key === 'number' ? !Array.isArray(v) : !isObject(v) || !Object.hasOwn(v, key))
        return undefined;
      v = (v as Record<string | number, unknown>)[key];
    }
    return v;
  }
}

function imageFromUrl(url: string): AnthropicBlock {
  const m = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  return m
    ? { type: 'image', source: { type: 'base64', media_type: m[1], data: m[2] } }
    : { type: 'image', source: { type: 'url', url } };
}

class Converter {
  readonly notes: string[] = [];
  private readonly originals: Originals;
  private readonly shaped: boolean;

  constructor(transcript: Transcript) {
    this.originals = new Originals(transcript.raw);
    this.shaped = anthropicShaped(transcript.format);
  }

  private note(where: string, what: string): void {
    if (this.notes.length < 50) this.notes.push(`${where}: ${what}`);
  }

  /** The block's own JSON when the source is Anthropic-shaped and holds an object there. */
  private own(block: Block): AnthropicBlock | undefined {
    if (!this.shaped) return undefined;
    const v = this.originals.value(block.location);
    return isObject(v) && typeof v.type === 'string' ? (v as AnthropicBlock) : undefined;
  }

  nested(block: Block, where: string): AnthropicBlock | null {
    if (block.type === 'text') return { type: 'text', text: block.text };
    if (block.type === 'image') return this.image(block, where);
    const own = this.own(block);
    if (own) return own;
    this.note(where, `a nested ${block.type === 'other' ? block.kind : block.type} block was left out`);
    return null;
  }

  private image(block: Extract<Block, { type: 'image' }>, where: string): AnthropicBlock | null {
    const own = this.own(block);
    if (own?.type === 'image') return own as AnthropicBlock;
    const v = this.originals.value(block.location);
    // OpenAI Chat `{type: image_url, image_url: {url}}`, Responses `{type: input_image, image_url: "..."}`.
    const url = isObject(v)
      ? isObject(v.image_url)
        ? str(v.image_url.url)
        : (str(v.image_url) ?? str(v.url))
      : undefined;
    if (url) return imageFromUrl(url);
    this.note(where, 'an image without its data in the file was left out');
    return null;
  }

  block(block: Block, rewrite: Rewrite | undefined, where: string): AnthropicBlock | null {
    switch (block.type) {
      case 'text': {
        const text = rewrite && typeof rewrite.content === 'string' ? rewrite.content : block.text;
        // The API refuses empty and whitespace-only text blocks (OpenAI logs hold `content: ""` turns).
        if (text.trim() === '') return null;
        const own = this.own(block);
        return own?.type === 'text' ? { ...own, text } : { type: 'text', text };
      }
      case 'thinking': {
        const own = this.own(block);
        if (own && (own.type === 'thinking' || own.type === 'redacted_thinking'))
          return own as AnthropicBlock;
        this.note(
          where,
          `${block.redacted ? 'encrypted reasoning' : 'a reasoning summary'} cannot be sent to an Anthropic model and was left out`,
        );
        return null;
      }
      case 'tool_use': {
        let input = block.input;
        if (block.inputInvalid || !isObject(input)) {
          this.note(
            where,
            `tool_use ${block.id}: its arguments are not a JSON object; sent as {"arguments": <the text>}`,
          );
          input = { arguments: block.input };
        }
        const own = this.own(block);
        return own?.type === 'tool_use'
          ? { ...own, input }
          : { type: 'tool_use', id: block.id, name: block.name, input };
      }
      case 'tool_result': {
        const source = rewrite ? rewrite.content : block.content;
        const content =
          typeof source === 'string'
            ? source
            : source
                .map((b, i) => this.nested(b, `${where} part ${i}`))
                .filter((b): b is AnthropicBlock => b !== null);
        const own = this.own(block);
        const out: AnthropicBlock =
          own?.type === 'tool_result'
            ? { ...own, content }
            : { type: 'tool_result', tool_use_id: block.toolUseId, content };
        if (block.isError) out.is_error = true;
        return out;
      }
      case 'image':
        return this.image(block, where);
      case 'other': {
        if (this.shaped) {
          try {
            const v: unknown = JSON.parse(block.raw);
            if (isObject(v) && typeof v.type === 'string') return v as AnthropicBlock;
          } catch {
            // fall through to the note
          }
        }
        this.note(where, `a "${block.kind}" block has no Anthropic form and was left out`);
        return null;
      }
    }
  }
}

/** OpenAI tool definitions (`{type: function, function: {...}}` or Responses' flat form) as Anthropic tools. */
export function anthropicTools(tools: readonly unknown[], notes: string[]): unknown[] {
  const out: unknown[] = [];
  tools.forEach((t, i) => {
    if (!isObject(t)) return;
    if ('input_schema' in t || (typeof t.type === 'string' && t.type !== 'function' && 'name' in t)) {
      out.push(t); // already Anthropic (custom or server tool)
      return;
    }
    const f = isObject(t.function) ? t.function : t;
    const name = str(f.name);
    if (!name) {
      notes.push(`tool ${i}: no name; left out`);
      return;
    }
    const tool: Record<string, unknown> = {
      name,
      input_schema: isObject(f.parameters) ? f.parameters : { type: 'object' },
    };
    const description = str(f.description);
    if (description) tool.description = description;
    out.push(tool);
  });
  return out;
}

/**
 * The request the agent would send next, with `rewrites` applied: the live segment (after the last compaction, its
 * summary and what follows: nextRequest.ts), with the system prompt and tools the file holds (the notes say what it
 * does not). System messages go to `system`; consecutive messages of one role are merged (the API takes alternating
 * turns); a message left without content is dropped with a note. tool_use/tool_result ids are kept, so pairing
 * survives.
 */
export function toAnthropicRequest(
  transcript: Transcript,
  rewrites: readonly Rewrite[] = [],
): AnthropicConversion {
  const conv = new Converter(transcript);
  const byBlock = new Map<string, Rewrite>();
  for (const r of rewrites) byBlock.set(`${r.messageIndex}.${r.blockIndex}`, r);
  const system: string[] = transcript.system ? [transcript.system] : [];
  const messages: AnthropicMessage[] = [];
  const push = (role: Role, content: AnthropicBlock[]) => {
    if (role === 'system') {
      for (const b of content) if (b.type === 'text' && typeof b.text === 'string') system.push(b.text);
      return;
    }
    const last = messages[messages.length - 1];
    if (last && last.role === role) pushAll(last.content, content);
    else messages.push({ role, content });
  };
  const span = nextRequestSpan(transcript);
  if (span.summary) push('user', [{ type: 'text', text: span.summary }]);
  for (let i = span.from; i < transcript.messages.length; i++) {
    const m = transcript.messages[i];
    const content = convertMessage(conv, m, byBlock);
    if (content.length === 0) {
      conv.notes.push(`message ${m.index} (${m.role}): nothing left to send; dropped`);
      continue;
    }
    push(m.role, content);
  }
  // The API wants a user message's tool_result blocks before anything else in it (after merging, too).
  for (const m of messages)
    if (m.role === 'user')
      m.content.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'));
  const settings = transcript.requestSettings ?? {};
  // Built in the order the API's documentation lists the fields.
  const request = {} as AnthropicRequest;
  if (transcript.model) request.model = transcript.model;
  request.max_tokens = settings.maxTokens ?? DEFAULT_MAX_TOKENS;
  if (system.length) request.system = system.join('\n\n');
  const tools: unknown[] = [];
  if (transcript.tools?.length) pushAll(tools, anthropicTools(transcript.tools, conv.notes));
  if (messages.some(carriesCcrMarker) && !tools.some((t) => isObject(t) && t.name === CCR_RETRIEVE_TOOL.name))
    tools.push(structuredClone(CCR_RETRIEVE_TOOL));
  if (tools.length) request.tools = tools;
  const choice = anthropicToolChoice(settings, conv.notes);
  // The API takes a tool_choice only beside tools.
  if (choice && tools.length) request.tool_choice = choice;
  else if (choice) conv.notes.push('tool_choice left out: the request declares no tools');
  if (anthropicShaped(transcript.format) && settings.thinking) request.thinking = settings.thinking;
  request.messages = messages;
  return { request, notes: conv.notes, liveNotes: span.notes };
}

/** The reply limit of a request whose source names none (the API requires one): every Claude model since 3.5 takes
 * 8,192. */
export const DEFAULT_MAX_TOKENS = 8192;
/** Thinking budget when an export has to turn thinking on: the API's floor is 1,024, and it must stay below
 * max_tokens. */
export const THINKING_BUDGET_TOKENS = 4096;

/** The source's tool choice in Anthropic's shape: Anthropic's as it is; OpenAI's `auto`/`none`/`required`/a named
 * function as `auto`/`none`/`any`/`tool`, with `parallel_tool_calls: false` as `disable_parallel_tool_use`. */
function anthropicToolChoice(
  settings: NonNullable<Transcript['requestSettings']>,
  notes: string[],
): Record<string, unknown> | undefined {
  const c = settings.toolChoice;
  let out: Record<string, unknown> | undefined;
  if (isObject(c) && ['auto', 'any', 'tool', 'none'].includes(str(c.type) ?? ''))
    out = c.type === 'tool' && !str(c.name) ? undefined : { ...c };
  else if (c === 'auto' || c === 'none') out = { type: c };
  else if (c === 'required') out = { type: 'any' };
  else if (isObject(c) && c.type === 'function') {
    const name = str(isObject(c.function) ? c.function.name : c.name);
    if (name) out = { type: 'tool', name };
  }
  if (c !== undefined && !out) {
    notes.push(
      `tool_choice ${JSON.stringify(c)?.slice(0, 80)} has no Anthropic form: left out (the API's default, auto)`,
    );
    return undefined;
  }
  if (out && settings.parallelToolCalls === false && out.type !== 'none')
    out.disable_parallel_tool_use = true;
  return out;
}

/** Claude models from 4.6 on think adaptively (4.7 and later refuse a thinking budget); earlier ones take
 * `{type: "enabled", budget_tokens}` only. Undefined when the id names no Claude version. */
function claudeVersion(model: string | undefined): number | undefined {
  if (!model) return undefined;
  // claude-sonnet-4-5-20250929, claude-opus-4-8, claude-mythos-5, claude-3-7-sonnet-20250219
  const named = /^claude-[a-z]+-(\d+)(?:-(\d{1,2}))?(?=-|$|@)/.exec(model);
  const old = /^claude-(\d+)(?:-(\d{1,2}))?-[a-z]+/.exec(model);
  const m = named ?? old;
  return m ? Number(m[1]) + Number(m[2] ?? 0) / 10 : undefined;
}

/** Turns thinking on in `request` (context editing's clear_thinking applies only then), the way its model takes it,
 * unless the source already had it on; keeps max_tokens above the budget and drops a tool choice that forces a tool
 * (the API refuses forced tool use with thinking). Says what it did in `notes`. */
export function enableThinking(request: AnthropicRequest, notes: string[]): void {
  const t = request.thinking;
  if (t && (t.type === 'enabled' || t.type === 'adaptive')) return;
  const version = claudeVersion(request.model);
  if (version === undefined || version >= 4.6) {
    request.thinking = { type: 'adaptive' };
    notes.push(
      `thinking {"type": "adaptive"} added: clear_thinking_20251015 applies only with thinking on${version === undefined ? ` (the model ${request.model ? `"${request.model}" ` : ''}names no Claude version; models before Claude 4.6 take {"type": "enabled", "budget_tokens": ${THINKING_BUDGET_TOKENS}} instead)` : ''}`,
    );
  } else {
    if (request.max_tokens <= THINKING_BUDGET_TOKENS) {
      notes.push(
        `max_tokens raised from ${request.max_tokens} to ${DEFAULT_MAX_TOKENS}: it must exceed the thinking budget`,
      );
      request.max_tokens = DEFAULT_MAX_TOKENS;
    }
    request.thinking = { type: 'enabled', budget_tokens: THINKING_BUDGET_TOKENS };
    notes.push(
      `thinking {"type": "enabled", "budget_tokens": ${THINKING_BUDGET_TOKENS}} added: clear_thinking_20251015 applies only with thinking on`,
    );
  }
  const choice = request.tool_choice;
  if (choice && (choice.type === 'any' || choice.type === 'tool')) {
    notes.push(
      `tool_choice ${JSON.stringify(choice)} replaced by {"type": "auto"}: the API refuses forced tool use with thinking on`,
    );
    request.tool_choice = { type: 'auto' };
  }
}

/** Whether the text the model reads in a message (text blocks, tool results and their nested text) holds a CCR
 * marker. */
function carriesCcrMarker(m: AnthropicMessage): boolean {
  const read = (b: AnthropicBlock): boolean => {
    if (b.type === 'text') return typeof b.text === 'string' && hasCcrMarker(b.text);
    if (b.type !== 'tool_result') return false;
    if (typeof b.content === 'string') return hasCcrMarker(b.content);
    return Array.isArray(b.content) && b.content.some((n) => isObject(n) && read(n as AnthropicBlock));
  };
  return m.content.some(read);
}

function convertMessage(conv: Converter, m: Message, byBlock: Map<string, Rewrite>): AnthropicBlock[] {
  const out: AnthropicBlock[] = [];
  m.blocks.forEach((b, j) => {
    const converted = conv.block(b, byBlock.get(`${m.index}.${j}`), `message ${m.index} block ${j}`);
    if (converted) out.push(converted);
  });
  return out;
}
