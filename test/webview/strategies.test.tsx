// The providers' strategies as the view shows them, from the real engine through the wire: the why-line of a result
// context editing cleared (the clearing's own numbers), and the Requests tab's compactions beside the log's.
import './dom';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { decodeAnalysis, encodeAnalysis } from '../../src/analysisWire';
import { analyzeSync } from '../../src/core/analysis';
import { clonePolicy, DEFAULT_POLICY, type Policy } from '../../src/core/engine/policy';
import type { Message, Transcript } from '../../src/core/model';
import { parseHostMessage, REGISTRY_DESCRIPTORS } from '../../src/protocol';
import { DescriptorsContext } from '../../webview/descriptors';
import { RequestsChart } from '../../webview/views/RequestsChart';
import { whyLines, whyOf } from '../../webview/views/why';
import { assistant, msg, text, toolLoop, toolResult, toolUse, transcriptOf, user } from '../unit/transcripts';
import { resetRoot } from './dom';

function policyOf(name: Policy['name'], over: (p: Policy) => void = () => {}): Policy {
  const p = clonePolicy(DEFAULT_POLICY);
  p.name = name;
  p.model = 'claude-sonnet-4';
  p.replay.trigger = 'everyRequest';
  over(p);
  return p;
}

function viewOf(transcript: Transcript, policy: Policy) {
  const { analysis } = analyzeSync(transcript, policy);
  const wire = JSON.parse(JSON.stringify(encodeAnalysis(analysis)));
  const parsed = parseHostMessage({ type: 'analysis', seq: 0, id: 1, policy, analysis: wire, elapsedMs: 1 });
  assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
  return { analysis, view: decodeAnalysis(wire, transcript.messages) };
}

test('a cleared result says which request cleared it, the prompt against the trigger, and keep', () => {
  const t = toolLoop(6);
  const none = analyzeSync(t, policyOf('none')).analysis.requests;
  const policy = policyOf('anthropic-context-editing', (p) => {
    p.contextEditing.trigger = none[3].promptTokens;
    p.contextEditing.keep = 2;
  });
  const { view } = viewOf(t, policy);
  const prompt = none[4].promptTokens.toLocaleString('en-US');
  const trigger = none[3].promptTokens.toLocaleString('en-US');
  assert.deepEqual(whyLines(view.messages[2], whyOf(view, 2), policy), [
    `cleared by context editing (clear_tool_uses_20250919) before request 5: prompt ${prompt} input tokens > trigger ${trigger}, and this call is older than the newest keep 2 tool uses → result replaced by "[cleared]" on the server; the client still sends it`,
  ]);
  assert.deepEqual(whyLines(view.messages[10], whyOf(view, 10), policy), [], 'the newest keep 2 stay');
});

test('the Requests tab lists the simulated compactions beside the log’s', async () => {
  const messages: Omit<Message, 'index'>[] = [
    user(text('start')),
    assistant(toolUse('a', 'bash')),
    user(toolResult('a', 'output a '.repeat(300))),
    assistant(toolUse('b', 'bash')),
    user(toolResult('b', 'output b '.repeat(300))),
    msg('user', [text(`Summary: ${'facts '.repeat(100)}`)], { flags: ['isCompactSummary'] }),
    assistant(toolUse('c', 'bash')),
    user(toolResult('c', 'output c')),
    assistant(text('done')),
  ];
  const t = transcriptOf(messages, {
    format: 'claude-code',
    markers: [{ kind: 'compaction', label: 'compact_boundary', beforeMessage: 5, preTokens: 150_000 }],
  });
  const policy = policyOf('compaction', (p) => {
    p.compaction.threshold = 0.7;
  });
  const { analysis, view } = viewOf(t, policy);
  assert.deepEqual(view.compactions?.recorded, [{ request: 2, beforeMessage: 5, preTokens: 150_000 }]);
  assert.deepEqual(
    view.compactions?.simulated.map((s) => [s.request, s.fromLog, s.contextTokens]),
    [[2, true, 150_000]],
  );
  assert.equal(view.compactions?.simulated[0].cost, analysis.requests[2].compaction?.cost);
  const container = resetRoot();
  const root = createRoot(container);
  await act(async () =>
    root.render(
      <DescriptorsContext.Provider value={REGISTRY_DESCRIPTORS}>
        <RequestsChart analysis={view} comparisons={[]} />
      </DescriptorsContext.Provider>,
    ),
  );
  const rows = [...container.querySelectorAll('[data-testid="compaction-row"]')].map((r) =>
    [...r.children].map((c) => c.textContent),
  );
  assert.equal(rows.length, 1);
  assert.equal(rows[0][0], '3');
  assert.equal(rows[0][1], '150k');
  assert.match(rows[0][2] ?? '', /\(the log's\)$/);
  assert.equal(rows[0][5], '150k');
  assert.match(
    container.querySelector('[data-testid="compactions"] caption')?.textContent ?? '',
    /1 simulated \(from documented behaviour\), 1 in the log/,
  );
  await act(async () => root.unmount());
});
