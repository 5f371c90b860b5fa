// Reading a file that an agent appends to: after the first read, only the bytes added since are read. The JSONL
// formats are append-only, so the earlier bytes are kept and checked, not read again: when the file shrank, was
// replaced (another inode), or the bytes at its start or just before the old end differ from those kept, it is
// read whole again.
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { fileKind, NotRegularFileError } from '../node/readRegularFile';

/** Opening never blocks (a FIFO without a writer would) nor takes a terminal; the descriptor is then checked. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

/** The file as last read. `bytes` [0, `from`) are the bytes of the read before, unchanged; `from` is 0 when the
 * file was read whole. */
export interface FileRead {
  bytes: Uint8Array;
  from: number;
}

/** How many bytes at the start and before the old end are compared to tell an append from a rewrite. */
export const CHECKED_BYTES = 4096;

export class GrowingFile {
  /** Holds the file's bytes in [0, size); once the file grew, with room to grow, so an append copies only what
   * was added. Bytes in [0, size) are never written again (a file read whole again gets a new buffer), so the
   * buffer of a grown file is shared memory: the parse worker reads the very bytes, not a copy (see
   * parseOffThread.ts). A file's first read is in memory of its own, which its last parse takes over (moved to the
   * session's thread: this one then holds none of it, whenever its collector runs). */
  private buffer: Uint8Array = new Uint8Array(0);
  private size = 0;
  private inode: number | bigint | null = null;
  /** Copies of the first and last `CHECKED_BYTES` read, which tell an append from a rewrite once the bytes are let
   * go (`release`). */
  private edges: { head: Uint8Array; tail: Uint8Array } | null = null;

  constructor(readonly path: string) {}

  /** Reads what changed since the last read; null when the file is as it was. `start`: when the file is read whole
   * and is longer than `start.bytes`, those are read first and handed to `start.read` (with the file's size) while
   * the rest is read: a large file's beginning can be parsed meanwhile (they are never written again). */
  async read(start?: {
    bytes: number;
    read: (beginning: Uint8Array, size: number) => void;
  }): Promise<FileRead | null> {
    const file = await open(this.path, OPEN_FLAGS);
    try {
      const stat = await file.stat();
      // The same refusal, in the same words, as every other reader (a FIFO, /dev/zero, a directory).
      if (!stat.isFile()) throw new NotRegularFileError(this.path, fileKind(stat));
      const known = this.size;
      if (this.inode === stat.ino && stat.size >= known && known > 0 && (await this.kept(file))) {
        if (stat.size === known) return null;
        // Bytes let go of are read again: the parse of a grown file needs the whole of it.
        await this.readInto(file, this.buffer.length === 0 ? 0 : known, stat.size);
        this.keepEdges();
        return { bytes: this.bytes, from: known };
      }
      // Exactly the file's size: most files opened are finished sessions, which never grow. One that does gets
      // its room to grow at its first append (one copy of the earlier bytes). The first read is in memory of its
      // own (see `buffer`); a file rewritten while followed, shared.
      this.buffer = this.inode === null ? new Uint8Array(stat.size) : sharedBytes(stat.size);
      this.size = 0;
      this.inode = stat.ino;
      if (start && stat.size > start.bytes) {
        await this.readInto(file, 0, start.bytes);
        start.read(this.bytes, stat.size);
      }
      await this.readInto(file, this.size, stat.size);
      this.keepEdges();
      return { bytes: this.bytes, from: 0 };
    } finally {
      await file.close();
    }
  }

  /** Lets go of the bytes read (a finished session, parsed: nothing needs them until it grows); the next read of a
   * grown file reads it whole again, and still tells an append from a rewrite. */
  release(): void {
    this.buffer = new Uint8Array(0);
  }

  /** The bytes as last read. */
  get bytes(): Uint8Array {
    return this.buffer.subarray(0, this.size);
  }

  private keepEdges(): void {
    const n = Math.min(CHECKED_BYTES, this.size);
    this.edges = {
      head: this.buffer.slice(0, n),
      tail: this.buffer.slice(this.size - n, this.size),
    };
  }

  /** Whether the start and the end of what was read are still on disk as they were. */
  private async kept(file: import('node:fs/promises').FileHandle): Promise<boolean> {
    const edges = this.edges;
    if (!edges) return false;
    const n = edges.head.length;
    for (const [at, before] of [
      [0, edges.head],
      [this.size - n, edges.tail],
    ] as const) {
      const now = new Uint8Array(n);
      const { bytesRead } = await file.read(now, 0, n, at);
      if (bytesRead !== n) return false;
      for (let i = 0; i < n; i++) if (now[i] !== before[i]) return false;
    }
    return true;
  }

  /** Reads [from, to) of the file into the buffer (grown when needed; the file may grow meanwhile: what is
   * there at `to` is left for the next read). */
  private async readInto(
    file: import('node:fs/promises').FileHandle,
    from: number,
    to: number,
  ): Promise<void> {
    if (to > this.buffer.length) {
      const grown = sharedBytes(to + headroom(to));
      grown.set(this.buffer.subarray(0, this.size));
      this.buffer = grown;
    }
    let at = from;
    while (at < to) {
      const { bytesRead } = await file.read(this.buffer, at, to - at, at);
      if (bytesRead === 0) break; // truncated while reading: the next read sees the shorter file
      at += bytesRead;
    }
    this.size = at;
  }
}

/** Room to grow: appends fit without copying the whole file again each time (at most 1/8 more memory). */
function headroom(size: number): number {
  return Math.max(1 << 20, Math.floor(size / 8));
}

/** `n` zero bytes in memory that worker threads can share (an ordinary buffer where there is none). */
function sharedBytes(n: number): Uint8Array {
  return new Uint8Array(
    typeof SharedArrayBuffer === 'function' ? new SharedArrayBuffer(n) : new ArrayBuffer(n),
  );
}
