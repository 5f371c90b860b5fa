import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mock, test } from 'node:test';
import { get_encoding } from 'tiktoken';
import { analyzeSync } from '../../../src/core/analysis';
import { eventHash } from '../../../src/core/engine/hash';
import { DEFAULT_POLICY } from '../../../src/core/engine/policy';
import type { Transcript } from '../../../src/core/model';
import { BACKING_CHECK_FIRST, TokenCounter } from '../../../src/core/tokens/counter';
import { transcriptTexts } from '../../../src/core/tokens/texts';
import { COLD_IN_PLACE_CHARS, TokenWorkerPool } from '../../../src/node/tokenPool';
import { SPARES_MIN_CHARS } from '../../../src/node/tokenProcesses';
import { bundledWorker as bundleWorker } from '../bundledWorker';
import { toolLoop } from '../transcripts';
import { within } from '../within';

test('special-token text counts as ordinary text and does not throw', () => {
  const c = new TokenCounter('o200k_base');
  const n = c.count('before <|endoftext|> after <|im_start|>');
  assert.ok(n > 5);
  const raw = get_encoding('o200k_base');
  assert.equal(n, raw.encode_ordinary('before <|endoftext|> after <|im_start|>').length);
  raw.free();
});

test('o200k and cl100k differ, and counts are cached by content', () => {
  const text = 'Всё это — 例えば text with naïve unicode 🚀 and code: fn main() { println!("hi"); }';
  const o = new TokenCounter('o200k_base');
  const c = new TokenCounter('cl100k_base');
  assert.notEqual(o.count(text), c.count(text));
  const long = 'long text '.repeat(1000);
  o.count(long);
  const misses = o.misses;
  assert.equal(o.count(`${'long text '.repeat(999)}long text `), o.count(long));
  assert.equal(o.misses, misses, 'an equal string built anew is a cache hit');
});

test('re-analysis after a threshold change re-tokenizes only the new strings', () => {
  const counter = new TokenCounter('o200k_base');
  const t = toolLoop(30);
  analyzeSync(t, DEFAULT_POLICY, { counter });
  const misses = counter.misses;
  analyzeSync(
    t,
    { ...DEFAULT_POLICY, tiered: { ...DEFAULT_POLICY.tiered, maxResultChars: 200 } },
    { counter },
  );
  // Only the 12 new Tier-2 strings are counted; the transcript's own strings come from the cache.
  assert.equal(counter.misses - misses, 12);
});

const bundledWorker = () => bundleWorker('tokenWorker', 'src/node/tokenWorker.ts');

test('the bundled worker pool counts the same as the main thread and primes the cache', async () => {
  const pool = new TokenWorkerPool(await bundledWorker(), 2);
  try {
    const t = toolLoop(20);
    const counter = new TokenCounter('o200k_base');
    // Workers running: the texts go to them (a pool whose workers ended counts a few in place).
    await pool.countMany('o200k_base', ['warm']);
    const primed = await pool.primeTranscript(t, counter);
    assert.ok(primed > 0);
    const texts = transcriptTexts(t);
    const reference = new TokenCounter('o200k_base');
    const misses = counter.misses;
    for (const s of texts) assert.equal(counter.count(s), reference.count(s));
    assert.equal(counter.misses, misses, 'every string came from the primed cache');
    // Texts cross to the workers as JSON: what it escapes arrives as it was.
    const odd = ['lone \ud800 surrogate', 'pair 🚀 \u2028 \u0000 "quoted" \\ back', '→ arrows\r\n\t'];
    assert.deepEqual(
      await pool.countMany('o200k_base', odd),
      odd.map((s) => reference.count(s)),
    );
  } finally {
    await pool.dispose();
  }
});

