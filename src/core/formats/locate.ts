// Exact ranges on demand: the JSONL parsers give each block its record's line (cheap); the editor asks here
// for the block's own range when it reveals one.
import { parseTree } from 'jsonc-parser';
import type { SourceRange, Transcript, ValueLocation } from '../model';
import { documentJson, findValue, nodeAt } from './json';
import { decodeUtf8, LineIndex, utf8Length } from './text';

/** The exact source range of a block (`value: true`: of the value a rewrite would replace), or undefined. */
export function locateBlock(
  transcript: Transcript,
  messageIndex: number,
  blockIndex: number,
  value = false,
): SourceRange | undefined {
  const loc = transcript.messages[messageIndex]?.blocks[blockIndex]?.location;
  return loc ? locateValue(transcript.raw, loc, value) : undefined;
}

export function locateValue(raw: Uint8Array, loc: ValueLocation, value = false): SourceRange | undefined {
  const { text } = decodeUtf8(raw.subarray(loc.recordStart, loc.recordEnd));
  const { json } = documentJson(text);
  const path = value ? (loc.valuePath ?? loc.path) : loc.path;
  let range = findValue(json, path);
  if (!range) {
    const node = nodeAt(parseTree(json), path);
    if (!node) return undefined;
    range = { start: node.offset, end: node.offset + node.length };
  }
  const start = loc.recordStart + utf8Length(text, 0, range.start);
  const end = start + utf8Length(text, range.start, range.end);
  return lineIndexOf(raw).range(start, end);
}

/** One index per file, kept while the file's bytes live: reveals in a large session stay instant. */
const indexes = new WeakMap<Uint8Array, LineIndex>();
function lineIndexOf(raw: Uint8Array): LineIndex {
  let index = indexes.get(raw);
  if (!index) {
    index = new LineIndex(raw);
    indexes.set(raw, index);
  }
  return index;
}
