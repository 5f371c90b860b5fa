// Where an open transcript's bytes come from: a file on disk is read by what it grew (growingFile.ts), a file under
// another scheme whole and compared with its last read. A large JSONL session is first shown from its first
// megabyte while the rest is parsed, and once shown its bytes are let go of: nothing the views ask for reads them.
// No editor API here: the document hands in how to read a file that is not on disk.
import { adapterFor } from '../core/formats/registry';
import type { Transcript } from '../core/model';
import type { HostMessage } from '../protocol';
import { type FileRead, GrowingFile } from './growingFile';
import type { ViewSnapshots } from './viewSnapshots';

/** Files from this size are shown from their beginning first (see `showBeginning`): parsing a long session takes
 * seconds, its first megabyte a moment. */
export const BEGINNING_MIN_FILE_BYTES = 8 * 1024 * 1024;
export const BEGINNING_BYTES = 1024 * 1024;

/** A transcript message, packed where the session runs in a thread of its own (listWire.ts). */
type TranscriptMessage = Extract<HostMessage, { type: 'transcript' | 'list' }>;

/** What the file's source asks of the session (session.ts, or its proxy on the host: remoteSession.ts). */
export interface SourcedSession {
  readonly model: Pick<Transcript, 'format'> | null;
  loadAsync(
    bytes: Uint8Array,
    from?: number,
    fileBytes?: number,
    growing?: boolean,
    moved?: boolean,
  ): Promise<TranscriptMessage | null>;
  releaseBytes(): void;
}

export class FileSource {
  /** A file on disk is read by what it grew; other schemes whole, compared with `lastBytes`. */
  private readonly file: GrowingFile | null;
  private lastBytes: Uint8Array | null = null;
  /** The file's bytes as first read, while a snapshot may be kept of them (null: none is, or the file changed
   * since), and their key once made. */
  private snapshotBytes: Uint8Array | null = null;
  private snapshotKey: Promise<string> | null = null;
  /** The size of the file as first read. */
  bytesRead = 0;

  constructor(
    /** The file's path, under which its snapshot is kept. */
    private readonly path: string,
    /** The file on disk (null: not on disk, read whole by `readWhole`). */
    fsPath: string | null,
    private readonly readWhole: () => Promise<Uint8Array>,
    private readonly session: SourcedSession,
    private readonly snapshots: ViewSnapshots | null,
  ) {
    this.file = fsPath !== null ? new GrowingFile(fsPath) : null;
  }

  /** Whether the file is on disk (only such a file's view is kept for the next open). */
  get onDisk(): boolean {
    return this.file !== null;
  }

  /** The bytes of the file as last read (the whole file at first); those of no read when none was made. */
  get bytes(): Uint8Array {
    return this.file?.bytes ?? new Uint8Array(0);
  }

  /** What changed since the last read (the whole file at first); null when nothing did. `start`: see
   * GrowingFile.read. */
  async readChanges(start?: Parameters<GrowingFile['read']>[0]): Promise<FileRead | null> {
    if (this.file) return this.file.read(start);
    const bytes = await this.readWhole();
    if (this.lastBytes && sameBytes(bytes, this.lastBytes)) return null;
    this.lastBytes = bytes;
    return { bytes, from: 0 };
  }

  /** Notes the bytes a snapshot may be kept of (null: none may). */
  mayKeepSnapshotOf(bytes: Uint8Array | null): void {
    this.snapshotBytes = bytes;
  }

  /** The file changed on disk: only a file as it was first read is kept. */
  changed(): void {
    this.snapshotBytes = null;
    this.snapshotKey = null;
  }

  /** The key of the snapshot of the file's bytes as first read (viewSnapshots.ts); null when none is kept of them
   * (small, not on disk, changed since, or summarised by a model, whose summaries are not the engine's to repeat). */
  keyOfSnapshot(): Promise<string> | null {
    const bytes = this.snapshotBytes;
    if (this.snapshots && bytes) this.snapshotKey ??= this.snapshots.key(this.path, bytes);
    return this.snapshotKey;
  }

  /** Lets the parse alone hold the file's bytes `bytes` as last read (see `handOverBytes`); resolves whether they
   * may be moved to the session's thread rather than copied or shared: a file on disk read whole, into memory of
   * its own (growingFile.ts). Their snapshot key is made first, as they are gone from here once moved. */
  async handOver(bytes: Uint8Array): Promise<boolean> {
    const movable =
      this.file !== null &&
      bytes.buffer instanceof ArrayBuffer &&
      bytes.byteOffset === 0 &&
      bytes.byteLength === bytes.buffer.byteLength;
    if (movable) await this.keyOfSnapshot()?.catch(() => {});
    this.handOverBytes();
    return movable;
  }

  /** Lets the parse alone hold the file's bytes (it lets go of them once parsed, when it is the last): the snapshot
   * key is made of them first, meanwhile. */
  handOverBytes(): void {
    void this.keyOfSnapshot()?.catch(() => {});
    this.snapshotBytes = null;
    this.file?.release();
  }

  /** Once shown, the file's bytes are let go of (a long session's would stay on the host for as long as it is
   * open, and nothing reads them: an export parses the file again); their snapshot key is made first. A file that
   * grows is read whole again at its next change, then followed as before. */
  async letGoOfBytes(): Promise<void> {
    await this.keyOfSnapshot()?.catch(() => {});
    this.handOverBytes();
    this.session.releaseBytes();
  }

  /**
   * A large JSONL session is first shown as it was when its first `BEGINNING_BYTES` were written (an agent's log
   * is append-only, so that is a true earlier state of it): the list and the ladder appear in a fraction of a
   * second while the rest is parsed, as an append, in the same worker. Returns where the rest starts (0 when
   * the whole file is parsed at once: small, not JSONL, or the beginning did not parse).
   */
  async showBeginning(
    bytes: Uint8Array,
    fileBytes: number,
    show: (message: TranscriptMessage) => void,
  ): Promise<number> {
    if (fileBytes < BEGINNING_MIN_FILE_BYTES) return 0;
    const cut = bytes.lastIndexOf(0x0a, BEGINNING_BYTES) + 1;
    if (cut <= 0) return 0;
    // A copy: a view crosses to a thread with the whole of its memory, the file's (read meanwhile).
    const message = await this.session.loadAsync(bytes.slice(0, cut), 0, fileBytes).catch(() => null);
    const model = this.session.model;
    if (!message || !model || adapterFor(model.format).shape !== 'jsonl') return 0;
    show(message);
    return cut;
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
