// Runs one fuzz case through the CLI's code paths in this process (inspect, compact --policy none, simulate)
// and through the host session the editor uses (its messages must pass the webview's protocol check), and says
// what went wrong: a throw, a stack trace in the output, an output that differs from the input under
// `--policy none`, a refused message, or more than 10 s per MB.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCompact } from '../../../src/cli/compact';
import { runInspect } from '../../../src/cli/inspect';
import { runSimulate } from '../../../src/cli/simulate';
import { analyze } from '../../../src/core/analysis';
import { EngineLimitError } from '../../../src/core/engine/prepare';
import { parseTranscript, UnrecognizedTranscriptError } from '../../../src/core/formats';
import { plausibleTime } from '../../../src/core/formats/timestamps';
import type { Transcript } from '../../../src/core/model';
import { defaultsFor } from '../../../src/host/policySettings';
import { TranscriptSession } from '../../../src/host/session';
import { type HostMessage, parseHostMessage } from '../../../src/protocol';
import type { FuzzCase } from './mutate';

export const SECONDS_PER_MB = 10;

export interface CaseResult {
  name: string;
  bytes: number;
  ms: number;
  problems: string[];
  /** Exit codes of inspect, compact and simulate (-1: threw), to see what a case reached. */
  codes: number[];
}

const STACK = /\n\s+at .+(:\d+:\d+\)?|<anonymous>)/;
/** What a terminal would act on: C0 controls but line feed and tab, DEL, C1, direction overrides. */
const ACTIVE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
/** A figure printed in exponent notation (1e+308 tokens): a number from the file that was not range-checked. */
const EXPONENT = /\de[+-]\d/;

/** Runs a CLI command in process with its output captured. A throw the CLI's main would print is still a
 * failure here unless it is the refusal of an unrecognised file. */
async function captured(
  run: () => Promise<number>,
): Promise<{ code: number; out: string; err: string; threw?: unknown }> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = process.stdout.write;
  const stderr = process.stderr.write;
  // The CLI writes text; bytes are the test runner's own reports (serialized, in a child process), passed on.
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    if (typeof chunk !== 'string')
      return (stdout as (...a: unknown[]) => boolean).call(process.stdout, chunk, ...rest);
    out.push(chunk);
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    if (typeof chunk !== 'string')
      return (stderr as (...a: unknown[]) => boolean).call(process.stderr, chunk, ...rest);
    err.push(chunk);
    return true;
  }) as typeof process.stderr.write;
  try {
    const code = await run();
    return { code, out: out.join(''), err: err.join('') };
  } catch (threw) {
    return { code: -1, out: out.join(''), err: err.join(''), threw };
  } finally {
    process.stdout.write = stdout;
    process.stderr.write = stderr;
  }
}

