import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { applyPatch, decodeRequests, encodeAnalysis } from '../../../src/analysisWire';
import { analyze, analyzeSync } from '../../../src/core/analysis';
import type { Policy } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import type { Transcript } from '../../../src/core/model';
import { projectLabel, sessionHead } from '../../../src/core/sessionProject';
import { EstimatingCounter } from '../../../src/core/tokens/counter';
import { defaultsFor } from '../../../src/host/policySettings';
import { type Engine, SESSION_TIMING, TranscriptSession } from '../../../src/host/session';
import { packed } from '../../../src/host/sessionProtocol';
import type { HostMessage } from '../../../src/protocol';
import { decodeList } from '../../../src/protocol/listWire';
import { REAL_FIXTURES } from '../../sharedFixtures';
import { FakeClock } from '../fakeClock';
import { ClaudeSession } from '../formats/helpers';

const fixture = readFileSync(join(REAL_FIXTURES, 'claude-code', 'drmaciver-coverage-test-fix.jsonl'));

const { runAheadAfterMs } = SESSION_TIMING;
/** For the sessions whose tests do not pause: a clock nobody moves, so no run ahead starts after the test. */
const stillClock = { clock: new FakeClock() };

/** A promise `opened` that `open` resolves: what a test holds a step of the engine at. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((r) => {
    open = r;
  });
  return { opened, open };
}

/** A session of `fileName` on `engine`, on a clock that never moves, that hears every analysis; an error fails
 * the test. */
function stillSession(
  engine: Engine,
  onAnalysis: (m: Extract<HostMessage, { type: 'analysis' }>) => void,
  fileName = 'coverage-test-fix.jsonl',
): TranscriptSession {
  return new TranscriptSession(
    fileName,
    engine,
    onAnalysis,
    (e) => assert.fail(String(e)),
    undefined,
    undefined,
    stillClock,
  );
}

/** A session of the fixture, with the analyses it sent, those it offered run ahead, its engine runs
 * (`<policy> <keepRecent>/<tier1Distance>`), and the clock its waits are counted on (`clock.advance`: the user
 * pauses that long, and what the pause started is done). */
function session() {
  const sent: Extract<HostMessage, { type: 'analysis' }>[] = [];
  const offered: Extract<HostMessage, { type: 'ahead' }>[] = [];
  const runs: string[] = [];
  const clock = new FakeClock(() => s.settled());
  const s: TranscriptSession = new TranscriptSession(
    'coverage-test-fix.jsonl',
    {
      parse: parseTranscript,
      analyze: (t, p) => {
        runs.push(`${p.name} ${p.tiered.keepRecent}/${p.tiered.tier1Distance}`);
        return analyze(t, p);
      },
    },
    (m) => sent.push(m),
    (e) => assert.fail(String(e)),
    'coverage-test-fix.jsonl',
    (m) => offered.push(m),
    { clock },
  );
  s.load(fixture);
  return { s, sent, runs, offered, clock };
}

/** A session whose user stepped keepRecent down twice (to 5, then 4), what those steps run at once done: well before
 * the pause that runs the other neighbours ahead. `at(k)`: the defaults with keepRecent k. */
async function steppedDown() {
  const stepped = session();
  const base = defaultsFor(stepped.s.model);
  const d = base.tiered.tier1Distance;
  const at = (keepRecent: number) => ({ ...base, tiered: { ...base.tiered, keepRecent } });
  await stepped.s.request(at(5), 'none', 1);
  await stepped.s.request(at(4), 'none', 2);
  await stepped.clock.advance(0);
  return { ...stepped, base, d, at };
}

test('only a change the user waits for is marked so: not the first analysis, its baseline, or the runs ahead', async () => {
  const calls: string[] = [];
  const clock = new FakeClock(() => s.settled());
  const s: TranscriptSession = new TranscriptSession(
    'coverage-test-fix.jsonl',
    {
      parse: parseTranscript,
      analyze: (t, p, _summarizer, _signal, _countsTakeLong, answersChange) => {
        calls.push(`${p.name} ${p.tiered.keepRecent}: ${answersChange === true}`);
        return analyze(t, p);
      },
    },
    () => {},
    (e) => assert.fail(String(e)),
    undefined,
    undefined,
    { clock },
  );
  s.load(fixture);
  const base = defaultsFor(s.model);
  const k = base.tiered.keepRecent;
  await s.request(base, 'none', 1);
  const first = calls.length;
  await s.request({ ...base, tiered: { ...base.tiered, keepRecent: k + 2 } }, 'none', 2);
  // The pause after which the neighbours run ahead.
  await clock.advance(runAheadAfterMs);
  assert.deepEqual(calls.slice(0, first), [`${base.name} ${k}: false`, `none ${k}: false`]);
  assert.equal(calls[first], `${base.name} ${k + 2}: true`);
  // Every run after the change's answer is one run ahead.
  const ahead = calls.slice(first + 1);
  assert.ok(ahead.length > 0, 'neighbours ran ahead');
  assert.ok(
    ahead.every((c) => c.endsWith(': false')),
    ahead.join('; '),
  );
  s.dispose();
});

