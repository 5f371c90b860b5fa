// Loaded into every Node process of the editor the editor benchmark starts (NODE_OPTIONS=--require), and into
// every worker thread of each (a preload runs in workers too): in the extension host's main thread alone, each
// time its event loop was held more than STALL_MS is appended to $CONTEXT_LENS_STALLS_DIR/<pid>.tsv as
// "start (epoch ms)\tlength (ms)\tstart (monotonic µs, the profile's clock)". The host's main thread is shared by
// every extension a user runs: a stall there freezes the whole editor, which is what the benchmark reports; its
// worker threads (the session's, the parse's) are busy by design and are not counted. With
// CONTEXT_LENS_HOST_PROFILE set, the host's threads also profile themselves, each written to the same folder as
// <pid>-<thread id>-<n>.cpuprofile every 2 s (thread 0 is the main one; to find what held it).
const { appendFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { isMainThread, threadId } = require('node:worker_threads');

const dir = process.env.CONTEXT_LENS_STALLS_DIR;
// (A worker's argv is its own, not the process's: the host's main thread tells its workers, through the environment
// they copy, that they run in the host.)
const isExtensionHost = isMainThread
  ? process.argv.some((a) => a.includes('extensionHost'))
  : process.env.CONTEXT_LENS_EXTENSION_HOST === String(process.pid);
if (isExtensionHost && isMainThread) process.env.CONTEXT_LENS_EXTENSION_HOST = String(process.pid);
if (dir && isExtensionHost && isMainThread) {
  const TICK_MS = 10;
  const STALL_MS = 50;
  const file = join(dir, `${process.pid}.tsv`);
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    const held = now - last - TICK_MS;
    if (held > STALL_MS) {
      const monotonic = Number(process.hrtime.bigint() / 1000n) - (now - last) * 1000;
      appendFileSync(
        file,
        `${(performance.timeOrigin + last).toFixed(0)}\t${held.toFixed(0)}\t${monotonic.toFixed(0)}\n`,
      );
    }
    last = now;
  }, TICK_MS).unref();
}

if (dir && isExtensionHost && process.env.CONTEXT_LENS_HOST_PROFILE) {
  // In pieces of a few seconds, each written when the next starts: one long profile of the host stopped taking
  // samples after a few seconds (measured), which pieces avoid.
  const inspector = require('node:inspector');
  const session = new inspector.Session();
  session.connect();
  let piece = 0;
  const restart = () =>
    session.post('Profiler.stop', (err, r) => {
      if (!err)
        writeFileSync(
          join(dir, `${process.pid}-${threadId}-${piece++}.cpuprofile`),
          JSON.stringify(r.profile),
        );
      session.post('Profiler.start');
    });
  session.post('Profiler.enable', () =>
    session.post('Profiler.setSamplingInterval', { interval: 1000 }, () => session.post('Profiler.start')),
  );
  setInterval(restart, 2000).unref();
}
