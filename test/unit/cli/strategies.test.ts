// `simulate` on the real six-compaction Claude Code session: none, the SPEC's designs, Anthropic context editing
// with the API's defaults and compaction side by side, and the simulated compactions where the log's were, at the
// point Claude Code compacts (its window less 33,000 tokens: 167,000 / 200,000).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { sessionPreset } from '../../../src/core/engine/models';
import { defaultPolicyFor } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import { REAL_LONG_DIR } from '../../sharedFixtures';
import { cliArgs } from '../cliProcess';

const FILE = join(REAL_LONG_DIR, 'claude-code', 'laf-us-05541cb5-six-compactions-v2.1.92.jsonl');

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [...cliArgs, ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

test('the threshold Claude Code used: its window less 33,000 tokens, just under the least count it compacted at', (t) => {
  if (!existsSync(FILE)) return t.skip('the shared real-long fixtures are not beside the repository');
  const session = parseTranscript(new Uint8Array(readFileSync(FILE)), FILE);
  const pre = session.markers.flatMap((m) => (m.preTokens !== undefined ? [m.preTokens] : []));
  assert.equal(pre.length, 6);
  const window = sessionPreset('auto', session.format, session.model)!.contextWindow;
  assert.equal(window, 200_000);
  // Claude Code: window − 20,000 (the summary's output) − 13,000 (buffer) = 167,000; the least count it compacted at
  // is just above it.
  assert.equal(Math.min(...pre), 167_731);
  assert.equal(defaultPolicyFor(session.format).compaction.threshold, (window - 20_000 - 13_000) / window);
});

test('simulate prints none, tiered, live-zone, context editing and compaction side by side; the compactions land on the log’s', (t) => {
  if (!existsSync(FILE)) return t.skip('the shared real-long fixtures are not beside the repository');
  const r = cli('simulate', FILE);
  assert.equal(r.code, 0, r.err);
  const header = r.out.split('\n').find((l) => l.startsWith('req | msgs'))!;
  for (const name of ['none', 'tiered', 'live-zone', 'anthropic-context-editing', 'compaction'])
    assert.ok(header.includes(`| ${name}: prompt/cached/written`), `${name} in ${header}`);
  assert.match(r.out, /compaction: 6 compactions simulated \(from documented behaviour\), 6 in the log/);
  assert.match(
    r.out,
    /anthropic-context-editing, compaction, claude-code-microcompact, anthropic-compaction: simulated from the providers' documented behaviour/,
  );
  for (const line of ['against "as logged"', '  anthropic-context-editing ', '  compaction '])
    assert.ok(r.out.includes(line), line);

  const session = parseTranscript(new Uint8Array(readFileSync(FILE)), FILE);
  const policy = { ...defaultPolicyFor(session.format), name: 'compaction' as const };
  const c = analyzeSync(session, policy).analysis.compactions!;
  assert.equal(c.recorded.length, 6);
  // One simulated compaction per recorded one, each within one request of it (in order: the two lists pair up).
  assert.equal(c.simulated.length, c.recorded.length);
  for (const [i, rec] of c.recorded.entries())
    assert.ok(
      Math.abs(c.simulated[i] - rec.request) <= 1,
      `simulated ${c.simulated[i]}, logged ${rec.request}`,
    );
  // The recorded ones are printed beside them.
  for (const rec of c.recorded)
    assert.match(
      r.out,
      new RegExp(
        `in the log before request ${rec.request + 1} \\(message ${rec.beforeMessage}\\): ${rec.preTokens} tokens before it`,
      ),
    );
});

test('recommend names the cheapest strategy with its figures and the settings to paste', (t) => {
  if (!existsSync(FILE)) return t.skip('the shared real-long fixtures are not beside the repository');
  const r = cli('recommend', FILE);
  assert.equal(r.code, 0, r.err);
  const m =
    /Recommended: (\S+) with (.*): \$([\d.]+) against "as logged" \$([\d.]+) \(−\$([\d.]+), −([\d.]+)%\)/.exec(
      r.out,
    );
  assert.ok(m, r.out);
  const none = Number(m[4]);
  // Three figures printed to four decimals each: the difference of the printed ones is off by up to 1.5 of the last.
  assert.ok(Math.abs(none - Number(m[3]) - Number(m[5])) <= 1.5e-4 + 1e-9, m[0]);
  const json = r.out.slice(r.out.indexOf('settings.json:\n') + 'settings.json:\n'.length);
  const settings = JSON.parse(json.slice(0, json.indexOf('\n}') + 2));
  assert.equal(settings['contextLens.policy'], m[1]);
  // Every policy's cheapest settings are listed, context editing among them, marked as simulated.
  assert.match(r.out, /\n {2}anthropic-context-editing +\$[\d.]+ \([+−]\$[\d.]+, [+−][\d.]+%\) †/);
});