test('changes that arrive while an analysis runs are coalesced: the newest one is analysed, in order', async () => {
  const { s, sent } = session();
  const base = defaultsFor(s.model);
  const withKeep = (k: number) => ({ ...base, tiered: { ...base.tiered, keepRecent: k } });
  const all = [1, 2, 3, 4, 5].map((seq) => s.request(withKeep(seq), 'none', seq));
  await Promise.all(all);
  assert.deepEqual(
    sent.map((m) => m.seq),
    [1, 5],
  );
  assert.equal(sent[1].policy.tiered.keepRecent, 5);
  // The last analysis is the one details are built from.
  const rewritten = s.complete()?.analysis.messages.rewritten.indexOf('1') ?? -1;
  assert.ok(rewritten >= 0);
  const details = s.details(rewritten);
  assert.ok(details?.blocks.some((b) => b.compressed !== null));
});

test('the baseline comparison crosses once, and again only when the model or the cache lifetime change', async () => {
  const { s, sent } = session();
  const base = defaultsFor(s.model);
  await s.request(base, 'none', 1);
  await s.request({ ...base, tiered: { ...base.tiered, keepRecent: 3 } }, 'none', 2);
  // None runs no pass: the trigger changes nothing in it.
  await s.request({ ...base, replay: { ...base.replay, trigger: 'once' } }, 'none', 3);
  await s.request({ ...base, replay: { ...base.replay, cacheTtl: '1h' } }, 'none', 4);
  assert.deepEqual(
    sent.map((m) => m.comparisons?.map((c) => c.policyName)),
    [['none'], undefined, undefined, ['none']],
  );
  assert.deepEqual(s.complete()?.comparisons?.[0].policyName, 'none');
});

test('a file that grew is read again: the list message counts the new messages', () => {
  const { s } = session();
  const lines = fixture.toString('utf8').trimEnd().split('\n');
  const shorter = s.load(Buffer.from(`${lines.slice(0, Math.floor(lines.length / 2)).join('\n')}\n`));
  const full = s.load(fixture);
  assert.ok(full.messages.length > shorter.messages.length);
  assert.equal(full.revision, shorter.revision + 1);
});

test('a file that changed while an analysis runs is adopted after that analysis is sent, never before', async () => {
  const events: string[] = [];
  let release = () => {};
  const released = new Promise<void>((r) => {
    release = r;
  });
  let parsed = (_: Transcript) => {};
  const grownParsed = new Promise<Transcript>((r) => {
    parsed = r;
  });
  const s = stillSession(
    {
      parse: parseTranscript,
      parseAsync: async (bytes, fileName) => {
        const t = parseTranscript(bytes, fileName);
        parsed(t);
        return t;
      },
      analyze: async (t, p) => {
        await released;
        return analyze(t, p);
      },
    },
    (m) => events.push(`analysis ${m.seq}`),
  );
  s.load(fixture);
  const n = s.model!.messages.length;
  const analysed = s.request(defaultsFor(s.model), 'none', 1);
  // The file grows by one user turn while the analysis waits for its token counts.
  const last = JSON.parse(fixture.toString('utf8').trimEnd().split('\n').at(-1)!);
  const turn = {
    ...last,
    type: 'user',
    uuid: 'appended-turn',
    parentUuid: last.uuid,
    message: { role: 'user', content: 'one more thing' },
  };
  const grown = Buffer.concat([fixture, Buffer.from(`${JSON.stringify(turn)}\n`)]);
  const loaded = s
    .loadAsync(grown, fixture.length)
    .then((m) => events.push(`transcript of ${m?.messages.length}`));
  // The grown file is parsed, and what follows its parse has had every turn it takes without the analysis.
  await grownParsed;
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(events, [], 'nothing adopted while the analysis of the shown transcript runs');
  release();
  await analysed;
  await loaded;
  assert.deepEqual(events, ['analysis 1', `transcript of ${n + 1}`]);
});

