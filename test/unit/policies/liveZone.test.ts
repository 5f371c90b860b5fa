import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { detectType } from '../../../src/core/engine/compressors/detect';
import { compressDiff } from '../../../src/core/engine/compressors/diff';
import { compressJsonArray } from '../../../src/core/engine/compressors/jsonArray';
import { compressLog } from '../../../src/core/engine/compressors/log';
import { compressSearch } from '../../../src/core/engine/compressors/search';
import { ccrHash } from '../../../src/core/engine/hash';
import { compressByType } from '../../../src/core/engine/liveZone';
import { DEFAULT_POLICY, type Policy } from '../../../src/core/engine/policy';
import { tokenCounter } from '../../../src/core/tokens/counter';
import { assistant, text, toolResult, toolUse, transcriptOf, user } from '../transcripts';

const liveZone: Policy = { ...DEFAULT_POLICY, name: 'live-zone' };

function searchResult(lines: number): string {
  return Array.from(
    { length: lines },
    (_, i) =>
      `src/module_${i % 40}/file_${i % 7}.ts:${100 + i}:    const value${i} = compute(alpha, beta); // TODO match`,
  ).join('\n');
}

test('type detection follows the SPEC order', () => {
  assert.equal(detectType('[1, 2, 3]'), 'json-array');
  assert.equal(detectType('diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n c'), 'diff');
  assert.equal(detectType('<!DOCTYPE html><html><body>hi</body></html>'), 'html');
  assert.equal(detectType(searchResult(5)), 'search');
  assert.equal(detectType(`${'compiling\n'.repeat(12)}error TS2304: Cannot find name 'x'.`), 'log');
  assert.equal(detectType('a\tb\tc\n1\t2\t3\n4\t5\t6'), 'tabular');
  assert.equal(detectType('import x from "y";\nconst a = 1;\nfunction f() {\n  return a;\n}'), 'code');
  assert.equal(detectType('Just some words about the weather.'), 'text');
});

test('JSON array: 8 or fewer items kept whole; otherwise 15 kept with the exact CCR row', () => {
  assert.equal(compressJsonArray([1, 2, 3, 4, 5, 6, 7, 8], 'h'), null);
  const items = Array.from({ length: 100 }, (_, i) => ({
    id: i,
    status: i === 50 ? 'error: disk full' : 'ok',
    ms: i === 70 ? 99999 : 10,
  }));
  const out = JSON.parse(compressJsonArray(items, 'abc')!) as { id?: number; _ccr_dropped?: string }[];
  // First 30% of 15 (4), last 15% of 15 (2), then the error item and the outlier.
  assert.deepEqual(
    out.map((x) => x.id),
    [0, 1, 2, 3, 50, 70, 98, 99, undefined],
  );
  assert.deepEqual(out.at(-1), { _ccr_dropped: '<<ccr:abc 92_rows_offloaded>>' });
});

test('search results: at most 5 per file, 30 in all, 15 files, then the exact marker', () => {
  const grep = Array.from({ length: 200 }, (_, i) => `src/module_${i % 20}.ts:${i + 1}:match ${i}`).join(
    '\n',
  );
  const out = compressSearch(grep, 'HASH')!;
  const lines = out.split('\n');
  assert.equal(lines.at(-1), '[200 matches compressed to 30. Retrieve more: hash=HASH]');
  const files = lines.slice(0, -1).map((l) => l.split(':')[0]);
  assert.equal(files.length, 30);
  assert.ok(new Set(files).size <= 15);
  for (const f of new Set(files)) assert.ok(files.filter((x) => x === f).length <= 5);
  assert.equal(compressSearch(searchResult(4), 'H'), null, 'nothing to drop');
});

test('log: error lines with 3 lines of context and the exact marker', () => {
  const lines = Array.from({ length: 50 }, (_, i) => `step ${i}`);
  lines[20] = 'ERROR: build failed in src/a.ts';
  const out = compressLog(lines.join('\n'), 'HASH')!;
  assert.equal(
    out,
    [
      'step 17',
      'step 18',
      'step 19',
      'ERROR: build failed in src/a.ts',
      'step 21',
      'step 22',
      'step 23',
      '[50 lines compressed to 7. Retrieve more: hash=HASH]',
    ].join('\n'),
  );
});

