// The Sessions view's tree without the editor: grouping, sub-agents, sorting, filtering and the words of a row.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SessionFigures } from '../../../src/core/history';
import type { VerdictRanking } from '../../../src/core/verdict';
import {
  breakWords,
  buildTree,
  groupDescription,
  type SessionNode,
  sessionDay,
  sessionDescription,
  sessionVerdict,
  verdictDetails,
  verdictFigure,
} from '../../../src/host/sessionsTree';
import type { SessionFile } from '../../../src/node/sessionFiles';

const file = (path: string, project: string, day: string, size: number, prompt: string): SessionFile => ({
  path,
  project,
  modified: new Date(`${day}T12:00:00`),
  size,
  firstPrompt: prompt,
});

/** A session's figures: none costs $2, tiered `delta` more, context editing `editing` more (when given). */
function figures(path: string, recorded: number, delta: number, editing?: number): SessionFigures {
  const f = { promptTokens: 0, cachedTokens: 0, writtenTokens: 0, cost: 2, events: 0 };
  const against = (d: number) => ({
    ...f,
    cost: 2 + d,
    deltaCost: d,
    deltaShare: d / 2,
    tokensSaved: 5,
    extraWritten: 0,
  });
  return {
    path,
    format: 'claude-code',
    project: '',
    firstPrompt: '',
    start: '',
    end: '',
    day: '',
    bytes: 0,
    messages: 0,
    requests: 12,
    model: '',
    recordedCost: recorded,
    recordedReplies: 12,
    policies: {
      tiered: against(delta),
      ...(editing === undefined ? {} : { 'anthropic-context-editing': against(editing) }),
    },
    baseline: 'as-logged',
    provider: 'anthropic',
    inForce: 'tiered',
  };
}

const a = file('/p/a.jsonl', '/home/me/app', '2026-01-02', 3_300_000, 'fix the flaky test');
const b = file('/p/b.jsonl', '/home/me/app', '2026-01-05', 1_000, 'write the README');
const sub = {
  ...file('/p/b/subagents/agent-1.jsonl', '/home/me/app', '2026-01-05', 500, 'look for callers'),
  subAgent: true,
};
b.subAgents = [sub];
const c = file('/p/c.jsonl', '/home/me/site', '2026-01-03', 20_000, 'add a page');
const x = file('/codex/sessions/2026/01/15/rollout-x.jsonl', '/home/me/app', '2026-01-16', 100, 'codex one');

test('projects and Codex days; sub-agents under their session; newest first', () => {
  const tree = buildTree({
    sessions: { 'claude-code': [a, b, c], codex: [x] },
    figures: new Map(),
    errors: new Map(),
    sort: 'date',
    filter: '',
  });
  assert.deepEqual(
    tree.map((n) => n.label),
    ['Claude Code', 'Codex'],
  );
  const projects = tree[0].children;
  assert.deepEqual(
    projects.map((g) => g.label),
    ['/home/me/app', '/home/me/site'],
  );
  assert.deepEqual(
    projects[0].children.map((s) => s.file.firstPrompt),
    ['write the README', 'fix the flaky test'],
  );
  assert.deepEqual(
    projects[0].children[0].children.map((s) => s.file.firstPrompt),
    ['look for callers'],
  );
  assert.deepEqual(
    tree[1].children.map((g) => g.label),
    ['2026-01-15'],
    'the day of its folder',
  );
  assert.equal(sessionDay({ ...x, path: '/elsewhere/x.jsonl' }), '2026-01-16');
});

test('sorting by size, cost and saving; a filter keeps a session whose sub-agent matches', () => {
  const figs = new Map([
    [a.path, figures(a.path, 5, -1)],
    [b.path, figures(b.path, 9, 0.5)],
  ]);
  const order = (sort: 'size' | 'cost' | 'saving') =>
    buildTree({
      sessions: { 'claude-code': [a, b], codex: [] },
      figures: figs,
      errors: new Map(),
      sort,
      filter: '',
    })[0].children[0].children.map((s) => s.file.path);
  assert.deepEqual(order('size'), [a.path, b.path]);
  assert.deepEqual(order('cost'), [b.path, a.path]);
  assert.deepEqual(order('saving'), [a.path, b.path], 'the largest saving first');
  const filtered = buildTree({
    sessions: { 'claude-code': [a, b, c], codex: [x] },
    figures: figs,
    errors: new Map(),
    sort: 'date',
    filter: 'CALLERS',
  });
  assert.equal(filtered.length, 1);
  assert.deepEqual(
    filtered[0].children[0].children.map((s) => s.file.path),
    [b.path],
  );
});