test('every analysis carries the policy beside none; a pass run once carries its payback, a replay gets it from the Requests tab', async () => {
  const { s, sent } = session();
  const base = defaultsFor(s.model);
  await s.request(base, 'none', 1);
  const v = sent[0].analysis.vsNone;
  assert.ok(v);
  assert.equal(sent[0].analysis.trigger, 'everyRequest');
  assert.equal(v.cost, sent[0].analysis.totals.cost);
  assert.equal(v.noneCost, sent[0].comparisons?.[0].totals.cost);
  assert.equal(v.compactedNow, undefined);
  const message = await s.comparisonsMessage(base);
  assert.ok(message.compactedNow && message.compactedNow.savedTokensPerRequest > 0);
  await s.request({ ...base, replay: { ...base.replay, trigger: 'once' } }, 'none', 2);
  assert.deepEqual(sent[1].analysis.vsNone?.compactedNow, message.compactedNow);
  await s.request({ ...base, name: 'none' }, 'none', 3);
  assert.equal(sent[2].analysis.vsNone, undefined);
});

test('the Requests tab compares every other policy, whichever was current before (never one twice)', async () => {
  const { s } = session();
  const base = defaultsFor(s.model);
  const names = async (name: typeof base.name) =>
    (await s.comparisonsMessage({ ...base, name })).comparisons.map((c) => c.policyName);
  // A Claude Code session of a Claude model: Anthropic's strategies and Claude Code's own, not Codex's.
  const providers = [
    'anthropic-context-editing',
    'compaction',
    'claude-code-microcompact',
    'anthropic-compaction',
  ];
  assert.deepEqual(await names('live-zone'), ['none', 'tiered', 'tiered+live-zone', ...providers]);
  assert.deepEqual(await names('tiered+live-zone'), ['none', 'tiered', 'live-zone', ...providers]);
  assert.deepEqual(await names('none'), ['tiered', 'live-zone', 'tiered+live-zone', ...providers]);
  assert.deepEqual(await names('compaction'), [
    'none',
    'tiered',
    'live-zone',
    'tiered+live-zone',
    providers[0],
    ...providers.slice(2),
  ]);
});

test('a file with sub-agents offers each request stream; picking one shows and analyses it alone', async () => {
  const s = new ClaudeSession();
  s.user('main question');
  const call = s.assistant('msg_1', [{ type: 'tool_use', id: 'task1', name: 'Task', input: {} }], {
    input_tokens: 3,
    output_tokens: 5,
  });
  const first = s.add(
    { type: 'user', isSidechain: true, agentId: 'ag1', message: { role: 'user', content: 'look' } },
    null,
  );
  s.add(
    {
      type: 'assistant',
      isSidechain: true,
      agentId: 'ag1',
      message: { id: 'sub_1', role: 'assistant', content: [{ type: 'text', text: 'found' }], usage: {} },
    },
    first,
  );
  s.result('task1', 'found', call);
  s.assistant('msg_2', [{ type: 'text', text: 'done' }], { input_tokens: 3, output_tokens: 5 });
  const sent: Extract<HostMessage, { type: 'analysis' }>[] = [];
  const session = stillSession(
    { parse: parseTranscript, analyze: (t, p) => analyze(t, p) },
    (m) => sent.push(m),
    'with-agent.jsonl',
  );
  const opened = session.load(s.bytes());
  assert.deepEqual(
    opened.threads?.map((t) => t.id),
    ['main', 'ag1'],
  );
  assert.equal(opened.thread, 'main');
  assert.equal(opened.messages.length, 4);
  const picked = session.selectThread('ag1');
  assert.equal(picked?.thread, 'ag1');
  assert.deepEqual(
    picked?.messages.map((m) => m.role),
    ['user', 'assistant'],
  );
  await session.request(defaultsFor(session.model), 'none', 0);
  assert.equal(sent.at(-1)?.analysis.totals.messages, 2, 'the analysis is of the sub-agent');
  assert.equal(session.selectThread('nope'), null);
  // The file read again keeps the thread picked.
  assert.equal(session.load(s.bytes()).thread, 'ag1');
});

test('the recorded usage is compared with the none run of the same model, whatever the policy', async () => {
  const { s, sent } = session();
  const base = defaultsFor(s.model);
  await s.request(base, 'none', 1);
  const none = sent[0].comparisons?.[0];
  assert.ok(none && sent[0].analysis.recorded);
  // The tiered analysis carries none's comparison with the log, not its own.
  const own = (await analyze(s.model!, base)).analysis.recorded!;
  assert.notEqual(own.simulatedWritten, sent[0].analysis.recorded.simulatedWritten);
  // Under none with another model, the analysis keeps its own (OpenAI caches in 128-token steps: other figures than the kept baseline's).
  await s.request({ ...base, name: 'none', model: 'gpt-5' }, 'none', 2);
  const direct = (await analyze(s.model!, { ...base, name: 'none', model: 'gpt-5' })).analysis.recorded!;
  assert.equal(sent[1].analysis.recorded?.simulatedCached, direct.simulatedCached);
});

