export async function runSimulate(_args: string[]): Promise<number> {
  process.stderr.write('context-lens simulate: not built yet\n');
  return 1;
}
