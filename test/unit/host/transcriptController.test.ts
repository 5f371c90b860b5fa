import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { analyze } from '../../../src/core/analysis';
import { parseTranscript } from '../../../src/core/formats';
import { applyChanges, defaultsFor, type EffectiveSettings } from '../../../src/host/policySettings';
import { TranscriptSession } from '../../../src/host/session';
import { type DocumentPort, TranscriptController } from '../../../src/host/transcriptController';
import type { HostMessage, ViewLayout } from '../../../src/protocol';
import { REAL_FIXTURES } from '../../sharedFixtures';
import { FakeClock } from '../fakeClock';

const fixture = readFileSync(join(REAL_FIXTURES, 'claude-code', 'drmaciver-coverage-test-fix.jsonl'));

type View = 'a' | 'b';

/** A controller over the fixture's session, with two views (`a` and `b`) whose posts are recorded, settings kept
 * in memory (`saved`: what was saved), and `document` overrides. */
function controlled(document: Partial<DocumentPort> = {}, saveFails = false) {
  const posts: { view: View | 'all'; message: HostMessage }[] = [];
  const ready = new Set<View>();
  const showing = new Set<View>();
  const saved: unknown[] = [];
  const session = new TranscriptSession(
    'coverage-test-fix.jsonl',
    { parse: parseTranscript, analyze: (t, p) => analyze(t, p) },
    (message) => posts.push({ view: 'all', message }),
    (e) => assert.fail(String(e)),
    undefined,
    undefined,
    { clock: new FakeClock() },
  );
  session.load(fixture);
  let settings: EffectiveSettings = { policy: defaultsFor(session.model), summarizer: 'none', problems: [] };
  const controller = new TranscriptController<View>(
    session,
    {
      post: async (view, message) => void posts.push({ view, message }),
      broadcast: (message) => void posts.push({ view: 'all', message }),
      readyViews: () => [...ready],
      ready: (view) => void ready.add(view),
      showsRequests: (view, shown) => {
        if (shown) showing.add(view);
        else showing.delete(view);
        return showing.size > 0;
      },
    },
    {
      current: () => settings,
      apply: (changes) => {
        const r = applyChanges(settings, changes);
        if ('settings' in r) settings = r.settings;
        return r;
      },
      save: async (changes) => {
        if (saveFails) throw new Error('Could not save: read-only');
        saved.push(...changes);
      },
      reset: async () => {
        settings = { policy: defaultsFor(session.model), summarizer: 'none', problems: [] };
      },
      message: (problem) => ({
        type: 'settings',
        policy: settings.policy,
        summarizer: settings.summarizer,
        models: [],
        scope: 'workspace',
        ...(problem ? { problem } : {}),
      }),
    },
    {
      parsing: () => null,
      loadError: () => null,
      viewTookAnalysis: () => {},
      reveal: async () => {},
      exportCompacted: async () => {},
      copy: async () => {},
      layout: () => undefined,
      saveLayout: async () => {},
      ...document,
    },
  );
  const types = (view: View | 'all') => posts.filter((p) => p.view === view).map((p) => p.message.type);
  return { controller, session, posts, saved, types, settings: () => settings };
}

test('a message that is not one of the protocol is refused: the view is told why, and nothing else is done', async () => {
  const c = controlled();
  const refused = await c.controller.receive('a', { type: 'updateSettings', seq: 1, changes: 'all of them' });
  assert.ok(refused);
  assert.deepEqual(c.types('a'), ['error']);
  assert.match(String((c.posts[0].message as { message: string }).message), /refused/);
  assert.deepEqual(c.saved, []);
  assert.equal(c.session.analysis, null);
});

test('a view that is ready is sent its layout, the transcript and the settings; with nothing analysed yet, the document is told', async () => {
  const layout: ViewLayout = { controlsOpen: false, split: 0.4 };
  let asked = 0;
  const c = controlled({
    layout: () => layout,
    nothingAnalysedYet: async () => {
      asked++;
    },
  });
  await c.controller.receive('a', { type: 'ready' });
  assert.deepEqual(c.types('a'), ['layout', 'transcript', 'settings']);
  assert.equal(asked, 1);
  // Once analysed, a view that connects is sent the analysis whole.
  await c.session.request(c.settings().policy, 'none', 0);
  await c.controller.receive('b', { type: 'ready' });
  assert.deepEqual(c.types('b'), ['layout', 'transcript', 'settings', 'analysis']);
  assert.equal(asked, 1);
});