test("priming remembers the digests of the transcript's own long texts, not of the strings made from it", async () => {
  const pool = new TokenWorkerPool(await bundledWorker(), 2);
  const result = `output ${'line of a long result\n'.repeat(40)}`;
  const input = { path: 'a.ts', content: 'const x = 1;\n'.repeat(40) };
  const t: Transcript = {
    format: 'anthropic-messages',
    formatReason: 'test',
    messages: [
      { index: 0, role: 'assistant', blocks: [{ type: 'tool_use', id: 'toolu_1', name: 'Write', input }] },
      {
        index: 1,
        role: 'user',
        blocks: [{ type: 'tool_result', toolUseId: 'toolu_1', content: result, isError: false }],
      },
    ],
    markers: [],
    sidechains: [],
    diagnostics: [],
    raw: new Uint8Array(0),
  };
  const counter = new TokenCounter('o200k_base');
  counter.remembersTexts = true;
  try {
    await pool.primeTranscript(t, counter);
    const hashes = mock.method(crypto, 'createHash');
    try {
      eventHash(result);
      assert.equal(hashes.mock.callCount(), 0, "the result's digest was remembered");
      eventHash(JSON.stringify(input));
      assert.equal(hashes.mock.callCount(), 1, "the input's JSON, made for counting, was not");
    } finally {
      hashes.mock.restore();
    }
  } finally {
    counter.forgetTexts();
    await pool.dispose();
  }
});

test('priming again skips the messages primed before and primes only the new ones (a grown session)', async () => {
  const pool = new TokenWorkerPool(await bundledWorker(), 2);
  try {
    const t = toolLoop(20);
    const counter = new TokenCounter('o200k_base');
    const head = { ...t, messages: t.messages.slice(0, 10) };
    await pool.primeTranscript(head, counter);
    // The grown transcript keeps the first ten message objects and adds new ones.
    const grown = { ...t, messages: [...head.messages, ...t.messages.slice(10)] };
    const before = counter.size;
    assert.ok((await pool.primeTranscript(grown, counter)) > 0);
    assert.ok(counter.size > before);
    const reference = new TokenCounter('o200k_base');
    const misses = counter.misses;
    for (const s of transcriptTexts(grown)) assert.equal(counter.count(s), reference.count(s));
    assert.equal(counter.misses, misses, 'every string came from the primed cache');
    // Nothing new: nothing to hash or count.
    assert.equal(await pool.primeTranscript(grown, counter), 0);
  } finally {
    await pool.dispose();
  }
});

test('messages primed as they arrive: priming the whole transcript waits for them and counts nothing twice', async () => {
  const pool = new TokenWorkerPool(await bundledWorker(), 2);
  try {
    const t = toolLoop(40);
    const counter = new TokenCounter('o200k_base');
    const alone = await pool.primeTranscript(t, new TokenCounter('o200k_base'));
    // The parse hands the host its messages in batches; each is primed without waiting for it.
    const third = Math.ceil(t.messages.length / 3);
    const batches = [0, third, 2 * third].map((from) =>
      pool.primeTranscript({ ...t, messages: t.messages.slice(from, from + third) }, counter),
    );
    const whole = await pool.primeTranscript(t, counter);
    assert.equal(whole, 0, 'every message was being counted already');
    const reference = new TokenCounter('o200k_base');
    const misses = counter.misses;
    for (const s of transcriptTexts(t)) assert.equal(counter.count(s), reference.count(s));
    assert.equal(counter.misses, misses, 'resolved once every count was in');
    const counted = (await Promise.all(batches)).reduce((a, b) => a + b, 0);
    // Texts shared between batches (tool names) may be counted once per batch in flight, never per message.
    assert.ok(counted >= alone && counted <= alone + 6, `${counted} against ${alone}`);
  } finally {
    await pool.dispose();
  }
});

/** `count` distinct texts of ~4.8 K characters. */
const loremTexts = (count: number) =>
  Array.from({ length: count }, (_, i) => `${i} ${'lorem ipsum '.repeat(400)}`);
/** Enough characters waiting to start the workers beyond the first. */
const longJob = () => loremTexts(Math.ceil(SPARES_MIN_CHARS / 4_800) + 1);

