// Reloads and microcompactions: what each request leaves out, checked against a direct reading of the reloads, and
// the work a replay does for thousands of them (counted, not timed).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { analyzeSync } from '../../../src/core/analysis';
import { clonePolicy, DEFAULT_POLICY } from '../../../src/core/engine/policy';
import { PrefixSums } from '../../../src/core/engine/prefixSums';
import { Reloads } from '../../../src/core/engine/reload';
import { parseTranscript } from '../../../src/core/formats';
import type { Reload } from '../../../src/core/model';
import { jsonl } from '../formats/helpers';

/** What a request ending before `end` leaves out, read straight from the reloads. */
function leftOut(reloads: readonly Reload[], end: number): Set<number> {
  const out = new Set<number>();
  for (const r of reloads) if (r.at < end) for (const m of r.forgotten) if (m < r.at) out.add(m);
  return out;
}

/** The blocks a request ending before `end` sends cleared in messages it does not leave out, as `m:b`. */
function clearedBlocks(reloads: readonly Reload[], end: number): Set<string> {
  const out = new Set<string>();
  const left = leftOut(reloads, end);
  for (const r of reloads)
    if (r.at < end) for (const [m, b] of r.cleared ?? []) if (m < r.at && !left.has(m)) out.add(`${m}:${b}`);
  return out;
}

test('reloads: what a request leaves out, where the first left-out message is, whether a reload came between', () => {
  const reloadList = fc.array(
    fc
      .record({
        at: fc.integer({ min: 1, max: 40 }),
        forgotten: fc.uniqueArray(fc.integer({ min: 0, max: 45 })),
        cleared: fc.array(fc.tuple(fc.integer({ min: 0, max: 45 }), fc.integer({ min: 0, max: 3 })), {
          maxLength: 6,
        }),
      })
      .map((r): Reload => {
        const reload: Reload = { at: r.at, forgotten: r.forgotten.sort((a, b) => a - b) };
        if (r.cleared.length > 0) reload.cleared = r.cleared;
        return reload;
      }),
    { maxLength: 8 },
  );
  const queries = fc.array(
    fc.record({ start: fc.nat(45), upTo: fc.nat(48), end: fc.nat(48), prevEnd: fc.nat(48) }),
    { minLength: 1, maxLength: 12 },
  );
  fc.assert(
    fc.property(
      reloadList,
      queries,
      fc.array(fc.nat(1000), { minLength: 50, maxLength: 50 }),
      fc.array(fc.nat(100), { minLength: 4, maxLength: 4 }),
      (list, qs, w, bw) => {
        const reloads = new Reloads(list);
        // A block's tokens as sent: below its message's, as in a replay.
        const block = (m: number, b: number) => (w[m] * bw[b]) / 400;
        const left = reloads.leftOut((m) => w[m], block);
        // Requests in any order: a replay asks in order, the calibration too, but nothing depends on it.
        for (const { start, upTo, end, prevEnd } of qs) {
          const out = leftOut(list, end);
          const cleared = clearedBlocks(list, end);
          let expected = 0;
          for (let m = start; m < upTo; m++) if (out.has(m)) expected += w[m];
          for (const key of cleared) {
            const [m, b] = key.split(':').map(Number);
            if (m >= start && m < upTo) expected += block(m, b);
          }
          assert.ok(Math.abs(left.dropped(start, upTo, end) - expected) < 1e-6);
          let first = -1;
          for (let m = start; m < upTo && first < 0; m++)
            if (out.has(m) || [...cleared].some((k) => k.startsWith(`${m}:`))) first = m;
          assert.equal(reloads.firstIn(start, upTo, end), first);
          assert.equal(
            reloads.between(prevEnd, end),
            list.some((r) => r.at > prevEnd && r.at < end),
          );
        }
      },
    ),
  );
});

test('reloads: a left-out message rewritten later is left out at its new size', () => {
  const weights = [5, 7, 11, 13];
  const sums = new PrefixSums(weights);
  const reloads = new Reloads([{ at: 3, forgotten: [1] }]);
  const left = reloads.leftOut(
    (m) => sums.prefix(m + 1) - sums.prefix(m),
    () => 0,
  );
  assert.equal(left.dropped(0, 4, 3), 0, 'not before the reload');
  assert.equal(left.dropped(0, 4, 4), 7);
  sums.add(1, -4);
  left.changed(1, -4);
  left.changed(2, 100); // never left out: no effect
  assert.equal(left.dropped(0, 4, 4), 3);
});