test('after answering a change, the next steps of the tier constants and the other policies are run ahead, and a change to one of them is answered without the engine', async () => {
  const { s, sent, runs, clock } = session();
  const base = defaultsFor(s.model);
  const at = (keepRecent: number, tier1Distance = base.tiered.tier1Distance) => ({
    ...base,
    tiered: { ...base.tiered, keepRecent, tier1Distance },
  });
  // The host's own analysis (seq 0), answered before any pause: nothing ran ahead yet.
  await s.request(base, 'none', 0);
  await clock.advance(0);
  const host = runs.length;
  assert.ok(
    runs.every(
      (r) =>
        r.startsWith('none') || r === `${base.name} ${base.tiered.keepRecent}/${base.tiered.tier1Distance}`,
    ),
  );

  await s.request(at(5), 'none', 1);
  // Nothing runs ahead while the user may still be pressing keys.
  await clock.advance(runAheadAfterMs - 1);
  assert.equal(runs.length, host + 1);
  // Once they pause: one step either way of each constant, then every other policy, one at a time.
  await clock.advance(1);
  const ahead = runs.slice(host + 1);
  assert.deepEqual(ahead.slice(0, 4), [
    `${base.name} 6/${base.tiered.tier1Distance}`,
    `${base.name} 4/${base.tiered.tier1Distance}`,
    `${base.name} 5/${base.tiered.tier1Distance + 1}`,
    `${base.name} 5/${base.tiered.tier1Distance - 1}`,
  ]);
  assert.ok(ahead.some((r) => r.startsWith('live-zone ')));

  const before = runs.length;
  await s.request(at(6), 'none', 2);
  const answer = sent.at(-1);
  assert.equal(answer?.seq, 2);
  assert.equal(runs.slice(before).filter((r) => r.endsWith(` 6/${base.tiered.tier1Distance}`)).length, 0);
  // The answer from the kept run is the analysis the engine gives for those settings.
  const direct = await analyze(s.model!, at(6));
  assert.deepEqual(
    s.analysis?.messages.map((m) => m.tier),
    direct.analysis.messages.map((m) => m.tier),
  );
  assert.equal(s.analysis?.totals.promptTokens, direct.analysis.totals.promptTokens);
});

test('a user stepping a tier constant has the next step in the same direction run at once; a switch of policy, nothing at once', async () => {
  // Well before the pause that runs the other neighbours ahead: only the next step down.
  const { s, runs, base, d, at, clock } = await steppedDown();
  assert.ok(runs.includes(`${base.name} 3/${d}`), runs.join(', '));
  assert.ok(!runs.includes(`${base.name} 6/${d}`), runs.join(', '));
  const before = runs.length;
  await s.request(at(3), 'none', 3);
  assert.ok(!runs.slice(before).includes(`${base.name} 3/${d}`), 'answered from the step run ahead');
  assert.equal(
    s.analysis?.totals.promptTokens,
    (await analyze(s.model!, at(3))).analysis.totals.promptTokens,
  );
  // A policy switch is no step: nothing runs at once.
  const switched = runs.length;
  await s.request({ ...at(3), name: 'live-zone' }, 'none', 4);
  const ran = runs.length;
  await clock.advance(runAheadAfterMs - 1);
  assert.equal(runs.length, ran, runs.slice(switched).join(', '));
});

test('after a policy switch, the policy left is offered at once, without the engine', async () => {
  const { s, runs, offered, at, clock } = await steppedDown();
  const before = offered.length;
  await s.request({ ...at(4), name: 'live-zone' }, 'none', 3);
  const ran = runs.length;
  await clock.advance(0);
  assert.equal(runs.length, ran, 'the tiered analysis was kept');
  const back = offered.slice(before).find((o) => o.analysis.policy.name === 'tiered');
  assert.ok(back, offered.map((o) => o.analysis.policy.name).join(', '));
  assert.deepEqual(back.analysis.policy, at(4));
  assert.ok((back.analysis.patch?.rows.length ?? 0) > 0);
  // The view that shows it says so: the host adopts it, no engine run.
  await s.request(at(4), 'none', 4, back.analysis.id);
  assert.equal(runs.length, ran);
  assert.equal(s.complete()?.policy.name, 'tiered');
});

