// Following a live session as the editor does (src/host: GrowingFile reads what was appended, the throttle, the
// parse worker that keeps the parsed lines, the session adopting the new transcript after the analysis in
// flight, token counting in the worker pool): a ~100 MB Claude Code session appended one record per second for
// 30 s. Prints, per append, how long until the analysis that includes it is sent (what the view waits for), the
// longest event-loop block of the host, and its memory after opening and at peak.
import { appendFileSync, closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { analyze } from '../../src/core/analysis';
import { sessionPreset } from '../../src/core/engine/models';
import { parseTranscript } from '../../src/core/formats';
import { tokenCounter } from '../../src/core/tokens/counter';
import { GrowingFile } from '../../src/host/growingFile';
import { OffThreadParser } from '../../src/host/parseOffThread';
import { defaultsFor } from '../../src/host/policySettings';
import { TranscriptSession } from '../../src/host/session';
import { Throttle } from '../../src/host/throttle';
import { TokenWorkerPool } from '../../src/node/tokenPool';
import { claudeCodeSessionLines } from './generate';

const TARGET_BYTES = 100_000_000;
const SEED = 7;
const APPEND_EVERY_MS = 1000;
const FOLLOW_FOR_MS = 30_000;

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

export async function run(): Promise<void> {
  const dist = join(process.cwd(), 'dist');
  // The generator goes on where the file ends: the appended records continue the same session.
  const lines = claudeCodeSessionLines(SEED);
  const path = join(process.cwd(), '.bench', `follow-${TARGET_BYTES}-${SEED}.jsonl`);
  mkdirSync(join(process.cwd(), '.bench'), { recursive: true });
  const fd = openSync(path, 'w');
  let size = 0;
  while (size < TARGET_BYTES) {
    const line = `${lines.next().value}\n`;
    writeSync(fd, line);
    size += Buffer.byteLength(line);
  }
  closeSync(fd);

  let maxLag = 0;
  let last = performance.now();
  const lag = setInterval(() => {
    const now = performance.now();
    maxLag = Math.max(maxLag, now - last - 10);
    last = now;
  }, 10);
  const pool = new TokenWorkerPool(join(dist, 'tokenWorker.js'));
  /** Bytes of the file each analysis sent covers (the transcript it analysed). */
  const analysed: { at: number; bytes: number }[] = [];
  let analysingBytes = 0;
  const session = new TranscriptSession(
    'follow.jsonl',
    {
      parse: parseTranscript,
      parser: (fileName) => new OffThreadParser(join(dist, 'parseWorker.js'), fileName),
      analyze: async (t, p) => {
        analysingBytes = t.raw.length;
        const tokenizer = sessionPreset(p.model, t.format, t.model)?.tokenizer;
        if (tokenizer) await pool.primeTranscript(t, tokenCounter(tokenizer));
        return analyze(t, p);
      },
    },
    () => analysed.push({ at: performance.now(), bytes: analysingBytes }),
    (e) => console.error(e),
  );
  const file = new GrowingFile(path);
  try {
    const t0 = performance.now();
    const first = await file.read();
    if (!first) throw new Error('nothing read');
    await session.loadAsync(first.bytes, 0);
    await session.request(defaultsFor(session.model), 'none', 0);
    const openMs = performance.now() - t0;
    const rssOpened = process.memoryUsage().rss;
    let rssPeak = rssOpened;

    // The editor's loop: a change on disk triggers the throttle; a run reads, parses, adopts, asks for the
    // analysis without waiting for it (the next parse runs beside it).
    const follow = new Throttle(
      async () => {
        const read = await file.read();
        if (!read) return;
        const m = await session.loadAsync(read.bytes, read.from, undefined, true);
        if (!m) return;
        void session.request(defaultsFor(session.model), 'none', 0);
      },
      { settleMs: 100, intervalMs: 500 },
    );
    maxLag = 0;
    const appends: { at: number; bytes: number }[] = [];
    const end = performance.now() + FOLLOW_FOR_MS;
    while (performance.now() < end) {
      const line = `${lines.next().value}\n`;
      appendFileSync(path, line);
      size += Buffer.byteLength(line);
      appends.push({ at: performance.now(), bytes: size });
      follow.trigger();
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      await new Promise((r) => setTimeout(r, APPEND_EVERY_MS));
    }
    while (analysed.at(-1)?.bytes !== size) await new Promise((r) => setTimeout(r, 100));
    follow.dispose();
    const waits = appends.map((a) => {
      const shown = analysed.find((x) => x.bytes >= a.bytes && x.at >= a.at);
      return shown ? shown.at - a.at : Number.POSITIVE_INFINITY;
    });
    const f = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
    console.log(
      `opened ${(size / 1e6).toFixed(0)} MB in ${f(openMs)}; ${appends.length} appends, one per ${APPEND_EVERY_MS} ms`,
    );
    console.log(
      `append → analysis sent: median ${f(quantile(waits, 0.5))}, p90 ${f(quantile(waits, 0.9))}, worst ${f(Math.max(...waits))} (target ≤ 2 s)`,
    );
    console.log(
      `longest host block while following: ${maxLag.toFixed(0)} ms; host memory ${(rssOpened / 1e6).toFixed(0)} MB after opening, ${(rssPeak / 1e6).toFixed(0)} MB at peak; load average ${loadavg()[0].toFixed(1)}`,
    );
  } finally {
    clearInterval(lag);
    session.dispose();
    await pool.dispose();
  }
}
