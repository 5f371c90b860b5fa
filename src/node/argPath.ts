// A file named on the command line whose name is not valid UTF-8 (a Latin-1 "café" from an old archive, say): Node
// decodes every argument as UTF-8, each invalid byte becoming U+FFFD, and a path with U+FFFD in it names another
// file, which does not exist (ENOENT). Node keeps no raw copy of the arguments; Linux does, in /proc/self/cmdline,
// so the file's own bytes are found there and the file is opened by them (Node's fs takes a path as bytes). Where
// they cannot be found (another system), the refusal says why the file was not found.
import { existsSync, readFileSync } from 'node:fs';

const REPLACEMENT = '\uFFFD';

/** The command line's arguments as bytes (after the script), or null where the system keeps no copy of them. */
function rawArguments(argv: readonly string[], read: () => Buffer): Buffer[] | null {
  let bytes: Buffer;
  try {
    bytes = read();
  } catch {
    return null;
  }
  const words: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < bytes.length; i++)
    if (bytes[i] === 0) {
      words.push(bytes.subarray(start, i));
      start = i + 1;
    }
  // The arguments after the script are the last ones: node's own options (--import …) come before the script.
  const n = argv.length - 2;
  return n > 0 && words.length >= n ? words.slice(words.length - n) : null;
}

export interface ArgPathOptions {
  /** The arguments as Node decoded them (default process.argv). */
  argv?: readonly string[];
  /** The raw command line, NUL-separated (default: Linux's /proc/self/cmdline). */
  cmdline?: () => Buffer;
}

/** The path to open for the command-line argument `arg`: `arg` itself, or, when Node could not decode it (U+FFFD)
 * and the file exists under the argument's own bytes, those bytes. */
export function argPath(arg: string, options: ArgPathOptions = {}): string | Buffer {
  if (!arg.includes(REPLACEMENT)) return arg;
  const argv = options.argv ?? process.argv;
  const raw = rawArguments(argv, options.cmdline ?? (() => readFileSync('/proc/self/cmdline')));
  if (!raw) return arg;
  const candidates = raw.filter((w) => w.toString('utf8') === arg && !w.equals(Buffer.from(arg, 'utf8')));
  return candidates.find((w) => existsSync(w)) ?? candidates[0] ?? arg;
}

/** Why a file named by `arg` was not found, when its name may be the cause; else ''. */
export function undecodedNameHint(arg: string, path: string | Buffer): string {
  if (!arg.includes(REPLACEMENT) || typeof path !== 'string') return '';
  return (
    '; its name holds bytes that are not UTF-8 (shown as �), which this system did not pass on as they are: ' +
    'rename the file, or give it through a link whose name is UTF-8'
  );
}
