// The editor's extension host seen from outside: its process (by the scratch HOME the harness gives it) and its
// resident memory, for the memory checks of the end-to-end tests and the real-editor benchmark.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The extension hosts (one per open window) of the editor whose scratch folder is `scratch` (its HOME is
 * inside it), by /proc. */
export function extensionHostPids(scratch: string): number[] {
  const home = `HOME=${join(scratch, 'home')}`;
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmdline.includes('extensionHost')) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(home)) pids.push(Number(entry));
    } catch {
      // A process that ended while the list was read.
    }
  }
  return pids;
}

/** The extension host of the editor whose scratch folder is `scratch`, with one window open. */
export function extensionHostPid(scratch: string): number {
  const pids = extensionHostPids(scratch);
  if (pids.length === 0) throw new Error(`no extension host runs with HOME=${join(scratch, 'home')}`);
  if (pids.length > 1)
    throw new Error(`${pids.length} extension hosts run with HOME=${join(scratch, 'home')}`);
  return pids[0];
}

/** Resident memory of a process, in bytes (its worker threads included: they share the process). */
export function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no VmRSS for ${pid}`);
  return Number(m[1]) * 1024;
}

/** Resident memory of a process in bytes, 0 once it ended. */
export function rssOf(pid: number): number {
  try {
    return rssBytes(pid);
  } catch {
    return 0;
  }
}

/** Pids of the processes whose parent is `pid` (from /proc). */
export function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the command name, which is in parentheses and may hold spaces: state, ppid, pgrp…
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(ppid) === pid) out.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/** Pids of the processes whose parent is `pid` and whose command line names `script` (the token workers:
 * tokenWorker.js), from /proc. */
export function childrenRunning(pid: number, script: string): number[] {
  return childrenOf(pid).filter((child) => {
    try {
      return readFileSync(`/proc/${child}/cmdline`, 'utf8').includes(script);
    } catch {
      return false; // it ended while we looked
    }
  });
}