test('a step run ahead is offered as a patch on the shown analysis; a view that shows it is answered by adopting it, without the engine', async () => {
  const { s, sent, runs, offered, base, d, at, clock } = await steppedDown();
  const shown = s.complete();
  assert.ok(shown);
  // The step back (kept), the next step down (run at once), then the other constant's steps, each a patch on the
  // analysis shown (then the policies no step changes); the step after the next is run, not offered.
  const steps = offered.filter((o) => o.analysis.policy.name === base.name);
  assert.deepEqual(
    steps.map((o) => [o.analysis.policy.tiered.keepRecent, o.analysis.policy.tiered.tier1Distance]),
    [
      [5, d],
      [3, d],
      [4, d + 1],
      [4, d - 1],
    ],
  );
  for (const o of offered) {
    assert.equal(o.summarizer, 'none');
    assert.equal(o.analysis.patch?.base, shown.id);
    const whole = applyPatch(shown.analysis, o.analysis.analysis, o.analysis.patch!);
    assert.ok(whole);
    const direct = await analyze(s.model!, o.analysis.policy);
    assert.deepEqual(whole.messages, encodeAnalysis(direct.analysis).messages);
    assert.deepEqual(whole.totals, direct.analysis.totals);
    assert.ok(whole.vsNone, 'offered as an answer would be: beside none');
  }
  const three = steps[1].analysis;
  const before = runs.length;
  const answers = sent.length;
  await s.request(at(3), 'none', 3, three.id);
  assert.equal(runs.length, before, 'no engine run');
  assert.equal(sent.length, answers + 1);
  assert.equal(sent.at(-1)?.id, three.id, 'the views that did not show it get the very same analysis');
  assert.equal(sent.at(-1)?.seq, 3);
  assert.equal(
    s.analysis?.totals.promptTokens,
    (await analyze(s.model!, at(3))).analysis.totals.promptTokens,
  );
  // The steps go on from the adopted analysis: the step after it, run with the step before, is offered at once.
  assert.ok(runs.includes(`${base.name} 2/${d}`), runs.join(', '));
  const ranBefore = runs.length;
  await clock.advance(0);
  assert.ok(!runs.slice(ranBefore).includes(`${base.name} 2/${d}`), runs.join(', '));
  const next = offered.find((o) => o.analysis.policy.tiered.keepRecent === 2)?.analysis;
  assert.equal(next?.policy.name, base.name);
  assert.equal(next?.patch?.base, three.id);
});

test('once the user paused, the host lets go of the analyses it kept but the steps offered on the one shown; a view that shows another offer then is answered by the engine under the offer', async () => {
  const { s, sent, runs, offered, base, d, at, clock } = await steppedDown();
  const three = offered.find((o) => o.analysis.policy.tiered.keepRecent === 3)?.analysis;
  const other = offered.find((o) => o.analysis.policy.name !== base.name);
  assert.ok(three && other);
  s.releaseKept();
  // A step offered is still kept: adopted without the engine.
  let before = runs.length;
  await s.request(at(3), 'none', 3, three.id);
  assert.equal(runs.length, before, 'no engine run for a step offered');
  assert.equal(sent.at(-1)?.id, three.id);
  // Another policy offered on it: let go of after the next pause, run again when a view moves to it.
  await clock.advance(0);
  const otherNow = [...offered].reverse().find((o) => o.analysis.policy.name === other.analysis.policy.name);
  assert.ok(
    otherNow && otherNow.analysis.patch?.base === three.id,
    'the other policy is offered on the step',
  );
  s.releaseKept();
  before = runs.length;
  await s.request(otherNow.analysis.policy, 'none', 4, otherNow.analysis.id);
  assert.deepEqual(
    runs.slice(before, before + 1),
    [`${other.analysis.policy.name} 3/${d}`],
    'the engine ran again',
  );
  assert.equal(
    sent.at(-1)?.id,
    otherNow.analysis.id,
    'the views that show it keep it; the others get the same analysis',
  );
  assert.equal(sent.at(-1)?.seq, 4);
  // The next analysis is a patch on it.
  await s.request({ ...otherNow.analysis.policy, tiered: at(6).tiered }, 'none', 5);
  assert.equal(sent.at(-1)?.patch?.base, otherNow.analysis.id);
});

test('while the user steps, the policies no step changes run ahead once; a switch to one after more steps is answered without the engine', async () => {
  const { s, sent, runs, base, at, clock } = await steppedDown();
  assert.ok(
    runs.some((r) => r.startsWith('live-zone ')),
    `the policies without the tiered pass ran ahead: ${runs.join(', ')}`,
  );
  // With the steps, not after the pause that runs the other policies (tiered + live zone among them).
  const liveAt = runs.findIndex((r) => r.startsWith('live-zone '));
  const pausedAt = runs.findIndex((r) => r.startsWith('tiered+live-zone '));
  assert.ok(pausedAt === -1 || liveAt < pausedAt, runs.join(', '));
  // Once, whatever the steps that follow.
  await s.request(at(3), 'none', 3);
  await clock.advance(0);
  assert.equal(runs.filter((r) => r.startsWith('live-zone ')).length, 1, runs.join(', '));
  const before = runs.length;
  await s.request({ ...at(3), name: 'live-zone' }, 'none', 4);
  assert.equal(runs.length, before, `no engine run: ${runs.slice(before).join(', ')}`);
  assert.equal(sent.at(-1)?.seq, 4);
  assert.equal(sent.at(-1)?.policy.name, 'live-zone');
  assert.equal(sent.at(-1)?.policy.tiered.keepRecent, 3, 'the message carries the settings asked for');
  assert.equal(
    s.analysis?.totals.promptTokens,
    (await analyze(s.model!, { ...base, name: 'live-zone' })).analysis.totals.promptTokens,
  );
});