test('a settings change is told to every ready view, the asker with the change it answers, then analysed and saved', async () => {
  const c = controlled();
  await c.controller.receive('a', { type: 'ready' });
  await c.controller.receive('b', { type: 'ready' });
  const keepRecent = c.settings().policy.tiered.keepRecent + 1;
  await c.controller.receive('b', {
    type: 'updateSettings',
    seq: 7,
    changes: [{ key: 'tiered.keepRecent', value: keepRecent }],
  });
  const settingsTo = (view: View) =>
    c.posts.filter((p) => p.view === view && p.message.type === 'settings').at(-1)?.message;
  assert.equal((settingsTo('b') as { seq?: number }).seq, 7);
  assert.equal((settingsTo('a') as { seq?: number }).seq, undefined);
  const analysis = c.posts.filter((p) => p.message.type === 'analysis').at(-1)?.message;
  assert.equal(analysis?.type === 'analysis' && analysis.seq, 7);
  assert.equal(c.session.analysis?.policyName, c.settings().policy.name);
  assert.deepEqual(c.saved, [{ key: 'tiered.keepRecent', value: keepRecent }]);
});

test('a refused change is answered to its view with the reason and the change it answers; nothing is analysed or saved', async () => {
  const c = controlled();
  await c.controller.receive('a', { type: 'ready' });
  await c.controller.receive('a', {
    type: 'updateSettings',
    seq: 3,
    changes: [{ key: 'tiered.tier1Distance', value: 1 }],
  });
  const answer = c.posts.at(-1)?.message;
  assert.equal(answer?.type, 'settings');
  assert.ok(answer?.type === 'settings' && answer.problem && answer.seq === 3);
  assert.equal(c.session.analysis, null);
  assert.deepEqual(c.saved, []);
});

test('a change that could not be saved is still analysed, and the view that made it is told', async () => {
  const c = controlled({}, true);
  await c.controller.receive('a', { type: 'ready' });
  await c.controller.receive('a', {
    type: 'updateSettings',
    seq: 1,
    changes: [{ key: 'tiered.keepRecent', value: 3 }],
  });
  assert.ok(c.session.analysis);
  const error = c.posts.find((p) => p.message.type === 'error');
  assert.ok(error);
  assert.equal(error.view, 'a');
  assert.match((error.message as { message: string }).message, /read-only/);
});

test('while a kept view waits for its parse, the views’ requests wait for it too', async () => {
  let parsed = () => {};
  const parsing = new Promise<void>((resolve) => {
    parsed = resolve;
  });
  let waiting: Promise<void> | null = parsing;
  const c = controlled({ parsing: () => waiting });
  await c.controller.receive('a', { type: 'ready' });
  const found = c.controller.receive('a', { type: 'find', seq: 1, query: 'test' });
  await new Promise((resolve) => setImmediate(resolve));
  assert.ok(!c.types('a').includes('found'), 'the search waits for the parse');
  waiting = null;
  parsed();
  await found;
  assert.ok(c.types('a').includes('found'));
});

test('a conversation the file does not hold is refused with a message; showing the requests sends the analysis again with them', async () => {
  const c = controlled();
  await c.controller.receive('a', { type: 'ready' });
  await c.controller.receive('a', { type: 'selectThread', thread: 'no-such-agent' });
  assert.equal(c.posts.at(-1)?.message.type, 'error');
  await c.session.request(c.settings().policy, 'none', 0);
  const before = c.types('all').length;
  await c.controller.receive('a', { type: 'requestsShown', shown: true });
  const again = c.posts.slice(before).find((p) => p.message.type === 'analysis');
  assert.ok(again, 'the last analysis is sent again');
  await c.controller.receive('a', { type: 'requestsShown', shown: true });
  assert.equal(c.types('all').filter((t) => t === 'analysis').length, 2, 'once only');
});

test("the cache question is answered with its seq: why not before an analysis, then the header's line, and the breaks of the analysis shown for the Cache tab", async () => {
  const c = controlled();
  await c.controller.receive('a', { type: 'cacheBreaks', seq: 4, tab: false });
  const first = c.posts.at(-1)?.message as Extract<HostMessage, { type: 'cacheView' }>;
  assert.deepEqual(first, { type: 'cacheView', seq: 4, error: 'the transcript is not analysed yet' });
  await c.session.request(c.settings().policy, 'none', 0);
  // The Cache tab hidden: the header's line alone (a long session's figures are megabytes).
  await c.controller.receive('a', { type: 'cacheBreaks', seq: 5, tab: false });
  const line = c.posts.at(-1)?.message as Extract<HostMessage, { type: 'cacheView' }>;
  assert.equal(line.seq, 5);
  assert.ok(line.headline, line.error);
  assert.equal(line.view, undefined);
  await c.controller.receive('a', { type: 'cacheBreaks', seq: 6, tab: true });
  const answer = c.posts.at(-1)?.message as Extract<HostMessage, { type: 'cacheView' }>;
  assert.equal(answer.seq, 6);
  assert.ok(answer.view, answer.error);
  assert.deepEqual(answer.headline, line.headline);
  assert.equal(answer.headline?.cost, answer.view.log.cost);
  assert.equal(answer.view.thread, 'main');
  assert.equal(answer.view.policy.source, c.settings().policy.name);
  // One hit rate per request sent, and what would have avoided the breaks (no expiry here: no lifetimes replayed).
  assert.equal(answer.view.hitRates.length, answer.view.log.requests);
  assert.deepEqual(answer.view.avoided, { switches: [] });
});