test('a row says its verdict first, then when, how large, requests, recorded cost; before its figures, what it knows', () => {
  const node: SessionNode = { kind: 'session', id: 's', agent: 'claude-code', file: a, children: [] };
  const now = new Date('2026-03-01T00:00:00');
  assert.equal(sessionDescription(node, now), '… · Jan 2 12:00 · 3.3 MB');
  // Tiered costs more, context editing less: the verdict names the cheaper one and its share of the baseline.
  const f = figures(a.path, 25.64, 0.1, -0.5);
  assert.equal(
    sessionDescription({ ...node, figures: f }, now),
    'Anthropic context editing · Jan 2 12:00 · 3.3 MB · 12 req · $25.64',
  );
  assert.equal(
    verdictFigure(sessionVerdict(f) as VerdictRanking),
    '−25.0%',
    "the figure that leads the row's label",
  );
  assert.deepEqual(verdictDetails(sessionVerdict(f) as VerdictRanking), [
    'Best here: Anthropic context editing, −25.0%, $0.5000 over 12 requests against as logged',
    'Now: Tiered, +5.0% ($0.1000 more)',
    'Ranked: Anthropic context editing −25.0%, Tiered +5.0%',
  ]);
  // Nothing cheaper than the baseline: said so, against which.
  assert.equal(
    sessionDescription({ ...node, figures: figures(a.path, 25.64, 0.1) }, now),
    'none saves vs as logged · Jan 2 12:00 · 3.3 MB · 12 req · $25.64',
  );
  assert.equal(verdictFigure(sessionVerdict(figures(a.path, 25.64, 0.1)) as VerdictRanking), '—');
  assert.equal(sessionDescription({ ...node, error: 'x' }, now), 'Jan 2 12:00 · 3.3 MB · not readable');
});

test("a project's row names the strategy that saves the most over its sessions", () => {
  const figs = new Map([
    [a.path, figures(a.path, 5, -1, -0.5)],
    [b.path, figures(b.path, 9, 0.5, -0.2)],
  ]);
  const group = buildTree({
    sessions: { 'claude-code': [a, { ...b, subAgents: [] }], codex: [] },
    figures: figs,
    errors: new Map(),
    sort: 'date',
    filter: '',
  })[0].children[0];
  // Tiered: −1 + 0.5 = −0.5; context editing −0.7 over a baseline of 4.
  assert.equal(groupDescription(group), '−17.5% Anthropic context editing · 2 sessions · $14.00');
});

test("a session's tooltip names its cache breaks' costliest cause; none when the log shows no break", () => {
  const f = figures(a.path, 25.64, -1.52);
  assert.equal(breakWords(f), null, 'figures without breaks');
  assert.equal(breakWords({ ...f, breaks: {} }), null);
  const breaks = {
    'model-switch': { breaks: 1, cost: 2.0873 },
    'ttl-expired': { breaks: 5, cost: 21.0439 },
    'prefix-changed': { breaks: 1, cost: 3.123 },
  };
  assert.equal(
    breakWords({ ...f, breaks }),
    'Cache breaks: $26.25; the costliest: TTL expiries: 5 breaks, $21.04',
  );
});

test("a sub-agent's row is named by its call's description once its session's figures name it", () => {
  const withCalls = {
    ...figures(b.path, 9, 0.5),
    subAgentCalls: [{ prompt: 'look for callers of the parser', description: 'Find parser callers' }],
  };
  const build = (f: Map<string, SessionFigures>, filter = '') =>
    buildTree({
      sessions: { 'claude-code': [b], codex: [] },
      figures: f,
      errors: new Map(),
      sort: 'date',
      filter,
    });
  assert.equal(build(new Map()).at(0)?.children[0].children[0].children[0].name, undefined);
  const tree = build(new Map([[b.path, withCalls]]));
  assert.equal(tree[0].children[0].children[0].children[0].name, 'Find parser callers');
  assert.equal(
    build(new Map([[b.path, withCalls]]), 'parser callers').length,
    1,
    'the filter reads the name',
  );
});