test('a view that holds an offer the host no longer has is answered by the engine, with a patch on what the host sent', async () => {
  const { s, sent, offered, at } = await steppedDown();
  const stale = offered.find((o) => o.analysis.policy.tiered.keepRecent === 3)?.analysis;
  assert.ok(stale);
  // Another analysis was sent since the offer (a change from another view).
  await s.request(at(7), 'none', 0);
  const shown = sent.at(-1)?.id;
  await s.request(at(3), 'none', 3, stale.id);
  assert.notEqual(sent.at(-1)?.id, stale.id);
  assert.equal(sent.at(-1)?.patch?.base, shown);
  assert.equal(sent.at(-1)?.seq, 3);
  assert.equal(s.complete()?.policy.tiered.keepRecent, 3);
});

test('after the first analysis of a file opened, the likely next analyses run ahead; after one of a file that grew, none', async () => {
  const { s, runs, clock } = session();
  const base = defaultsFor(s.model);
  await s.request(base, 'none', 0);
  await clock.advance(runAheadAfterMs);
  assert.ok(
    runs.includes(`${base.name} ${base.tiered.keepRecent + 1}/${base.tiered.tier1Distance}`),
    runs.join(', '),
  );
  assert.ok(
    runs.some((r) => r.startsWith('live-zone ')),
    runs.join(', '),
  );
  // The file grew (its bytes before the end unchanged): the analysis of the grown file runs nothing ahead.
  const grown = await s.loadAsync(fixture, fixture.length);
  assert.ok(grown);
  const before = runs.length;
  await s.request(base, 'none', 0);
  await clock.advance(runAheadAfterMs);
  // Its own analysis and the baseline it is measured against, nothing else.
  assert.deepEqual(
    runs.slice(before).sort(),
    [
      `${base.name} ${base.tiered.keepRecent}/${base.tiered.tier1Distance}`,
      `none ${base.tiered.keepRecent}/${base.tiered.tier1Distance}`,
    ].sort(),
  );
});

test('analyses carry the request columns only while a view shows them; showing them sends the last analysis again with them', async () => {
  const { s, sent } = session();
  const base = defaultsFor(s.model);
  await s.request(base, 'none', 1);
  const requests = s.analysis?.requests.length ?? 0;
  assert.ok(requests > 1);
  let wire = sent[0].analysis;
  assert.equal(wire.requests.promptTokens.length, 0);
  assert.equal(wire.sentRequests, requests - 1);

  const shown = s.showRequests(true);
  assert.ok(shown);
  assert.equal(shown.seq, 1, 'the same analysis, answering the same change');
  assert.ok(shown.patch, 'a patch on the analysis the view holds');
  wire = applyPatch(wire, shown.analysis, shown.patch) ?? assert.fail('the patch applies');
  assert.deepEqual(decodeRequests(wire.requests), decodeRequests(encodeAnalysis(s.analysis!).requests));
  assert.equal(s.showRequests(true), null, 'nothing new to send');

  const hidden = s.showRequests(false);
  assert.ok(hidden?.patch);
  wire = applyPatch(wire, hidden.analysis, hidden.patch) ?? assert.fail('the patch applies');
  assert.equal(wire.requests.promptTokens.length, 0);
});

test('an estimate that is made after the exact analysis arrived is not shown', async () => {
  const sent: Extract<HostMessage, { type: 'analysis' }>[] = [];
  const estimated = gate();
  const exactSent = gate();
  const s = stillSession(
    {
      parse: parseTranscript,
      analyze: async (t, p, _summarizer, _signal, countsTakeLong) => {
        countsTakeLong?.();
        return analyze(t, p);
      },
      // The estimate gives way (as the editor's does) until the exact analysis is in.
      estimate: async (t, p) => {
        await exactSent.opened;
        const r = analyzeSync(t, p, { counter: new EstimatingCounter('o200k_base') });
        estimated.open();
        return r;
      },
    },
    (m) => sent.push(m),
  );
  s.load(fixture);
  await s.request(defaultsFor(s.model), 'none', 1);
  exactSent.open();
  await estimated.opened;
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(sent.length, 1);
  assert.equal(sent[0].analysis.tokensPending, undefined);
});

