// Opening a 100 MB Claude Code session as the editor does (src/host/session.ts with the worker pool): read,
// parse, the list's message, token counting in worker threads, the first analysis and its message to the
// webview. Prints each step and the longest time the host's event loop was blocked (the host must stay
// responsive: the tokenizing and the parse run in worker threads; the parse is also timed on the main thread,
// as it ran before, for the comparison, and both transcripts must be identical).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { analyze } from '../../src/core/analysis';
import { sessionPreset } from '../../src/core/engine/models';
import { parseTranscript } from '../../src/core/formats';
import { tokenCounter } from '../../src/core/tokens/counter';
import { parseOffThread } from '../../src/host/parseOffThread';
import { defaultsFor } from '../../src/host/policySettings';
import { TranscriptSession } from '../../src/host/session';
import { TokenWorkerPool } from '../../src/node/tokenPool';
import type { HostMessage } from '../../src/protocol';
import { writeClaudeCodeSession } from './generate';

const TARGET_BYTES = 100_000_000;
const SEED = 7;

export async function run(): Promise<void> {
  const file = join(process.cwd(), '.bench', `claude-code-${TARGET_BYTES}-${SEED}.jsonl`);
  if (!existsSync(file)) writeClaudeCodeSession(file, TARGET_BYTES, SEED);
  const worker = join(process.cwd(), 'dist', 'tokenWorker.js');
  const parseWorker = join(process.cwd(), 'dist', 'parseWorker.js');
  for (const w of [worker, parseWorker])
    if (!existsSync(w)) throw new Error(`${w} is missing: run \`npm run build\` first`);
  const pool = new TokenWorkerPool(worker);

  // Event-loop lag: how long the host could not answer anything.
  let maxLag = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    maxLag = Math.max(maxLag, now - last - 10);
    last = now;
  }, 10);
  const lagSince = () => {
    const m = maxLag;
    maxLag = 0;
    return m;
  };

  try {
    let analysis: Extract<HostMessage, { type: 'analysis' }> | null = null;
    let primeMs = 0;
    const session = new TranscriptSession(
      'large.jsonl',
      {
        parse: parseTranscript,
        parseAsync: (bytes, fileName) => parseOffThread(parseWorker, bytes, fileName),
        analyze: async (t, p) => {
          const t0 = performance.now();
          const tokenizer = sessionPreset(p.model, t.format, t.model)?.tokenizer ?? 'o200k_base';
          await pool.primeTranscript(t, tokenCounter(tokenizer));
          primeMs += performance.now() - t0;
          return analyze(t, p);
        },
      },
      (m) => {
        analysis = m;
      },
      (e) => {
        throw e;
      },
    );
    const mb = statSync(file).size / 1e6;
    let t0 = performance.now();
    const bytes = readFileSync(file);
    const readMs = performance.now() - t0;
    // Before: the parse on the main thread.
    await new Promise((r) => setTimeout(r, 20));
    lagSince();
    t0 = performance.now();
    session.load(bytes);
    const inlineMs = performance.now() - t0;
    const inline = session.model;
    await new Promise((r) => setTimeout(r, 20));
    const inlineLag = lagSince();
    // After: the parse in a worker thread, as the editor does it.
    t0 = performance.now();
    const transcriptMessage = await session.loadAsync(bytes);
    const loadMs = performance.now() - t0;
    if (!transcriptMessage) throw new Error('load superseded');
    const listBytes = JSON.stringify(transcriptMessage).length;
    await new Promise((r) => setTimeout(r, 20));
    const parseLag = lagSince();
    t0 = performance.now();
    const identical = isDeepStrictEqual(inline, session.model);
    const compareMs = performance.now() - t0;
    if (!identical)
      throw new Error('the transcript parsed in the worker differs from the one parsed in place');
    lagSince();
    t0 = performance.now();
    await session.request(defaultsFor(session.model), 'none', 0);
    const analyseMs = performance.now() - t0;
    const analysisLag = lagSince();
    const a = analysis as Extract<HostMessage, { type: 'analysis' }> | null;
    if (!a) throw new Error('no analysis');
    console.log(
      `${mb.toFixed(0)} MB, ${transcriptMessage.messages.length} messages (load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')})`,
    );
    console.log(
      `  read ${readMs.toFixed(0)} ms; parse + list message: ${inlineMs.toFixed(0)} ms on the main thread (before), ${loadMs.toFixed(0)} ms in a worker thread (${(listBytes / 1e6).toFixed(1)} MB to the webview); transcripts identical (compared in ${(compareMs / 1000).toFixed(1)} s)`,
    );
    console.log(
      `  tokens counted in workers + first analysis with the "none" baseline: ${(analyseMs / 1000).toFixed(1)} s (of which counting ${(primeMs / 1000).toFixed(1)} s); analysis message ${(JSON.stringify(a).length / 1e6).toFixed(2)} MB`,
    );
    console.log(
      `  longest event-loop block while parsing: ${inlineLag.toFixed(0)} ms on the main thread (before), ${parseLag.toFixed(0)} ms with the worker (after); ${analysisLag.toFixed(0)} ms while counting and analysing`,
    );
  } finally {
    clearInterval(timer);
    await pool.dispose();
  }
}
