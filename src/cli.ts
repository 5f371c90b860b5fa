// `context-lens <command>`: the terminal face of the same core the editor uses.
import { runCompact } from './cli/compact';
import { runInspect } from './cli/inspect';
import { runSimulate } from './cli/simulate';

const USAGE = `usage: context-lens <command> [options]

commands:
  inspect [--json] <file>       format, counts, pairing problems, recorded usage, diagnostics
  compact <file> [options]      write the compacted transcript (see: context-lens compact --help)
  simulate <file> [options]     replay requests: tokens, prompt cache and cost per policy

Only regular files are read; no command writes over its input, and compact replaces an existing output only
with --force. -- ends the options (a file named after it is read as a file).
`;

const commands: Record<string, (args: string[]) => Promise<number>> = {
  inspect: runInspect,
  compact: runCompact,
  simulate: runSimulate,
};

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === '-h') {
    process.stdout.write(USAGE);
    return name ? 0 : 2;
  }
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined; // not `constructor`
  if (!command) {
    process.stderr.write(`context-lens: unknown command "${name}"\n\n${USAGE}`);
    return 2;
  }
  return command(args);
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`context-lens: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