test('a pool whose workers ended counts a few texts in place, once this thread has the tokenizer, rather than start them again; many, in the workers', async () => {
  const pool = new TokenWorkerPool(await bundledWorker(), 2, undefined, 50);
  try {
    const counter = new TokenCounter('o200k_base');
    const reference = new TokenCounter('o200k_base');
    reference.count('loads the tokenizer on this thread');
    const few = ['hello world', 'a b c d'];
    assert.equal(await pool.primeTexts(few, counter), 2);
    assert.equal(pool.running, 0);
    for (const t of few) assert.equal(counter.countIfKnown(t), reference.count(t));
    const many = loremTexts(64);
    assert.ok(many.join('').length > COLD_IN_PLACE_CHARS);
    await pool.primeTexts(many, counter);
    // (Ended 50 ms after their last count: the first at least still runs.)
    assert.ok(pool.running > 0);
    assert.equal(counter.misses, few.length, 'only the few were tokenized on this thread');
    for (const t of many) assert.equal(counter.countIfKnown(t), reference.count(t));
  } finally {
    await pool.dispose();
  }
});

test('the first worker takes every job; the others start for a long one, end soon after, and the first once idle', async () => {
  const pool = new TokenWorkerPool(await bundledWorker(), 2, undefined, 60_000);
  try {
    assert.equal(pool.running, 0);
    const few = pool.countMany('o200k_base', ['hello world', 'a b c']);
    assert.equal(pool.running, 1, 'a small job starts the first worker only');
    assert.deepEqual(await few, [2, 3]);
    // A job of many batches, but shorter than what the first counts while another starts.
    const many = loremTexts(64);
    const counted = pool.countMany('o200k_base', many);
    assert.equal(pool.running, 1, 'a job of ~300 K characters is left to the first worker');
    assert.equal((await counted).length, many.length);
    const long = longJob();
    const longCounted = pool.countMany('o200k_base', long);
    assert.equal(pool.running, 2, 'a long job starts every worker');
    assert.equal((await longCounted).length, long.length);
    // The spare ends a second after its last count; the first is kept (a minute, here).
    assert.ok(
      await within(5_000, () => pool.running === 1),
      'the spare worker ended soon after its last count',
    );
  } finally {
    await pool.dispose();
  }
  const quick = new TokenWorkerPool(await bundledWorker(), 2, undefined, 50);
  try {
    assert.deepEqual(await quick.countMany('o200k_base', ['hello world']), [2]);
    assert.ok(await within(5_000, () => quick.running === 0), 'the first ended once idle');
    assert.deepEqual(await quick.countMany('o200k_base', ['hello world']), [2], 'and starts again');
  } finally {
    await quick.dispose();
  }
});

test('a worker still starting is handed no texts: a long job ends on the running one without waiting for it', {
  timeout: 30_000,
}, async () => {
  // Workers that answer with their pid; every one but the first takes a minute to say it started.
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-slow-worker-'));
  const script = join(dir, 'worker.js');
  writeFileSync(
    script,
    `const first = (() => { try { require('fs').writeFileSync(${JSON.stringify(join(dir, 'first'))}, '', { flag: 'wx' }); return true; } catch { return false; } })();
process.on('message', (m) => {
  const reply = () => process.send({ id: m.id, counts: m.texts.map(() => process.pid) });
  if (m.texts.length === 0 && !first) setTimeout(reply, 60_000); else reply();
});
`,
  );
  const pool = new TokenWorkerPool(script, 2, undefined, 60_000);
  try {
    const [firstPid] = await pool.countMany('o200k_base', ['warm']);
    const counting = pool.countMany('o200k_base', longJob());
    assert.equal(pool.running, 2, 'the long job started the spare');
    const counts = await counting;
    assert.ok(
      counts.every((c) => c === firstPid),
      'every text was counted by the first worker',
    );
  } finally {
    await pool.dispose();
  }
});

test('a worker that dies while counting fails its counts, and the next count starts another', async () => {
  const script = join(mkdtempSync(join(tmpdir(), 'context-lens-dying-worker-')), 'worker.js');
  writeFileSync(script, "process.on('message', () => process.exit(3));\n");
  const pool = new TokenWorkerPool(script, 1, undefined, 60_000);
  try {
    await assert.rejects(pool.countMany('o200k_base', ['hello']), /exited \(code 3\)/);
    assert.equal(pool.running, 0);
    await assert.rejects(pool.countMany('o200k_base', ['again']), /exited \(code 3\)/);
  } finally {
    await pool.dispose();
  }
});

