// Why-lines: the engine's facts (first touch, floor tool, live-zone outcome) through the wire, worded by the view
// with the rule and its numbers. Real engine and tokenizer; transcripts built in memory.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeAnalysis, encodeAnalysis } from '../../src/analysisWire';
import { analyzeSync } from '../../src/core/analysis';
import { DEFAULT_POLICY, type Policy } from '../../src/core/engine/policy';
import type { Transcript } from '../../src/core/model';
import { parseHostMessage } from '../../src/protocol';
import { whyLine, whyLines, whyOf } from '../../webview/views/why';
import { assistant, text, toolLoop, toolResult, toolUse, transcriptOf, user } from '../unit/transcripts';

const trigger = (t: Policy['replay']['trigger'], p: Policy = DEFAULT_POLICY): Policy => ({
  ...p,
  replay: { ...p.replay, trigger: t },
});

/** The engine's analysis as the webview sees it, checked as the webview checks it. */
function viewOf(transcript: Transcript, policy: Policy) {
  const { analysis } = analyzeSync(transcript, policy);
  const wire = JSON.parse(JSON.stringify(encodeAnalysis(analysis)));
  const parsed = parseHostMessage({ type: 'analysis', seq: 0, id: 1, policy, analysis: wire, elapsedMs: 1 });
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  return { analysis, view: decodeAnalysis(wire, transcript.messages) };
}

const session = () =>
  toolLoop(30, {
    name: (i) => (i % 5 === 0 ? 'file_read' : 'bash'),
    result: (i) => `line ${i} of the output `.repeat(30),
  });

test('one pass: a Tier-1 stub, a floored Tier-2 block and a Tier-3 block say the rule with their numbers', () => {
  const t = session();
  const { analysis, view } = viewOf(t, trigger('once'));
  const lines = (m: number) => {
    const events = analysis.events.filter((e) => e.messageIndex === m);
    return whyLines(view.messages[m], whyOf(view, m), trigger('once'), { events });
  };
  const pending = analysis.requests.length;
  // Result 1 (bash) at distance 28: Tier 1.
  assert.deepEqual(lines(4), [
    `distance 28 ≥ tier1Distance 20 and no floor tool → Tier 1: stubbed: stub, 630 → ${analysis.events.find((e) => e.messageIndex === 4)!.newLen} chars (first met in request ${pending})`,
  ]);
  // Result 0 (file_read) at distance 29: floored.
  assert.deepEqual(lines(2), [
    `distance 29 ≥ tier1Distance 20, but file_read is a floor tool → Tier 2: head and tail, 630 → 333 chars (first met in request ${pending})`,
  ]);
  // Result 25 at distance 4: Tier 3.
  assert.deepEqual(lines(52), ['distance 4 < keepRecent 8 → Tier 3: untouched']);
  // The tooltip says it in one line, with tokens instead of the event's chars.
  assert.match(
    whyLine(view.messages[2], whyOf(view, 2), trigger('once')),
    /^distance 29 ≥ tier1Distance 20, but file_read is a floor tool → Tier 2: rewritten, \d+ → \d+ tokens \(first met in request \d+\)$/,
  );
});

test('every request: a result first met at Tier 2 stays there (first touch), and the line says where it was met', () => {
  const t = session();
  const policy = trigger('everyRequest');
  const { analysis, view } = viewOf(t, policy);
  const m = 4; // distance 28 now, first met at distance 8
  const facts = whyOf(view, m);
  assert.deepEqual(facts.touch, { request: 10, distance: 8 });
  const events = analysis.events.filter((e) => e.messageIndex === m);
  assert.deepEqual(whyLines(view.messages[m], facts, policy, { events }), [
    'keepRecent 8 ≤ distance 8 < tier1Distance 20 → Tier 2: head and tail, 630 → 333 chars (first met in request 11)',
    'first met at Tier 2 in request 11 (first touch): kept at Tier 2, though its distance is now 28',
  ]);
});

