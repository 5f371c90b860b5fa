// One hand-made log per cause: the break is found at the request the log shows it, with that cause, its evidence
// and its cost at the request's own prices.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { durationWords } from '../../../src/core/cacheBreaks';
import { tablePrices } from '../../../src/core/engine/prices';
import { msg, text, toolResult, toolUse, transcriptOf, usage, user } from '../transcripts';
import { logged, OPUS, policyNamed, replayed, SONNET, TimedSession } from './session';

const HOUR = 3_600_000;

/** Two requests that read what the one before left, then whatever the test appends. */
function warm(): TimedSession {
  const s = new TimedSession();
  s.user('first question');
  s.reply({ read: 0, written: 5000 });
  s.user('second question');
  s.reply({ read: 5000, written: 300 });
  s.user('third question');
  return s;
}

/** Per token written again rather than read, at a model's 5-minute write price, from the price table. */
function writeOverRead(model: string): number {
  const p = tablePrices(model);
  assert.ok(p);
  return (p.cacheWrite5m.base - p.cacheRead.base) / 1e6;
}

describe('cache breaks the log records', () => {
  it('a read short of what the previous request left, with nothing to explain it, is a provider miss', () => {
    const s = warm();
    s.reply({ read: 2000, written: 3400 });
    const r = logged(s.transcript());
    assert.equal(r.breaks.length, 1);
    const [b] = r.breaks;
    assert.equal(b.request, 3, 'numbered from 1');
    assert.equal(b.cause, 'provider-miss');
    assert.equal(b.expectedTokens, 5300);
    assert.equal(b.tokens, 3300);
    assert.ok(Math.abs(b.cost - 3300 * writeOverRead(SONNET)) < 1e-9, `${b.cost}`);
    assert.equal(r.providerMissShare.breaks, 1);
    assert.equal(r.totals.find((x) => x.cause === 'provider-miss')?.cost, b.cost);
  });

  it('a read short by no more than the granularity is no break', () => {
    const s = warm();
    s.reply({ read: 5300 - 40, written: 400 });
    assert.deepEqual(logged(s.transcript()).breaks, []);
  });

  it('an idle cache past its lifetime: ttl-expired, with the gap and the lifetime in force', () => {
    const s = warm();
    s.wait(2 * HOUR);
    s.reply({ read: 0, written: 5400 });
    const [b] = logged(s.transcript()).breaks;
    assert.equal(b.cause, 'ttl-expired');
    assert.equal(b.words, 'idle 2 h > 5 min');
    assert.deepEqual(b.evidence, { cause: 'ttl-expired', idleMs: 2 * HOUR + 2000, ttl: '5m' });
  });

  it('the lifetime is the one the previous request wrote with: an hour covers 30 minutes, not 90', () => {
    const session = (gap: number) => {
      const s = new TimedSession();
      s.user('q');
      s.reply({ read: 0, written: 5000, oneHour: 5000 });
      s.user('q2');
      s.wait(gap);
      s.reply({ read: 100, written: 4902, oneHour: 4902 });
      return logged(s.transcript()).breaks[0];
    };
    assert.equal(session(30 * 60_000).cause, 'provider-miss');
    const late = session(90 * 60_000);
    assert.equal(late.cause, 'ttl-expired');
    assert.equal(late.words, 'idle 1 h 30 min > 1 h');
    // Its cost is at the 1-hour write price, the lifetime that request wrote with.
    const p = tablePrices(SONNET);
    assert.ok(p);
    assert.ok(Math.abs(late.cost - 4900 * ((p.cacheWrite1h.base - p.cacheRead.base) / 1e6)) < 1e-9);
  });

  it('another model answering: model-switch from → to, priced at the new model', () => {
    const s = warm();
    s.reply({ read: 0, written: 5400 }, OPUS);
    const [b] = logged(s.transcript()).breaks;
    assert.equal(b.cause, 'model-switch');
    assert.deepEqual(b.evidence, { cause: 'model-switch', from: SONNET, to: OPUS });
    assert.equal(b.words, `${SONNET} → ${OPUS}`);
    assert.ok(Math.abs(b.cost - 5300 * writeOverRead(OPUS)) < 1e-9);
  });

  it('a compaction: the request carrying the summary, auto or manual as the log says', () => {
    for (const trigger of ['manual', 'auto'] as const) {
      const s = warm();
      s.reply({ read: 5300, written: 200 });
      const boundary = s.add(
        {
          type: 'system',
          subtype: 'compact_boundary',
          content: 'Compacted',
          compactMetadata: { trigger, preTokens: 9000 },
        },
        null,
      );
      s.user(
        'This session is being continued from a previous conversation.',
        { isCompactSummary: true },
        boundary,
      );
      s.user('go on');
      s.reply({ read: 3000, written: 900 });
      const t = s.transcript();
      const [b] = logged(t).breaks;
      assert.equal(b.cause, 'compaction');
      assert.equal(b.request, 4);
      assert.deepEqual(b.evidence, { cause: 'compaction', kind: trigger, message: 6 });
      assert.equal(b.words, `${trigger} compaction: the summary from message 6`);
      assert.equal(
        b.tokens,
        3902 - 3000,
        'what the previous request left, capped at this prompt (input included)',
      );
    }
  });

  it('a microcompaction: compaction (micro), with the results it cleared', () => {
    const s = new TimedSession();
    s.user('read the files');
    const use = (id: string, name: string) => ({ type: 'tool_use', id, name, input: {} });
    s.result('t1', 'one '.repeat(500), s.reply({ read: 0, written: 5000 }, SONNET, [use('t1', 'Read')]));
    s.result('t2', 'two '.repeat(500), s.reply({ read: 5000, written: 600 }, SONNET, [use('t2', 'Grep')]));
    s.reply({ read: 5600, written: 600 });
    s.add({
      type: 'system',
      subtype: 'microcompact_boundary',
      content: 'Context microcompacted',
      microcompactMetadata: {
        trigger: 'auto',
        preTokens: 9000,
        tokensSaved: 800,
        compactedToolIds: ['t1', 't2'],
      },
    });
    s.user('go on');
    s.reply({ read: 4000, written: 800 });
    const [b] = logged(s.transcript()).breaks;
    assert.equal(b.cause, 'compaction');
    assert.equal(b.evidence.cause === 'compaction' && b.evidence.kind, 'micro');
    assert.deepEqual(b.evidence.cause === 'compaction' && b.evidence.cleared?.map((c) => c.tool), [
      'Read',
      'Grep',
    ]);
    assert.equal(b.words, 'microcompaction: 2 tool results cleared (Grep, Read)');
    assert.equal(b.evidence.cause === 'compaction' && b.evidence.message, 2, 'the first cleared result');
  });

  it('a turn rewound or edited: rewind, with the lines off the branch', () => {
    const s = new TimedSession();
    s.user('first question');
    const a1 = s.reply({ read: 0, written: 5000 });
    s.user('second question');
    s.reply({ read: 5000, written: 300 });
    s.user('second question, edited', {}, a1);
    s.reply({ read: 1000, written: 4400 });
    const t = s.transcript();
    const [b] = logged(t).breaks;
    assert.equal(b.cause, 'rewind');
    assert.match(b.words, /^a turn rewound or edited at message \d+ \(lines \d+/);
  });

  it('a command that changes what precedes the conversation, and a read of nothing: prefix-changed', () => {
    const s = warm();
    s.user('<command-name>/model</command-name>\n<command-message>model</command-message>');
    s.reply({ read: 1200, written: 4200 });
    const [b] = logged(s.transcript()).breaks;
    assert.equal(b.cause, 'prefix-changed');
    assert.match(b.words, /^\/model changes what precedes the conversation \(message \d+\)$/);
    const none = warm();
    none.reply({ read: 0, written: 5400 });
    const [c] = logged(none.transcript()).breaks;
    assert.equal(c.cause, 'prefix-changed');
    assert.deepEqual(c.evidence, {
      cause: 'prefix-changed',
      message: 0,
      what: 'nothing was read: the system prompt or tools differ',
    });
  });

  it('a new conversation in the same session: first', () => {
    const s = warm();
    s.reply({ read: 5300, written: 200 });
    s.user('a new start', {}, null);
    s.reply({ read: 3000, written: 400 });
    const t = s.transcript();
    const [b] = logged(t).breaks;
    assert.equal(b.cause, 'first');
    assert.equal(
      b.words,
      `a new conversation in the same session from message ${b.evidence.cause === 'first' ? b.evidence.message : -1}`,
    );
  });
});

describe('cache breaks a policy replay makes', () => {
  /** A tool loop whose results are long enough for the tiers to rewrite. */
  function toolLoop(): TimedSession {
    const s = new TimedSession();
    s.user('do the task');
    let read = 0;
    for (let i = 0; i < 8; i++) {
      const id = `t${i}`;
      const reply = s.reply({ read, written: 2000 }, SONNET, [
        { type: 'tool_use', id, name: 'Bash', input: { command: `echo ${i}` } },
      ]);
      read += 2000;
      s.result(id, `line ${i} `.repeat(600), reply);
    }
    s.reply({ read, written: 2000 });
    return s;
  }

  it("a policy's rewrite of an earlier message: rewrite, with the policy and its rule", () => {
    const t = toolLoop().transcript();
    const tiered = policyNamed('tiered', (p) => {
      p.tiered.keepRecent = 2;
      p.tiered.tier1Distance = 4;
    });
    const r = replayed(t, tiered);
    assert.ok(r.breaks.length > 0);
    for (const b of r.breaks) {
      assert.equal(b.cause, 'rewrite', b.words);
      assert.ok(b.evidence.cause === 'rewrite' && b.evidence.policy === 'tiered');
      assert.match(b.words, /^tiered: tier[12] at message \d+$/);
      assert.ok(b.cost > 0);
    }
    assert.deepEqual(replayed(t, policyNamed('none')).breaks, [], 'none rewrites nothing here');
  });

  it("the server's context editing: server-edit, with the blocks it cleared", () => {
    const t = toolLoop().transcript();
    const editing = policyNamed('anthropic-context-editing', (p) => {
      p.contextEditing.trigger = 2000;
      p.contextEditing.keep = 1;
      p.contextEditing.clearAtLeast = 0;
    });
    const r = replayed(t, editing);
    assert.ok(r.breaks.length > 0);
    assert.ok(r.breaks.some((b) => b.cause === 'server-edit'));
    for (const b of r.breaks.filter((x) => x.cause === 'server-edit'))
      assert.match(b.words, /^context editing cleared \d+ blocks? on the server from message \d+$/);
  });

  it("the policy's own compaction: compaction (simulated)", () => {
    const t = toolLoop().transcript();
    const r = replayed(
      t,
      policyNamed('compaction', (p) => {
        p.compaction.threshold = 0.02;
      }),
    );
    const compacted = r.breaks.filter((b) => b.cause === 'compaction');
    assert.ok(compacted.length > 0, r.breaks.map((b) => b.words).join('; '));
    for (const b of compacted) {
      assert.ok(b.evidence.cause === 'compaction' && b.evidence.kind === 'simulated');
      assert.match(b.words, /^compaction simulated by the policy: the summary from message \d+$/);
    }
  });

  it('keeps the causes the log shows where the policy changes nothing', () => {
    const s = warm();
    s.wait(2 * HOUR);
    s.reply({ read: 0, written: 5400 });
    const [b] = replayed(s.transcript(), policyNamed('none')).breaks;
    assert.equal(b.cause, 'ttl-expired');
    assert.equal(b.request, 3);
  });
});

describe('durationWords', () => {
  it('says seconds, minutes, then hours and minutes', () => {
    assert.equal(durationWords(42_000), '42 s');
    assert.equal(durationWords(14 * 60_000), '14 min');
    assert.equal(durationWords(14 * HOUR + 52 * 60_000), '14 h 52 min');
    assert.equal(durationWords(HOUR), '1 h');
  });
});

describe("the agent's own rewrites in a log", () => {
  const thinking = { type: 'thinking', text: 'considering', redacted: true } as const;
  const ask = (q: string) => user(text(q));
  const answer = (read: number, input: number, model: string) =>
    msg('assistant', [thinking, text('ok')], { usage: usage(input, read, 0), model });

  it('reasoning dropped at a new prompt (Codex): rewrite, from the turn’s first reasoning', () => {
    const t = transcriptOf(
      [
        ask('q1'),
        answer(0, 4000, 'gpt-5'),
        ask('q2'),
        answer(3968, 1000, 'gpt-5'),
        ask('q3'),
        answer(1024, 4400, 'gpt-5'),
      ],
      { reasoningKeptWithinTurn: true },
    );
    const [b] = logged(t).breaks;
    assert.equal(b.request, 3);
    assert.deepEqual(b.evidence, {
      cause: 'rewrite',
      message: 3,
      rule: "the agent drops the last turn's reasoning at a new prompt (message 4)",
    });
    assert.equal(b.tokens, 4864 - 1024, 'the whole previous prompt in 128-token steps, less the read');
  });

  it("Anthropic leaves the last turn's thinking out at a new prompt: rewrite, when the read is what the request before it left", () => {
    // q2's turn: a reply with thinking and a tool call, then the answer. At q3 the thinking is no longer sent, so
    // the cache holds the conversation only up to q2: what the request that answered q2 first left there.
    const session = (read: number) =>
      transcriptOf([
        ask('q1'),
        msg('assistant', [text('ok')], { usage: usage(2, 0, 5000), model: SONNET }),
        ask('q2'),
        msg('assistant', [thinking, toolUse('t1', 'Read')], { usage: usage(2, 5000, 300), model: SONNET }),
        user(toolResult('t1', 'file contents')),
        msg('assistant', [text('done')], { usage: usage(2, 5300, 3000), model: SONNET }),
        ask('q3'),
        msg('assistant', [text('ok')], { usage: usage(2, read, 8300 - read + 200), model: SONNET }),
      ]);
    const [b] = logged(session(5300)).breaks;
    assert.equal(b.request, 4);
    assert.deepEqual(b.evidence, {
      cause: 'rewrite',
      message: 3,
      rule: "the API leaves the last turn's thinking out at a new prompt (message 6)",
    });
    // A read that stops elsewhere is not that: nothing in the transcript explains it.
    assert.equal(logged(session(2000)).breaks[0].cause, 'provider-miss');
  });

  it('a reload from the log after a restart: rewrite, from the first message left out', () => {
    const t = transcriptOf(
      [
        ask('q1'),
        answer(0, 4000, SONNET),
        ask('q2'),
        answer(0, 3000, SONNET),
        ask('q3'),
        answer(500, 4000, SONNET),
      ],
      { reloads: [{ at: 4, forgotten: [2, 3] }] },
    );
    // Anthropic: what a request leaves is what it read and wrote; these write nothing but the input, so set writes.
    for (const [i, read, written] of [
      [1, 0, 4000],
      [3, 4000, 3000],
      [5, 500, 4000],
    ])
      t.messages[i].usage = usage(2, read, written);
    const [b] = logged(t).breaks;
    assert.equal(b.request, 3);
    assert.equal(b.cause, 'rewrite');
    assert.equal(b.evidence.cause === 'rewrite' && b.evidence.message, 2);
    assert.match(
      b.words,
      /^the agent reloaded the conversation from its log: 2 messages it had sent are no longer sent; the prompt differs from message 2$/,
    );
  });
});
