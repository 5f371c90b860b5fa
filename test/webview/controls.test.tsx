import './dom';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import type { SettingKey, SettingValue } from '../../src/protocol';
import { Controls } from '../../webview/views/Controls';
import { resetRoot } from './dom';
import { policy } from './fixtures';

function type(input: HTMLInputElement, value: string) {
  // React listens to the native value setter + input event.
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!;
  setter.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

async function renderControls() {
  const changes: [SettingKey, SettingValue][] = [];
  let resets = 0;
  const container = resetRoot();
  const root = createRoot(container);
  await act(async () =>
    root.render(
      <Controls
        policy={policy}
        summarizer="none"
        models={[{ id: 'claude-sonnet-4', label: 'Claude Sonnet 4' }]}
        scope="workspace"
        problem={null}
        onChange={(k, v) => changes.push([k, v])}
        onReset={() => resets++}
      />,
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
    pressureFraction: '0.95',
  });
  for (const list of ['floorTools', 'noSummaryTools', 'tools'])
    assert.ok(container.querySelector(`[aria-label="${list}"]`), `${list} editor`);
  for (const select of ['policy', 'replay.trigger', 'model', 'summarizer'])
    assert.ok(container.querySelector(`[aria-label="${select}"]`), `${select} select`);
  await act(async () => root.unmount());
});

test('typing keepRecent sends the change at once; an invalid value is explained and not sent', async () => {
  const { container, root, changes } = await renderControls();
  const keepRecent = container.querySelector('input[aria-label="keepRecent"]') as HTMLInputElement;
  await act(async () => type(keepRecent, '5'));
  assert.deepEqual(changes, [['tiered.keepRecent', 5]]);
  await act(async () => type(keepRecent, '-1'));
  await act(async () => type(keepRecent, '2.5'));
  assert.deepEqual(changes, [['tiered.keepRecent', 5]]);
  assert.equal(keepRecent.getAttribute('aria-invalid'), 'true');
  assert.match(container.querySelector('[role="alert"]')?.textContent ?? '', /whole number/);
  await act(async () => root.unmount());
});