test('log: at most 10 errors and 100 lines', () => {
  const lines = Array.from({ length: 400 }, (_, i) => (i % 10 === 0 ? `error ${i}` : `line ${i}`));
  const out = compressLog(lines.join('\n'), 'H')!.split('\n');
  assert.equal(out.filter((l) => l.startsWith('error')).length, 10);
  // Error 0 has no lines before it: 4 + 9 × 7 lines.
  assert.equal(out.at(-1), '[400 lines compressed to 67. Retrieve more: hash=H]');
});

test('diff: 2 context lines around changes, headers recomputed, exact marker', () => {
  const before = Array.from({ length: 20 }, (_, i) => ` line ${i + 1}`);
  const body = [...before.slice(0, 10), '-old 11', '+new 11', ...before.slice(11)];
  const diff = ['diff --git a/f b/f', '--- a/f', '+++ b/f', '@@ -1,20 +1,20 @@ fn main', ...body].join('\n');
  assert.equal(
    compressDiff(diff, 'H'),
    [
      'diff --git a/f b/f',
      '--- a/f',
      '+++ b/f',
      '@@ -9,5 +9,5 @@ fn main',
      ' line 9',
      ' line 10',
      '-old 11',
      '+new 11',
      ' line 12',
      ' line 13',
      'Retrieve full diff: hash=H',
    ].join('\n'),
  );
});

test('live zone: only the newest user message; token gate; CCR holds every marker hash', () => {
  const big = searchResult(300);
  const t = transcriptOf([
    user(text('find the callers')),
    assistant(toolUse('s1', 'grep', { q: 'compute' })),
    user(toolResult('s1', big)),
    assistant(toolUse('s2', 'grep', { q: 'compute' })),
    user(toolResult('s2', big), text('short note'), toolResult('s2b', 'x'.repeat(600))),
  ]);
  const r = analyzeSync(t, liveZone);
  assert.deepEqual(
    r.rewrites.map((w) => [w.messageIndex, w.blockIndex]),
    [[4, 0]],
    'prefix untouched; short text and incompressible plain text left alone',
  );
  const hash = ccrHash(big);
  assert.ok(
    (r.rewrites[0].content as string).endsWith(`[300 matches compressed to 30. Retrieve more: hash=${hash}]`),
  );
  assert.deepEqual(r.ccr, { [hash]: big });
  assert.equal(r.analysis.events[0].action, 'live_zone');
  assert.equal(r.analysis.messages[4].zone, 'live');
});

test('the live-zone seed worked example: 6 turns, keep 2, a 40,000-token search result', () => {
  const counter = tokenCounter('o200k_base');
  let lines = 1500;
  let result = searchResult(lines);
  while (counter.count(result) < 40_000) {
    lines += 100;
    result = searchResult(lines);
  }
  const t = transcriptOf(
    [
      user(text('Turn 1: what does the service do?')),
      assistant(text('It serves requests.')),
      user(text('Turn 2: where is compute defined?')),
      assistant(text('In src/compute.ts.')),
      user(text('Turn 3: list its callers.')),
      assistant(text('Searching.')),
      user(text('Turn 4: include tests.')),
      assistant(toolUse('grep1', 'grep', { pattern: 'compute(' })),
      user(text('Turn 5: here are the results.'), toolResult('grep1', result)),
    ],
    { system: 'You are a coding agent.', tools: [{ name: 'grep', input_schema: { type: 'object' } }] },
  );
  const r = analyzeSync(t, { ...liveZone, liveZone: { ...liveZone.liveZone, keepTurns: 2 } });
  // Zones: turns 1-2 prefix, turns 3-4 protected, the latest user message live.
  assert.deepEqual(
    r.analysis.messages.map((m) => m.zone),
    ['prefix', 'prefix', 'prefix', 'prefix', 'protected', 'protected', 'protected', 'protected', 'live'],
  );
  // Only the tool result changes; the short user text (under minChars) and every earlier block stay.
  assert.deepEqual(
    r.rewrites.map((w) => [w.messageIndex, w.blockIndex]),
    [[8, 1]],
  );
  const before = r.analysis.messages[8].tokensBefore;
  const after = r.analysis.messages[8].tokensAfter;
  assert.ok(before > 40_000);
  assert.ok(before - after > 39_000, `saved ${before - after} tokens`);
  const hash = ccrHash(result);
  assert.equal(r.ccr[hash], result, 'the original stays retrievable');
  // Order of messages and blocks unchanged; the prefix byte-identical.
  assert.equal(r.analysis.messages.length, t.messages.length);
  assert.ok(r.analysis.events.every((e) => e.messageIndex === 8));
});

