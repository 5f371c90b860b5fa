// Names from a transcript or the command line that are also names on Object.prototype (`constructor`,
// `__proto__`, `toString`): every table keyed by such a name counts them like any other name.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { buildPolicy, UsageError } from '../../../src/cli/policyArgs';
import { validatePolicy } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import { summarizeTranscript } from '../../../src/core/formats/summary';
import { recordedUsage } from '../../../src/core/recordedUsage';
import { cliArgs } from '../cliProcess';

const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

function claudeCode(): string {
  const lines: unknown[] = [];
  let parent: string | null = null;
  NAMES.forEach((name, k) => {
    const a = `a${k}`;
    const u = `u${k}`;
    lines.push({
      type: 'assistant',
      uuid: a,
      parentUuid: parent,
      sessionId: 's',
      timestamp: `2026-01-01T00:00:0${k}Z`,
      message: {
        id: `msg_${k}`,
        role: 'assistant',
        model: name,
        content: [{ type: 'tool_use', id: `toolu_${k}`, name, input: {} }],
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    });
    lines.push({
      type: 'user',
      uuid: u,
      parentUuid: a,
      sessionId: 's',
      timestamp: `2026-01-01T00:00:0${k}Z`,
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${k}`, content: 'ok' }] },
    });
    lines.push({ type: name, uuid: `x${k}`, parentUuid: u, sessionId: 's' });
    parent = u;
  });
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

test('tool, record and model names of Object.prototype are counted like any other name', () => {
  const t = parseTranscript(Buffer.from(claudeCode()), 'protos.jsonl');
  const s = summarizeTranscript(t);
  assert.equal(s.toolCalls.total, NAMES.length);
  for (const name of NAMES) {
    assert.equal(Object.getOwnPropertyDescriptor(s.toolCalls.byName, name)?.value, 1, `tool ${name}`);
    assert.equal(Object.getOwnPropertyDescriptor(s.markers.byLabel, name)?.value, 1, `record type ${name}`);
  }
  const json = JSON.parse(JSON.stringify(s));
  assert.equal(Object.keys(json.toolCalls.byName).length, NAMES.length);
  const usage = recordedUsage(t);
  assert.ok(usage);
  for (const name of NAMES)
    assert.equal(
      Object.getOwnPropertyDescriptor(usage.byModel, name)?.value?.inputTokens,
      10,
      `model ${name}`,
    );
  assert.equal(({} as Record<string, unknown>).inputTokens, undefined, 'Object.prototype is untouched');
});

test('--set __proto__=1 and other prototype names are unknown keys', () => {
  const t = parseTranscript(Buffer.from(claudeCode()), 'protos.jsonl');
  for (const key of NAMES) {
    assert.throws(() => buildPolicy(t, undefined, undefined, [`${key}=1`]), UsageError, key);
    assert.throws(() => buildPolicy(t, undefined, undefined, [`${key}.x=1`]), UsageError, key);
  }
  const checked = validatePolicy(JSON.parse('{"__proto__": {"keepRecent": 1}, "constructor": 1}'));
  assert.ok('errors' in checked && checked.errors.length === 2, JSON.stringify(checked));
});

test('the CLI refuses a command named after a prototype property', () => {
  for (const name of ['constructor', '__proto__', 'toString']) {
    const r = spawnSync(process.execPath, [...cliArgs, name, 'x'], { encoding: 'utf8' });
    assert.equal(r.status, 2, `${name}: ${r.stderr}`);
    assert.match(r.stderr, /unknown command/);
  }
});
