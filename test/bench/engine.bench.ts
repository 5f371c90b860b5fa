// Engine figures on a generated session of 10,000 messages (2,500 tool results, ~40 MB of text), built in memory
// from a seeded PRNG so every run sees the same bytes: token-counting throughput next to raw tiktoken, the first
// analysis, re-analysis after changing one constant (target ≤ 16 ms, tokens cached), an everyRequest replay
// (target ≤ 250 ms).
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { get_encoding } from 'tiktoken';
import { clonePolicy, defaultPolicyFor, type Policy } from '../../src/core/engine/policy';
import { parseTranscript } from '../../src/core/formats';
import type { Block, Message, Transcript } from '../../src/core/model';

import { transcriptTexts } from '../../src/core/tokens/texts';
import { type BundledEngine, bundledEngine } from './bundledEngine';
import { prng } from './generate';

const WORDS =
  'const return function import export value error result file path line data config server client request response handler test expect module build cache token message index update delete create'.split(
    ' ',
  );
const TOOLS = ['Read', 'Bash', 'Grep', 'Glob', 'Edit', 'WebFetch', 'mcp__playwright__browser_snapshot'];

/** 2,500 rounds of: assistant tool_use → user tool_result → assistant text → user text = 10,000 messages. */
export function generateSession(rounds = 2500, seed = 42, sizeScale = 1): Transcript {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
  const line = () => Array.from({ length: 4 + Math.floor(rand() * 10) }, () => pick(WORDS)).join(' ');
  const body = (chars: number) => {
    const lines: string[] = [];
    let n = 0;
    for (let i = 0; n < chars; i++) {
      const l = `${String(i + 1).padStart(5)}→  ${line()}`;
      lines.push(l);
      n += l.length + 1;
    }
    return lines.join('\n');
  };
  const messages: Message[] = [];
  const t0 = Date.UTC(2026, 0, 1);
  for (let r = 0; r < rounds; r++) {
    const id = `toolu_${r.toString(36).padStart(6, '0')}`;
    const name = pick(TOOLS);
    // Mostly a few KB, some very large: ~16 KB on average.
    const size =
      sizeScale * (rand() < 0.1 ? 60_000 + Math.floor(rand() * 60_000) : 1_000 + Math.floor(rand() * 14_000));
    const ts = (k: number) => new Date(t0 + (r * 4 + k) * 20_000).toISOString();
    const push = (role: Message['role'], blocks: Block[], k: number) =>
      messages.push({ index: messages.length, role, blocks, timestamp: ts(k) });
    push(
      'assistant',
      [{ type: 'tool_use', id, name, input: { path: `src/${pick(WORDS)}/${pick(WORDS)}.ts`, n: r } }],
      0,
    );
    push('user', [{ type: 'tool_result', toolUseId: id, content: body(size), isError: rand() < 0.05 }], 1);
    push('assistant', [{ type: 'text', text: line() }], 2);
    push('user', [{ type: 'text', text: line() }], 3);
  }
  return {
    format: 'claude-code',
    formatReason: 'generated for the benchmark',
    messages,
    markers: [],
    sidechains: [],
    diagnostics: [],
    raw: new Uint8Array(),
  };
}

const ms = (x: number) => `${x.toFixed(1)} ms`;
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}
/** Median and best: on a shared machine the median carries other processes' load; the best run is the work. */
function spread(xs: number[]): string {
  return `median ${ms(median(xs))}, best ${ms(Math.min(...xs))}`;
}
function time<T>(f: () => T): [T, number] {
  const t = performance.now();
  const v = f();
  return [v, performance.now() - t];
}

/** Recorded usage vs the "none" simulation on the real sessions that record usage (small files: 1–14 requests). */
function recordedVsSimulated(analyzeSync: BundledEngine['analyzeSync']): void {
  const root = 'test/fixtures/real';
  for (const dir of ['claude-code', 'codex']) {
    for (const name of readdirSync(join(root, dir))) {
      const file = join(root, dir, name);
      const t = parseTranscript(readFileSync(file), file);
      const p = defaultPolicyFor(t.format);
      p.name = 'none';
      p.replay.trigger = 'everyRequest';
      const a = analyzeSync(t, p).analysis;
      const c = a.recorded;
      if (!c) continue;
      const pct = (x: number) => `${x >= 0 ? '+' : ''}${(100 * x).toFixed(1)}%`;
      console.log(
        `  ${file}: ${c.requests} requests; cache read ${c.recordedCacheRead} recorded / ${c.simulatedCached} simulated ` +
          `(${pct(c.cachedError)}); written+input ${c.recordedWritten} / ${c.simulatedWritten} (${pct(c.writtenError)}); ` +
          `hidden prefix ${a.hiddenPrefix?.hiddenTokens}, calibration ×${a.hiddenPrefix?.calibration.toFixed(3)}`,
      );
    }
  }
}

