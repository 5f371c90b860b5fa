import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import type { Worker } from 'node:worker_threads';
import { analyzeSync } from '../../../src/core/analysis';
import { createSummarizer } from '../../../src/core/engine/summarizer';
import { FORMATS, parseTranscript, UnrecognizedTranscriptError } from '../../../src/core/formats';
import type { Transcript } from '../../../src/core/model';
import { GrowingFile } from '../../../src/host/growingFile';
import { LatestParse } from '../../../src/host/latestParse';
import { OffThreadParser, PARSE_LIMITS, parseOffThread } from '../../../src/host/parseOffThread';
import { PARSE_BATCH_MESSAGES } from '../../../src/host/parseWorker';
import { defaultsFor } from '../../../src/host/policySettings';
import { TranscriptSession } from '../../../src/host/session';
import { transcriptMessage } from '../../../src/host/summaries';
import { collectGarbage } from '../../../src/node/collectGarbage';
import { parseTranscriptFile } from '../../../src/node/parseFile';
import { generateClaudeCodeSession } from '../../bench/generate';
import { bundledWorker as bundleWorker } from '../bundledWorker';
import { fixturePaths } from '../formats/helpers';

const bundledWorker = () => bundleWorker('parseWorker', 'src/host/parseWorker.ts');

/** A generated Claude Code session of 6 MB (it crosses in many batches) and its parse in place, made once: the
 * tests that need one only read it. */
let generatedOnce: { bytes: Uint8Array; parsed: Transcript } | undefined;
function generated() {
  if (!generatedOnce) {
    const bytes = new TextEncoder().encode(generateClaudeCodeSession(6_000_000, 5));
    generatedOnce = { bytes, parsed: parseTranscript(bytes, 'generated.jsonl') };
  }
  return generatedOnce;
}

// A task folder's ui_messages.json is read with the history beside it, as the worker reads it (parseFile.ts).
const fixtures = fixturePaths();

test('a transcript parsed in the worker, and its list message, are identical to those made in place, for every real fixture', async () => {
  const script = await bundledWorker();
  assert.ok(fixtures.length >= 5);
  for (const file of fixtures) {
    const bytes = readFileSync(file);
    const off = await parseOffThread(script, bytes, file);
    const here = parseTranscriptFile(bytes, file);
    assert.deepStrictEqual(off, here, file);
    // The list's summaries and the file's problems came from the worker: the same as computed here.
    assert.deepStrictEqual(transcriptMessage(off, file, 1), transcriptMessage(here, file, 1), file);
  }
});

test('a file that is no transcript fails in the worker with the same error as in place', async () => {
  const script = await bundledWorker();
  const bytes = new TextEncoder().encode('{"name":"not a transcript","version":"1.0.0"}\n');
  let expected: unknown;
  try {
    parseTranscript(bytes, 'package.json');
  } catch (e) {
    expected = e;
  }
  assert.ok(expected instanceof UnrecognizedTranscriptError);
  await assert.rejects(parseOffThread(script, bytes, 'package.json'), (e: unknown) => {
    assert.ok(e instanceof UnrecognizedTranscriptError);
    assert.equal(e.message, expected.message);
    assert.deepStrictEqual(e.rejected, expected.rejected);
    return true;
  });
});

test('without its worker bundle the parse runs in place', async () => {
  const file = fixtures[0];
  const bytes = readFileSync(file);
  const off = await parseOffThread(join(tmpdir(), 'no-such-parse-worker.js'), bytes, file);
  assert.deepStrictEqual(off, parseTranscript(bytes, file));
});

test('a load that a newer one superseded is dropped', async () => {
  const [a, b] = fixtures;
  const gates: (() => void)[] = [];
  const session = new TranscriptSession(
    'x.jsonl',
    {
      parse: parseTranscript,
      // The first parse finishes last.
      parseAsync: (bytes, fileName) =>
        new Promise((resolve) => gates.push(() => resolve(parseTranscript(bytes, fileName)))),
      analyze: () => Promise.reject(new Error('not analysed here')),
    },
    () => {},
    () => {},
  );
  const first = session.loadAsync(readFileSync(a));
  const second = session.loadAsync(readFileSync(b));
  gates[1]();
  const shown = await second;
  gates[0]();
  assert.equal(await first, null);
  assert.ok(shown);
  assert.deepStrictEqual(session.model, parseTranscript(readFileSync(b), 'x.jsonl'));
});