test('live zone in a replay: each user message is compressed once, when it is the live zone', () => {
  const big = searchResult(300);
  const t = transcriptOf([
    user(text('go')),
    assistant(toolUse('a', 'grep', {})),
    user(toolResult('a', big)),
    assistant(toolUse('b', 'grep', {})),
    user(toolResult('b', `${big}\n`)),
    assistant(text('done')),
  ]);
  const r = analyzeSync(t, {
    ...liveZone,
    replay: {
      trigger: 'everyRequest',
      pressureFraction: 0.95,
      cacheTtl: 'auto',
      openaiCacheRetention: 'auto',
      baseline: 'as-logged',
    },
  });
  assert.deepEqual(
    r.analysis.events.map((e) => [e.requestIndex, e.messageIndex]),
    [
      [1, 2],
      [2, 4],
    ],
  );
  // The request after a live-zone rewrite reads it from cache: the boundary is the new message, not the rewrite.
  assert.equal(r.analysis.requests[2].boundaryMessage, 3);
});

test('log: 3 stack traces of at most 20 lines, 5 warnings, 100 lines in all', () => {
  const lines: string[] = [];
  for (let t = 0; t < 5; t++) {
    lines.push(`TypeError: boom ${t}`);
    for (let f = 0; f < 30; f++) lines.push(`    at fn${f} (src/file${f}.ts:${f}:1)`);
    lines.push('continuing');
  }
  const out = compressLog(lines.join('\n'), 'H')!.split('\n');
  assert.equal(out.filter((l) => l.startsWith('TypeError')).length, 3);
  assert.equal(out.filter((l) => l.startsWith('    at ')).length, 60);
  const warn = Array.from({ length: 300 }, (_, i) => (i % 20 === 0 ? `warning: w${i}` : `ok ${i}`));
  const w = compressLog(warn.join('\n'), 'H')!.split('\n');
  assert.equal(w.filter((l) => l.startsWith('warning')).length, 5);
  const many = Array.from({ length: 1000 }, (_, i) => (i % 3 === 0 ? `error ${i}` : `x ${i}`));
  assert.ok(compressLog(many.join('\n'), 'H')!.split('\n').length <= 101);
});

test('diff: at most 20 files and 10 hunks per file', () => {
  const files: string[] = [];
  for (let f = 0; f < 25; f++) {
    files.push(`diff --git a/f${f} b/f${f}`, `--- a/f${f}`, `+++ b/f${f}`);
    for (let h = 0; h < 12; h++)
      files.push(`@@ -${h * 10 + 1},1 +${h * 10 + 1},1 @@`, `-old ${f}.${h}`, `+new ${f}.${h}`);
  }
  const out = compressDiff(files.join('\n'), 'H')!.split('\n');
  assert.equal(out.filter((l) => l.startsWith('diff --git')).length, 20);
  assert.equal(out.filter((l) => l.startsWith('@@')).length, 200);
  assert.equal(out.at(-1), 'Retrieve full diff: hash=H');
});

test('JSON array of plain items keeps the first 4 and last 2 and offloads the rest', () => {
  const items = Array.from({ length: 40 }, (_, i) => ({ id: i, name: `item ${i}` }));
  const out = JSON.parse(compressJsonArray(items, 'h')!) as { id?: number }[];
  assert.deepEqual(
    out.map((x) => x.id),
    [0, 1, 2, 3, 38, 39, undefined],
  );
  assert.deepEqual(out.at(-1), { _ccr_dropped: '<<ccr:h 34_rows_offloaded>>' });
});

