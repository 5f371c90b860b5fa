// `context-lens <command>`: the terminal face of the same core the editor uses.
import { isMainThread, workerData } from 'node:worker_threads';
import { runCache } from './cli/cache';
import { runCompact } from './cli/compact';
import { runInspect } from './cli/inspect';
import { runRecommend } from './cli/recommend';
import { runReport } from './cli/report';
import { REPORT_WORKER, runReportWorker } from './cli/reportWorker';
import { runSimulate } from './cli/simulate';
import { print, printError, terminalText } from './cli/terminal';
import { maxOf } from './core/arrays';

interface Command {
  synopsis: string;
  summary: string;
  run: (args: string[]) => Promise<number>;
}

const commands: Record<string, Command> = {
  inspect: {
    synopsis: 'inspect [--json] <file>',
    summary: 'format, counts, pairing problems, recorded usage, diagnostics',
    run: runInspect,
  },
  compact: {
    synopsis: 'compact <file> [options]',
    summary: 'write the compacted transcript (see: context-lens compact --help)',
    run: runCompact,
  },
  simulate: {
    synopsis: 'simulate <file> [options]',
    summary: 'replay requests: tokens, prompt cache and cost per policy',
    run: runSimulate,
  },
  cache: {
    synopsis: 'cache <file> [options]',
    summary: 'every cache break the log records (and a policy makes): cause, evidence, tokens, cost',
    run: runCache,
  },
  report: {
    synopsis: 'report [DIR]... [options]',
    summary: "every session of the agents' folders under every policy, against the baseline",
    run: runReport,
  },
  recommend: {
    synopsis: 'recommend <file> [options]',
    summary: 'the strategy and settings that would have cost least, with what to paste',
    run: runRecommend,
  },
};

const width = maxOf(Object.values(commands).map((c) => c.synopsis.length)) + 2;
const USAGE = `usage: context-lens <command> [options]

commands:
${Object.values(commands)
  .map((c) => `  ${c.synopsis.padEnd(width)}${c.summary}`)
  .join('\n')}

Every command takes --help. Only regular files are read; no command writes over its input, and compact replaces
an existing output only with --force. -- ends the options (a file named after it is read as a file).
`;

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h') {
    print(USAGE);
    return name ? 0 : 2;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined; // not `constructor`
  if (!command) {
    printError(`context-lens: unknown command "${terminalText(name)}"\n\n${USAGE}`);
    return 2;
  }
  return command.run(args);
}

// The report's worker threads run this same file (cli/report.ts starts them with this role).
if (!isMainThread && (workerData as { role?: string } | null)?.role === REPORT_WORKER) runReportWorker();
else
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      printError(`context-lens: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