test('when the counts of a first analysis take long, an analysis with estimated counts is shown first, marked provisional, then the exact one', async () => {
  const sent: Extract<HostMessage, { type: 'analysis' }>[] = [];
  const counted = gate();
  const s = stillSession(
    {
      parse: parseTranscript,
      analyze: async (t, p, _summarizer, _signal, countsTakeLong) => {
        countsTakeLong?.();
        await counted.opened;
        return analyze(t, p);
      },
      estimate: async (t, p) => analyzeSync(t, p, { counter: new EstimatingCounter('o200k_base') }),
    },
    (m) => {
      sent.push(m);
      shown();
    },
  );
  let shown = () => {};
  const estimateShown = new Promise<void>((r) => {
    shown = r;
  });
  s.load(fixture);
  const policy = defaultsFor(s.model);
  const done = s.request(policy, 'none', 1);
  // Before the counts are released: the estimate cannot wait for them.
  await estimateShown;
  assert.equal(sent.length, 1);
  assert.equal(sent[0].seq, 1);
  assert.equal(sent[0].analysis.tokensPending, true);
  assert.ok(sent[0].analysis.vsNone, 'the headline has its comparison with none, estimated alike');
  counted.open();
  await done;
  assert.equal(sent.length, 2);
  assert.equal(sent[1].seq, 1);
  assert.equal(sent[1].analysis.tokensPending, undefined);
  const last = sent[1];
  const exact = last.patch ? applyPatch(sent[0].analysis, last.analysis, last.patch) : last.analysis;
  assert.ok(exact);
  assert.deepEqual(exact.totals, (await analyze(s.model!, policy)).analysis.totals);
  assert.equal(exact.messages.tier, sent[0].analysis.messages.tier, 'the tiers do not wait for the counts');
  assert.notEqual(exact.totals.tokensBefore, sent[0].analysis.totals.tokensBefore);

  // Later analyses of the same transcript never show estimates, nor those of the file as it grows.
  await s.request({ ...policy, tiered: { ...policy.tiered, keepRecent: 3 } }, 'none', 2);
  assert.equal(sent.length, 3);
  assert.equal(sent[2].analysis.tokensPending, undefined);
  await s.loadAsync(fixture, fixture.length - 1);
  await s.request(policy, 'none', 0);
  assert.equal(sent.length, 4);
  assert.equal(sent[3].analysis.tokensPending, undefined);
  // A file read whole again (rewritten on disk) is a first analysis again.
  await s.loadAsync(fixture, 0);
  await s.request(policy, 'none', 0);
  assert.equal(sent.length, 6);
  assert.equal(sent[4].analysis.tokensPending, true);
});

