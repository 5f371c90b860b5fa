// Shared by `compact` and `simulate`: reading a transcript with its diagnostics, and building a policy from
// `--policy`, `--model` and `--set key=value` over the SPEC defaults and the format's tool presets.
import { MODEL_PRESETS } from '../core/engine/models';
import {
  defaultPolicyFor,
  POLICY_FIELDS,
  POLICY_NAMES,
  type Policy,
  type PolicyName,
  setPolicyValue,
  validatePolicy,
} from '../core/engine/policy';
import { parseTranscript } from '../core/formats';
import type { Transcript } from '../core/model';
import { MAIN_THREAD, threadsOf, threadTranscript } from '../core/threads';
import { argPath, undecodedNameHint } from '../node/argPath';
import { NotRegularFileError, readRegularFileSync } from '../node/readRegularFile';
import { print, printError, terminalText } from './terminal';
import { TokenCacheOption } from './tokenCache';

export class UsageError extends Error {}

export function readTranscript(file: string): Transcript {
  let bytes: Uint8Array;
  const path = argPath(file);
  try {
    bytes = readRegularFileSync(path);
  } catch (error) {
    if (error instanceof NotRegularFileError) throw new UsageError(error.message);
    throw new UsageError(
      `${terminalText(file)}: cannot read (${(error as NodeJS.ErrnoException).code ?? String(error)})${undecodedNameHint(file, path)}`,
    );
  }
  const transcript = parseTranscript(bytes, file);
  for (const d of transcript.diagnostics)
    if (d.severity !== 'info')
      printError(
        `${terminalText(file)}:${d.line}:${d.column}: ${d.severity}: ${terminalText(d.message)} [${terminalText(d.code)}]\n`,
      );
  return transcript;
}

/** Takes the value after a flag, or fails with the flag's name. */
export function takeValue(args: string[], i: number, flag: string): string {
  const v = args[i + 1];
  if (v === undefined || v.startsWith('--')) throw new UsageError(`${flag} needs a value`);
  return v;
}

/** The argument loop `compact` and `simulate` share: `--help`, one <file>, and usage errors for the rest.
 * `option` handles the command's own flags (calling `value()` takes the word after the flag) and returns false
 * for a flag that is not its. `--` ends the options: every word after it is a file. Returns undefined when the
 * help was printed. */
export function parseFileArgs(
  args: string[],
  help: string,
  option: (flag: string, value: () => string) => boolean,
): string | undefined {
  let file: string | undefined;
  let options = true;
  const addFile = (a: string) => {
    if (file !== undefined) throw new UsageError(`only one file, got "${file}" and "${a}"`);
    file = a;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const value = () => takeValue(args, i++, a);
    if (!options) addFile(a);
    else if (a === '--') options = false;
    else if (a === '--help' || a === '-h') {
      print(help);
      return undefined;
    } else if (option(a, value)) continue;
    else if (a.startsWith('--')) throw new UsageError(`unknown option ${a}`);
    else addFile(a);
  }
  if (!file) throw new UsageError('missing <file>');
  return file;
}

/** The options `simulate` and `recommend` share: policies, the model preset, `--set`, `--json`, `--thread` and the
 * token cache. Undefined when help was printed. */
export interface ReplayArgs {
  file: string;
  names: PolicyName[];
  model: string | undefined;
  sets: string[];
  json: boolean;
  thread: string;
  tokenCache: TokenCacheOption;
}

export function parseReplayArgs(args: string[], help: string): ReplayArgs | undefined {
  const r: Omit<ReplayArgs, 'file'> = {
    names: [],
    model: undefined,
    sets: [],
    json: false,
    thread: MAIN_THREAD,
    tokenCache: new TokenCacheOption(),
  };
  const file = parseFileArgs(args, help, (a, value) => {
    if (r.tokenCache.option(a, value)) return true;
    if (a === '--policy') r.names.push(parsePolicyName(value()));
    else if (a === '--model') r.model = value();
    else if (a === '--set') r.sets.push(value());
    else if (a === '--json') r.json = true;
    else if (a === '--thread') r.thread = value();
    else return false;
    return true;
  });
  return file === undefined ? undefined : { ...r, file };
}

/** The request stream `thread` of the transcript in `file` (the main conversation or a sub-agent's); a usage error
 * naming the file's threads when it has no such one. */
export function readThread(file: string, thread: string): Transcript {
  const whole = readTranscript(file);
  const transcript = threadTranscript(whole, thread);
  if (!transcript)
    throw new UsageError(
      `--thread ${thread}: not in this file (threads: ${threadsOf(whole)
        .map((t) => t.id)
        .join(', ')})`,
    );
  return transcript;
}

/** Runs a command, turning a UsageError into its message on stderr and exit code 2. */
export async function withUsageErrors(command: string, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof UsageError) {
      printError(`context-lens ${command}: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

/** The policy a command runs: the view's defaults for the file's format (policy.ts, host/policySettings.ts), the
 * named policy, `--model` and every `--set`. The truth bench replays with it, so it checks what users run. */
export function buildPolicy(
  transcript: Pick<Transcript, 'format' | 'model'>,
  name: PolicyName | undefined,
  model: string | undefined,
  sets: string[],
): Policy {
  let policy = defaultPolicyFor(transcript.format);
  const patch: Record<string, unknown> = {};
  if (name) patch.name = name;
  // No --model: the view's default (`auto`, each request at the model that answered it); a preset is the "what if".
  if (model !== undefined) patch.model = model;
  const checked = validatePolicy(patch, { base: policy });
  if ('errors' in checked) throw new UsageError(checked.errors.join('\n'));
  policy = checked.policy;
  for (const s of sets) {
    const eq = s.indexOf('=');
    if (eq <= 0)
      throw new UsageError(`--set ${s}: expected key=value (keys: ${Object.keys(POLICY_FIELDS).join(', ')})`);
    const next = setPolicyValue(policy, s.slice(0, eq), s.slice(eq + 1));
    if ('errors' in next) throw new UsageError(next.errors.join('\n'));
    policy = next.policy;
  }
  return policy;
}

export function parsePolicyName(value: string): PolicyName {
  if (!POLICY_NAMES.includes(value as PolicyName))
    throw new UsageError(`--policy: must be one of ${POLICY_NAMES.join(', ')}, got "${value}"`);
  return value as PolicyName;
}

export const POLICY_HELP = `policies: ${POLICY_NAMES.join(', ')}
models:   auto, ${MODEL_PRESETS.map((m) => m.id).join(', ')}
keys:     ${Object.keys(POLICY_FIELDS).join(', ')}`;
