export async function runCompact(_args: string[]): Promise<number> {
  process.stderr.write('context-lens compact: not built yet\n');
  return 1;
}