test("the transcript message names the project as the Sessions view lists it: the log's cwd, else its folder", async () => {
  const engine = { parse: parseTranscript, analyze: (t: Transcript, p: Policy) => analyze(t, p) };
  const fail = (e: unknown) => assert.fail(String(e));
  const path = '.claude/projects/-repos-acme-mathlib/0b9e0f9a-1d2c.jsonl';
  const prompt = 'Add a function called multiply_numbers(a: int, b: int) -> int that multiplies t…';
  // The working directory the records name, as the listing reads it (the same rule, core/sessionProject.ts).
  const listed = sessionHead(path, fixture, 'claude-code').project;
  assert.equal(listed, '/tmp/tmpw6sk2trg');
  const inProject = new TranscriptSession('0b9e0f9a-1d2c.jsonl', engine, () => {}, fail, path);
  assert.equal(inProject.load(fixture).title, `${projectLabel(listed)} · ${prompt}`);
  // Parsed off the thread, from the file's beginning: the same name.
  const parsedAsync = new TranscriptSession('0b9e0f9a-1d2c.jsonl', engine, () => {}, fail, path);
  assert.equal((await parsedAsync.loadAsync(fixture))?.title, `/tmp/tmpw6sk2trg · ${prompt}`);
  // A log whose records name no working directory: the folder it sits in, as the listing names it.
  const noCwd = new TextEncoder().encode(fixture.toString('utf8').replace(/"cwd":"[^"]*",/g, ''));
  assert.equal(sessionHead(path, noCwd, 'claude-code').project, '-repos-acme-mathlib');
  const inFolder = new TranscriptSession('0b9e0f9a-1d2c.jsonl', engine, () => {}, fail, path);
  assert.equal(inFolder.load(noCwd).title, `-repos-acme-mathlib · ${prompt}`);
  // A long working directory is cut to its last two parts, in the title as in the view's group row.
  const deep = new TextEncoder().encode(
    fixture.toString('utf8').replace(/"cwd":"[^"]*"/g, '"cwd":"repos/acme/context-lens"'),
  );
  const inDeep = new TranscriptSession('0b9e0f9a-1d2c.jsonl', engine, () => {}, fail, path);
  assert.equal(inDeep.load(deep).title, `…/acme/context-lens · ${prompt}`);
});

/** A new session restored from what `other` sent its views, as kept on disk: its list packed as it crossed to the
 * views, its analysis through JSON; with the analyses it sends, and the transcript as the views decode it. */
function restoredFrom(other: TranscriptSession) {
  const transcript = other.transcriptMessage();
  assert.ok(transcript);
  const list = packed(transcript);
  const analysis = JSON.parse(JSON.stringify(other.complete()));
  const decoded = decodeList(JSON.parse(new TextDecoder().decode(list.json)));
  assert.ok(decoded.ok);
  const kept = { transcript: decoded.value as typeof transcript, analysis };
  const sent: Extract<HostMessage, { type: 'analysis' }>[] = [];
  const s = stillSession({ parse: parseTranscript, analyze: async (t, p) => analyze(t, p) }, (m) =>
    sent.push(m),
  );
  assert.equal(s.restore({ list, analysis }), true);
  return { s, sent, kept };
}

test('a session restored from what another sent of the same file shows it until the parse, which confirms it: the views keep it and the next analysis patches it', async () => {
  const first = session();
  await first.s.request(defaultsFor(first.s.model), 'none', 0);
  const { s, sent, kept } = restoredFrom(first.s);
  // A view that connects before the parse is sent what was kept.
  assert.deepEqual(s.transcriptMessage(), kept.transcript);
  assert.deepEqual(s.complete(), kept.analysis);
  const loaded = await s.loadAsync(fixture);
  assert.ok(loaded && s.confirmsRestored(loaded));
  assert.equal(loaded.revision, kept.transcript.revision);
  await s.request(defaultsFor(s.model), 'none', 0);
  assert.equal(sent.length, 1);
  const again = sent[0];
  assert.equal(again.patch?.base, kept.analysis.id);
  assert.deepEqual(again.patch?.rows, []);
  assert.ok(again.id > kept.analysis.id);
});

test('a restored session whose parse makes another transcript message sends it under a new revision, with a whole analysis', async () => {
  const lines = fixture.toString('utf8').trimEnd().split('\n');
  const half = Buffer.from(`${lines.slice(0, Math.floor(lines.length / 2)).join('\n')}\n`);
  const other = session();
  other.s.load(half);
  await other.s.request(defaultsFor(other.s.model), 'none', 0);
  const { s, sent, kept } = restoredFrom(other.s);
  const loaded = await s.loadAsync(fixture);
  assert.ok(loaded && !s.confirmsRestored(loaded));
  assert.equal(loaded.revision, kept.transcript.revision + 1);
  assert.ok(loaded.messages.length > kept.transcript.messages.length);
  await s.request(defaultsFor(s.model), 'none', 0);
  assert.equal(sent[0].patch, undefined);
  assert.ok(sent[0].id > kept.analysis.id);
});

test("the verdict's runs stop when the user changes the settings again: it answers nothing, and the next one is made", async () => {
  // The verdict's run of another policy waits there until it is stopped, as a long session's replays take their
  // time; `reached` opens once it is under way.
  const reached = gate();
  const runs: string[] = [];
  let holding = true;
  const s = stillSession(
    {
      parse: parseTranscript,
      analyze: async (t, p, _summarizer, signal) => {
        runs.push(p.name);
        if (holding && p.name === 'live-zone') {
          reached.open();
          await new Promise((_, reject) =>
            signal?.addEventListener('abort', () => reject(new Error('stopped'))),
          );
        }
        return analyze(t, p, { signal });
      },
    },
    () => {},
  );
  s.load(fixture);
  const base = defaultsFor(s.model);
  const stepped = { ...base, tiered: { ...base.tiered, keepRecent: base.tiered.keepRecent + 1 } };
  await s.request(base, 'none', 1);
  const stale = s.verdictMessage(base);
  await reached.opened;
  assert.ok(runs.includes('live-zone'), runs.join(', '));
  await s.request(stepped, 'none', 2);
  assert.equal(await stale, null);
  holding = false;
  const verdict = await s.verdictMessage(stepped);
  assert.equal(verdict?.type, 'verdict');
  assert.deepEqual(verdict?.policy, stepped);
  assert.ok(verdict?.verdict.ranked.some((r) => r.policyName === 'live-zone'));
});
