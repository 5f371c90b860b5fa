export async function runInspect(_args: string[]): Promise<number> {
  process.stderr.write('context-lens inspect: not built yet\n');
  return 1;
}
