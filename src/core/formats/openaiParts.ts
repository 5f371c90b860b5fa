// OpenAI content parts (Chat `text`/`image_url`, Responses `input_text`/`output_text`/`input_image`) as blocks.
import type { JSONPath } from 'jsonc-parser';
import type { Block, ImageBlock, SourceRange, ToolUseBlock, ValueLocation } from '../model';
import { compactJson, isObject, parseJson, str } from './json';
import type { Diagnostics, OriginalValue } from './types';

export interface PartPlace {
  /** The location of the content value (its record, and the path of the string or array). */
  at(path: JSONPath, valuePath?: JSONPath): ValueLocation;
  source(path: JSONPath): SourceRange;
}

const TEXT_PARTS = new Set(['text', 'input_text', 'output_text', 'summary_text', 'reasoning_text']);

/** A string becomes one text block; an array one block per part. */
export function openaiParts(content: unknown, path: JSONPath, place: PartPlace, diags: Diagnostics): Block[] {
  if (typeof content === 'string')
    return [{ type: 'text', text: content, source: place.source(path), location: place.at(path) }];
  if (content === null || content === undefined) return [];
  if (!Array.isArray(content)) return [other(content, path, place, diags)];
  return content.map((part, i) => openaiPart(part, [...path, i], place, diags));
}

export function openaiPart(part: unknown, path: JSONPath, place: PartPlace, diags: Diagnostics): Block {
  if (!isObject(part)) return other(part, path, place, diags);
  const type = str(part.type) ?? '';
  const source = place.source(path);
  if (TEXT_PARTS.has(type) && typeof part.text === 'string') {
    return { type: 'text', text: part.text, source, location: place.at(path, [...path, 'text']) };
  }
  if (type === 'refusal' && typeof part.refusal === 'string') {
    return { type: 'text', text: part.refusal, source, location: place.at(path, [...path, 'refusal']) };
  }
  if (type === 'image_url' || type === 'input_image') {
    const url = isObject(part.image_url) ? str(part.image_url.url) : (str(part.image_url) ?? str(part.url));
    const block: ImageBlock = { type: 'image', source, location: place.at(path) };
    const m = url ? /^data:([^;,]+)[;,]/.exec(url) : null;
    if (m) block.mediaType = m[1];
    if (url?.startsWith('data:')) block.dataLength = url.length - url.indexOf(',') - 1;
    return block;
  }
  return other(part, path, place, diags);
}

function other(value: unknown, path: JSONPath, place: PartPlace, diags: Diagnostics): Block {
  const kind = isObject(value) ? (str(value.type) ?? 'unknown') : typeof value;
  const source = place.source(path);
  diags.once(
    `kind:${kind}`,
    'info',
    'unknown-block',
    `content part "${kind}" is kept as is and not compressed`,
    source,
  );
  return { type: 'other', kind, raw: compactJson(value), source, location: place.at(path) };
}

/** A tool call whose arguments are a JSON string: parsed, or kept as text and reported when not JSON. */
export function toolCall(
  id: string,
  name: string,
  args: unknown,
  argsPath: JSONPath,
  blockPath: JSONPath,
  place: PartPlace,
  diags: Diagnostics,
): ToolUseBlock {
  const block: ToolUseBlock = {
    type: 'tool_use',
    id,
    name,
    input: args,
    source: place.source(blockPath),
    location: place.at(blockPath),
  };
  if (typeof args !== 'string') return block;
  const parsed = parseJson(args);
  if (parsed.ok) {
    block.input = parsed.value;
    return block;
  }
  block.inputInvalid = true;
  const at = place.source(argsPath);
  diags.add(
    'warning',
    'invalid-arguments',
    `arguments of tool call ${id || '(no id)'} (${name}) are not valid JSON (${parsed.message}): kept as text`,
    at.line,
    at.column,
  );
  return block;
}

/** A nested block of a rewritten tool output, as OpenAI stores it (`text` for Chat, `input_text` for Responses). */
export function openaiNested(textType: 'text' | 'input_text') {
  return (block: Block, original: OriginalValue): unknown => {
    if (block.type === 'text') return { type: textType, text: block.text };
    if (block.location) return original(block.location);
    throw new Error(
      `cannot write a new ${block.type} block inside a tool output: only text blocks can be created`,
    );
  };
}
