// Loaded into every Node process of the editor the editor benchmark starts (NODE_OPTIONS=--require): in the
// extension host alone, each time its event loop was held more than STALL_MS is appended to
// $CONTEXT_LENS_STALLS_DIR/<pid>.tsv as "start (epoch ms)\tlength (ms)\tstart (monotonic µs, the profile's clock)".
// The host is shared by every extension
// a user runs: a stall there freezes the whole editor, which is what the benchmark reports. With
// CONTEXT_LENS_HOST_PROFILE set, the host also profiles its own thread, written to the same folder as
// <pid>-<n>.cpuprofile every 2 s (to find what held it).
const { appendFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const dir = process.env.CONTEXT_LENS_STALLS_DIR;
const isExtensionHost = process.argv.some((a) => a.includes('extensionHost'));
if (dir && isExtensionHost) {
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

  if (process.env.CONTEXT_LENS_HOST_PROFILE) {
    // In pieces of a few seconds, each written when the next starts: one long profile of the host stopped taking
    // samples after a few seconds (measured), which pieces avoid.
    const inspector = require('node:inspector');
    const session = new inspector.Session();
    session.connect();
    let piece = 0;
    const restart = () =>
      session.post('Profiler.stop', (err, r) => {
        if (!err) writeFileSync(join(dir, `${process.pid}-${piece++}.cpuprofile`), JSON.stringify(r.profile));
        session.post('Profiler.start');
      });
    session.post('Profiler.enable', () =>
      session.post('Profiler.setSamplingInterval', { interval: 1000 }, () => session.post('Profiler.start')),
    );
    setInterval(restart, 2000).unref();
  }
}
