// Opening a 100 MB Claude Code session as the editor does (src/host/session.ts with the worker pool): read,
// parse, the list's message, token counting in worker threads, the first analysis and its message to the
// webview. Prints each step and the longest time the host's event loop was blocked (the host must stay
// responsive: only the synchronous parse and analysis may block it, the tokenizing must not).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../src/core/analysis';
import { findModelPreset } from '../../src/core/engine/models';
import { parseTranscript } from '../../src/core/formats';
import { tokenCounter } from '../../src/core/tokens/counter';
import { TokenWorkerPool } from '../../src/core/tokens/pool';
import { defaultsFor } from '../../src/host/policySettings';
import { TranscriptSession } from '../../src/host/session';
import type { HostMessage } from '../../src/protocol';
import { writeClaudeCodeSession } from './generate';

const TARGET_BYTES = 100_000_000;
const SEED = 7;

export async function run(): Promise<void> {
  const file = join(process.cwd(), '.bench', `claude-code-${TARGET_BYTES}-${SEED}.jsonl`);
  if (!existsSync(file)) writeClaudeCodeSession(file, TARGET_BYTES, SEED);
  const worker = join(process.cwd(), 'dist', 'tokenWorker.js');
  if (!existsSync(worker)) throw new Error('dist/tokenWorker.js is missing: run `npm run build` first');
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
        analyze: async (t, p) => {
          const t0 = performance.now();
          const tokenizer = findModelPreset(p.model)?.tokenizer ?? 'o200k_base';
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
    t0 = performance.now();
    const transcriptMessage = session.load(bytes);
    const loadMs = performance.now() - t0;
    const listBytes = JSON.stringify(transcriptMessage).length;
    await new Promise((r) => setTimeout(r, 20));
    const parseLag = lagSince();
    t0 = performance.now();
    await session.request(defaultsFor(session.model), 'none', 0);
    const analyseMs = performance.now() - t0;
    const analysisLag = lagSince();
    const a = analysis as Extract<HostMessage, { type: 'analysis' }> | null;
    if (!a) throw new Error('no analysis');
    console.log(`${mb.toFixed(0)} MB, ${transcriptMessage.messages.length} messages`);
    console.log(
      `  read ${readMs.toFixed(0)} ms; parse + list message ${loadMs.toFixed(0)} ms (${(listBytes / 1e6).toFixed(1)} MB to the webview)`,
    );
    console.log(
      `  tokens counted in workers + first analysis with the "none" baseline: ${(analyseMs / 1000).toFixed(1)} s (of which counting ${(primeMs / 1000).toFixed(1)} s); analysis message ${(JSON.stringify(a).length / 1e6).toFixed(2)} MB`,
    );
    console.log(
      `  longest event-loop block: ${parseLag.toFixed(0)} ms while parsing, ${analysisLag.toFixed(0)} ms while counting and analysing`,
    );
  } finally {
    clearInterval(timer);
    await pool.dispose();
  }
}