test('the live zone leaves text the token gate refuses and types that are left as they are', () => {
  const html = `<html><body>${'<div>cell</div>'.repeat(200)}</body></html>`;
  const t = transcriptOf([
    user(text('a')),
    assistant(toolUse('x', 'fetch', {})),
    user(toolResult('x', html)),
  ]);
  assert.equal(analyzeSync(t, liveZone).rewrites.length, 0);
});

// ---- Fixes found by running the reference proxy's own cases against the SPEC ----

/** A service log of `count` lines in one of the timestamp styles agents meet, with two error lines in it. */
function timestampedLog(style: (i: number, level: string, text: string) => string, count = 60): string {
  return Array.from({ length: count }, (_, i) => {
    if (i === 17) return style(i, 'ERROR', 'payment gateway refused charge 4411: card expired');
    if (i === 41) return style(i, 'ERROR', 'worker 3 lost its lease on queue "invoices"');
    return style(i, 'INFO', `worker ${i % 4} settled batch ${1000 + i} in ${20 + (i % 9)} ms`);
  }).join('\n');
}
const ss = (i: number) => String(i % 60).padStart(2, '0');
const TIMESTAMP_STYLES: [string, (i: number, level: string, text: string) => string][] = [
  ['date, space, time', (i, level, t) => `2026-05-02 19:30:${ss(i)} ${level} ${t}`],
  ['bracketed level, ISO time', (i, level, t) => `[${level}] 2026-05-02T19:30:${ss(i)}.000Z ${t}`],
  ['bare ISO time', (i, level, t) => `2026-05-02T19:30:${ss(i)}.123Z ${level} ${t}`],
  ['time of day only', (i, level, t) => `19:30:${ss(i)} ${level} ${t}`],
];

test('a log whose lines start with a timestamp is build/log output, not search results, and keeps its errors', () => {
  for (const [name, style] of TIMESTAMP_STYLES) {
    const log = timestampedLog(style);
    assert.equal(detectType(log), 'log', name);
    const out = compressByType(log, detectType(log), true);
    assert.ok(out, name);
    assert.equal(out.type, 'log', name);
    assert.match(out.text, /card expired/, name);
    assert.match(out.text, /lost its lease/, name);
    assert.ok(out.text.endsWith(`[60 lines compressed to 14. Retrieve more: hash=${ccrHash(log)}]`), name);
  }
});

test('search lines are path:line: with a path that holds no whitespace', () => {
  const grep = [
    'src/billing/charge.ts:88:  if (card.expired) throw new CardExpired(card.id);',
    'src/billing/charge.ts:131:  // retry an expired card once: 19:30:00 is the cut-off',
    'C:\\work\\billing\\lease.ts:7:export const LEASE_MS = 30_000;',
    'test/billing.test.ts:12:  expect(charge(expired)).rejects.toThrow();',
  ].join('\n');
  assert.equal(detectType(grep), 'search');
  // A sentence with a colon and a number is not a match line: its "path" has spaces.
  const prose = [
    'Meeting notes for sprint 14:3: the lease bug',
    'Decided at standup 09:15: move the cut-off',
    'Owner of ticket 88:2: billing team',
    'Next review 2:30: Friday',
  ].join('\n');
  assert.notEqual(detectType(prose), 'search');
});