/** A parser that lets the test see its threads and when they end. */
class WatchedParser extends OffThreadParser {
  readonly threads: { worker: Worker; exited: Promise<number>; limits: Worker['resourceLimits'] }[] = [];
  protected override startWorker(): Worker {
    const worker = super.startWorker();
    this.threads.push({
      worker,
      exited: new Promise((r) => worker.once('exit', r)),
      limits: { ...worker.resourceLimits },
    });
    return worker;
  }
}

/** A WatchedParser that records every request it posts to its worker but `more`: the bytes' buffer and length as
 * they were posted (a transferred buffer is detached after). */
class RecordingParser extends WatchedParser {
  readonly sent: { type: string; buffer?: ArrayBufferLike; length?: number; whole?: boolean }[] = [];
  /** Per request in `sent`: whether it said it was the last parse. */
  readonly last: (boolean | undefined)[] = [];
  protected override startWorker(): Worker {
    const worker = super.startWorker();
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (
      m: { type: string; bytes?: Uint8Array; whole?: boolean; last?: boolean },
      transfer?,
    ) => {
      if (m.type !== 'more') {
        this.sent.push({ type: m.type, buffer: m.bytes?.buffer, length: m.bytes?.length, whole: m.whole });
        this.last.push(m.last);
      }
      return post(m, transfer);
    };
    return worker;
  }
}

const lineEnds = (b: Uint8Array) => {
  const ends: number[] = [];
  for (let i = b.indexOf(10); i !== -1; i = b.indexOf(10, i + 1)) ends.push(i + 1);
  return ends;
};

test('a JSONL session parsed as it grows: one thread, only the changed messages cross, each result equals a fresh parse', async () => {
  const script = await bundledWorker();
  for (const file of fixtures.filter((f) => f.endsWith('.jsonl'))) {
    const whole = new Uint8Array(readFileSync(file));
    const ends = lineEnds(whole);
    const cuts = [0.25, 0.5, 0.75, 1].map((q) => ends[Math.max(0, Math.ceil(ends.length * q) - 1)]);
    const parser = new WatchedParser(script, file);
    let before: Transcript | null = null;
    let from = 0;
    for (const cut of cuts) {
      // A new array each time, as the host's growing buffer hands out its bytes; grown on disk after the first.
      const bytes = whole.slice(0, cut);
      const t = await parser.parse(bytes, from, from > 0);
      assert.ok(t);
      assert.deepStrictEqual(t, parseTranscript(whole.slice(0, cut), file), `${file} at ${cut}`);
      assert.deepStrictEqual(
        transcriptMessage(t, file, 1),
        transcriptMessage(parseTranscript(whole.slice(0, cut), file), file, 1),
      );
      if (before && before.messages.length > 1 && isDeepStrictEqual(before.messages[0], t.messages[0]))
        // The first message did not change: the host kept its own object (it was not sent again). (It may change:
        // a session resumed from an earlier point writes the conversation again, and goes on from that copy.)
        assert.equal(t.messages[0], before.messages[0], `${file}: the first message crossed again`);
      before = t;
      from = cut;
    }
    assert.equal(parser.threads.length, 1, `${file}: one thread follows the file`);
    assert.equal(
      parser.threads[0].limits?.maxYoungGenerationSizeMb,
      PARSE_LIMITS.maxYoungGenerationSizeMb,
      'the parse thread runs with its small young generation',
    );
    parser.dispose();
    await parser.threads[0].exited;
    assert.equal(parser.running, false);
  }
});

test('each batch of new messages is handed on as it arrives, before the parse resolves, and only once', async () => {
  const script = await bundledWorker();
  const file = 'generated.jsonl';
  // Batches of PARSE_BATCH_MESSAGES: a session of a few thousand messages crosses in many.
  const whole = generated().bytes;
  const ends = lineEnds(whole);
  const cut = ends[Math.floor((ends.length * 3) / 4)];
  const seen: Transcript['messages'] = [];
  let resolved = false;
  const parser = new OffThreadParser(script, file, {
    onMessages: (head, messages) => {
      assert.equal(resolved, false, 'handed on after the parse resolved');
      assert.equal(head.format, 'claude-code');
      seen.push(...messages);
    },
  });
  try {
    const first = await parser.parse(whole.slice(0, cut), 0);
    resolved = true;
    assert.ok(first && first.messages.length > 2 * PARSE_BATCH_MESSAGES, 'several batches');
    assert.deepStrictEqual(seen, first.messages);
    assert.equal(seen[0], first.messages[0], 'the very objects of the transcript');
    // A grown file: the messages the host holds already are not handed on again.
    resolved = false;
    const grown = await parser.parse(whole, cut);
    assert.ok(grown);
    assert.equal(seen.length, first.messages.length + grown.messages.length - unchangedCount(first, grown));
  } finally {
    parser.dispose();
  }
});

