// The live zone compresses build/log output only (SPEC §4: "only when most of its lines have the shape of log
// lines"), never what the agent must remember: a compaction summary, a plan, notes or a source file it read that
// mention errors.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { detectType } from '../../../src/core/engine/compressors/detect';
import { DEFAULT_POLICY, type Policy } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import { REAL_LONG_DIR } from '../../sharedFixtures';
import { assistant, text, toolResult, toolUse, transcriptOf, user } from '../transcripts';

const liveZone: Policy = { ...DEFAULT_POLICY, name: 'live-zone' };

const summary = [
  'This session is being continued from a previous conversation that ran out of context.',
  '',
  'Analysis:',
  '1. Primary Request and Intent:',
  '   The user asked to fix the failing build and keep the public API as it is.',
  '2. Key Technical Concepts:',
  '   - the parser reports an error with line and column',
  '   - a warning is shown when a record is cut',
  '3. Files and Code Sections:',
  '   - src/parser.ts: the error path was rewritten.',
  '4. Errors and fixes:',
  '   - TypeError: cannot read length of undefined; fixed by checking the record first.',
  '   - The test failed on Windows line endings; fixed by normalising them.',
  '5. Pending Tasks:',
  '   - Run the full test suite again.',
].join('\n');

const gutter = (lines: string[], arrow = '\u2192') =>
  lines.map((l, i) => `${String(i + 1).padStart(6)}${arrow}${l}`).join('\n');

test('prose that discusses errors is plain text: a compaction summary, a plan, notes read from a file', () => {
  assert.equal(detectType(summary), 'text');
  const plan = [
    '# Plan: make the export atomic',
    '',
    '## Steps',
    '1. Write every file under a temporary name; on any error, remove them all.',
    '2. Rename them once every one is written, so that a failure leaves the old files.',
    '3. Report the error with the path that failed.',
    '',
    '## Risks',
    '- A rename that fails half way: handled by writing the list of renames first.',
    '- Warnings from the file system are logged, not fatal.',
  ].join('\n');
  assert.equal(detectType(plan), 'text');
  const decisions = gutter([
    '---',
    'authority: LOGAN',
    'related:',
    "  - '2026-03-25'",
    '---',
    '# Decisions',
    '',
    '- 2026-03-16: errors in the importer are reported per line, never fatal.',
    '- 2026-03-22: a failed sync is retried once, then shown as a warning.',
    '- 2026-04-02: the exception list lives in DECISIONS.md, not in the code.',
    '',
    'The errors we accept are listed with the reason each one is harmless.',
  ]);
  assert.equal(detectType(decisions), 'text');
});

test('a source file read with its gutter is judged by its own lines, not as a log for its error words', () => {
  const source = gutter([
    'import logging',
    '',
    'def load(path):',
    '    try:',
    '        return parse(path)',
    '    except ValueError as error:',
    '        logging.error("failed to parse %s: %s", path, error)',
    '        raise',
    '',
    'class Loader:',
    '    errors: list[str]',
    '    def warn(self, message):',
    '        self.errors.append(message)',
  ]);
  assert.equal(detectType(source), 'code');
  // `cat -n`'s tab gutter likewise.
  assert.equal(detectType(source.replace(/\u2192/g, '\t')), 'code');
  // A log file read is still a log: its lines lead with times.
  const logFile = gutter(
    Array.from({ length: 20 }, (_, i) =>
      i === 7
        ? `2026-05-02 19:30:${String(i).padStart(2, '0')} ERROR job ${i} failed`
        : `2026-05-02 19:30:${String(i).padStart(2, '0')} INFO job ${i} done`,
    ),
  );
  assert.equal(detectType(logFile), 'log');
});

test('command output with error lines is still build/log output', () => {
  const build = [
    '> app@0.1.0 build',
    '> tsc -p .',
    ...Array.from(
      { length: 12 },
      (_, i) =>
        `src/module${i}.ts(${i + 3},5): error TS2322: Type 'string' is not assignable to type 'number'.`,
    ),
    'Found 12 errors in 12 files.',
  ].join('\n');
  assert.equal(detectType(build), 'log');
  const apt = Array.from({ length: 30 }, (_, i) =>
    i === 12
      ? 'dpkg: error processing package libfoo (--configure):'
      : `Setting up package-${i} (1.${i}-1) ...`,
  ).join('\n');
  assert.equal(detectType(apt), 'log');
});

test('a compaction summary in the live zone is never compressed, whatever its text', () => {
  // Shaped as a log on purpose: the summary is kept for what it is, not for how it reads.
  const logShaped = Array.from({ length: 40 }, (_, i) =>
    i % 10 === 3 ? `ERROR step ${i} failed` : `step ${i} done`,
  ).join('\n');
  const t = transcriptOf(
    [
      user(text('start')),
      assistant(toolUse('a', 'bash', {})),
      user(toolResult('a', 'ok')),
      assistant(text('done')),
      user(text(logShaped)),
    ],
    { markers: [{ kind: 'compaction', label: 'compact_boundary', beforeMessage: 4 }] },
  );
  const a = analyzeSync(t, liveZone);
  assert.equal(a.rewrites.length, 0);
  assert.deepEqual(
    a.analysis.why?.liveZone.filter((l) => l.message === 4).map((l) => l.outcome),
    ['summary'],
  );
  // The same text without the marker is a log, and compressed.
  const plain = analyzeSync(transcriptOf(t.messages), liveZone);
  assert.equal(plain.rewrites.length, 1);
});

test('on a real session: the summaries, the approved plan and the notes read are left as they are', (t) => {
  const file = join(REAL_LONG_DIR, 'claude-code', 'laf-us-05541cb5-six-compactions-v2.1.92.jsonl');
  if (!existsSync(file)) return t.skip('the shared real-long fixtures are not beside the repository');
  const transcript = parseTranscript(new Uint8Array(readFileSync(file)), file);
  const textOf = (index: number) => {
    const b = transcript.messages[index].blocks.find((x) => x.type === 'text' || x.type === 'tool_result');
    if (b?.type === 'text') return b.text;
    if (b?.type === 'tool_result' && typeof b.content === 'string') return b.content;
    throw new Error(`message ${index} holds no text`);
  };
  for (const index of [3, 6, 9, 12, 205, 484])
    assert.match(textOf(index), /^This session is being continued/, `message ${index} is a summary`);
  assert.match(textOf(98), /^User has approved your plan/);
  const decisions = transcript.messages[322].blocks.find((b) => b.type === 'tool_result');
  assert.ok(decisions?.type === 'tool_result' && typeof decisions.content === 'string');
  for (const [index, what] of [
    [98, 'the approved plan'],
    [322, 'DECISIONS.md as read'],
  ] as const)
    assert.notEqual(detectType(textOf(index)), 'log', what);
  const a = analyzeSync(transcript, liveZone);
  const compressed = new Set(
    a.analysis.why?.liveZone.filter((l) => l.outcome === 'compressed').map((l) => l.message),
  );
  for (const index of [3, 6, 9, 12, 205, 484, 98, 322])
    assert.ok(!compressed.has(index), `message ${index} is not compressed`);
});
