// Without --model, every command replays with the view's defaults (`model: auto`: each request priced and cached at
// the model that answered it), and numbers requests from 1 as the view does.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { parseTranscript } from '../../../src/core/formats';
import { defaultsFor } from '../../../src/host/policySettings';
import { cliArgs } from '../cliProcess';

const ROOT = join(import.meta.dirname, '..', '..', '..');

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [...cliArgs, ...args], {
    encoding: 'utf8',
    cwd: ROOT,
    timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** A Claude Code session of four tool rounds: two answered by claude-opus-4-6, then two by claude-sonnet-4-6 (a
 * `/model` switch: the new model's cache is cold). */
function switchedSession(): string {
  const records: Record<string, unknown>[] = [];
  let parent: string | null = null;
  let n = 0;
  const add = (r: Record<string, unknown>) => {
    n++;
    const uuid = `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    records.push({
      parentUuid: parent,
      isSidechain: false,
      sessionId: 's1',
      uuid,
      timestamp: `2026-03-01T10:00:${String(n).padStart(2, '0')}Z`,
      ...r,
    });
    parent = uuid;
  };
  const words = (k: number) => Array.from({ length: 1500 }, (_, i) => `w${k}_${i}`).join(' ');
  add({ type: 'user', message: { role: 'user', content: `Please look at these notes. ${words(0)}` } });
  const models = ['claude-opus-4-6', 'claude-opus-4-6', 'claude-sonnet-4-6', 'claude-sonnet-4-6'];
  let prompt = 3000;
  models.forEach((model, i) => {
    const id = `toolu_${i}`;
    add({
      type: 'assistant',
      message: {
        id: `msg_${i}`,
        role: 'assistant',
        model,
        content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: `/f${i}` } }],
        usage: {
          input_tokens: 3,
          cache_read_input_tokens: i === 0 || i === 2 ? 0 : prompt - 3000,
          cache_creation_input_tokens: i === 0 || i === 2 ? prompt : 3000,
          output_tokens: 40,
        },
      },
    });
    add({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: words(i + 1) }] },
    });
    prompt += 3000;
  });
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-defaults-'));
  const file = join(dir, 'session.jsonl');
  writeFileSync(file, `${records.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return file;
}

test('simulate without --model gives the view’s figures: each request at its model, a switch a cold cache', () => {
  const file = switchedSession();
  const r = cli('simulate', file, '--policy', 'none', '--json');
  assert.equal(r.code, 0, r.err);
  const cli_ = JSON.parse(r.out).none;
  const transcript = parseTranscript(new Uint8Array(readFileSync(file)), file);
  const view = analyzeSync(transcript, { ...defaultsFor(transcript), name: 'none' }).analysis;
  assert.deepEqual(
    cli_.requests.map((q: { model: string }) => q.model),
    view.requests.map((q) => q.model),
  );
  assert.deepEqual(
    cli_.requests.slice(0, 4).map((q: { model: string }) => q.model),
    ['claude-opus-4-6', 'claude-opus-4-6', 'claude-sonnet-4-6', 'claude-sonnet-4-6'],
  );
  assert.equal(cli_.totals.cost, view.totals.cost);
  assert.equal(cli_.totals.writtenTokens, view.totals.writtenTokens);
  // The first sonnet request reads none of what opus cached.
  const switched = cli_.requests[2];
  assert.ok(switched.cachedTokens < switched.promptTokens / 4, JSON.stringify(switched));
});

test('simulate’s header says auto and the models that answered; requests are numbered from 1, as in the view', () => {
  const file = switchedSession();
  const r = cli('simulate', file, '--policy', 'none');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /model auto \(answered by claude-opus-4-6, claude-sonnet-4-6/);
  assert.doesNotMatch(r.out, /model claude-sonnet-4 /);
  const rows = r.out.split('\n').filter((l) => /^\s+\d+\*? \|/.test(l));
  assert.deepEqual(
    rows.map((l) => l.trim().split(' ')[0]),
    ['1', '2', '3', '4', '5*'],
  );
  const preset = cli('simulate', file, '--policy', 'none', '--model', 'claude-opus-4.5');
  assert.equal(preset.code, 0, preset.err);
  assert.match(preset.out, /model claude-opus-4\.5 /);
});