test('live zone: the detected type and the outcome (compressed with a CCR marker, under minChars, the token gate)', () => {
  const log = Array.from({ length: 200 }, (_, i) =>
    i % 40 === 7
      ? `ERROR build failed at step ${i}: missing file src/x${i}.ts`
      : `INFO compiling module ${i} of 200`,
  ).join('\n');
  const t = transcriptOf([
    user(text('Build it.')),
    assistant(toolUse('a', 'bash', { command: 'make' })),
    user(toolResult('a', log), text('short note')),
  ]);
  const policy: Policy = { ...trigger('once'), name: 'live-zone' };
  const { analysis, view } = viewOf(t, policy);
  const events = analysis.events.filter((e) => e.messageIndex === 2);
  const lines = whyLines(view.messages[2], whyOf(view, 2), policy, { events });
  assert.equal(lines.length, 2, lines.join('\n'));
  assert.match(
    lines[0],
    /^live zone in request 2, block 0: detected as log output → compressed, \d+ → \d+ chars, CCR marker \(original retrievable\)$/,
  );
  assert.equal(lines[1], 'live zone in request 2, block 1: 10 chars < liveZone.minChars 512: not compressed');
});

test('live zone: a compressed form that is not shorter in tokens is kept, and the line says the token gate did it', () => {
  // 11 one-line hunks in one file: the diff compressor keeps 10 and adds its marker, which costs more than the hunk.
  const hunk = (k: number) => `@@ -${k * 10},1 +${k * 10},1 @@\n-a${k}\n+b${k}`;
  const diff = `diff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n${Array.from({ length: 11 }, (_, k) => hunk(k + 1)).join('\n')}\n`;
  const t = transcriptOf([
    user(text('Diff.')),
    assistant(toolUse('a', 'git', {})),
    user(toolResult('a', diff)),
  ]);
  const base = trigger('once');
  const policy: Policy = { ...base, name: 'live-zone', liveZone: { ...base.liveZone, minChars: 100 } };
  const { view } = viewOf(t, policy);
  assert.deepEqual(whyLines(view.messages[2], whyOf(view, 2), policy), [
    'live zone in request 2, block 0: detected as a unified diff; token gate: the compressed form was not shorter, kept',
  ]);
  assert.equal(view.messages[2].rewritten, false);
});

test('a rewrite that would not be shorter is kept, and the line says so with its tokens', () => {
  // The first result is "ok" (its Tier-1 stub would be longer); the 17th is just over maxResultChars (its
  // head-and-tail would add more marker than it cuts).
  const t = toolLoop(25, {
    result: (i) =>
      i === 0
        ? 'ok'
        : i === 16
          ? 'The build finished; 12 files were written. '.repeat(8).slice(0, 310)
          : `line ${i} of the output `.repeat(30),
  });
  const policy = trigger('once');
  const { analysis, view } = viewOf(t, policy);
  const lines = (m: number) =>
    whyLines(view.messages[m], whyOf(view, m), policy, {
      events: analysis.events.filter((e) => e.messageIndex === m),
    });
  assert.deepEqual(lines(2), [
    'distance 24 ≥ tier1Distance 20 and no floor tool → Tier 1: kept: the rewrite would not be shorter (stub, 1 → 23 tokens) (first met in request 27)',
  ]);
  assert.deepEqual(lines(34), [
    'keepRecent 8 ≤ distance 8 < tier1Distance 20 → Tier 2: kept: the rewrite would not be shorter (head and tail, 72 → 77 tokens) (first met in request 27)',
  ]);
  // The list row's tooltip says the same.
  assert.equal(
    whyLine(view.messages[2], whyOf(view, 2), policy),
    'distance 24 ≥ tier1Distance 20 and no floor tool → Tier 1: kept: the rewrite would not be shorter (stub, 1 → 23 tokens) (first met in request 27)',
  );
});
