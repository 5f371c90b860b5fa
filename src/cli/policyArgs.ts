// Shared by the commands that replay: the policy options declared once (`--policy`, `--model`, `--set`, `--thread`,
// `--json`), reading a transcript with its diagnostics, and building a policy from those options over the SPEC
// defaults and the format's tool presets.
import { resolve } from 'node:path';
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
import type { Transcript } from '../core/model';
import { MAIN_THREAD, threadsOf, threadTranscript } from '../core/threads';
import { argPath, undecodedNameHint } from '../node/argPath';
import { parseTranscriptFile } from '../node/parseFile';
import { NotRegularFileError, readRegularFileSync } from '../node/readRegularFile';
import { withLoggedSummarizations } from '../node/summarizationFiles';
import { type CommandSpec, type Option, type Parsed, parseCommand, UsageError } from './options';
import { printError, terminalText } from './terminal';
import { TOKEN_CACHE_OPTIONS, TokenCacheOption } from './tokenCache';

export { UsageError };

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
  // Its absolute path: the files an agent keeps beside a session (a task's ui_messages.json) are read by it.
  const transcript = parseTranscriptFile(bytes, resolve(file));
  for (const d of transcript.diagnostics)
    if (d.severity !== 'info')
      printError(
        `${terminalText(file)}:${d.line}:${d.column}: ${d.severity}: ${terminalText(d.message)} [${terminalText(d.code)}]\n`,
      );
  return transcript;
}

/** The policy options, declared once; a command that says more of one spreads it with its own words. */
export const POLICY: Option<PolicyName> = {
  name: 'policy',
  value: 'NAME',
  description: 'a policy to compare',
  multiple: true,
  parse: (v) => parsePolicyName(v),
};
export const SET: Option<string> = {
  name: 'set',
  value: 'key=value',
  description: 'change one constant for every policy',
  multiple: true,
};
export const MODEL: Option<string> = {
  name: 'model',
  value: 'PRESET',
  description: 'price and cache every request at one preset',
  default: 'auto, each request at the model that answered it, as the view',
};
export const THREAD: Option<string> = {
  name: 'thread',
  value: 'ID',
  description: "replay one sub-agent's requests instead of the main conversation's (ids: inspect)",
};
export const JSON_OUTPUT: Option<boolean> = { name: 'json', description: 'print the result as JSON' };

/** The one <file> of `compact`, `simulate` and `recommend`: every word that is not an option. */
export function oneFile(parsed: Parsed): string {
  const [file, second] = parsed.positionals;
  if (second !== undefined)
    throw new UsageError(`only one file, got "${terminalText(file)}" and "${terminalText(second)}"`);
  if (!file) throw new UsageError('missing <file>');
  return file;
}

/** The options `simulate` and `recommend` share: policies, the model preset, `--set`, `--json`, `--thread` and the
 * token cache. */
export interface ReplayArgs {
  file: string;
  names: PolicyName[];
  model: string | undefined;
  sets: string[];
  json: boolean;
  thread: string;
  tokenCache: TokenCacheOption;
}

/** The table of `simulate` and `recommend`, with each command's own words for --policy, --set and --json. */
export function replayOptions(words: {
  policy: Partial<Option>;
  set: string;
  setDefault?: string;
  json: string;
}): Option[] {
  return [
    { ...POLICY, ...words.policy } as Option<PolicyName>,
    MODEL,
    { ...SET, description: words.set, default: words.setDefault },
    THREAD,
    { ...JSON_OUTPUT, description: words.json },
    ...TOKEN_CACHE_OPTIONS,
  ];
}

/** Undefined when help was printed. */
export function parseReplayArgs(args: string[], spec: CommandSpec): ReplayArgs | undefined {
  const parsed = parseCommand(spec, args);
  if (!parsed) return undefined;
  return {
    file: oneFile(parsed),
    names: parsed.all(POLICY),
    model: parsed.get(MODEL),
    sets: parsed.all(SET),
    json: parsed.has(JSON_OUTPUT),
    thread: parsed.get(THREAD) ?? MAIN_THREAD,
    tokenCache: TokenCacheOption.from(parsed),
  };
}

/** The request stream `thread` of the transcript in `file` (the main conversation or a sub-agent's); a usage error
 * naming the file's threads when it has no such one. */
export function readThread(file: string, thread: string): Transcript {
  return readNamedThread(file, thread).transcript;
}

/** `readThread`, with the thread's name for the terminal: "main thread", or a sub-agent by the description of the
 * Task/Agent call that started it, as the view's picker names it, with the id `--thread` takes. */
export function readNamedThread(file: string, thread: string): { transcript: Transcript; name: string } {
  const whole = readTranscript(file);
  const transcript = threadTranscript(whole, thread);
  if (!transcript)
    throw new UsageError(
      `--thread ${terminalText(thread)}: not in this file (threads: ${threadsOf(whole)
        .map((t) => terminalText(t.description ? `${t.id} "${t.description}"` : t.id))
        .join(', ')})`,
    );
  if (thread !== MAIN_THREAD) {
    const description = threadsOf(whole).find((t) => t.id === thread)?.description;
    const name = description ? `sub-agent: ${description} (${thread})` : `sub-agent ${thread}`;
    return { transcript, name: terminalText(name) };
  }
  // The summarization requests of the session's compactions, where its agent keeps them beside it.
  return { transcript: withLoggedSummarizations(transcript, file), name: 'main thread' };
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
  /** The transcript the policy is for (its format's tool presets); without a format, the defaults of none. */
  transcript: { format?: Transcript['format'] },
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
