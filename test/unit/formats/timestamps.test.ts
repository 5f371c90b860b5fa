// Timestamps are range-checked as the transcript is read: a time outside 2020–2099, not a date, or a request stamped
// before the requests ahead of it is reported (with its line and column) and not used for the cache's lifetime.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { analyzeSync } from '../../../src/core/analysis';
import { clonePolicy, defaultPolicyFor } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats/index';
import { TIMESTAMP_PROBLEM } from '../../../src/core/formats/timestamps';
import type { Transcript } from '../../../src/core/model';
import { fileProblems } from '../../../src/core/problems';
import { realLogs } from '../fuzz/cases';
import { ClaudeSession } from './helpers';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 1, 9);

/** Four tool rounds a minute apart; `stamp` may change the time of record `i` (ISO string) . */
function session(stamp: (i: number, iso: string) => string = (_i, iso) => iso): ClaudeSession {
  const s = new ClaudeSession();
  s.user('look at the files');
  for (let k = 1; k <= 4; k++) {
    const call = s.assistant(
      `msg_${k}`,
      [{ type: 'tool_use', id: `t${k}`, name: 'Read', input: { file_path: `/f${k}` } }],
      {
        input_tokens: 10,
        output_tokens: 5,
        cache_read_input_tokens: 1000 * k,
        cache_creation_input_tokens: 300,
      },
    );
    s.result(`t${k}`, `contents ${k} `.repeat(200), call);
  }
  s.assistant('msg_5', [{ type: 'text', text: 'done' }]);
  s.records.forEach((r, i) => {
    r.timestamp = stamp(i, new Date(T0 + i * MINUTE).toISOString());
  });
  return s;
}

function none(t: Transcript) {
  const policy = clonePolicy(defaultPolicyFor(t.format));
  policy.name = 'none';
  return analyzeSync(t, policy).analysis;
}

const timestampProblems = (t: Transcript) => fileProblems(t).filter((p) => p.code === TIMESTAMP_PROBLEM);

describe('timestamps', () => {
  it('a request stamped 1900, -271821 or 9999 is reported where it stands and does not expire the cache', () => {
    const clean = parseTranscript(session().bytes());
    assert.deepEqual(timestampProblems(clean), []);
    const cleanRun = none(clean);
    assert.ok(cleanRun.requests.every((r) => !r.cacheExpired));
    for (const odd of [
      '1900-01-01T00:00:00.000Z',
      '-271821-04-20T00:00:00.000Z',
      '9999-12-31T00:00:00.000Z',
      'yesterday',
    ]) {
      // Record 3 is the second reply (a request): stamped odd, the next request's gap was a century.
      const s = session((i, iso) => (i === 3 ? odd : iso));
      const t = parseTranscript(s.bytes());
      const problems = timestampProblems(t);
      assert.equal(problems.length, 1, odd);
      assert.equal(problems[0].severity, 'warning');
      assert.equal(problems[0].line, 4);
      const line = new TextDecoder().decode(s.bytes()).split('\n')[3];
      assert.ok(
        line.slice(problems[0].column - 1).startsWith(JSON.stringify(odd)),
        `column ${problems[0].column}`,
      );
      assert.match(
        problems[0].message,
        /is not a date from 2020-01-01 to 2100-01-01.*not used for the prompt cache/,
      );
      const run = none(t);
      assert.deepEqual(
        run.requests.map((r) => r.cacheExpired),
        cleanRun.requests.map((r) => r.cacheExpired),
        odd,
      );
      assert.equal(run.totals.cost, cleanRun.totals.cost, odd);
    }
  });

  it('requests stamped in reverse: every one but the first is reported, together, as out of order', () => {
    const s = session((i) => new Date(T0 - i * 10 * MINUTE).toISOString());
    const t = parseTranscript(s.bytes());
    const problems = timestampProblems(t);
    assert.equal(problems.length, 1);
    assert.match(
      problems[0].message,
      /goes back before the requests ahead of it.*; 3 more out of order \(lines/,
    );
    assert.equal(t.messages.filter((m) => m.role === 'assistant' && m.timestamp).length, 1);
  });

  it('one request stamped ahead of the others: that one is out of order, not the ones after it', () => {
    const s = session((i, iso) => (i === 1 ? '2099-06-01T00:00:00.000Z' : iso));
    const t = parseTranscript(s.bytes());
    const problems = timestampProblems(t);
    assert.equal(problems.length, 1);
    assert.equal(problems[0].line, 2);
    assert.doesNotMatch(problems[0].message, /more out of order/);
  });

  it('prompts written while the agent worked may be stamped before its reply: they are not requests', () => {
    // Claude Code stamps a prompt queued during a long turn when it was typed (real logs: minutes before the reply).
    const s = session((i, iso) => (i === 6 ? new Date(T0).toISOString() : iso));
    assert.equal(s.records[6].type, 'user');
    assert.deepEqual(timestampProblems(parseTranscript(s.bytes())), []);
  });

  it('the real logs have no implausible timestamp', () => {
    for (const file of realLogs()) {
      let t: Transcript;
      try {
        t = parseTranscript(readFileSync(file), file);
      } catch {
        continue;
      }
      assert.deepEqual(timestampProblems(t), [], file);
    }
  });
});