export async function run(): Promise<void> {
  const { analyzeSync, TokenCounter } = await bundledEngine();
  console.log('recorded usage vs the "none" simulation (real fixtures, which are small):');
  recordedVsSimulated(analyzeSync);
  const [transcript, genMs] = time(() => generateSession());
  const texts = transcriptTexts(transcript);
  const chars = texts.reduce((a, t) => a + t.length, 0);
  const mb = chars / 1e6;
  const results = transcript.messages.filter((m) => m.blocks.some((b) => b.type === 'tool_result')).length;
  console.log(
    `machine: ${availableParallelism()} cores, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `session: ${transcript.messages.length} messages, ${results} tool results, ${mb.toFixed(1)} MB of text (generated in ${ms(genMs)})`,
  );

  // Raw encode and the cached counter measured text by text, interleaved, so that both see the same machine load.
  const enc = get_encoding('o200k_base');
  const counter = new TokenCounter('o200k_base');
  let rawMs = 0;
  let coldMs = 0;
  let rawTokens = 0;
  let ourTokens = 0;
  for (const t of texts) {
    let start = performance.now();
    rawTokens += t.length === 0 ? 0 : enc.encode_ordinary(t).length;
    rawMs += performance.now() - start;
    start = performance.now();
    ourTokens += counter.count(t);
    coldMs += performance.now() - start;
  }
  enc.free();
  const [, warmMs] = time(() => texts.reduce((a, t) => a + counter.count(t), 0));
  console.log(`tokens: ${rawTokens} (raw) / ${ourTokens} (TokenCounter)`);
  console.log(`  raw tiktoken encode_ordinary: ${ms(rawMs)} = ${(mb / (rawMs / 1000)).toFixed(2)} MB/s`);
  console.log(
    `  TokenCounter, cold (content hash + encode + cache): ${ms(coldMs)} = ${(mb / (coldMs / 1000)).toFixed(2)} MB/s ` +
      `(${((100 * (coldMs - rawMs)) / rawMs).toFixed(1)}% over raw)`,
  );
  console.log(`  TokenCounter, cached: ${ms(warmMs)} = ${(mb / (warmMs / 1000)).toFixed(0)} MB/s`);

  const base = defaultPolicyFor('claude-code');
  const [first, firstMs] = time(() => analyzeSync(transcript, base, { counter }));
  console.log(
    `first analysis (tokens cached, preparation included): ${ms(firstMs)}; ${first.rewrites.length} rewrites, ` +
      `${first.analysis.requests.length} requests`,
  );

  // Re-analysis after changing one constant: keepRecent cycles through 8, 9, 10. The first round counts the new
  // Tier-2 strings; later rounds find them cached, which is what a slider going back and forth does.
  const values = [9, 10, 8];
  const timings: number[] = [];
  let coldChange = 0;
  for (let i = 0; i < 30; i++) {
    const p: Policy = clonePolicy(base);
    p.tiered.keepRecent = values[i % values.length];
    const [, t] = time(() => analyzeSync(transcript, p, { counter }));
    if (i === 0) coldChange = t;
    if (i >= values.length) timings.push(t);
  }
  console.log(
    `re-analysis after changing tiered.keepRecent: ${spread(timings)} (target ≤ 16 ms, tokens cached); ` +
      `first change, new strings counted: ${ms(coldChange)}`,
  );
  const p2 = clonePolicy(base);
  const mrcTimings: number[] = [];
  for (let i = 0; i < 12; i++) {
    p2.tiered.maxResultChars = [250, 300, 350][i % 3];
    const [, t] = time(() => analyzeSync(transcript, clonePolicy(p2), { counter }));
    if (i >= 3) mrcTimings.push(t);
  }
  console.log(
    `re-analysis after changing tiered.maxResultChars: median ${ms(median(mrcTimings))} (tokens cached)`,
  );

  const every = clonePolicy(base);
  every.replay.trigger = 'everyRequest';
  const everyTimings: number[] = [];
  let everyResult = first;
  for (let i = 0; i < 6; i++) {
    const [r, t] = time(() => analyzeSync(transcript, every, { counter }));
    everyResult = r;
    if (i > 0) everyTimings.push(t);
  }
  const a = everyResult.analysis;
  console.log(
    `everyRequest replay over ${a.requests.length} requests: ${spread(everyTimings)} (target ≤ 250 ms); ` +
      `${a.events.length} events, prompt ${a.totals.promptTokens}, cached ${a.totals.cachedTokens}, written ${a.totals.writtenTokens}, cost $${a.totals.cost.toFixed(2)}`,
  );
  const both = clonePolicy(every);
  both.name = 'tiered+live-zone';
  const [bothResult, bothMs] = time(() => analyzeSync(transcript, both, { counter }));
  const [, bothAgainMs] = time(() => analyzeSync(transcript, both, { counter }));
  console.log(
    `everyRequest replay, tiered+live-zone: first ${ms(bothMs)} (type detection, compression and the token gate on ` +
      `2,500 live zones), again ${ms(bothAgainMs)}; ${bothResult.analysis.events.length} events`,
  );
  // The server's context editing runs on every request: its pass must cost what is new in the request, not a walk
  // of every older call (the first run also hashes the results it clears).
  for (const name of ['anthropic-context-editing', 'tiered+anthropic-context-editing'] as const) {
    const p = clonePolicy(every);
    p.name = name;
    const runs: number[] = [];
    let cleared = 0;
    for (let i = 0; i < 5; i++) {
      const [r, t] = time(() => analyzeSync(transcript, p, { counter }));
      cleared = r.analysis.why?.cleared?.length ?? 0;
      runs.push(t);
    }
    console.log(
      `everyRequest replay, ${name}: first ${ms(runs[0])}, then ${spread(runs.slice(1))}; ${cleared} blocks cleared`,
    );
  }
  const none = clonePolicy(every);
  none.name = 'none';
  const noneA = analyzeSync(transcript, none, { counter }).analysis;
  console.log(
    `cost over ${noneA.requests.length - 1} requests (${noneA.model}): none $${noneA.totals.cost.toFixed(2)}, tiered everyRequest $${a.totals.cost.toFixed(2)}`,
  );
}
