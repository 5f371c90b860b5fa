// Reading one session log for the report and the Sessions view: a live agent may be appending to it, so the file is
// read as it was when opened and a last line still being written is left for the next reading; then the facts the
// rows show (project, first prompt, the session a sub-agent belongs to) from its first records.
import { basename, dirname } from 'node:path';
import { adapterFor, discoverableFormats } from '../core/formats/registry';
import type { FormatId } from '../core/model';
import { workspaceFolderOf } from './editorStorage';
import { readRegularFileAtOpenSync } from './readRegularFile';
import { headRecords } from './sessionFiles';

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

const HEAD_BYTES = 256 * 1024;

export interface SessionHead {
  project: string;
  firstPrompt: string;
  sessionId?: string;
  subAgent?: boolean;
}

/** The agent keeps its sessions in the editors' workspace storage (its older documents' format says no place of
 * its own: the agent's log format does). */
function keptPerWorkspace(agent: string): boolean {
  return discoverableFormats().some(
    (f) => f.session?.agent === agent && f.session.location?.editorWorkspaces,
  );
}

/** Project and first prompt from the first records, as the session pickers show them: the working directory the
 * log records, else the folder it sits in. */
export function sessionHead(path: string, bytes: Uint8Array, format: FormatId): SessionHead {
  const folder = basename(dirname(path));
  const session = adapterFor(format).session;
  if (!session) return { project: folder, firstPrompt: '' };
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, HEAD_BYTES)).toString(
    'utf8',
  );
  const lines = head.split('\n');
  if (bytes.length > HEAD_BYTES && !session.headText) lines.pop(); // the last line may be cut
  const h = session.headText ? session.headText(head) : session.head(headRecords(path, lines));
  const out: SessionHead = {
    project:
      h.cwd ??
      session.projectOf?.(path) ??
      (keptPerWorkspace(session.agent) ? workspaceFolderOf(path) : undefined) ??
      session.unknownProject ??
      folder,
    firstPrompt: h.prompt,
  };
  if (h.sessionId) out.sessionId = h.sessionId;
  if (h.subAgent) out.subAgent = true;
  return out;
}
