// What the editor's Problems panel and Export cost on a large session: a generated Claude Code session of 20 MB
// (the size up to which Problems follow every edit). Prints parse, problems and export times.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultPolicyFor } from '../../src/core/engine/policy';
import { parseTranscript } from '../../src/core/formats';
import { toAnthropicRequest } from '../../src/core/formats/toAnthropicRequest';
import { transcriptProblems } from '../../src/core/problems';
import { exportCompacted } from '../../src/node/exportFile';
import { generateClaudeCodeSession } from './generate';

const TARGET_BYTES = 20 * 1024 * 1024;
const SEED = 7;
const RUNS = 3;

function best(f: () => void): number {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    f();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

export async function run(): Promise<void> {
  const text = generateClaudeCodeSession(TARGET_BYTES, SEED);
  const bytes = new TextEncoder().encode(text);
  const mb = bytes.length / 1024 / 1024;
  const transcript = parseTranscript(bytes, 'generated.jsonl');
  const policy = defaultPolicyFor(transcript.format);
  const parseMs = best(() => parseTranscript(bytes, 'generated.jsonl'));
  let problems = 0;
  const problemsMs = best(() => {
    problems = transcriptProblems(transcript, policy).length;
  });
  console.log(`session: ${mb.toFixed(1)} MB, ${transcript.messages.length} messages (seed ${SEED})`);
  console.log(
    `parseTranscript            ${parseMs.toFixed(0).padStart(6)} ms  (${(mb / (parseMs / 1000)).toFixed(0)} MB/s)`,
  );
  console.log(
    `transcriptProblems         ${problemsMs.toFixed(0).padStart(6)} ms  (${problems} problems; ${((problemsMs / parseMs) * 100).toFixed(1)}% of the parse)`,
  );
  // The request's conversion alone, first (the process's peak so far: the parse): what it adds to the peak. It kept
  // every record's syntax tree until it returned (~4× the file), now only the record it reads.
  const peakBefore = process.resourceUsage().maxRSS;
  const t0 = performance.now();
  const conversion = toAnthropicRequest(transcript, []);
  const requestMs = performance.now() - t0;
  const peakAdded = (process.resourceUsage().maxRSS - peakBefore) / 1024;
  console.log(
    `toAnthropicRequest         ${requestMs.toFixed(0).padStart(6)} ms  (${conversion.request.messages.length} messages; +${peakAdded.toFixed(0)} MB to the peak RSS)`,
  );
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-bench-'));
  try {
    const source = join(dir, 'session.jsonl');
    writeFileSync(source, bytes);
    let min = Number.POSITIVE_INFINITY;
    let last: Awaited<ReturnType<typeof exportCompacted>> | undefined;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      last = await exportCompacted({ source, transcript, policy, anthropicRequest: true, replace: true });
      min = Math.min(min, performance.now() - t0);
    }
    console.log(
      `exportCompacted (+request) ${min.toFixed(0).padStart(6)} ms  (${last?.rewrites} rewrites, tokens ${last?.tokensBefore} → ${last?.tokensAfter}; analyze, write back, re-parse, verify, convert, atomic writes)`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
