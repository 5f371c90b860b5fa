// A SQLite database as its writer last committed it, from copies of its file and of its write-ahead log
// (`<db>-wal`): an agent that keeps its sessions in WAL mode (OpenCode) leaves its latest rows in the log until a
// checkpoint. The log's committed frames are written into a copy of the pages (the checkpoint SQLite itself would
// do), and the copy says it keeps no log, so that a reader opening it in memory takes no lock and writes nothing.
// Format: https://www.sqlite.org/fileformat2.html#walformat.

const WAL_HEADER = 32;
const FRAME_HEADER = 24;

/** SQLite's checksum of `data` (a multiple of 8 bytes), continuing from `s`; its words big- or little-endian. */
function checksum(
  data: DataView,
  start: number,
  end: number,
  bigEndian: boolean,
  s: [number, number],
): [number, number] {
  let [s1, s2] = s;
  for (let i = start; i < end; i += 8) {
    s1 = (s1 + data.getUint32(i, !bigEndian) + s2) >>> 0;
    s2 = (s2 + data.getUint32(i + 4, !bigEndian) + s1) >>> 0;
  }
  return [s1, s2];
}

export interface WalApplied {
  /** The database with the log's committed transactions in it, marked as keeping no log. */
  bytes: Uint8Array;
  /** Frames written into it (those of committed transactions whose salts and checksums hold). */
  frames: number;
}

/** The database `db` with the committed frames of its log `wal` applied; the database unchanged (but marked as
 * keeping no log) when the log is empty, of another generation or broken from its first frame. */
export function applyWal(db: Uint8Array, wal: Uint8Array | undefined): WalApplied {
  let out = new Uint8Array(db);
  let frames = 0;
  if (wal && wal.length >= WAL_HEADER) {
    const v = new DataView(wal.buffer, wal.byteOffset, wal.byteLength);
    const magic = v.getUint32(0);
    const pageSize = v.getUint32(8);
    const okHeader =
      (magic === 0x377f0682 || magic === 0x377f0683) &&
      pageSize >= 512 &&
      (pageSize & (pageSize - 1)) === 0 &&
      pageSize <= 65536;
    const bigEndian = magic === 0x377f0683;
    let sum = okHeader ? checksum(v, 0, 24, bigEndian, [0, 0]) : [0, 0];
    if (okHeader && sum[0] === v.getUint32(24) && sum[1] === v.getUint32(28)) {
      const salt1 = v.getUint32(16);
      const salt2 = v.getUint32(20);
      const pending: [number, number][] = [];
      let pages = out.length / pageSize;
      for (let at = WAL_HEADER; at + FRAME_HEADER + pageSize <= wal.length; at += FRAME_HEADER + pageSize) {
        if (v.getUint32(at + 8) !== salt1 || v.getUint32(at + 12) !== salt2) break;
        sum = checksum(v, at, at + 8, bigEndian, sum as [number, number]);
        sum = checksum(
          v,
          at + FRAME_HEADER,
          at + FRAME_HEADER + pageSize,
          bigEndian,
          sum as [number, number],
        );
        if (sum[0] !== v.getUint32(at + 16) || sum[1] !== v.getUint32(at + 20)) break;
        pending.push([v.getUint32(at), at + FRAME_HEADER]);
        const commit = v.getUint32(at + 4);
        if (commit === 0) continue;
        // A commit frame: its transaction's pages go in; the database is `commit` pages long after it.
        const size = commit * pageSize;
        if (size !== out.length) {
          const resized = new Uint8Array(size);
          resized.set(out.subarray(0, Math.min(size, out.length)));
          out = resized;
        }
        for (const [page, from] of pending)
          if (page >= 1 && page <= commit)
            out.set(wal.subarray(from, from + pageSize), (page - 1) * pageSize);
        frames += pending.length;
        pending.length = 0;
        pages = commit;
      }
      if (pages * pageSize !== out.length) out = out.subarray(0, pages * pageSize);
    }
  }
  // File format version numbers 1 (rollback journal) instead of 2 (WAL): opened from memory, no log is looked for.
  if (out.length >= 100 && out[18] === 2 && out[19] === 2) {
    out[18] = 1;
    out[19] = 1;
  }
  return { bytes: out, frames };
}
