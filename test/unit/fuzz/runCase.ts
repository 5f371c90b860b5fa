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
import { parseTranscript, UnrecognizedTranscriptError } from '../../../src/core/formats';
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

/** Runs a CLI command in process with its output captured. A throw the CLI's main would print is still a
 * failure here unless it is the refusal of an unrecognised file. */
async function captured(
  run: () => Promise<number>,
): Promise<{ code: number; out: string; err: string; threw?: unknown }> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = process.stdout.write;
  const stderr = process.stderr.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out.push(String(chunk));
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    err.push(String(chunk));
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
      if (r.threw && !(r.threw instanceof UnrecognizedTranscriptError))
        problems.push(`${command}: threw ${describe(r.threw)}`);
      if (STACK.test(r.out) || STACK.test(r.err))
        problems.push(`${command}: stack trace in the output:\n${r.err}`);
      if (built && r.code === 1 && !/^context-lens[ :]/m.test(r.err))
        problems.push(`${command}: exit code 1 without the CLI's message: ${r.err.slice(0, 500)}`);
      if (!r.threw && !ok.includes(r.code))
        problems.push(`${command}: exit code ${r.code}: ${r.err.slice(0, 500)}`);
    };
    const inspect = await run(runInspect, ['--json', file]);
    check('inspect', inspect, [0, 1]);
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
    await sessionCheck(c, problems);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const ms = performance.now() - t0;
  const limit = SECONDS_PER_MB * 1000 * Math.max(1, c.bytes.length / (1 << 20));
  if (ms > limit) problems.push(`took ${(ms / 1000).toFixed(1)} s, over ${(limit / 1000).toFixed(1)} s`);
  return { name: c.name, bytes: c.bytes.length, ms, problems, codes };
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
    if (!(e instanceof UnrecognizedTranscriptError)) problems.push(`session load: threw ${describe(e)}`);
    return;
  }
  try {
    await session.request(defaultsFor(session.model), 'none', 1);
  } catch (e) {
    problems.push(`session analysis: threw ${describe(e)}`);
  }
  for (const e of errors) problems.push(`session analysis: ${describe(e)}`);
  for (const m of sent) {
    const checked = parseHostMessage(m);
    if (!checked.ok) problems.push(`the webview refuses the ${m.type} message: ${checked.error}`);
  }
}
