import './dom';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import type { Policy } from '../../src/core/engine/policy';
import { REGISTRY_DESCRIPTORS, type SettingKey, type SettingValue } from '../../src/protocol';
import { DescriptorsContext } from '../../webview/descriptors';
import { Controls } from '../../webview/views/Controls';
import { resetRoot } from './dom';
import { policy } from './fixtures';

const setValue = (input: HTMLInputElement, value: string) =>
  // React listens to the native value setter + input event.
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value);

/** What a keystroke does: the new text, with the input event's inputType as the browser sets it. */
function type(input: HTMLInputElement, value: string) {
  setValue(input, value);
  input.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText' }));
}

/** What a step does (spin button, wheel, arrow key): the new value, an input event without inputType. */
function step(input: HTMLInputElement, value: string) {
  setValue(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

const press = (input: HTMLInputElement, key: string) =>
  input.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));

async function renderControls(
  p: Policy = policy,
  offered?: readonly string[],
  provider?: 'anthropic' | 'openai',
) {
  const changes: [SettingKey, SettingValue][] = [];
  let resets = 0;
  const container = resetRoot();
  const root = createRoot(container);
  await act(async () =>
    root.render(
      <DescriptorsContext.Provider value={REGISTRY_DESCRIPTORS}>
        <Controls
          policy={p}
          offered={offered}
          provider={provider}
          summarizer="none"
          models={[{ id: 'claude-sonnet-4', label: 'Claude Sonnet 4' }]}
          scope="workspace"
          problem={null}
          onChange={(k, v) => changes.push([k, v])}
          onReset={() => resets++}
        />
      </DescriptorsContext.Provider>,
    ),
  );
  return { container, root, changes, resets: () => resets };
}

test('every numeric constant of SPEC §2–§5 has a field named by its key, showing the policy value', async () => {
  const { container, root } = await renderControls();
  const fields = Object.fromEntries(
    [...container.querySelectorAll('input[type="number"]')].map((i) => [
      i.getAttribute('aria-label'),
      (i as HTMLInputElement).value,
    ]),
  );
  assert.deepEqual(fields, {
    keepRecent: '8',
    tier1Distance: '20',
    maxResultChars: '300',
    summaryMinChars: '2000',
    summariesPerPass: '2',
    argsChars: '100',
    keep: '3',
    keepTurns: '2',
    minChars: '512',
    outputBufferTokens: '4000',
    'contextEditing.trigger': '100000',
    'contextEditing.keep': '3',
    'contextEditing.clearAtLeast': '0',
    'compaction.threshold': '0.835',
    'compaction.summaryTokens': '3000',
    'compaction.keepRecentMessages': '0',
    'codexAutoCompact.tokenLimit': '0',
    'codexAutoCompact.contextWindow': '272000',
    'codexAutoCompact.summaryTokens': '9000',
    'claudeCode.autocompactPctOverride': '0',
    'claudeCode.microcompactIdleMinutes': '60',
    'claudeCode.microcompactKeepRecent': '5',
    'claudeCode.summaryTokens': '3000',
    'anthropicCompaction.trigger': '150000',
    'anthropicCompaction.summaryTokens': '3000',
    pressureFraction: '0.95',
  });
  for (const list of ['floorTools', 'noSummaryTools', 'tools', 'contextEditing.excludeTools'])
    assert.ok(container.querySelector(`[aria-label="${list}"]`), `${list} editor`);
  for (const select of [
    'policy',
    'replay.trigger',
    'model',
    'summarizer',
    'contextEditing.triggerType',
    'contextEditing.clearThinkingKeep',
  ])
    assert.ok(container.querySelector(`[aria-label="${select}"]`), `${select} select`);
  await act(async () => root.unmount());
});

test('a number is sent on Enter, on leaving the field or on a step, never per keystroke', async () => {
  const { container, root, changes } = await renderControls();
  const keepRecent = container.querySelector('input[aria-label="keepRecent"]') as HTMLInputElement;
  await act(async () => type(keepRecent, '5'));
  assert.deepEqual(changes, [], 'a keystroke sends nothing');
  await act(async () => press(keepRecent, 'Enter'));
  assert.deepEqual(changes, [['tiered.keepRecent', 5]]);
  await act(async () => type(keepRecent, '6'));
  await act(async () => keepRecent.dispatchEvent(new FocusEvent('blur')));
  await act(async () => keepRecent.dispatchEvent(new FocusEvent('focusout', { bubbles: true })));
  assert.deepEqual(changes.at(-1), ['tiered.keepRecent', 6]);
  await act(async () => step(keepRecent, '7'));
  assert.deepEqual(changes.at(-1), ['tiered.keepRecent', 7]);
  // Escape puts back the value in force (the props still say 8: nothing answered in this test).
  await act(async () => type(keepRecent, '3'));
  await act(async () => press(keepRecent, 'Escape'));
  assert.equal(keepRecent.value, '8');
  await act(async () => root.unmount());
});

test('typing 15 into tier1Distance with keepRecent 4 sends 15: the "1" on the way is neither sent nor refused', async () => {
  const p: Policy = { ...policy, tiered: { ...policy.tiered, keepRecent: 4, tier1Distance: 20 } };
  const { container, root, changes } = await renderControls(p);
  const field = container.querySelector('input[aria-label="tier1Distance"]') as HTMLInputElement;
  await act(async () => type(field, '1'));
  assert.equal(container.querySelector('[data-testid="field-problem"]'), null);
  assert.equal(field.value, '1');
  await act(async () => type(field, '15'));
  await act(async () => press(field, 'Enter'));
  assert.deepEqual(changes, [['tiered.tier1Distance', 15]]);
  await act(async () => root.unmount());
});

