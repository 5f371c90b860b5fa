// The four ways transcript text reached the Export command's notifications as a live `command:` link:
// a JSON key of an unrecognised file in "export failed", an unanswered tool_use id and an OpenAI content-part
// type in the request notes, and the file name. Each goes through the real parse and export, then the message.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { defaultPolicyFor } from '../../../src/core/engine/policy';
import { parseTranscript } from '../../../src/core/formats';
import {
  compareTitle,
  exportedMessage,
  exportFailedMessage,
  exportingTitle,
  requestChoiceDetail,
} from '../../../src/host/exportMessages';
import { exportCompacted } from '../../../src/node/exportFile';
import { HOSTILE, notificationLinks, visible } from './editorText';

const bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

function assertInert(message: string, vector: string) {
  assert.deepEqual(notificationLinks(message), [], message);
  assert.ok(visible(message).includes(vector), `the value is still shown as written: ${message}`);
}

async function exportOf(name: string, body: unknown) {
  const dir = mkdtempSync(join(tmpdir(), 'context-lens-messages-'));
  const source = join(dir, name);
  writeFileSync(source, bytes(body));
  const transcript = parseTranscript(bytes(body), source);
  return exportCompacted({
    source,
    transcript,
    policy: defaultPolicyFor(transcript.format),
    anthropicRequest: true,
    replace: false,
  });
}

test('export failed: the JSON key an unrecognised file quotes is no link', () => {
  let error: unknown;
  try {
    parseTranscript(bytes({ [HOSTILE]: 1 }), 'keys.json');
  } catch (e) {
    error = e;
  }
  assert.ok(error instanceof Error && error.message.includes(HOSTILE), 'the parse error quotes the key');
  assert.ok(notificationLinks(error.message).length > 0, 'as quoted, the key is a link');
  assertInert(exportFailedMessage(error), HOSTILE);
});

test('exported: an unanswered tool_use id in the request notes is no link', async () => {
  const r = await exportOf('unanswered.json', {
    model: 'claude-sonnet-4-20250514',
    messages: [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: [{ type: 'tool_use', id: HOSTILE, name: 'Bash', input: {} }] },
      { role: 'user', content: 'next' },
    ],
  });
  assert.ok(
    r.requestNotes.some((n) => n.includes(HOSTILE)),
    `notes: ${r.requestNotes.join(' | ')}`,
  );
  assertInert(exportedMessage(r), HOSTILE);
});

test('exported: an OpenAI content-part type in the request notes is no link', async () => {
  const r = await exportOf('parts.json', {
    model: 'gpt-4o',
    messages: [
      { role: 'system', content: 'be brief' },
      { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: HOSTILE }] },
      { role: 'assistant', content: 'ok' },
    ],
  });
  assert.equal(r.analysis.format, 'openai-chat');
  assert.ok(
    r.requestNotes.some((n) => n.includes(HOSTILE)),
    `notes: ${r.requestNotes.join(' | ')}`,
  );
  assertInert(exportedMessage(r), HOSTILE);
});

test('the file name is no link: progress title, exported message, quick pick detail, diff title, failure', async () => {
  const name = `${HOSTILE}.json`;
  const r = await exportOf(name, {
    model: 'claude-sonnet-4-20250514',
    messages: [
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: 'hi' },
    ],
  });
  assert.ok(notificationLinks(r.target).length > 0, 'as written, the exported file name is a link');
  assertInert(exportingTitle(join('/tmp', name)), HOSTILE);
  assertInert(exportedMessage(r), HOSTILE);
  assertInert(requestChoiceDetail(r.request!), HOSTILE);
  assertInert(compareTitle(join('/tmp', name), r.target), HOSTILE);
  assertInert(exportFailedMessage(new Error(`refusing to write ${r.target}`)), HOSTILE);
});
