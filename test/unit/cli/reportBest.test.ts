// `report`'s best per project: the cheapest policy the project's provider is offered (a Codex project is never told
// to switch on Anthropic's context editing, however cheap its replay), with the lines that turn it on, which parse.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bestPerProjectLines } from '../../../src/cli/report/text';
import type { PolicyName } from '../../../src/core/engine/policy';
import type { HistoryRow, SessionFigures } from '../../../src/core/history';

const figures = (deltaCost: number) => ({
  cost: 10 + deltaCost,
  noneCost: 10,
  deltaCost,
  deltaShare: deltaCost / 10,
  tokensSaved: 0,
  extraWritten: 0,
  projected: 10 + deltaCost,
});

function project(
  key: string,
  format: SessionFigures['format'],
  model: string,
  deltas: Partial<Record<PolicyName, number>>,
) {
  const session = { path: `${key}/s.jsonl`, format, project: key, model } as SessionFigures;
  const row: HistoryRow = {
    key,
    sessions: 1,
    requests: 10,
    bytes: 1,
    recordedCost: 10,
    unrecorded: 0,
    breaks: {},
    policies: Object.fromEntries(Object.entries(deltas).map(([n, d]) => [n, figures(d as number)])),
  };
  return { session, row };
}

test('each project gets its provider’s cheapest strategy and the lines to paste', () => {
  const claude = project('projects/claude', 'claude-code', 'claude-sonnet-4-5', {
    tiered: 0.4,
    'anthropic-context-editing': -1.5,
    compaction: -0.5,
  });
  const codex = project('projects/codex', 'codex', 'gpt-5', {
    tiered: 0.2,
    'anthropic-context-editing': -3,
    compaction: -0.8,
  });
  const lines = bestPerProjectLines([claude.session, codex.session], [claude.row, codex.row], {
    model: undefined,
    sets: [],
  });
  const text = lines.join('\n');
  assert.match(
    text,
    /projects\/claude: anthropic-context-editing, -\$1\.50 \(-15\.0%\) against "as logged" over 1 session/,
  );
  assert.match(text, /projects\/codex: compaction, -\$0\.8000 \(-8\.0%\) against "as logged" over 1 session/);
  // The Claude project's request block, as pasted, is JSON; the Codex project's config line is TOML-shaped.
  const start = lines.findIndex((l) => l.includes('Anthropic Messages request body'));
  const end = lines.findIndex((l, i) => i > start && l === '    }');
  assert.ok(JSON.parse(lines.slice(start + 1, end + 1).join('\n')).context_management);
  assert.ok(lines.some((l) => /^ {4}model_auto_compact_token_limit = \d+$/.test(l)));
  assert.ok(!/codex: anthropic/.test(text));
});
