// A session's project and first prompt from its first records: what the Sessions view, the pickers and `report`
// list it by, and what the view's title names it by, so that one session carries one project name everywhere.
// The project is the working directory the log records, else what the agent's adapter says of the path, else the
// folder the log sits in.
import { parse } from 'jsonc-parser';
import { adapterFor } from './formats/registry';
import type { FormatId } from './model';

/** How much of a log's beginning its head is read from. */
export const HEAD_BYTES = 256 * 1024;

export interface SessionHead {
  project: string;
  firstPrompt: string;
  sessionId?: string;
  subAgent?: boolean;
}

/** Each line's JSON object (broken lines left out: the editor reports them when the file is opened). */
export function records(lines: string[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const l of lines) {
    if (!l.trim()) continue;
    try {
      const r = JSON.parse(l);
      if (r && typeof r === 'object') out.push(r);
    } catch {
      // A broken line does not stop the picker.
    }
  }
  return out;
}

/** The records of a log's first lines: a JSON document (`*.json`) is one record, read as far as it goes. */
export function headRecords(path: string, lines: string[]): Record<string, unknown>[] {
  if (!path.endsWith('.json')) return records(lines);
  const value = parse(lines.join('\n'), [], { allowTrailingComma: true });
  return value && typeof value === 'object' && !Array.isArray(value) ? [value] : [];
}

/** The project of a log of `format` at `path` whose records name `cwd` as their working directory (or none). */
export function projectOf(format: FormatId, path: string, cwd?: string): string {
  const session = adapterFor(format).session;
  const folder = path.split(/[\\/]/).at(-2) ?? '';
  return cwd ?? session?.projectOf?.(path) ?? session?.unknownProject ?? folder;
}

/** The project as a short label: its last two path parts. */
export function projectLabel(project: string): string {
  const parts = project.split(/[\\/]/).filter(Boolean);
  return parts.length > 2 ? `…/${parts.slice(-2).join('/')}` : project;
}

/** Project and first prompt from the first records of a log's `bytes` (its beginning is enough); `workspace`, the
 * folder of the editor's workspace that keeps the log, where the log names none. */
export function sessionHead(
  path: string,
  bytes: Uint8Array,
  format: FormatId,
  workspace?: string,
): SessionHead {
  const session = adapterFor(format).session;
  if (!session) return { project: projectOf(format, path, workspace), firstPrompt: '' };
  const head = new TextDecoder().decode(bytes.subarray(0, Math.min(bytes.length, HEAD_BYTES)));
  const lines = head.split('\n');
  if (bytes.length > HEAD_BYTES && !session.headText) lines.pop(); // the last line may be cut
  const h = session.headText ? session.headText(head) : session.head(headRecords(path, lines));
  const out: SessionHead = { project: projectOf(format, path, h.cwd ?? workspace), firstPrompt: h.prompt };
  if (h.sessionId) out.sessionId = h.sessionId;
  if (h.subAgent) out.subAgent = true;
  return out;
}
