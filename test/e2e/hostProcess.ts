// The editor's extension host seen from outside: its process (by the scratch HOME the harness gives it) and its
// resident memory, for the memory checks of the end-to-end tests and the real-editor benchmark.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The extension host of the editor whose scratch folder is `scratch` (its HOME is inside it), by /proc. */
export function extensionHostPid(scratch: string): number {
  const home = `HOME=${join(scratch, 'home')}`;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.includes('extensionHost')) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(home)) return Number(entry);
    } catch {
      // A process that ended while the list was read.
    }
  }
  throw new Error(`no extension host runs with ${home}`);
}

/** Resident memory of a process, in bytes (its worker threads included: they share the process). */
export function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) * 1024;
}
