// Write-back: splice rewritten values into the original bytes. Untouched records are copied byte for byte;
// inside a touched record only the rewritten value's bytes change (key order, spacing, escapes elsewhere stay).
import { type Edit, type JSONPath, modify, type Node, parseTree } from 'jsonc-parser';
import { pushAll } from '../arrays';
import type { Block, Rewrite, Transcript, ValueLocation } from '../model';
import { documentJson, findValue, nodeAt, scanRecord } from './json';
import { adapterFor } from './registry';
import { decodeUtf8, encodeUtf8, utf8Length } from './text';

export interface WriteOptions {
  /** Claude Code: remove the runtime's own copy of a tool output (`toolUseResult`) from every record a rewrite
   * touches (that copy still holds the original output and is never sent to the model). Untouched records
   * keep theirs, so they stay byte-identical. */
  dropToolUseResult?: boolean;
}

interface RecordEdits {
  start: number;
  end: number;
  line: number;
  /** `value === undefined` removes the property. */
  edits: { path: JSONPath; value: unknown; what: string }[];
}

/** A record's text, and its full jsonc tree only when the fast path cannot answer, cached while one write runs. */
interface RecordText {
  text: string;
  /** The text to parse (a leading BOM blanked). */
  json: string;
  tree: Node | undefined | null;
}

class Records {
  private readonly cache = new Map<number, RecordText>();
  constructor(private readonly raw: Uint8Array) {}

  get(loc: { recordStart: number; recordEnd: number; recordLine: number }): RecordText {
    let rec = this.cache.get(loc.recordStart);
    if (!rec) {
      const { text, invalidAt } = decodeUtf8(this.raw.subarray(loc.recordStart, loc.recordEnd));
      if (invalidAt !== -1) {
        // Re-encoding would turn the invalid bytes into U+FFFD: refuse rather than change bytes no one asked for.
        throw new Error(
          `line ${loc.recordLine}: the record holds invalid UTF-8 and cannot be rewritten without changing it`,
        );
      }
      rec = { text, json: documentJson(text).json, tree: null };
      this.cache.set(loc.recordStart, rec);
    }
    return rec;
  }

  /** The value's range at `path` (UTF-16 offsets of the record text), or undefined when it is not there. */
  static range(rec: RecordText, path: JSONPath): { start: number; end: number } | undefined {
    const fast = findValue(rec.json, path);
    if (fast) return fast;
    const node = nodeAt(Records.tree(rec), path);
    return node ? { start: node.offset, end: node.offset + node.length } : undefined;
  }

  static tree(rec: RecordText): Node | undefined {
    if (rec.tree === null) rec.tree = parseTree(rec.json);
    return rec.tree;
  }

  original(loc: ValueLocation): unknown {
    const rec = this.get(loc);
    const range = Records.range(rec, loc.path);
    if (!range)
      throw new Error(`line ${loc.recordLine}: the original block at ${loc.path.join('.')} is gone`);
    return JSON.parse(rec.json.slice(range.start, range.end));
  }
}

