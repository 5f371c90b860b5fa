// Token counting of long texts (src/core/tokens/split.ts) and positions in one-line JSON bodies
// (src/core/formats/jsonDoc.ts): what used to crash or be quadratic, timed; and the difference between the
// split count and tiktoken's count of the whole text on every string of the real fixtures.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { get_encoding } from 'tiktoken';
import { parseTranscript } from '../../src/core/formats';
import { encodeUtf8 } from '../../src/core/formats/text';
import { countTokens, SPLIT_DEFAULTS, splitForCount } from '../../src/core/tokens/split';
import { transcriptTexts } from '../../src/core/tokens/texts';
import { REAL_LONG_DIR } from '../sharedFixtures';

const REAL = [join(import.meta.dirname, '..', 'fixtures', 'real'), REAL_LONG_DIR];

function files(dir: string): string[] {
  try {
    return readdirSync(dir).flatMap((name) => {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) return files(p);
      return /\.(jsonl|json)$/.test(name) ? [p] : [];
    });
  } catch {
    return [];
  }
}

function time<T>(f: () => T): { value: T; ms: number } {
  const t = performance.now();
  const value = f();
  return { value, ms: performance.now() - t };
}

/** A pseudo-random generator, so every run measures the same text. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

export async function run(): Promise<void> {
  const enc = get_encoding('o200k_base');
  console.log('long texts (o200k_base), split count:');
  const rand = rng(13);
  const letters = (n: number) =>
    Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(rand() * 26))).join('');
  const cjk = (n: number) =>
    Array.from({ length: n }, () => String.fromCharCode(0x4e00 + Math.floor(rand() * 20000))).join('');
  const logLines = (bytes: number) => {
    const out: string[] = [];
    for (let k = 0, size = 0; size < bytes; k++) {
      const line = `2026-01-21T10:${String(k % 60).padStart(2, '0')}:00Z INFO worker-${k % 7} processed item ${k} in ${(k * 37) % 1000} ms (${letters(8)})\n`;
      out.push(line);
      size += line.length;
    }
    return out.join('');
  };
  for (const [name, text] of [
    ['1M newlines', '\n'.repeat(1_000_000)],
    ['1M spaces', ' '.repeat(1_000_000)],
    ['1M letters a', 'a'.repeat(1_000_000)],
    ['1M random letters (forced cuts)', letters(1_000_000)],
    ['300k CJK characters without punctuation (forced cuts)', cjk(300_000)],
    ['250k emoji in a row (forced cuts)', '😀🚀✨'.repeat(100_000).slice(0, 500_000)],
    ['50 MB log lines', logLines(50 * 1024 * 1024)],
  ] as const) {
    const { value, ms } = time(() => countTokens(enc, text));
    const split = splitForCount(text);
    console.log(
      `  ${name}: ${value} tokens in ${ms.toFixed(0)} ms (${(text.length / 1e6 / (ms / 1000)).toFixed(1)} M chars/s), ${split.chunks.length} chunks, ${split.runs.length} runs shortened, ${split.forcedCuts} forced cuts`,
    );
  }
  for (const [n, make, what] of [
    [30_000, letters, 'random letters'],
    [100_000, letters, 'random letters'],
    [10_000, cjk, 'CJK characters'],
  ] as const) {
    const text = make(n);
    const whole = time(() => enc.encode_ordinary(text).length);
    const split = time(() => countTokens(enc, text));
    const cuts = splitForCount(text).forcedCuts;
    console.log(
      `  ${n} ${what}, one pre-token: whole ${whole.value} in ${whole.ms.toFixed(0)} ms, split ${split.value} in ${split.ms.toFixed(0)} ms (${cuts} forced cuts, difference ${split.value - whole.value})`,
    );
  }

  // Every string the engine counts in the real fixtures, cut as finely as the rules allow (and with forced
  // cuts as the default forces them), against the whole string.
  const finest = { ...SPLIT_DEFAULTS, directMax: 0, chunkTarget: 1 };
  let strings = 0;
  let chars = 0;
  let tokens = 0;
  let forced = 0;
  let differing = 0;
  let difference = 0;
  for (const file of REAL.flatMap(files)) {
    let t: ReturnType<typeof parseTranscript>;
    try {
      t = parseTranscript(readFileSync(file), file);
    } catch {
      continue;
    }
    for (const s of new Set(transcriptTexts(t))) {
      const whole = enc.encode_ordinary(s).length;
      const split = countTokens(enc, s, finest);
      strings++;
      chars += s.length;
      tokens += whole;
      forced += splitForCount(s, finest).forcedCuts;
      if (split !== whole) differing++;
      difference += split - whole;
    }
  }
  console.log(
    `real fixtures: ${strings} strings, ${chars} chars, ${tokens} tokens whole; cut at every allowed place: ${forced} forced cuts, ${differing} strings differ, total difference ${difference} tokens`,
  );

  // Positions: a 3 MB Anthropic body with 1,500 turns, on one line and pretty-printed.
  const messages: unknown[] = [{ role: 'user', content: 'start' }];
  for (let k = 0; k < 1500; k++) {
    messages.push({
      role: 'assistant',
      content: [{ type: 'tool_use', id: `t${k}`, name: 'Read', input: { path: `/f${k}` } }],
    });
    messages.push({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: `t${k}`, content: letters(1900) }],
    });
  }
  const body = { model: 'claude-sonnet-4-20250514', max_tokens: 1024, messages };
  for (const [name, text] of [
    ['one line', JSON.stringify(body)],
    ['pretty-printed', JSON.stringify(body, null, 2)],
  ] as const) {
    const bytes = encodeUtf8(text);
    const { ms } = time(() => parseTranscript(bytes, 'body.json'));
    console.log(
      `3 MB Anthropic body, 1,500 turns, ${name} (${(bytes.length / 1e6).toFixed(1)} MB): parsed in ${ms.toFixed(0)} ms`,
    );
  }
  enc.free();
}
