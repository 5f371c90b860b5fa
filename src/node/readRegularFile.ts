// Reading a transcript from disk, for the CLI and the editor host: only a regular file is read. A character
// device (/dev/zero, /dev/urandom) never ends, a FIFO without a writer blocks the reader forever, a directory
// has no bytes: each is refused with a message before a single byte is read.
//
// A file whose size is bounded by what it can hold (a cache of ours) is also refused past that bound, before it is
// read: a sparse file of terabytes is a regular file too.
//
// The file is opened first, without blocking (O_NONBLOCK: opening a FIFO with no writer returns at once) and
// without becoming a controlling terminal (O_NOCTTY), and the open descriptor is checked with fstat, so a file
// swapped for a FIFO between a check and the read cannot slip through.
import {
  closeSync,
  constants,
  promises as fsp,
  fstatSync,
  openSync,
  readFileSync,
  readSync,
  type Stats,
} from 'node:fs';

/** What a path is, in the words of the refusal, for anything but a regular file. */
export function fileKind(s: Stats): string {
  if (s.isDirectory()) return 'a directory';
  if (s.isFIFO()) return 'a FIFO (named pipe)';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isSocket()) return 'a socket';
  if (s.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

export class NotRegularFileError extends Error {
  constructor(
    readonly path: string,
    readonly kind: string,
  ) {
    super(
      `${path} is ${kind}, not a regular file: only regular files are read (a transcript is a file on disk)`,
    );
    this.name = 'NotRegularFileError';
  }
}

/** What is wrong with a file refused here, without the transcript reader's words (for the caches). */
export function refusalWords(e: NotRegularFileError | FileTooLargeError): string {
  return e instanceof NotRegularFileError ? `${e.path} is ${e.kind}, not a regular file` : e.message;
}

export class FileTooLargeError extends Error {
  constructor(
    readonly path: string,
    readonly size: number,
    readonly maxBytes: number,
  ) {
    super(`${path} holds ${size} bytes, more than the ${maxBytes} it can hold: not read`);
    this.name = 'FileTooLargeError';
  }
}

export interface ReadLimits {
  /** Refuse a file larger than this (checked on the open descriptor, before a byte is read). */
  maxBytes?: number;
}

function checkOpened(path: string, s: Stats, limits: ReadLimits): void {
  if (!s.isFile()) throw new NotRegularFileError(path, fileKind(s));
  if (limits.maxBytes !== undefined && s.size > limits.maxBytes)
    throw new FileTooLargeError(path, s.size, limits.maxBytes);
}

// Windows has neither flag; its devices and pipes are not reached through file paths there anyway.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0);

function directoryError(path: string, error: unknown): never {
  // Where opening a directory fails (Windows), it says so in its own words: ours are the same for every kind.
  if ((error as NodeJS.ErrnoException).code === 'EISDIR') throw new NotRegularFileError(path, 'a directory');
  throw error;
}

/** The bytes of `path`, which must be a regular file (a symbolic link to one is fine). */
export function readRegularFileSync(path: string | Buffer, limits: ReadLimits = {}): Uint8Array {
  // A path given as bytes (a name that is not UTF-8, see argPath.ts) is shown decoded in the messages.
  const shown = String(path);
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    directoryError(shown, error);
  }
  try {
    checkOpened(shown, fstatSync(fd), limits);
    return new Uint8Array(readFileSync(fd));
  } finally {
    closeSync(fd);
  }
}

/** `readRegularFileSync`, without blocking the thread. */
export async function readRegularFile(path: string, limits: ReadLimits = {}): Promise<Uint8Array> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(path, OPEN_FLAGS);
  } catch (error) {
    directoryError(path, error);
  }
  try {
    checkOpened(path, await handle.stat(), limits);
    return new Uint8Array(await handle.readFile());
  } finally {
    await handle.close();
  }
}

/** `readRegularFileSync` of a file that may be growing (a live agent session): exactly the bytes the file held when
 * it was opened, however much is appended meanwhile, and whether it grew while being read. */
export function readRegularFileAtOpenSync(path: string | Buffer): { bytes: Uint8Array; grew: boolean } {
  const shown = String(path);
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (error) {
    directoryError(shown, error);
  }
  try {
    const s = fstatSync(fd);
    if (!s.isFile()) throw new NotRegularFileError(shown, fileKind(s));
    const bytes = new Uint8Array(s.size);
    let at = 0;
    while (at < s.size) {
      const n = readSync(fd, bytes, at, s.size - at, at);
      if (n === 0) break; // cut shorter meanwhile: what was there
      at += n;
    }
    return { bytes: at === s.size ? bytes : bytes.subarray(0, at), grew: fstatSync(fd).size !== s.size };
  } finally {
    closeSync(fd);
  }
}