export function writeTranscript(
  transcript: Transcript,
  rewrites: Rewrite[],
  options: WriteOptions = {},
): Uint8Array {
  const raw = transcript.raw;
  if (rewrites.length === 0) return raw.slice();
  const adapter = adapterFor(transcript.format);
  const records = new Records(raw);
  const byRecord = new Map<number, RecordEdits>();
  const copyKey = adapter.toolOutputCopy;
  const seen = new Set<Block>();

  for (const rewrite of rewrites) {
    const message = transcript.messages[rewrite.messageIndex];
    const block = message?.blocks[rewrite.blockIndex];
    const where = `rewrite of message ${rewrite.messageIndex} block ${rewrite.blockIndex}`;
    if (!block) throw new RangeError(`${where}: no such block`);
    if (seen.has(block)) throw new Error(`${where}: the block is rewritten twice`);
    seen.add(block);
    const loc = block.location;
    if (!loc) throw new Error(`${where}: the block has no location in the file`);
    let value: unknown;
    if (block.type === 'text') {
      if (typeof rewrite.content !== 'string')
        throw new TypeError(`${where}: a text block's new content must be a string`);
      value = rewrite.content;
    } else if (block.type === 'tool_result') {
      value =
        typeof rewrite.content === 'string'
          ? Array.isArray(block.content) && adapter.textInPlaceOfParts
            ? adapter.textInPlaceOfParts(rewrite.content)
            : rewrite.content
          : rewrite.content.map((b) => adapter.nestedBlock(b, (l) => records.original(l)));
    } else {
      throw new TypeError(`${where}: only tool_result and text blocks can be rewritten, not ${block.type}`);
    }
    let rec = byRecord.get(loc.recordStart);
    if (!rec) {
      rec = { start: loc.recordStart, end: loc.recordEnd, line: loc.recordLine, edits: [] };
      byRecord.set(loc.recordStart, rec);
    }
    rec.edits.push({ path: loc.valuePath ?? loc.path, value, what: where });
  }

  const parts: Uint8Array[] = [];
  let pos = 0;
  for (const rec of [...byRecord.values()].sort((a, b) => a.start - b.start)) {
    const record = records.get({ recordStart: rec.start, recordEnd: rec.end, recordLine: rec.line });
    if (options.dropToolUseResult && copyKey) {
      rec.edits.push({ path: [copyKey], value: undefined, what: `dropping ${copyKey}` });
    }
    const edits = textEdits(record, rec);
    parts.push(
      raw.subarray(pos, rec.start),
      spliceRecord(record.text, edits, raw.subarray(rec.start, rec.end)),
    );
    pos = rec.end;
  }
  parts.push(raw.subarray(pos));
  return concat(parts);
}

function textEdits(record: RecordText, rec: RecordEdits): Edit[] {
  const { text, json } = record;
  const edits: Edit[] = [];
  const multiLine = text.includes('\n');
  for (const e of rec.edits) {
    if (e.value === undefined) {
      // Removing a top-level member (toolUseResult) with one of its commas.
      const key = e.path[0] as string;
      const scan = scanRecord(json, key);
      if (scan.skipStart !== -1)
        edits.push({ offset: scan.skipStart, length: scan.skipEnd - scan.skipStart, content: '' });
      continue;
    }
    const range = Records.range(record, e.path);
    if (range) {
      edits.push({
        offset: range.start,
        length: range.end - range.start,
        content: serialise(e.value, text, range.start, multiLine),
      });
      continue;
    }
    // The block had no such value (a tool_result without `content`): insert the property.
    const tree = Records.tree(record);
    if (!nodeAt(tree, e.path.slice(0, -1)))
      throw new Error(`line ${rec.line}: ${e.what}: ${e.path.join('.')} is not in the record`);
    pushAll(edits, modify(json, e.path, e.value, {}));
  }
  edits.sort((a, b) => a.offset - b.offset);
  for (let i = 1; i < edits.length; i++) {
    if (edits[i].offset < edits[i - 1].offset + edits[i - 1].length)
      throw new Error(`line ${rec.line}: two rewrites overlap in one record`);
  }
  return edits;
}

/** Compact in a one-line record; in a pretty-printed document, indented like the text around it. */
function serialise(value: unknown, text: string, offset: number, multiLine: boolean): string {
  if (!multiLine || typeof value !== 'object' || value === null) return JSON.stringify(value);
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart, offset))?.[0] ?? '';
  const unit = /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
  return JSON.stringify(value, null, unit).replace(/\n/g, `\n${indent}`);
}

/** Applies edits (UTF-16 offsets of `text`) to the record's bytes, leaving every other byte as it was. */
function spliceRecord(text: string, edits: Edit[], bytes: Uint8Array): Uint8Array {
  if (edits.length === 0) return bytes;
  const parts: Uint8Array[] = [];
  let charPos = 0;
  let bytePos = 0;
  for (const edit of edits) {
    const byteStart = bytePos + utf8Length(text, charPos, edit.offset);
    const byteEnd = byteStart + utf8Length(text, edit.offset, edit.offset + edit.length);
    parts.push(bytes.subarray(bytePos, byteStart), encodeUtf8(edit.content));
    charPos = edit.offset + edit.length;
    bytePos = byteEnd;
  }
  parts.push(bytes.subarray(bytePos));
  return concat(parts);
}

function concat(parts: Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const out = new Uint8Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}