test("a parser that holds no bytes lets go of a file's once the worker parsed it for the last time, before the messages cross", async () => {
  const script = await bundledWorker();
  const { bytes: session, parsed } = generated();
  const cut = lineEnds(session)[10];
  // As the editor opens a large file (its beginning, then its rest as the last parse) and one with a view kept of
  // it (whole, as the last parse), from shared memory that nothing else holds (this frame ends before it crosses).
  const opens = {
    'from its beginning': (parser: OffThreadParser, bytes: Uint8Array) =>
      parser.parse(bytes.subarray(0, cut)).then((beginning) => {
        assert.equal(beginning?.raw.length, 0, 'no bytes in the transcript');
        return parser.parse(bytes, cut);
      }),
    whole: (parser: OffThreadParser, bytes: Uint8Array) => parser.parse(bytes, 0, false, true),
  };
  for (const [how, open] of Object.entries(opens)) {
    let keptWhileCrossing: boolean | undefined;
    let weak: WeakRef<SharedArrayBuffer> | undefined;
    const parser = new WatchedParser(script, 'generated.jsonl', {
      holdsBytes: false,
      onMessages: (_head, _messages, size) => {
        if (size !== session.length || keptWhileCrossing !== undefined) return;
        collectGarbage();
        keptWhileCrossing = weak?.deref() !== undefined;
      },
    });
    const opened = (() => {
      const bytes = new Uint8Array(new SharedArrayBuffer(session.length));
      bytes.set(session);
      weak = new WeakRef(bytes.buffer as SharedArrayBuffer);
      return open(parser, bytes);
    })();
    try {
      const whole = await opened;
      assert.deepStrictEqual(whole, { ...parsed, raw: new Uint8Array(0) });
      assert.equal(keptWhileCrossing, false, `${how}: the bytes were let go of before the messages crossed`);
      await parser.threads[0].exited;
      assert.equal(parser.running, false, `${how}: nothing kept for an append`);
    } finally {
      parser.dispose();
    }
  }
});

test('a parser that makes the last parse in place: the rest of a file shown from its beginning, and a whole file that is not growing, are parsed in the calling thread, the same transcript, no thread left; a growing file in the worker', async () => {
  const script = await bundledWorker();
  const file = 'generated.jsonl';
  const generated = new TextEncoder().encode(generateClaudeCodeSession(2_000_000, 5));
  const cut = lineEnds(generated)[10];
  const expected = { ...parseTranscript(generated, file), raw: new Uint8Array(0) };
  const parser = new WatchedParser(script, file, { holdsBytes: false, inPlaceLast: true });
  try {
    const beginning = await parser.parse(generated.subarray(0, cut));
    assert.ok(beginning && beginning.messages.length > 0);
    assert.equal(parser.threads.length, 1, 'the beginning in the worker');
    assert.deepStrictEqual(await parser.parse(generated, cut), expected);
    assert.equal(parser.threads.length, 1, 'no thread started for the rest');
    await parser.threads[0].exited;
    assert.equal(parser.running, false, "the beginning's thread ended");
    assert.deepStrictEqual(await parser.parse(generated, 0, false, true), expected);
    assert.equal(parser.threads.length, 1, 'no thread for a whole file that is not growing');
    assert.deepStrictEqual(await parser.parse(generated, 0, true), expected);
    assert.equal(parser.threads.length, 2, 'a growing file in the worker');
    await assert.rejects(
      parser.parse(new TextEncoder().encode('not a transcript'), 0, false, true),
      UnrecognizedTranscriptError,
    );
  } finally {
    parser.dispose();
  }
});

/** How many first messages two parses share as the same objects. */
function unchangedCount(a: Transcript, b: Transcript): number {
  let k = 0;
  while (k < a.messages.length && a.messages[k] === b.messages[k]) k++;
  return k;
}

