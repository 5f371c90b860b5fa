import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import * as esbuild from 'esbuild';
import { parseTranscript, UnrecognizedTranscriptError } from '../../../src/core/formats';
import { parseOffThread } from '../../../src/host/parseOffThread';
import { TranscriptSession } from '../../../src/host/session';
import { transcriptMessage } from '../../../src/host/summaries';

const real = join(import.meta.dirname, '..', '..', 'fixtures', 'real');

/** Bundles the parse worker as esbuild.mjs does, in a scratch folder. */
async function bundledWorker(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-parse-worker-'));
  await esbuild.build({
    entryPoints: { parseWorker: 'src/host/parseWorker.ts' },
    outdir: dir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    mainFields: ['module', 'main'],
    logLevel: 'silent',
  });
  return join(dir, 'parseWorker.js');
}

const fixtures = readdirSync(real, { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.jsonl') || f.endsWith('.json'))
  .map((f) => join(real, f));

test('a transcript parsed in the worker, and its list message, are identical to those made in place, for every real fixture', async () => {
  const script = await bundledWorker();
  assert.ok(fixtures.length >= 5);
  for (const file of fixtures) {
    const bytes = readFileSync(file);
    const off = await parseOffThread(script, bytes, file, 0);
    const here = parseTranscript(bytes, file);
    assert.deepStrictEqual(off, here, file);
    // The list's summaries came from the worker with the messages: the same as computed here.
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
  await assert.rejects(parseOffThread(script, bytes, 'package.json', 0), (e: unknown) => {
    assert.ok(e instanceof UnrecognizedTranscriptError);
    assert.equal(e.message, expected.message);
    assert.deepStrictEqual(e.rejected, expected.rejected);
    return true;
  });
});

test('without its worker bundle the parse runs in place', async () => {
  const file = fixtures[0];
  const bytes = readFileSync(file);
  const off = await parseOffThread(join(tmpdir(), 'no-such-parse-worker.js'), bytes, file, 0);
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
