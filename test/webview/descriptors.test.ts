// What the view knows of the registries arrives with the page: the host writes the descriptors into it, the view
// reads and checks them, and builds its checks of the policy and the format from them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JSDOM } from 'jsdom';
import { POLICY_NAMES, POLICY_PASSES, SETTING_PATHS } from '../../src/core/engine/policies/registry';
import { DEFAULT_POLICY } from '../../src/core/engine/policy';
import { FORMATS } from '../../src/core/formats/registry';
import { webviewHtml } from '../../src/host/webviewHtml';
import { REGISTRY_DESCRIPTORS } from '../../src/protocol';
import { check } from '../../src/protocol/check';
import { formatCheckOf, policyCheckOf, type ViewDescriptors } from '../../src/protocol/viewDescriptors';
import { policyOf, readDescriptors } from '../../webview/descriptors';

const page = (descriptors?: ViewDescriptors) =>
  new JSDOM(
    webviewHtml({ cspSource: 'https://x', scriptUri: 'w.js', styleUri: 'm.css', nonce: 'n', descriptors }),
  ).window.document;

test("the page carries the registries' descriptors, and the view reads back exactly them", () => {
  assert.deepEqual(readDescriptors(page()), { ok: true, value: REGISTRY_DESCRIPTORS });
  assert.deepEqual(
    REGISTRY_DESCRIPTORS.policies.map((p) => p.name),
    POLICY_NAMES,
  );
  for (const name of POLICY_NAMES)
    assert.equal(policyOf(REGISTRY_DESCRIPTORS, name).tiered, POLICY_PASSES[name].tiered);
  assert.deepEqual(
    REGISTRY_DESCRIPTORS.settings.map((s) => s.key),
    SETTING_PATHS,
  );
  assert.deepEqual(
    REGISTRY_DESCRIPTORS.formats,
    FORMATS.map((f) => f.id),
  );
});

test('descriptors that hold markup stay data: the page has one script to run, and the words come back whole', () => {
  const hostile = '</script><script>alert(1)</script><!--';
  const d: ViewDescriptors = {
    ...REGISTRY_DESCRIPTORS,
    policies: [{ ...REGISTRY_DESCRIPTORS.policies[0], words: { once: hostile, otherwise: hostile } }],
  };
  const doc = page(d);
  assert.equal(doc.querySelectorAll('script:not([type="application/json"])').length, 1);
  const read = readDescriptors(doc);
  assert.equal(read.ok && read.value.policies[0].words.once, hostile);
});

test('a page without descriptors, or with malformed ones, is refused with why', () => {
  const bare = new JSDOM('<!doctype html><div id="root"></div>').window.document;
  assert.deepEqual(readDescriptors(bare), { ok: false, error: 'the page carries no descriptors' });
  const doc = page();
  const block = doc.getElementById('context-lens-descriptors')!;
  block.textContent = '{"policies":';
  assert.match(readDescriptors(doc).ok ? '' : (readDescriptors(doc) as { error: string }).error, /not JSON/);
  block.textContent = JSON.stringify({ ...REGISTRY_DESCRIPTORS, formats: [1] });
  assert.deepEqual(readDescriptors(doc), {
    ok: false,
    error: 'invalid descriptors: descriptors.formats[0]: expected a string, got number 1',
  });
});

test("the policy check built from the descriptors takes the registry's policies and refuses others, naming the field", () => {
  const policy = policyCheckOf(REGISTRY_DESCRIPTORS);
  assert.equal(check(policy, DEFAULT_POLICY, 'policy'), null);
  assert.match(
    check(policy, { ...DEFAULT_POLICY, name: 'tiered+nope' }, 'policy') ?? '',
    /^policy\.name: expected one of "none"/,
  );
  assert.equal(
    check(policy, { ...DEFAULT_POLICY, tiered: { ...DEFAULT_POLICY.tiered, floorTools: 'Read' } }, 'policy'),
    'policy.tiered.floorTools: expected an array, got the string "Read"',
  );
  assert.match(
    check(
      policy,
      { ...DEFAULT_POLICY, replay: { ...DEFAULT_POLICY.replay, trigger: 'sometimes' } },
      'policy',
    ) ?? '',
    /^policy\.replay\.trigger: expected one of "auto", "once"/,
  );
  const { compaction: _, ...withoutCompaction } = DEFAULT_POLICY;
  assert.equal(
    check(policy, withoutCompaction, 'policy'),
    'policy.compaction: expected an object, got nothing',
  );
  // A policy the view was not told of runs no pass it knows.
  assert.equal(policyOf(REGISTRY_DESCRIPTORS, 'tiered+nope').tiered, false);
  assert.match(
    check(formatCheckOf(REGISTRY_DESCRIPTORS), 'word-doc', 'format') ?? '',
    /^format: expected one of/,
  );
});