test('a file that has not grown ends its thread soon after the parse; one that grows keeps it for the next append', async () => {
  const script = await bundledWorker();
  const file = fixtures.find((f) => f.endsWith('.jsonl'))!;
  const whole = new Uint8Array(readFileSync(file));
  const half = lineEnds(whole)[Math.floor(lineEnds(whole).length / 2)];
  const parser = new WatchedParser(script, file, { openedIdleMs: 50, idleMs: 60_000 });
  // Opened: the beginning, then the rest at once, as a large file is shown (the same thread takes both).
  assert.ok(await parser.parse(whole.slice(0, half)));
  assert.ok(await parser.parse(whole.slice(), half));
  assert.equal(parser.threads.length, 1);
  await parser.threads[0].exited;
  assert.equal(parser.running, false, 'a file that did not grow keeps no thread');
  // It grows on disk: parsed whole once more (the thread was ended), then kept for the next append.
  const grown = new Uint8Array(whole.length + whole.length - half);
  grown.set(whole);
  grown.set(whole.subarray(half), whole.length);
  assert.ok(await parser.parse(grown, whole.length, true));
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(parser.threads.length, 2);
  assert.ok(parser.running, 'a growing file keeps its thread for the next append');
  parser.dispose();
  await parser.threads[1].exited;
});

test("a file on disk that grows crosses in shared memory: the worker parses the host's own bytes as the file grows, never a copy", async () => {
  const script = await bundledWorker();
  for (const fixture of fixtures.filter((f) => f.endsWith('.jsonl'))) {
    const whole = new Uint8Array(readFileSync(fixture));
    const ends = lineEnds(whole);
    const cuts = [...new Set([0.25, 0.5, 1].map((q) => ends[Math.max(0, Math.ceil(ends.length * q) - 1)]))];
    const path = join(mkdtempSync(join(tmpdir(), 'context-lens-shared-')), 'session.jsonl');
    writeFileSync(path, '');
    const file = new GrowingFile(path);
    const parser = new RecordingParser(script, fixture);
    let written = 0;
    const reads: Uint8Array[] = [];
    for (const cut of cuts) {
      appendFileSync(path, whole.subarray(written, cut));
      written = cut;
      const read = await file.read();
      assert.ok(read);
      // The first read is in memory of its own (its last parse takes it over: see fileSource.ts), the grown file's
      // shared.
      assert.equal(read.bytes.buffer instanceof SharedArrayBuffer, reads.length > 0);
      reads.push(read.bytes);
      const t = await parser.parse(read.bytes, read.from, read.from > 0);
      assert.deepStrictEqual(t, parseTranscript(whole.slice(0, cut), fixture), `${fixture} at ${cut}`);
      assert.equal(t?.raw, read.bytes, 'the transcript keeps the bytes it was given');
    }
    parser.dispose();
    // The first read crosses as a copy (the caller's bytes stay its own), then every grown file as it is.
    assert.notEqual(parser.sent[0]?.buffer, reads[0].buffer);
    assert.deepStrictEqual(
      parser.sent.slice(1),
      reads
        .slice(1)
        .map((bytes) => ({ type: 'append', buffer: bytes.buffer, length: bytes.length, whole: true })),
      fixture,
    );
    assert.deepStrictEqual(parser.sent[0] && { ...parser.sent[0], buffer: undefined }, {
      type: 'parse',
      buffer: undefined,
      length: reads[0].length,
      whole: undefined,
    });
    assert.equal(parser.threads.length, 1, `${fixture}: one thread`);
  }
});

test('once the rest of a file shown from its beginning is parsed, its thread ends at once unless the file grew', async () => {
  const script = await bundledWorker();
  const file = fixtures.find((f) => f.endsWith('.jsonl'))!;
  const whole = new Uint8Array(readFileSync(file));
  const half = lineEnds(whole)[Math.floor(lineEnds(whole).length / 2)];
  const parser = new WatchedParser(script, file, { openedIdleMs: 60_000, idleMs: 60_000 });
  assert.ok(await parser.parse(whole.slice(0, half)));
  assert.ok(parser.running, 'kept for the rest, which follows');
  assert.ok(await parser.parse(whole.slice(), half));
  assert.equal(parser.running, false, 'nothing more follows soon: no thread kept');
  await parser.threads[0].exited;
  parser.dispose();
});

test('the rest of a file that is not growing crosses whole although its thread lets go of each batch once sent', async () => {
  const script = await bundledWorker();
  const file = 'generated.jsonl';
  const { bytes: whole, parsed } = generated();
  const cut = lineEnds(whole)[20];
  const parser = new RecordingParser(script, file);
  try {
    assert.ok(await parser.parse(whole.slice(0, cut)));
    const rest = await parser.parse(whole.slice(), cut);
    assert.ok(rest && rest.messages.length > 2 * PARSE_BATCH_MESSAGES, 'several batches');
    assert.deepStrictEqual(rest, parsed);
    assert.deepStrictEqual(parser.last, [false, true], 'the thread was told the rest is its last parse');
  } finally {
    parser.dispose();
  }
});