/** A refusal with its reason, which the CLI prints as one line: not a transcript, or past the engine's limits. */
function refused(error: unknown): boolean {
  return error instanceof UnrecognizedTranscriptError || error instanceof EngineLimitError;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}\n${error.stack ?? ''}` : String(error);
}

/** Runs the built CLI (`dist/cli.js`) as a user would: its own process, its own exit code and output. A throw
 * there is caught by the CLI's main and printed as one line, so only the in-process run tells a refusal from a
 * bug; this run checks the bundle, exit codes and the absence of stack traces and crashes. */
async function spawned(
  cli: string,
  args: string[],
): Promise<{ code: number; out: string; err: string; threw?: unknown }> {
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.error) return { code: -1, out: '', err: '', threw: r.error };
  if (r.signal) return { code: -1, out: r.stdout, err: r.stderr, threw: new Error(`killed by ${r.signal}`) };
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** `built`: the path of dist/cli.js to run the commands with, instead of in this process. */
export async function runCase(c: FuzzCase, built?: string): Promise<CaseResult> {
  const run = (f: (args: string[]) => Promise<number>, args: string[]) =>
    built
      ? spawned(built, [f === runInspect ? 'inspect' : f === runCompact ? 'compact' : 'simulate', ...args])
      : captured(() => f(args));
  const problems: string[] = [];
  const codes: number[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-fuzz-'));
  const file = join(dir, `case${c.ext}`);
  writeFileSync(file, c.bytes);
  const t0 = performance.now();
  try {
    const check = (command: string, r: Awaited<ReturnType<typeof captured>>, ok: number[]) => {
      codes.push(r.code);
      if (r.threw && !refused(r.threw)) problems.push(`${command}: threw ${describe(r.threw)}`);
      if (STACK.test(r.out) || STACK.test(r.err))
        problems.push(`${command}: stack trace in the output:\n${r.err}`);
      const active = ACTIVE.exec(r.out + r.err);
      if (active)
        problems.push(
          `${command}: a control character reaches the terminal: ${JSON.stringify((r.out + r.err).slice(Math.max(0, active.index - 80), active.index + 20))}`,
        );
      if (built && r.code === 1 && !/^context-lens[ :]/m.test(r.err))
        problems.push(`${command}: exit code 1 without the CLI's message: ${r.err.slice(0, 500)}`);
      if (!r.threw && !ok.includes(r.code))
        problems.push(`${command}: exit code ${r.code}: ${r.err.slice(0, 500)}`);
    };
    const inspect = await run(runInspect, ['--json', file]);
    check('inspect', inspect, [0, 1]);
    if (c.kind === 'escapes') check('inspect (text)', await run(runInspect, [file]), [0, 1]);
    if (inspect.code === 0) {
      try {
        const summary = JSON.parse(inspect.out);
        if (typeof summary.toolCalls?.total !== 'number')
          problems.push('inspect: toolCalls.total is not a number');
      } catch (e) {
        problems.push(`inspect --json: not JSON (${describe(e)})`);
      }
    }
    const out = join(dir, `out${c.ext}`);
    const compact = await run(runCompact, [file, '--policy', 'none', '--out', out]);
    check('compact', compact, [0, 1, 2]);
    if (compact.code === 0 && !Buffer.from(c.bytes).equals(readFileSync(out)))
      problems.push('compact --policy none: the output differs from the input');
    if (/\bNaN\b|Infinity/.test(compact.out))
      problems.push(`compact: a figure is not a number:\n${compact.out}`);
    const simulate = await run(runSimulate, [file, '--policy', 'none', '--policy', 'tiered+live-zone']);
    check('simulate', simulate, [0, 1, 2]);
    if (/\bNaN\b|Infinity/.test(simulate.out))
      problems.push(`simulate: a figure is not a number:\n${simulate.out}`);
    for (const [command, out] of [
      ['compact', compact.out],
      ['simulate', simulate.out],
    ])
      if (EXPONENT.test(out))
        problems.push(`${command}: a figure in exponent notation: ${EXPONENT.exec(out)?.[0]}`);
    timestampCheck(c, problems);
    await sessionCheck(c, problems);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const ms = performance.now() - t0;
  const limit = SECONDS_PER_MB * 1000 * Math.max(1, c.bytes.length / (1 << 20));
  if (ms > limit) problems.push(`took ${(ms / 1000).toFixed(1)} s, over ${(limit / 1000).toFixed(1)} s`);
  return { name: c.name, bytes: c.bytes.length, ms, problems, codes };
}

/** The times a replay expires caches by are plausible and go forward within each conversation (formats/timestamps.ts). */
function timestampCheck(c: FuzzCase, problems: string[]): void {
  let t: Transcript;
  try {
    t = parseTranscript(c.bytes, `case${c.ext}`);
  } catch {
    return;
  }
  const conversations = [t.messages, ...t.sidechains.map((s) => s.messages)];
  for (const messages of conversations) {
    let last = Number.NEGATIVE_INFINITY;
    for (const m of messages) {
      if (m.timestamp === undefined) continue;
      const ms = plausibleTime(m.timestamp);
      if (Number.isNaN(ms)) problems.push(`message ${m.index}: timestamp ${m.timestamp} kept`);
      else if (m.role === 'assistant') {
        if (ms < last) problems.push(`message ${m.index}: request time ${m.timestamp} goes back, kept`);
        last = ms;
      }
    }
  }
}

/** The editor's path: the session parses and analyses, and every message it sends must pass the webview's check
 * (a refused analysis leaves the view on "Analysing…"). */
async function sessionCheck(c: FuzzCase, problems: string[]): Promise<void> {
  const sent: HostMessage[] = [];
  const errors: unknown[] = [];
  const session = new TranscriptSession(
    `case${c.ext}`,
    { parse: parseTranscript, analyze: (t, p) => analyze(t, p) },
    (m) => sent.push(m),
    (e) => errors.push(e),
  );
  try {
    sent.push(session.load(c.bytes) as HostMessage);
  } catch (e) {
    if (!refused(e)) problems.push(`session load: threw ${describe(e)}`);
    return;
  }
  try {
    await session.request(defaultsFor(session.model), 'none', 1);
  } catch (e) {
    if (!refused(e)) problems.push(`session analysis: threw ${describe(e)}`);
  }
  for (const e of errors) if (!refused(e)) problems.push(`session analysis: ${describe(e)}`);
  for (const m of sent) {
    const checked = parseHostMessage(m);
    if (!checked.ok) problems.push(`the webview refuses the ${m.type} message: ${checked.error}`);
  }
}