test('a refused value stays in the field with the reason and the range, is not sent, and fixing it clears the message', async () => {
  const p: Policy = { ...policy, tiered: { ...policy.tiered, keepRecent: 4, tier1Distance: 20 } };
  const { container, root, changes } = await renderControls(p);
  const field = container.querySelector('input[aria-label="tier1Distance"]') as HTMLInputElement;
  await act(async () => type(field, '2'));
  await act(async () => press(field, 'Enter'));
  assert.deepEqual(changes, []);
  assert.equal(field.value, '2', 'what the user typed stays');
  assert.equal(field.getAttribute('aria-invalid'), 'true');
  const problem = container.querySelector('[data-testid="field-problem"]');
  assert.match(problem?.textContent ?? '', /at least keepRecent \(4\).*4 or more/);
  assert.ok(
    field.getAttribute('aria-describedby')?.includes(problem?.id ?? '-'),
    'the reason describes the field',
  );
  await act(async () => type(field, '6'));
  assert.equal(container.querySelector('[data-testid="field-problem"]'), null, 'fixed: the message goes');
  assert.equal(field.getAttribute('aria-invalid'), null);
  await act(async () => press(field, 'Enter'));
  assert.deepEqual(changes, [['tiered.tier1Distance', 6]]);

  // A negative keepRecent, then a fraction: explained, not sent.
  const keepRecent = container.querySelector('input[aria-label="keepRecent"]') as HTMLInputElement;
  await act(async () => type(keepRecent, '-1'));
  await act(async () => press(keepRecent, 'Enter'));
  assert.match(container.querySelector('[data-testid="field-problem"]')?.textContent ?? '', /0 to 20/);
  await act(async () => type(keepRecent, '2.5'));
  await act(async () => press(keepRecent, 'Enter'));
  assert.match(container.querySelector('[data-testid="field-problem"]')?.textContent ?? '', /whole number/);
  assert.deepEqual(changes, [['tiered.tier1Distance', 6]]);
  await act(async () => root.unmount());
});

test("the policy list holds what the session's provider and agent can use, and the current policy", async () => {
  // What the host answers for a Codex session of an OpenAI model (the registry's isOffered).
  const offered = [
    'none',
    'tiered',
    'live-zone',
    'tiered+live-zone',
    'observation',
    'compaction',
    'codex-auto-compact',
  ];
  const { container, root } = await renderControls({ ...policy, name: 'anthropic-context-editing' }, offered);
  const options = [...container.querySelectorAll('[data-testid="setting-policy"] vscode-option')].map((o) =>
    o.textContent?.trim(),
  );
  assert.deepEqual(options, [
    'none',
    'tiered',
    'live zone',
    'tiered + live zone',
    'observation window',
    'Anthropic context editing',
    'compaction (auto-compact)',
    'Codex auto-compaction',
  ]);
  await act(async () => root.unmount());
});

test('keepRecent near 0 carries its warning beside the field, as the descriptor says; 3 and more none', async () => {
  const risky = { ...policy, tiered: { ...policy.tiered, keepRecent: 1 } };
  const { container, root } = await renderControls(risky);
  const warnings = [...container.querySelectorAll('[data-testid="field-warning"]')].map((w) => w.textContent);
  assert.deepEqual(warnings, [
    '⚠ keepRecent 1 < 3: rewrites what the agent read in its last tool calls, which it may still need (the file it edits, the error it fixes)',
  ]);
  const input = container.querySelector('[data-testid="setting-keepRecent"]') as HTMLInputElement;
  const warningId = container.querySelector('[data-testid="field-warning"]')!.id;
  assert.ok(input.getAttribute('aria-describedby')?.split(' ').includes(warningId));
  await act(async () => root.unmount());
  const safe = await renderControls({ ...policy, tiered: { ...policy.tiered, keepRecent: 3 } });
  assert.equal(safe.container.querySelectorAll('[data-testid="field-warning"]').length, 0);
  await act(async () => safe.root.unmount());
});

test("each provider's cache lifetime is offered for its own sessions only (both where the provider is not known)", async () => {
  const shown = (c: HTMLElement) =>
    ['replay.cacheTtl', 'replay.openaiCacheRetention'].filter((k) =>
      c.querySelector(`[data-testid="setting-${k}"]`),
    );
  for (const [provider, expected] of [
    ['openai', ['replay.openaiCacheRetention']],
    ['anthropic', ['replay.cacheTtl']],
    [undefined, ['replay.cacheTtl', 'replay.openaiCacheRetention']],
  ] as const) {
    const { container, root, changes } = await renderControls(policy, undefined, provider);
    assert.deepEqual(shown(container), expected, String(provider));
    if (provider === 'openai') {
      const options = [
        ...container.querySelectorAll('[data-testid="setting-replay.openaiCacheRetention"] vscode-option'),
      ].map((o) => o.textContent?.trim());
      assert.deepEqual(options, ['auto (from the log)', 'in memory (10 min)', '24 hours']);
      assert.equal(changes.length, 0);
    }
    await act(async () => root.unmount());
  }
});