test('a parse superseded by a newer one resolves null and its thread is ended; so is one in flight at dispose', async () => {
  const script = await bundledWorker();
  // Slow to parse: a long JSON body (seconds), so that the newer parse arrives while it runs.
  const turns = Array.from({ length: 4000 }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: [{ type: 'text', text: `turn ${i} ${'words '.repeat(100)}` }],
  }));
  const slow = new TextEncoder().encode(
    JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages: turns }),
  );
  const small = readFileSync(fixtures[0]);
  const parser = new WatchedParser(script, 'body.json');
  const first = parser.parse(slow);
  await new Promise((r) => setTimeout(r, 50));
  const second = parser.parse(small);
  assert.equal(await first, null);
  assert.equal(typeof (await parser.threads[0].exited), 'number', 'the superseded thread ended');
  assert.deepStrictEqual(await second, parseTranscript(small, 'body.json'));
  const third = parser.parse(slow);
  await new Promise((r) => setTimeout(r, 50));
  parser.dispose();
  assert.equal(await third, null);
  await Promise.all(parser.threads.map((t) => t.exited));
  assert.equal(parser.running, false);
});

test('the rest of a file shown from its beginning crosses with the bytes before it, once; each result equals a fresh parse', async () => {
  const script = await bundledWorker();
  for (const file of fixtures.filter((f) => f.endsWith('.jsonl'))) {
    const whole = new Uint8Array(readFileSync(file));
    const ends = lineEnds(whole);
    // The first lines, less than half the file (as the first MB of a large one).
    const beginning = ends.filter((e) => e <= whole.length / 4).pop();
    if (!beginning) continue;
    const parser = new RecordingParser(script, file);
    const first = await parser.parse(whole.slice(0, beginning));
    assert.ok(first);
    // (As a file that grew since it was opened: its thread is kept for the next append.)
    const rest = await parser.parse(whole.slice(), beginning, true);
    assert.deepStrictEqual(rest, parseTranscript(whole, file), file);
    if (first.messages.length > 1)
      assert.equal(rest?.messages[0], first.messages[0], `${file}: kept the first`);
    // The file grows by a line: only that line crosses.
    const grown = new Uint8Array(whole.length + ends[0]);
    grown.set(whole);
    grown.set(whole.subarray(0, ends[0]), whole.length);
    assert.deepStrictEqual(
      await parser.parse(grown.slice(), whole.length, true),
      parseTranscript(grown, file),
      file,
    );
    assert.deepStrictEqual(
      parser.sent.map(({ type, length, whole }) => ({ type, bytes: length, whole })),
      [
        { type: 'parse', bytes: beginning, whole: undefined },
        { type: 'append', bytes: whole.length, whole: true },
        { type: 'append', bytes: ends[0], whole: false },
      ],
      file,
    );
    assert.equal(parser.threads.length, 1, `${file}: one thread`);
    parser.dispose();
  }
});

test('a grown file whose earlier bytes the worker does not hold is parsed whole', async () => {
  const script = await bundledWorker();
  const file = fixtures.find((f) => f.endsWith('.jsonl'))!;
  const whole = new Uint8Array(readFileSync(file));
  const ends = lineEnds(whole);
  const parser = new WatchedParser(script, file);
  await parser.parse(whole.slice(0, ends[2]));
  // `from` does not match what was parsed (a read the parser never saw): the whole file is parsed again.
  const t = await parser.parse(whole, ends[5]);
  assert.deepStrictEqual(t, parseTranscript(whole, file));
  assert.equal(parser.threads.length, 2);
  parser.dispose();
});

/** A long JSON body on one line: seconds to parse, so that a newer request arrives while it runs. */
function slowBody(): Uint8Array {
  const turns = Array.from({ length: 4000 }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: [{ type: 'text', text: `turn ${i} ${'words '.repeat(100)}` }],
  }));
  return new TextEncoder().encode(
    JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages: turns }),
  );
}

