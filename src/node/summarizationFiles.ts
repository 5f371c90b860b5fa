// The summarization requests of a session's compactions, where its agent writes each into a file of its own beside
// the session (Claude Code: `<session>/subagents/agent-acompact-*.jsonl`, SubAgentFilesPlace.compactions): read
// here, so that the engine prices what the log's compactions really cost (core/engine/loggedSummarization.ts).
// Read again only when a file changed (a growing session looks at each parse).
import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { parseTranscript } from '../core/formats/index';
import { adapterFor } from '../core/formats/registry';
import type { LoggedSummarization, Transcript } from '../core/model';
import { repliesOf } from '../core/recordedUsage';
import { readRegularFileSync } from './readRegularFile';
import { subAgentFilesOf } from './sessionFiles';

const kept = new Map<string, { size: number; mtimeMs: number; value: LoggedSummarization | null }>();

/** The session's summarization files, each with the replies it records (a file that cannot be read or parsed is
 * left out: its compaction's request is then estimated, as when the file was not kept). Undefined for a format
 * whose agent keeps none apart. */
export function loggedSummarizations(
  transcript: Pick<Transcript, 'format'>,
  sessionPath: string,
): LoggedSummarization[] | undefined {
  const place = adapterFor(transcript.format).session?.subAgentFiles;
  if (!place?.compactions) return undefined;
  const prefix = place.compactions;
  const out: LoggedSummarization[] = [];
  for (const path of subAgentFilesOf(sessionPath, place)) {
    if (!basename(path).startsWith(prefix)) continue;
    const s = read(path);
    if (s) out.push(s);
  }
  return out;
}

/** The transcript with the summarization requests of its compactions, where they were read. */
export function withLoggedSummarizations<T extends Transcript>(transcript: T, sessionPath: string): T {
  if (!transcript.markers.some((m) => m.kind === 'compaction')) return transcript;
  const found = loggedSummarizations(transcript, sessionPath);
  if (found?.length) transcript.summarizations = found;
  return transcript;
}

function read(path: string): LoggedSummarization | null {
  let stat: { size: number; mtimeMs: number };
  try {
    stat = statSync(path);
  } catch {
    return null;
  }
  const before = kept.get(path);
  if (before && before.size === stat.size && before.mtimeMs === stat.mtimeMs) return before.value;
  let value: LoggedSummarization | null = null;
  try {
    const t = parseTranscript(readRegularFileSync(path), path);
    value = { file: basename(path), replies: repliesOf(t) };
  } catch {
    value = null;
  }
  kept.set(path, { size: stat.size, mtimeMs: stat.mtimeMs, value });
  return value;
}
