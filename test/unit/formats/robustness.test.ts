// Seeded truncations and corruptions of every real fixture: parsing never throws anything but "not a
// transcript", always reports what it found broken (with positions inside the file), and writes back the
// exact input.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  parseTranscript,
  UnrecognizedTranscriptError,
  writeTranscript,
} from '../../../src/core/formats/index';
import type { Transcript } from '../../../src/core/model';
import { fixture, fixtureFiles, text } from './helpers';

const FILES = fixtureFiles().filter((f) => !f.endsWith('.md'));
const RUNS_PER_FILE = 40; // 10 fixtures × 40 × 2 properties = 800 damaged files

function tryParse(raw: Uint8Array): Transcript | undefined {
  try {
    return parseTranscript(raw);
  } catch (e) {
    if (e instanceof UnrecognizedTranscriptError) return undefined;
    throw e;
  }
}

function checkPositions(t: Transcript, raw: Uint8Array): void {
  const lineCount = raw.filter((b) => b === 10).length + 1;
  for (const d of t.diagnostics) {
    assert.ok(d.line >= 1 && d.line <= lineCount, `diagnostic line ${d.line} of ${lineCount}`);
    assert.ok(d.column >= 1, `diagnostic column ${d.column}`);
  }
  for (const m of t.messages) {
    if (m.source)
      assert.ok(m.source.start >= 0 && m.source.end <= raw.length && m.source.start <= m.source.end);
  }
  assert.deepEqual(writeTranscript(t, []), raw);
}

describe('robustness on damaged fixtures', () => {
  for (const file of FILES) {
    const original = fixture(file);
    it(`${file}: truncated anywhere`, () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: original.length - 1 }), (cut) => {
          const raw = original.slice(0, cut);
          const t = tryParse(raw);
          if (!t) return;
          checkPositions(t, raw);
          // A cut inside a record is always reported: every strict prefix of a JSON object is invalid JSON.
          const insideRecord = file.endsWith('.jsonl')
            ? original[cut - 1] !== 10 && original[cut] !== 10
            : text(raw).trimEnd() !== text(original).trimEnd();
          if (insideRecord)
            assert.ok(
              t.diagnostics.some((d) => d.severity !== 'info'),
              `cut at byte ${cut} not reported`,
            );
        }),
        { seed: 20260121, numRuns: RUNS_PER_FILE },
      );
    });

    it(`${file}: bytes overwritten, inserted, deleted`, () => {
      const edit = fc.record({
        at: fc.integer({ min: 0, max: original.length - 1 }),
        kind: fc.constantFrom('overwrite', 'insert', 'delete'),
        byte: fc.constantFrom(0x00, 0x0a, 0x22, 0x2c, 0x5b, 0x5d, 0x7b, 0x7d, 0x5c, 0xc3, 0xff, 0x80, 0x41),
      });
      fc.assert(
        fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
          let raw = original.slice();
          for (const e of edits) {
            const at = Math.min(e.at, raw.length - 1);
            if (e.kind === 'overwrite') raw[at] = e.byte;
            else if (e.kind === 'insert')
              raw = new Uint8Array([...raw.subarray(0, at), e.byte, ...raw.subarray(at)]);
            else raw = new Uint8Array([...raw.subarray(0, at), ...raw.subarray(at + 1)]);
          }
          const t = tryParse(raw);
          if (!t) return;
          checkPositions(t, raw);
          // Bytes that are never valid UTF-8 are always reported.
          if (raw.includes(0xff))
            assert.ok(
              t.diagnostics.some((d) => d.code === 'invalid-utf8'),
              'invalid UTF-8 not reported',
            );
        }),
        { seed: 42, numRuns: RUNS_PER_FILE },
      );
    });
  }
});
