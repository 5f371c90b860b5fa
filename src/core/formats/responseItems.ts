// Responses API items (shared by OpenAI Responses request bodies and Codex rollouts, whose `response_item`
// payloads are the same items): one assistant message per run of model-side items (reasoning, message,
// calls), one tool-result message per run of outputs, as the Anthropic conversion would group them.
import type { JSONPath } from 'jsonc-parser';
import { pushAll } from '../arrays';
import type { Block, Marker, Message, Role, SourceRange } from '../model';
import { compactJson, isObject, str } from './json';
import { openaiPart, openaiParts, type PartPlace, toolCall } from './openaiParts';
import { joinRanges } from './text';
import type { Diagnostics } from './types';

const OUTPUT_ITEMS = new Set([
  'function_call_output',
  'custom_tool_call_output',
  'local_shell_call_output',
  'computer_call_output',
  'mcp_tool_call_output',
  'tool_search_output',
]);
const MODEL_ITEMS = new Set([
  'reasoning',
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'computer_call',
  'web_search_call',
  'file_search_call',
  'image_generation_call',
  'code_interpreter_call',
  'mcp_call',
  'tool_search_call',
]);

/** Calls the provider runs itself (hosted tools): no output item answers them, the model's reply goes on after
 * them. Counted as tool calls, under these names. */
export const HOSTED_CALLS: Readonly<Record<string, string>> = {
  web_search_call: 'web_search',
  file_search_call: 'file_search',
  image_generation_call: 'image_generation',
  code_interpreter_call: 'code_interpreter',
  mcp_call: 'mcp',
  tool_search_call: 'tool_search',
};

/** A server-side compaction's encrypted summary, under each name Codex has read it by. */
const COMPACTION_ITEMS = new Set(['compaction', 'compaction_summary', 'context_compaction']);

export class ItemConversation {
  readonly messages: Message[] = [];
  readonly markers: Marker[] = [];
  private readonly results = new Set<Message>();

  constructor(private readonly diags: Diagnostics) {}

  /** Adds one item; `path` is where the item sits in its record, `source` the range to show for the message. */
  add(
    item: Record<string, unknown>,
    path: JSONPath,
    place: PartPlace,
    source: SourceRange,
    timestamp?: string,
  ): void {
    const type = str(item.type) ?? (typeof item.role === 'string' ? 'message' : '');
    if (type === 'message') {
      const role = str(item.role) ?? '';
      let mapped: Role = 'user';
      if (role === 'assistant') mapped = 'assistant';
      else if (role === 'system' || role === 'developer') mapped = 'system';
      else if (role !== 'user')
        this.diags.add(
          'warning',
          'unknown-role',
          `role "${role}" is not one of system/developer/user/assistant: shown as user`,
          source.line,
          source.column,
        );
      const blocks = openaiParts(item.content, [...path, 'content'], place, this.diags);
      const msg =
        mapped === 'assistant' ? this.assistant(source, timestamp) : this.push(mapped, source, timestamp);
      pushAll(msg.blocks, blocks);
      if (role === 'developer') msg.flags = ['developer'];
      return;
    }
    if (OUTPUT_ITEMS.has(type) && !ranByProvider(item)) {
      this.result(source, timestamp).blocks.push(this.output(item, path, place));
      return;
    }
    if (MODEL_ITEMS.has(type) || OUTPUT_ITEMS.has(type)) {
      this.assistant(source, timestamp).blocks.push(this.modelBlock(type, item, path, place));
      return;
    }
    if (COMPACTION_ITEMS.has(type)) {
      // A server-side compaction (`/responses/compact`): an encrypted summary of the earlier turns, sent with the
      // items kept beside it (before it, too), so it starts no segment of its own: shown, never counted.
      const size = str(item.encrypted_content)?.length ?? 0;
      this.marker({
        kind: 'meta-record',
        label: type,
        source,
        text: `encrypted summary of the earlier turns (${size} characters; its tokens only the log tells)`,
      });
      return;
    }
    this.diags.once(
      `item:${type}`,
      'info',
      'unknown-record',
      `item type "${type || '(none)'}" is not a message: kept and shown as a marker`,
      source,
    );
    this.markers.push({
      kind: 'unknown-record',
      label: type || '(no type)',
      beforeMessage: this.messages.length,
      source,
      text: compactJson(item).slice(0, 200),
    });
  }

  marker(marker: Omit<Marker, 'beforeMessage'>): void {
    this.markers.push({ ...marker, beforeMessage: this.messages.length });
  }

  /** The assistant message that the latest model output belongs to (for recorded usage). */
  lastAssistant(): Message | undefined {
    for (let i = this.messages.length - 1; i >= 0; i--)
      if (this.messages[i].role === 'assistant') return this.messages[i];
    return undefined;
  }

  private push(role: Role, source: SourceRange, timestamp?: string): Message {
    const msg: Message = { index: this.messages.length, role, blocks: [], source };
    if (timestamp) msg.timestamp = timestamp;
    this.messages.push(msg);
    return msg;
  }

  private extend(msg: Message, source: SourceRange): Message {
    msg.source = joinRanges(msg.source ?? source, source);
    return msg;
  }

  private assistant(source: SourceRange, timestamp?: string): Message {
    const last = this.messages[this.messages.length - 1];
    return last?.role === 'assistant' ? this.extend(last, source) : this.push('assistant', source, timestamp);
  }

