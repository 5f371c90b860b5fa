// What the Sessions view watches: a change under one of these folders, to a file the pattern names, lists the
// sessions again.
import { pushAll } from '../core/arrays';
import { discoverableFormats } from '../core/formats/registry';
import { storeWatches } from './openCodeStore';
import { sessionRoots, storesOf } from './sessionFiles';

/** Each folder an agent's sessions lie under, with the pattern of the files that change its list. */
export function sessionWatches(env: NodeJS.ProcessEnv = process.env): [folder: string, pattern: string][] {
  const out: [string, string][] = [];
  for (const format of discoverableFormats()) {
    const location = format.session?.location;
    // A session that is a folder of files changes in its one named file (and the usage file beside it); the agent's
    // older sessions kept as documents (Gemini CLI's session-*.json) change the list too.
    const documents = location?.documents;
    const pattern = location?.fileName
      ? '**/*.json'
      : location?.fileSuffix
        ? `**/*${location.fileSuffix}`
        : documents !== undefined
          ? `**/{*.jsonl,${documents}*.json}`
          : '**/*.jsonl';
    for (const root of sessionRoots(format, env)) out.push([root, pattern]);
    // An agent's own store (OpenCode's database, its forks'): a change there is copied into the mirror at the next
    // listing.
    for (const store of storesOf(format, env)) pushAll(out, storeWatches(store));
  }
  return out;
}