/** A Claude Code session of `rounds` tool calls, each round's result cleared by a microcompaction after the next. */
function microcompacted(rounds: number): Uint8Array {
  const records: Record<string, unknown>[] = [];
  let parent: string | null = null;
  const add = (r: Record<string, unknown>) => {
    const uuid = `00000000-0000-4000-8000-${String(records.length + 1).padStart(12, '0')}`;
    records.push({ parentUuid: parent, isSidechain: false, sessionId: 's1', uuid, ...r });
    parent = uuid;
  };
  add({ type: 'user', message: { role: 'user', content: 'start' } });
  for (let i = 0; i < rounds; i++) {
    const id = `toolu_${i}`;
    add({
      type: 'assistant',
      message: {
        id: `msg_${i}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: `/f${i}` } }],
      },
    });
    add({
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `file ${i}` }] },
    });
    if (i > 0)
      add({
        type: 'system',
        subtype: 'microcompact_boundary',
        microcompactMetadata: { trigger: 'auto', compactedToolIds: [`toolu_${i - 1}`] },
      });
  }
  add({
    type: 'assistant',
    message: {
      id: 'msg_end',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'ok' }],
    },
  });
  return jsonl(records);
}

test('reloads: a cleared block rewritten later is left out at its new size; its message left out later counts once', () => {
  const sizes = [
    [5, 5],
    [7, 30],
    [11, 2],
  ];
  const reloads = new Reloads([
    { at: 2, forgotten: [], cleared: [[1, 1]] },
    { at: 3, forgotten: [1] },
  ]);
  const left = reloads.leftOut(
    (m) => sizes[m][0] + sizes[m][1],
    (m, b) => sizes[m][b],
  );
  assert.equal(left.dropped(0, 3, 2), 0, 'not before the clearing');
  assert.equal(left.dropped(0, 3, 3), 30);
  assert.equal(reloads.firstIn(0, 3, 3), 1);
  sizes[1][1] = 20;
  left.changed(1, -10);
  assert.equal(left.dropped(0, 3, 3), 20);
  assert.equal(left.dropped(0, 3, 4), 27, 'the whole message, its cleared block not again');
});

test('thousands of microcompactions: each request reads a few prefix sums, not every earlier left-out message', () => {
  const rounds = 3000;
  const t = parseTranscript(microcompacted(rounds), 'micro.jsonl');
  assert.equal(t.reloads?.length, rounds - 1);
  const policy = clonePolicy(DEFAULT_POLICY);
  policy.name = 'none';
  const prefix = PrefixSums.prototype.prefix;
  let reads = 0;
  PrefixSums.prototype.prefix = function (this: PrefixSums, end: number) {
    reads++;
    return prefix.call(this, end);
  };
  let requests: number;
  try {
    requests = analyzeSync(t, policy).analysis.requests.length;
  } finally {
    PrefixSums.prototype.prefix = prefix;
  }
  assert.ok(requests >= rounds, `${requests} requests`);
  // Reading the runs left out (~1,500 a request on average here) made it millions; a handful a request now.
  assert.ok(reads < 100 * requests, `${reads} prefix sums read for ${requests} requests`);
});

/** A Claude Code session of `rounds` tool calls in one reply, all results in one message, one cleared per boundary. */
function clearedOneByOne(rounds: number): Uint8Array {
  const records: Record<string, unknown>[] = [];
  let parent: string | null = null;
  const add = (r: Record<string, unknown>) => {
    const uuid = `00000000-0000-4000-8000-${String(records.length + 1).padStart(12, '0')}`;
    records.push({ parentUuid: parent, isSidechain: false, sessionId: 's1', uuid, ...r });
    parent = uuid;
  };
  const ids = Array.from({ length: rounds }, (_, i) => `toolu_${i}`);
  add({ type: 'user', message: { role: 'user', content: 'start' } });
  add({
    type: 'assistant',
    message: {
      id: 'msg_0',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: ids.map((id, i) => ({ type: 'tool_use', id, name: 'Read', input: { file_path: `/f${i}` } })),
    },
  });
  add({
    type: 'user',
    message: {
      role: 'user',
      content: ids.map((id, i) => ({
        type: 'tool_result',
        tool_use_id: id,
        content: `file ${i} `.repeat(40),
      })),
    },
  });
  for (let i = 0; i < rounds; i++) {
    add({
      type: 'assistant',
      message: {
        id: `msg_${i + 1}`,
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: `${i}` }],
      },
    });
    add({ type: 'user', message: { role: 'user', content: `next ${i}` } });
    add({
      type: 'system',
      subtype: 'microcompact_boundary',
      microcompactMetadata: { trigger: 'auto', compactedToolIds: [ids[i]] },
    });
  }
  add({
    type: 'assistant',
    message: {
      id: 'msg_end',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'ok' }],
    },
  });
  return jsonl(records);
}

test('results cleared one by one in one message: each boundary adds its own, the message is left out at the last', () => {
  const rounds = 2000;
  const t = parseTranscript(clearedOneByOne(rounds), 'micro.jsonl');
  assert.equal(t.reloads?.length, rounds);
  assert.deepEqual(
    t.reloads?.slice(0, rounds - 1).map((r) => r.cleared?.length),
    new Array(rounds - 1).fill(1),
    'each boundary lists the result it clears, not every one cleared so far',
  );
  assert.deepEqual(t.reloads?.[rounds - 1].forgotten, [2]);
  const policy = clonePolicy(DEFAULT_POLICY);
  policy.name = 'none';
  const prefix = PrefixSums.prototype.prefix;
  let reads = 0;
  PrefixSums.prototype.prefix = function (this: PrefixSums, end: number) {
    reads++;
    return prefix.call(this, end);
  };
  let requests: readonly { promptTokens: number }[];
  try {
    requests = analyzeSync(t, policy).analysis.requests;
  } finally {
    PrefixSums.prototype.prefix = prefix;
  }
  assert.ok(reads < 100 * requests.length, `${reads} prefix sums read for ${requests.length} requests`);
  // Each clearing takes a result (some 120 tokens) out of the next request, more than a round adds: the prompts
  // shrink while results are cleared.
  const mid = requests[Math.floor(rounds / 2)].promptTokens;
  assert.ok(
    requests[rounds].promptTokens < mid && mid < requests[2].promptTokens,
    `${requests[2].promptTokens} ${mid}`,
  );
});
