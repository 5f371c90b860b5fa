// One list of problems: the view's Problems tab shows what the editor's Problems panel shows (core/problems.ts
// `transcriptProblems`): the file's own problems from the transcript message, and the floors the current policy
// would miss from each analysis, which follow the settings.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyze } from '../../../src/core/analysis';
import { parseTranscript } from '../../../src/core/formats';
import { transcriptProblems } from '../../../src/core/problems';
import { defaultsFor } from '../../../src/host/policySettings';
import { TranscriptSession } from '../../../src/host/session';
import type { HostMessage } from '../../../src/protocol';
import { shownProblems } from '../../../webview/views/Problems';
import { FakeClock } from '../fakeClock';
import { ClaudeSession } from '../formats/helpers';

/** A session whose old results of `fetch_docs` (a content-bearing name) the tiered policy would stub to Tier 1, and
 * with one call left without its result (a problem of the file itself). */
function sessionBytes(): Uint8Array {
  const s = new ClaudeSession();
  s.user('read the docs');
  for (let i = 0; i < 30; i++) {
    const call = s.assistant(
      `msg_${i}`,
      [{ type: 'tool_use', id: `t${i}`, name: 'fetch_docs', input: { i } }],
      {
        input_tokens: 10 + i,
        output_tokens: 5,
      },
    );
    s.result(`t${i}`, `# Page ${i}\n\nThe documentation of part ${i}, as it reads.`, call);
  }
  s.assistant('msg_lost', [{ type: 'tool_use', id: 'lost', name: 'bash', input: {} }], {
    input_tokens: 50,
    output_tokens: 5,
  });
  return s.bytes();
}

test('the Problems tab lists what the Problems panel lists, under each policy', async () => {
  const bytes = sessionBytes();
  const sent: Extract<HostMessage, { type: 'analysis' }>[] = [];
  const session = new TranscriptSession(
    'docs.jsonl',
    { parse: parseTranscript, analyze: (t, p) => analyze(t, p) },
    (m) => sent.push(m),
    (e) => assert.fail(String(e)),
    undefined,
    undefined,
    { clock: new FakeClock() },
  );
  const opened = session.load(bytes);
  const transcript = parseTranscript(bytes, 'docs.jsonl');
  const tiered = defaultsFor(transcript);
  const summarized = (list: { code: string; line: number }[]) => list.map((p) => `${p.line} ${p.code}`);

  await session.request(tiered, 'none', 1);
  const underTiered = sent.at(-1)!.analysis;
  const panel = transcriptProblems(transcript, tiered);
  assert.ok(
    panel.some((p) => p.code === 'floor-missing'),
    'the panel names the missing floor',
  );
  assert.ok(panel.some((p) => p.code === 'tool-use-without-result'));
  assert.deepEqual(
    summarized(shownProblems(opened.diagnostics, underTiered.floorProblems)),
    summarized(panel),
  );

  // The floor added: the panel and the tab both drop the warning.
  const floored = {
    ...tiered,
    tiered: { ...tiered.tiered, floorTools: [...tiered.tiered.floorTools, 'fetch_docs'] },
  };
  await session.request(floored, 'none', 2);
  const withFloor = sent.at(-1)!.analysis;
  assert.equal(sent.at(-1)?.patch?.kept?.includes('floorProblems') ?? false, false);
  assert.deepEqual(
    summarized(shownProblems(opened.diagnostics, withFloor.floorProblems)),
    summarized(transcriptProblems(transcript, floored)),
  );
  assert.ok(
    !shownProblems(opened.diagnostics, withFloor.floorProblems).some((p) => p.code === 'floor-missing'),
  );
});
