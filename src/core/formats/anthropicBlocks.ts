// Anthropic content blocks: shared by the Messages API format and Claude Code sessions (same block shapes).
import type { Block, ImageBlock, SourceRange, ValueLocation } from '../model';
import { compactJson, isObject, str } from './json';
import type { Diagnostics, OriginalValue } from './types';

/** Where the blocks of one content array live: the record and the path of the array (or string). */
export interface ContentPlace {
  recordStart: number;
  recordEnd: number;
  recordLine: number;
  path: (string | number)[];
}

function at(place: ContentPlace, path: (string | number)[], valuePath?: (string | number)[]): ValueLocation {
  const loc: ValueLocation = {
    recordStart: place.recordStart,
    recordEnd: place.recordEnd,
    recordLine: place.recordLine,
    path,
  };
  if (valuePath) loc.valuePath = valuePath;
  return loc;
}

/** A message's `content`: a string becomes one text block, an array one block per element. */
export function anthropicContent(
  content: unknown,
  place: ContentPlace,
  sourceOf: (index: number | null) => SourceRange,
  diags: Diagnostics,
): Block[] {
  if (typeof content === 'string') {
    return [{ type: 'text', text: content, source: sourceOf(null), location: at(place, place.path) }];
  }
  if (!Array.isArray(content)) {
    if (content === undefined || content === null) return [];
    const source = sourceOf(null);
    diags.once(
      'content-shape',
      'warning',
      'unexpected-content',
      'message content is neither a string nor a list of blocks: kept as is',
      source,
    );
    return [
      {
        type: 'other',
        kind: typeof content,
        raw: compactJson(content),
        source,
        location: at(place, place.path),
      },
    ];
  }
  return content.map((item, i) => anthropicBlock(item, place, [...place.path, i], sourceOf(i), diags));
}

export function anthropicBlock(
  item: unknown,
  place: ContentPlace,
  path: (string | number)[],
  source: SourceRange,
  diags: Diagnostics,
  nested = false,
): Block {
  const location = at(place, path);
  if (!isObject(item)) {
    diags.once(
      'block-shape',
      'warning',
      'unexpected-block',
      'a content block that is not an object: kept as is',
      source,
    );
    return { type: 'other', kind: typeof item, raw: compactJson(item), source, location };
  }
  const type = str(item.type) ?? '';
  switch (type) {
    case 'text':
      return {
        type: 'text',
        text: str(item.text) ?? '',
        source,
        location: at(place, path, [...path, 'text']),
      };
    case 'thinking':
      return { type: 'thinking', text: str(item.thinking) ?? '', redacted: false, source, location };
    case 'redacted_thinking':
      return { type: 'thinking', text: '', redacted: true, source, location };
    case 'image':
      return anthropicImage(item, source, location);
    case 'tool_use':
      if (!nested)
        return {
          type: 'tool_use',
          id: str(item.id) ?? '',
          name: str(item.name) ?? '',
          input: item.input,
          source,
          location,
        };
      break;
    case 'tool_result':
      if (!nested) {
        const contentPath = [...path, 'content'];
        const raw = item.content;
        const content =
          typeof raw === 'string'
            ? raw
            : Array.isArray(raw)
              ? raw.map((b, j) => anthropicBlock(b, place, [...contentPath, j], source, diags, true))
              : '';
        return {
          type: 'tool_result',
          toolUseId: str(item.tool_use_id) ?? '',
          content,
          isError: item.is_error === true,
          source,
          location: at(place, path, contentPath),
        };
      }
      break;
  }
  // A server-side compaction's summary (context management): known, kept as is, never compressed.
  if (type === 'compaction') return { type: 'other', kind: type, raw: compactJson(item), source, location };
  diags.once(
    `kind:${type}`,
    'info',
    'unknown-block',
    `block type "${type || '(none)'}" is kept as is and not compressed`,
    source,
  );
  return { type: 'other', kind: type || 'unknown', raw: compactJson(item), source, location };
}

function anthropicImage(
  item: Record<string, unknown>,
  source: SourceRange,
  location: ValueLocation,
): ImageBlock {
  const block: ImageBlock = { type: 'image', source, location };
  const src = item.source;
  if (isObject(src)) {
    const mediaType = str(src.media_type);
    if (mediaType) block.mediaType = mediaType;
    const data = str(src.data);
    if (data !== undefined) block.dataLength = data.length;
  }
  return block;
}

/** A nested block of a rewritten tool_result, in Anthropic's shape. */
export function anthropicNested(block: Block, original: OriginalValue): unknown {
  if (block.type === 'text') return { type: 'text', text: block.text };
  if (block.location) return original(block.location);
  throw new Error(
    `cannot write a new ${block.type} block inside a tool_result: only text blocks can be created`,
  );
}