test('text parses and figures per document: a newer one supersedes the older (null), none is left running', async () => {
  const script = await bundledWorker();
  const parses = new LatestParse(script);
  const small = readFileSync(fixtures[0]);
  const first = parses.parse('doc', slowBody(), 'body.json');
  await new Promise((r) => setTimeout(r, 50));
  const second = parses.parse('doc', small, fixtures[0]);
  assert.equal(await first, null);
  assert.deepStrictEqual(await second, parseTranscript(small, fixtures[0]));
  assert.equal(parses.running, 0);

  // The status bar's figures, computed in the worker under the settings of the file's format, are the engine's.
  const settings = Object.fromEntries(
    FORMATS.map((f) => [
      f.id,
      { policy: defaultsFor({ format: f.id } as Transcript), summarizer: 'extractive' as const },
    ]),
  );
  for (const file of fixtures.slice(0, 3)) {
    const bytes = readFileSync(file);
    const here = parseTranscript(bytes, file);
    const policy = defaultsFor(here);
    const { analysis } = analyzeSync(here, policy, {
      summarizer: createSummarizer('extractive', policy.tiered.maxResultChars),
    });
    const off = await parses.totals('text', bytes, file, settings);
    assert.deepStrictEqual(off?.totals, analysis.totals, file);
    assert.equal(off?.policyName, analysis.policyName);
  }
  const slow = parses.totals('text', slowBody(), 'body.json', settings);
  await new Promise((r) => setTimeout(r, 50));
  parses.cancel('text');
  assert.equal(await slow, null);
  assert.equal(parses.running, 0);
  parses.dispose();
});

test("on Linux a background parse thread runs at a lower priority than the host; the view's own parse does not", {
  skip: process.platform !== 'linux',
}, async () => {
  const script = await bundledWorker();
  /** The nice value of each thread of this process, by its id (a thread that ends while it is listed is left out). */
  const nices = () =>
    new Map(
      readdirSync('/proc/self/task').flatMap((tid) => {
        let stat: string;
        try {
          stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
          throw error;
        }
        return [[tid, Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])] as const];
      }),
    );
  /** The nice values of the threads started since `before` and still running: the threads of earlier tests end in
   * their own time, so the test looks only at those it started, with no wait on the clock. */
  const since = (before: Map<string, number>) =>
    [...nices()].filter(([tid]) => !before.has(tid)).map(([, nice]) => nice);
  const file = fixtures.find((f) => f.endsWith('.jsonl'))!;
  // A background parse: its thread takes nice 10 as its bundle loads, before it reads a request. A thread kept for
  // an append is still running once the parse resolves, where it can be looked at.
  const before = nices();
  const background = new WatchedParser(script, file, { background: true, openedIdleMs: 600_000 });
  assert.ok(await background.parse(readFileSync(file)));
  assert.ok(background.running);
  const lowered = since(before);
  background.dispose();
  assert.ok(lowered.includes(10), `thread nice values: ${lowered.join(',')}`);
  assert.equal(nices().get(String(process.pid)), 0, 'the main thread keeps its priority');
  // The view's own parse: a JSONL session, whose thread is kept (loaded, idle) for the next append.
  const beforeOwn = nices();
  const own = new WatchedParser(script, file, { openedIdleMs: 600_000 });
  assert.ok(await own.parse(readFileSync(file)));
  assert.ok(own.running);
  const after = since(beforeOwn);
  own.dispose();
  assert.ok(after.length > 0, 'the parse thread was seen');
  assert.ok(!after.includes(10), `thread nice values: ${after.join(',')}`);
});

test('a session follows its file through one parser: grown loads pass what is unchanged, dispose ends the thread', async () => {
  const script = await bundledWorker();
  const file = fixtures.find((f) => f.endsWith('.jsonl'))!;
  const whole = new Uint8Array(readFileSync(file));
  const half = lineEnds(whole)[Math.floor(lineEnds(whole).length / 2)];
  const parsers: WatchedParser[] = [];
  const session = new TranscriptSession(
    'x.jsonl',
    {
      parse: parseTranscript,
      parser: (fileName) => {
        const p = new WatchedParser(script, fileName);
        parsers.push(p);
        return p;
      },
      analyze: () => Promise.reject(new Error('not analysed here')),
    },
    () => {},
    () => {},
  );
  // A live session: it grows while open.
  const first = await session.loadAsync(whole.slice(0, half), 0, undefined, true);
  const grown = await session.loadAsync(whole.slice(), half, undefined, true);
  assert.ok(first && grown);
  assert.equal(parsers.length, 1);
  assert.equal(parsers[0].threads.length, 1, 'the grown file went to the same thread');
  assert.deepStrictEqual(session.model, parseTranscript(whole, 'x.jsonl'));
  assert.ok(grown.revision > first.revision);
  session.dispose();
  await parsers[0].threads[0].exited;
  assert.equal(parsers[0].running, false);
});