test('a worker that cannot load its tokenizer ends, and what waits fails with why', {
  timeout: 30_000,
}, async () => {
  const script = join(mkdtempSync(join(tmpdir(), 'context-lens-failing-worker-')), 'worker.js');
  writeFileSync(
    script,
    "process.on('message', (m) => process.send({ id: m.id, error: 'no tables here' }));\n",
  );
  const pool = new TokenWorkerPool(script, 2, undefined, 60_000);
  try {
    await assert.rejects(pool.countMany('o200k_base', ['hello']), /no tables here/);
    assert.equal(pool.running, 0);
  } finally {
    await pool.dispose();
  }
});

test("once a session's texts are counted, the workers beyond the first end at once", async () => {
  const pool = new TokenWorkerPool(await bundledWorker(), 2, undefined, 60_000);
  try {
    // Long enough to start every worker.
    const results = longJob();
    const t = toolLoop(results.length, { result: (i) => results[i] });
    const counter = new TokenCounter('o200k_base');
    // Workers running: the texts go to them (a pool whose workers ended counts a few in place).
    await pool.countMany('o200k_base', ['warm']);
    const started = pool.started;
    await pool.primeTranscript(t, counter);
    assert.equal(pool.started, started + 1, 'the spare worker was started');
    await new Promise((r) => setImmediate(r));
    assert.equal(pool.running, 1, 'the spare worker ended with the priming, not a second later');
  } finally {
    await pool.dispose();
  }
});

test('new counts are saved 30 s after the last save at the most, but a large first count is saved within seconds', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-token-store-'));
  const pool = new TokenWorkerPool(await bundledWorker(), 2).keepCountsIn(dir);
  const counter = new TokenCounter('o200k_base');
  try {
    await pool.primeTranscript(toolLoop(2), counter);
    await pool.saveNow();
    // A few new counts right after a save wait for the spacing.
    await pool.primeTranscript(toolLoop(5), counter);
    assert.ok((pool.saveDueIn ?? 0) > 20_000, String(pool.saveDueIn));
    // A session counted for the first time (over a thousand new texts) is saved soon, whatever the spacing.
    assert.ok((await pool.primeTranscript(toolLoop(600), counter)) >= 1000);
    assert.ok((pool.saveDueIn ?? Number.POSITIVE_INFINITY) <= 5_000, String(pool.saveDueIn));
  } finally {
    await pool.dispose();
  }
});

test('a pool keeping counts on disk: a new host (new pool, new counter) counts nothing it counted before', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-token-store-'));
  const t = toolLoop(20);
  const first = new TokenWorkerPool(await bundledWorker(), 2).keepCountsIn(dir);
  const counter = new TokenCounter('o200k_base');
  try {
    assert.ok((await first.primeTranscript(t, counter)) > 0);
    analyzeSync(t, DEFAULT_POLICY, { counter }); // rewritten texts: counted on this thread, kept too
  } finally {
    await first.dispose(); // saves
  }
  const second = new TokenWorkerPool(await bundledWorker(), 2).keepCountsIn(dir);
  const again = new TokenCounter('o200k_base');
  // No check at random: the first counts a process reads from the store are counted again, as checks, no more.
  again.random = () => 1;
  try {
    assert.equal(
      await second.primeTranscript(t, again),
      BACKING_CHECK_FIRST,
      'every text was in the store: only the spot checks are counted',
    );
    assert.equal(again.backingChecks, BACKING_CHECK_FIRST);
    assert.equal(again.backingDistrusted, null);
    const reference = analyzeSync(t, DEFAULT_POLICY, { counter: new TokenCounter('o200k_base') }).analysis;
    const analysis = analyzeSync(t, DEFAULT_POLICY, { counter: again }).analysis;
    assert.equal(again.misses, 0, 'nor did the analysis tokenize anything');
    assert.deepEqual(analysis.totals, reference.totals);
  } finally {
    await second.dispose();
  }
});