test('diff: a hunk whose @@ counts disagree with its body still counts as one hunk of its file', () => {
  // Hand-edited and generated diffs often carry "@@ -1 +1 @@" over a longer body; 30 such hunks in one file.
  const lines = ['diff --git a/notes.txt b/notes.txt', '--- a/notes.txt', '+++ b/notes.txt'];
  for (let h = 0; h < 30; h++)
    lines.push(`@@ -${h * 10 + 1} +${h * 10 + 1} @@`, `-draft ${h}`, `+final ${h}`, ` shared line ${h}`);
  const diff = lines.join('\n');
  assert.equal(detectType(diff), 'diff');
  const out = compressDiff(diff, 'H');
  assert.ok(out, 'the diff is compressed, not left whole');
  const kept = out.split('\n');
  assert.equal(kept.filter((l) => l.startsWith('@@')).length, 10, 'at most 10 hunks of the one file');
  assert.equal(kept.filter((l) => l.startsWith('diff --git')).length, 1);
  // Headers are recomputed from the body: each kept hunk has 2 old lines and 2 new lines.
  assert.equal(kept[3], '@@ -1,2 +1,2 @@');
  assert.deepEqual(kept.slice(4, 7), ['-draft 0', '+final 0', ' shared line 0']);
  assert.equal(kept.at(-1), 'Retrieve full diff: hash=H');
});

test('diff: @@ counts larger than the body do not swallow the next hunk header', () => {
  const lines = ['--- a/app.cfg', '+++ b/app.cfg'];
  for (let h = 0; h < 14; h++)
    lines.push(`@@ -${h * 50 + 1},40 +${h * 50 + 1},40 @@`, `-port=${h}`, `+port=${h + 1}`);
  const out = compressDiff(lines.join('\n'), 'H');
  assert.ok(out);
  assert.equal(out.split('\n').filter((l) => l.startsWith('@@')).length, 10);
  assert.ok(
    out.split('\n').every((l) => !/^[ +-]@@/.test(l)),
    'no header turned into a body line',
  );
});

test('with liveZone.ccr off every compressor writes its plain form: no hash, no marker pointing at a store', () => {
  const grep = Array.from({ length: 200 }, (_, i) => `src/module_${i % 20}.ts:${i + 1}:match ${i}`).join(
    '\n',
  );
  assert.equal(compressSearch(grep, null)!.split('\n').at(-1), '[200 matches compressed to 30]');
  const log = Array.from({ length: 50 }, (_, i) => (i === 20 ? 'ERROR: build failed' : `step ${i}`)).join(
    '\n',
  );
  assert.equal(compressLog(log, null)!.split('\n').at(-1), '[50 lines compressed to 7]');
  const before = Array.from({ length: 20 }, (_, i) => ` line ${i + 1}`);
  const diff = [
    '--- a/f',
    '+++ b/f',
    '@@ -1,20 +1,20 @@',
    ...before.slice(0, 10),
    '-old',
    '+new',
    ...before.slice(11),
  ];
  assert.equal(compressDiff(diff.join('\n'), null)!.split('\n').at(-1), '[24 lines compressed to 9]');
  const items = Array.from({ length: 40 }, (_, i) => ({ id: i, name: `item ${i}` }));
  const rows = JSON.parse(compressJsonArray(items, null)!) as Record<string, unknown>[];
  assert.deepEqual(rows.at(-1), { _dropped: '[40 items compressed to 6]' });
  for (const text of [grep, log, diff.join('\n'), JSON.stringify(items)]) {
    const out = compressByType(text, detectType(text), false)!;
    assert.ok(out, text.slice(0, 20));
    assert.equal(out.hash, null);
    assert.doesNotMatch(out.text, /hash=|<<ccr:/);
  }
});

test('live zone with liveZone.ccr off: the plain form is written and the store stays empty', () => {
  const big = searchResult(300);
  const t = transcriptOf([
    user(text('find the callers')),
    assistant(toolUse('s1', 'grep', { q: 'compute' })),
    user(toolResult('s1', big)),
  ]);
  const off = analyzeSync(t, { ...liveZone, liveZone: { ...liveZone.liveZone, ccr: false } });
  assert.equal(off.rewrites.length, 1);
  assert.ok((off.rewrites[0].content as string).endsWith('[300 matches compressed to 30]'));
  assert.deepEqual(off.ccr, {});
  // The same transcript with the store on, analysed after (a compression is remembered per transcript).
  const on = analyzeSync(t, liveZone);
  assert.ok((on.rewrites[0].content as string).endsWith(`Retrieve more: hash=${ccrHash(big)}]`));
  assert.deepEqual(on.ccr, { [ccrHash(big)]: big });
});
