// The session the host tests make of one real Claude Code session, on the real engine, as the host makes one.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../src/core/analysis';
import { parseTranscript } from '../../src/core/formats';
import { TranscriptSession } from '../../src/host/session';
import type { HostMessage } from '../../src/protocol';
import { REAL_FIXTURES } from '../sharedFixtures';

/** The bytes of the real session (13 tool results). */
export const fixture = readFileSync(join(REAL_FIXTURES, 'claude-code', 'drmaciver-coverage-test-fix.jsonl'));

/** A session with nothing loaded yet; what it sends the views goes to `sent`. */
export const newSession = (sent: (m: HostMessage) => void = () => {}) =>
  new TranscriptSession(
    'coverage-test-fix.jsonl',
    { parse: parseTranscript, analyze: async (t, p) => analyze(t, p) },
    sent,
    (e) => assert.fail(String(e)),
  );
