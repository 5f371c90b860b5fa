// Recorded usage out of range (1e308, negative, fractional, > 1e12, a string): reported with the figure's line
// and column, left out of the sums, and the analysis still crosses the protocol check to the view.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../../src/core/analysis';
import { parseTranscript } from '../../../src/core/formats';
import { recordedUsage } from '../../../src/core/recordedUsage';
import { defaultsFor } from '../../../src/host/policySettings';
import { TranscriptSession } from '../../../src/host/session';
import { type HostMessage, parseHostMessage } from '../../../src/protocol';

const real = (...p: string[]) =>
  readFileSync(join(import.meta.dirname, '..', '..', 'fixtures', 'real', ...p), 'utf8');

const BAD = ['1e308', '-5', '2.5', '2000000000000', '"12"', '-1e308'];

/** The Claude Code fixture with its first usage figures replaced, one bad value per assistant record. */
function hostileClaudeCode(): { text: string; spots: { line: number; column: number }[] } {
  const lines = real('claude-code', 'drmaciver-coverage-test-fix.jsonl').split('\n');
  const spots: { line: number; column: number }[] = [];
  let k = 0;
  for (let i = 0; i < lines.length && k < BAD.length; i++) {
    const m = /"usage":\{"input_tokens":(\d+)/.exec(lines[i]);
    if (!m) continue;
    const at = m.index + m[0].length - m[1].length;
    lines[i] = lines[i].slice(0, at) + BAD[k++] + lines[i].slice(at + m[1].length);
    spots.push({ line: i + 1, column: at + 1 });
  }
  assert.equal(k, BAD.length);
  return { text: lines.join('\n'), spots };
}

test('Claude Code: every out-of-range figure is reported where it is written and left out of the sums', () => {
  const { text, spots } = hostileClaudeCode();
  const t = parseTranscript(Buffer.from(text), 'hostile.jsonl');
  const found = t.diagnostics.filter((d) => d.code === 'usage-out-of-range');
  assert.deepEqual(
    found.map((d) => ({ line: d.line, column: d.column })),
    spots,
  );
  assert.match(found[0].message, /message\.usage\.input_tokens is 1e\+308/);
  const usage = recordedUsage(t);
  assert.ok(usage);
  for (const [key, value] of Object.entries(usage))
    if (typeof value === 'number') assert.ok(Number.isFinite(value) && value >= 0, `${key} = ${value}`);
  const clean = recordedUsage(
    parseTranscript(Buffer.from(real('claude-code', 'drmaciver-coverage-test-fix.jsonl'))),
  );
  assert.ok(clean && usage.inputTokens < clean.inputTokens, 'the bad figures are not counted');
});

test('Claude Code: the analysis of a file with huge usage crosses the view protocol check (was "Analysing…" forever)', async () => {
  const sent: Extract<HostMessage, { type: 'analysis' }>[] = [];
  const s = new TranscriptSession(
    'hostile.jsonl',
    { parse: parseTranscript, analyze: (t, p) => analyze(t, p) },
    (m) => sent.push(m),
    (e) => assert.fail(String(e)),
  );
  // Every reply's input is 1e308: the sums overflowed to Infinity and the cost ratios to NaN.
  const text = real('claude-code', 'drmaciver-coverage-test-fix.jsonl').replace(
    /"input_tokens":\d+/g,
    '"input_tokens":1e308',
  );
  s.load(Buffer.from(text));
  await s.request(defaultsFor(s.model), 'none', 1);
  assert.equal(sent.length, 1);
  const checked = parseHostMessage(JSON.parse(JSON.stringify(sent[0], (_k, v) => v)));
  assert.ok(checked.ok, checked.ok ? '' : checked.error);
  // structured clone keeps Infinity and NaN where JSON would not: check the message as sent, too
  const direct = parseHostMessage(sent[0]);
  assert.ok(direct.ok, direct.ok ? '' : direct.error);
});

test('Codex: out-of-range token_count figures and more cached than input are reported and left out', () => {
  const lines = real('codex', 'kvsankar-real-session-01-redacted.jsonl').split('\n');
  const i = lines.findIndex((l) => l.includes('"type":"token_count"'));
  const last = lines[i].indexOf('"last_token_usage":{');
  const tail = lines[i].slice(last).replace('"input_tokens":22539', '"input_tokens":1e308');
  lines[i] = lines[i].slice(0, last) + tail;
  const t = parseTranscript(Buffer.from(lines.join('\n')), 'hostile.jsonl');
  const found = t.diagnostics.filter((d) => d.code === 'usage-out-of-range');
  // input_tokens is out of range, and then the 20,864 cached are more than the 0 left
  assert.equal(found.length, 2);
  assert.equal(found[0].line, i + 1);
  assert.equal(found[0].column, lines[i].indexOf('1e308') + 1);
  const usage = recordedUsage(t);
  assert.ok(usage && Number.isFinite(usage.inputTokens) && usage.inputTokens >= 0);
});
