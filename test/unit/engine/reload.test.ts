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

test('reloads: what a request leaves out, where the first left-out message is, whether a reload came between', () => {
  const reloadList = fc.array(
    fc
      .record({
        at: fc.integer({ min: 1, max: 40 }),
        forgotten: fc.uniqueArray(fc.integer({ min: 0, max: 45 })),
      })
      .map((r) => ({ at: r.at, forgotten: r.forgotten.sort((a, b) => a - b) })),
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
      (list, qs, w) => {
        const reloads = new Reloads(list);
        const left = reloads.leftOut((m) => w[m]);
        // Requests in any order: a replay asks in order, the calibration too, but nothing depends on it.
        for (const { start, upTo, end, prevEnd } of qs) {
          const out = leftOut(list, end);
          let expected = 0;
          for (let m = start; m < upTo; m++) if (out.has(m)) expected += w[m];
          assert.equal(left.dropped(start, upTo, end), expected);
          let first = -1;
          for (let m = start; m < upTo && first < 0; m++) if (out.has(m)) first = m;
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
  const left = reloads.leftOut((m) => sums.prefix(m + 1) - sums.prefix(m));
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
