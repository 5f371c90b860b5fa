// The disk format of the token store: one file per tokenizer and counting rule, `<tokenizer>.v<N>.counts`:
//
//   header (32 bytes): "CLTOKENS", u32 format version, u32 record size, u32 records, u32 CRC-32 of the records,
//                      8 bytes reserved
//   records, sorted by digest: 16-byte digest (SHA-256 of the text, see keyDigest), u32 tokens, u32 last use
//                      (hours since 1970)
//
// Sorted fixed-size records are read as one buffer and searched in place (a bucket index on the first two bytes,
// then a binary search of ~15 records): loading a million counts is one read, not a million map insertions.
// The store (tokenStore.ts) decides when to read, merge and write; this module only knows the bytes.
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { DIGEST_BYTES, type TokenizerName } from '../core/tokens/counter';

/** Bump when the same text may count differently (tiktoken's data, or the split rules of core/tokens/split.ts):
 * the old files are then simply not read again. */
export const COUNTING_VERSION = 1;
const MAGIC = 'CLTOKENS';
const FORMAT_VERSION = 1;
const HEADER_BYTES = 32;
const RECORD_BYTES = 24;
const COUNT_AT = DIGEST_BYTES;
const STAMP_AT = DIGEST_BYTES + 4;
/** Default bound: 2 million counts, 48 MB (a year of heavy agent use holds fewer distinct texts). */
export const DEFAULT_MAX_ENTRIES = 2_000_000;

/** The store's file for a tokenizer in `dir`. */
export function storeFile(dir: string, tokenizer: TokenizerName): string {
  return join(dir, `${tokenizer}.v${COUNTING_VERSION}.counts`);
}

/** The records of a store file, or null when it is not one (wrong magic or version, cut, checksum, order). */
export function readRecords(bytes: Uint8Array): Buffer | null {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < HEADER_BYTES || buf.toString('latin1', 0, 8) !== MAGIC) return null;
  if (buf.readUInt32LE(8) !== FORMAT_VERSION || buf.readUInt32LE(12) !== RECORD_BYTES) return null;
  const n = buf.readUInt32LE(16);
  if (buf.length !== HEADER_BYTES + n * RECORD_BYTES) return null;
  const records = buf.subarray(HEADER_BYTES);
  // The checksum catches a cut, a damaged or an edited file; the writer alone sorts, so order is not re-checked
  // (a million comparisons on every start).
  return crc32(records) === buf.readUInt32LE(20) ? records : null;
}

/** A whole store file holding `records`. */
export function fileBytes(records: Buffer): Buffer {
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  header.writeUInt32LE(FORMAT_VERSION, 8);
  header.writeUInt32LE(RECORD_BYTES, 12);
  header.writeUInt32LE(records.length / RECORD_BYTES, 16);
  header.writeUInt32LE(crc32(records), 20);
  return Buffer.concat([header, records]);
}

/** A new count, or an old one used again: its digest (latin1 string of 16 bytes) → [tokens, stamp]. */
export type Added = Map<string, [number, number]>;

/** Sorted records searched in place: a bucket per first two digest bytes, then a binary search. */
export class SortedRecords {
  readonly n: number;
  private readonly buckets = new Uint32Array(65_537);

  constructor(readonly records: Buffer) {
    this.n = records.length / RECORD_BYTES;
    let b = 0;
    for (let i = 0; i < this.n; i++) {
      const prefix = records.readUInt16BE(i * RECORD_BYTES);
      while (b <= prefix) this.buckets[b++] = i;
    }
    while (b <= 65_536) this.buckets[b++] = this.n;
  }

  /** The record index of `digest`, or -1. */
  find(digest: Buffer): number {
    const prefix = digest.readUInt16BE(0);
    let lo = this.buckets[prefix];
    let hi = this.buckets[prefix + 1] - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = mid * RECORD_BYTES;
      const c = digest.compare(this.records, at, at + DIGEST_BYTES, 0, DIGEST_BYTES);
      if (c === 0) return mid;
      if (c > 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  /** The count of record `i`. */
  tokensAt(i: number): number {
    return this.records.readUInt32LE(i * RECORD_BYTES + COUNT_AT);
  }

  /** When record `i` was last used, in hours since 1970. */
  stampAt(i: number): number {
    return this.records.readUInt32LE(i * RECORD_BYTES + STAMP_AT);
  }
}

/** Merges sorted `records` with `added` (newer stamps win), then drops the least recently used beyond `max`. */
export function mergeRecords(records: Buffer, added: Added, max: number): Buffer {
  const extra = [...added.keys()].sort();
  const n = records.length / RECORD_BYTES;
  const out = Buffer.alloc((n + extra.length) * RECORD_BYTES);
  let i = 0;
  let j = 0;
  let o = 0;
  const extraDigest = Buffer.alloc(DIGEST_BYTES);
  while (i < n || j < extra.length) {
    let c: number;
    if (j >= extra.length) c = -1;
    else {
      extraDigest.write(extra[j], 'latin1');
      c =
        i >= n
          ? 1
          : records.compare(extraDigest, 0, DIGEST_BYTES, i * RECORD_BYTES, i * RECORD_BYTES + DIGEST_BYTES);
    }
    if (c < 0) {
      records.copy(out, o, i * RECORD_BYTES, (i + 1) * RECORD_BYTES);
      i++;
    } else {
      const [tokens, stamp] = added.get(extra[j]) as [number, number];
      extraDigest.copy(out, o);
      out.writeUInt32LE(tokens, o + COUNT_AT);
      // The same text counted here and on disk: the same count; the later use is kept.
      out.writeUInt32LE(
        c === 0 ? Math.max(stamp, records.readUInt32LE(i * RECORD_BYTES + STAMP_AT)) : stamp,
        o + STAMP_AT,
      );
      if (c === 0) i++;
      j++;
    }
    o += RECORD_BYTES;
  }
  return evictOldest(out.subarray(0, o), max);
}

function evictOldest(records: Buffer, max: number): Buffer {
  const n = records.length / RECORD_BYTES;
  if (n <= max) return records;
  const stamps = new Uint32Array(n);
  for (let i = 0; i < n; i++) stamps[i] = records.readUInt32LE(i * RECORD_BYTES + STAMP_AT);
  const sorted = stamps.slice().sort();
  // Keep every record newer than the cut-off stamp, and as many stamped at the cut-off as still fit.
  const cut = sorted[n - max];
  let newer = 0;
  for (let i = n - 1; i >= 0 && sorted[i] > cut; i--) newer++;
  let atCut = max - newer;
  const out = Buffer.alloc(max * RECORD_BYTES);
  let o = 0;
  for (let i = 0; i < n; i++) {
    const s = stamps[i];
    if (s < cut || (s === cut && atCut-- <= 0)) continue;
    records.copy(out, o, i * RECORD_BYTES, (i + 1) * RECORD_BYTES);
    o += RECORD_BYTES;
  }
  return out.subarray(0, o);
}

/** The largest file a store of `maxEntries` can be (a larger one is not read: it cannot be a store). */
export function maxFileBytes(maxEntries = DEFAULT_MAX_ENTRIES): number {
  return HEADER_BYTES + Math.max(maxEntries, DEFAULT_MAX_ENTRIES) * RECORD_BYTES;
}
