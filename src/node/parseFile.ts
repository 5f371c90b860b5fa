// Parsing a transcript read from disk: the formats whose session is a folder of files (a Cline task's
// `ui_messages.json` beside its `api_conversation_history.json`) are handed the files beside it, read here (core
// reads no files).
import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { parseTranscript } from '../core/formats/index';
import type { Transcript } from '../core/model';
import { readRegularFileSync } from './readRegularFile';

/** Reads a file beside `path` by its bare name; undefined when there is none, it is no regular file, or `path` is
 * not a file's path (an untitled editor's name). */
export function besideReader(
  path: string | undefined,
): ((name: string) => Uint8Array | undefined) | undefined {
  if (!path || !isAbsolute(path)) return undefined;
  const dir = dirname(path);
  return (name) => {
    if (name !== basename(name)) return undefined;
    const p = join(dir, name);
    if (p === path || !existsSync(p)) return undefined;
    try {
      return readRegularFileSync(p);
    } catch {
      return undefined;
    }
  };
}

export function parseTranscriptFile(bytes: Uint8Array, path?: string): Transcript {
  return parseTranscript(bytes, path, besideReader(path));
}
