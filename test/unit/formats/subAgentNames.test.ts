// Sub-agents are named by the description of the call that started them (Claude Code's Task and Agent tools), not
// by their id: in the view's picker of conversations, the main list's marker, and the Sessions view's rows.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { parseTranscript } from '../../../src/core/formats';
import { describedBy, threadsOf } from '../../../src/core/threads';
import { REAL_LONG_DIR } from '../../sharedFixtures';

const real = (name: string) => join(REAL_LONG_DIR, 'claude-code', name);

for (const [name, expected] of [
  // Sub-agents whose turns only the parent's progress records carry (Claude Code 2.1.19).
  [
    'aistrad-560343df-two-microcompactions-v2.1.19.jsonl',
    [
      '探索 vibelife 代码结构',
      '设计 Core 层重构方案',
      '设计 Skill 层迁移方案',
      'Explore V9 refactoring targets',
      'Explore skill SKILL.md files',
    ],
  ],
  // A sidechain inline in the session's file (Claude Code 1.0.89).
  ['swordintel-1b2c0332-inline-sidechains-v1.0.89.jsonl', ['Analyze and fix method signature mismatches']],
] as const) {
  test(`${name}: each sub-agent is named by its Task call's description`, {
    skip: !existsSync(real(name)),
  }, () => {
    const t = parseTranscript(readFileSync(real(name)), real(name));
    const subAgents = threadsOf(t).slice(1);
    assert.deepEqual(
      subAgents.map((s) => s.description),
      expected,
    );
    const markers = t.markers.filter((m) => m.label === 'sidechain').map((m) => m.text ?? '');
    assert.equal(markers.length, expected.length);
    for (const [i, s] of subAgents.entries())
      assert.ok(markers[i].includes(`"${expected[i]}" (${s.id})`), markers[i]);
  });
}

test('a prompt cut short, as a listing reads it, names its call; an unknown prompt names none', () => {
  const calls = [
    { prompt: 'Search the vault for notes about plugins and storage', description: 'Find plugin notes' },
    { prompt: 'Read LEVELSET', description: 'Read conventions' },
  ];
  assert.equal(describedBy(calls, 'Search the vault for notes…'), 'Find plugin notes');
  assert.equal(describedBy(calls, 'Read LEVELSET'), 'Read conventions');
  assert.equal(describedBy(calls, 'something else'), undefined);
  assert.equal(describedBy(calls, ''), undefined);
});