  private result(source: SourceRange, timestamp?: string): Message {
    const last = this.messages[this.messages.length - 1];
    if (last && this.results.has(last)) return this.extend(last, source);
    const msg = this.push('user', source, timestamp);
    this.results.add(msg);
    return msg;
  }

  private output(item: Record<string, unknown>, path: JSONPath, place: PartPlace): Block {
    if (item.type === 'tool_search_output') {
      // The tool definitions the search loaded: the model reads them as the call's result. They are definitions the
      // agent parses, not text: a stub written in their place would break the rollout, so none is.
      return {
        type: 'tool_result',
        toolUseId: str(item.call_id) ?? '',
        content: compactJson(item.tools ?? []),
        isError: item.status === 'failed',
        fixed: true,
        source: place.source(path),
        location: place.at(path, [...path, 'tools']),
      };
    }
    const out = item.output;
    const outPath = [...path, 'output'];
    let content: string | Block[] = '';
    let valuePath: JSONPath = outPath;
    if (typeof out === 'string') content = out;
    else if (Array.isArray(out)) content = openaiParts(out, outPath, place, this.diags);
    else if (isObject(out) && typeof out.content === 'string') {
      content = out.content; // older Codex: {content, success}
      valuePath = [...outPath, 'content'];
    } else if (isObject(out)) content = [openaiPart(out, outPath, place, this.diags)];
    const isError = isObject(out) && out.success === false;
    return {
      type: 'tool_result',
      toolUseId: str(item.call_id) ?? '',
      content,
      isError,
      source: place.source(path),
      location: place.at(path, valuePath),
    };
  }

  private modelBlock(type: string, item: Record<string, unknown>, path: JSONPath, place: PartPlace): Block {
    const id = str(item.call_id) ?? str(item.id) ?? '';
    const source = place.source(path);
    switch (type) {
      case 'reasoning': {
        const texts: string[] = [];
        for (const key of ['summary', 'content'])
          if (Array.isArray(item[key]))
            for (const p of item[key] as unknown[])
              if (isObject(p) && typeof p.text === 'string') texts.push(p.text);
        const text = texts.join('\n\n');
        return {
          type: 'thinking',
          text,
          redacted: text === '' && typeof item.encrypted_content === 'string',
          source,
          location: place.at(path),
        };
      }
      case 'function_call':
        return toolCall(
          id,
          str(item.name) ?? '',
          item.arguments,
          [...path, 'arguments'],
          path,
          place,
          this.diags,
        );
      case 'custom_tool_call':
        // Free-form tools take raw text, not JSON: the input is the string itself.
        return {
          type: 'tool_use',
          id,
          name: str(item.name) ?? '',
          input: item.input,
          source,
          location: place.at(path),
        };
      case 'local_shell_call':
        return {
          type: 'tool_use',
          id,
          name: 'local_shell',
          input: item.action,
          source,
          location: place.at(path),
        };
      case 'tool_search_call':
        // Run by the agent (`execution: "client"`): its output item answers it, as a function call's does.
        if (ranByProvider(item)) break;
        return {
          type: 'tool_use',
          id,
          name: 'tool_search',
          input: item.arguments,
          loadsTools: true,
          source,
          location: place.at(path),
        };
      case 'computer_call':
        return {
          type: 'tool_use',
          id,
          name: 'computer',
          input: item.action,
          source,
          location: place.at(path),
        };
    }
    return { type: 'other', kind: type, raw: compactJson(item), source, location: place.at(path) };
  }
}

/** A tool search the provider ran (`execution: "server"`): its call and output are both the model's output. */
function ranByProvider(item: Record<string, unknown>): boolean {
  return (
    (item.type === 'tool_search_call' || item.type === 'tool_search_output') && item.execution === 'server'
  );
}

/** What a list of items sends the model as text (Codex's `replacement_history`: the history that requests after a
 * compaction carry instead of the older turns): message and reasoning texts, calls' names and arguments, outputs.
 * An encrypted item (a server-side `compaction` summary, encrypted reasoning) holds no text to count: counted
 * apart, its tokens are the log's to tell. */
export function carriedText(items: readonly unknown[]): { text: string; encrypted: number } {
  const texts: string[] = [];
  let encrypted = 0;
  const parts = (value: unknown) => {
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value))
      for (const p of value)
        if (isObject(p)) {
          const text = str(p.text) ?? str(p.refusal);
          if (text !== undefined) texts.push(text);
        }
  };
  for (const item of items) {
    if (!isObject(item)) continue;
    const type = str(item.type) ?? (typeof item.role === 'string' ? 'message' : '');
    const before = texts.length;
    if (type === 'message') parts(item.content);
    else if (type === 'reasoning') {
      parts(item.summary);
      parts(item.content);
    } else if (OUTPUT_ITEMS.has(type))
      parts(isObject(item.output) && 'content' in item.output ? item.output.content : item.output);
    else if (type === 'function_call') texts.push(str(item.name) ?? '', str(item.arguments) ?? '');
    else if (type === 'custom_tool_call') texts.push(str(item.name) ?? '', str(item.input) ?? '');
    else if (MODEL_ITEMS.has(type)) texts.push(compactJson(item));
    if (texts.length === before && typeof item.encrypted_content === 'string') encrypted++;
  }
  return { text: texts.filter(Boolean).join('\n\n'), encrypted };
}
