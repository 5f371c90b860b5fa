// Reading one session log for the report and the Sessions view: a live agent may be appending to it, so the file is
// read as it was when opened and a last line still being written is left for the next reading; then the facts the
// rows show (project, first prompt, the session a sub-agent belongs to) from its first records.
import { adapterFor, discoverableFormats } from '../core/formats/registry';
import type { FormatId } from '../core/model';
import { sessionHead as headOf, type SessionHead } from '../core/sessionProject';
import { workspaceFolderOf } from './editorStorage';
import { readRegularFileAtOpenSync } from './readRegularFile';

export interface SessionBytes {
  bytes: Uint8Array;
  /** The file grew while it was read (the figures cover `bytes.length` bytes). */
  grew: boolean;
  /** A last line without its newline that is not a whole record was left out (it is being written). */
  cutPartialLine: boolean;
}

/** The bytes of a session log as it stood when opened, without a last line that is still being written. A last line
 * without a newline that is a whole JSON record (a finished log with no final newline) is kept. */
export function readSessionSync(path: string | Buffer): SessionBytes {
  const { bytes, grew } = readRegularFileAtOpenSync(path);
  const end = bytes.length;
  if (end === 0 || bytes[end - 1] === 0x0a || !/\.jsonl$/i.test(String(path)))
    return { bytes, grew, cutPartialLine: false };
  const lastNewline = bytes.lastIndexOf(0x0a);
  const tail = Buffer.from(bytes.buffer, bytes.byteOffset + lastNewline + 1, end - lastNewline - 1);
  try {
    JSON.parse(tail.toString('utf8'));
    return { bytes, grew, cutPartialLine: false };
  } catch {
    return { bytes: bytes.subarray(0, lastNewline + 1), grew, cutPartialLine: true };
  }
}

export type { SessionHead };

/** The agent keeps its sessions in the editors' workspace storage: their project is the workspace's folder, which
 * the log does not name. */
function keptPerWorkspace(format: FormatId): boolean {
  const agent = adapterFor(format).session?.agent;
  return (
    agent !== undefined &&
    discoverableFormats().some((f) => f.session?.agent === agent && f.session.location?.editorWorkspaces)
  );
}

/** Project and first prompt from the first records of a log's `bytes`, as the Sessions view, the pickers and the
 * view's title name the session (core/sessionProject), with the workspace's folder for an agent that keeps its
 * sessions per workspace. */
export function sessionHead(path: string, bytes: Uint8Array, format: FormatId): SessionHead {
  return headOf(path, bytes, format, keptPerWorkspace(format) ? workspaceFolderOf(path) : undefined);
}
