// The words the Export command shows in notifications, progress titles, the quick pick and the diff's tab. They
// quote file names, error messages and the request notes (tool ids, content-part types from the transcript), so
// every quoted value goes through `untrusted` (see escape.ts). No `vscode` import: unit tests read them as is.
import { basename } from 'node:path';
import type { ExportResult } from '../node/exportFile';
import { costWords } from '../vsNoneWords';
import { untrusted, untrustedError } from './escape';

export function exportFailedMessage(error: unknown): string {
  return `Context Lens: export failed. ${untrustedError(error)}`;
}

export function exportingTitle(source: string): string {
  return `Context Lens: exporting ${untrusted(basename(source))}`;
}

/** The quick pick's detail for the "also as an Anthropic Messages request" choice. */
export function requestChoiceDetail(requestPath: string): string {
  return `Adds ${untrusted(basename(requestPath))}: the request the agent would send next (after the last compaction, its summary and what follows), with the system prompt and tools where the file holds them`;
}

export function exportedMessage(r: ExportResult): string {
  const also = [
    r.ccr && `CCR store ${untrusted(basename(r.ccr))}`,
    r.request && `request ${untrusted(basename(r.request))}`,
  ].filter(Boolean);
  const warn = r.ccrDisabled ? ' liveZone.ccr is off: the markers point at no store.' : '';
  const notes = r.requestNotes.length
    ? ` ${r.requestNotes.length} note(s) on the request: ${untrusted(r.requestNotes[0])}${r.requestNotes.length > 1 ? ' …' : ''}`
    : '';
  // The size of the transcript is no saving: what the policy saves is its cost against none.
  const size = `transcript size ${r.tokensBefore.toLocaleString('en-US')} → ${r.tokensAfter.toLocaleString('en-US')} tokens`;
  const cost = r.analysis.vsNone
    ? `; ${untrusted(r.analysis.policyName)} ${costWords(r.analysis.vsNone)}`
    : '';
  return (
    `Context Lens: exported ${untrusted(basename(r.target))}: ${size}${cost}; ` +
    `${r.rewrites} block(s) rewritten${also.length ? `; also ${also.join(' and ')}` : ''}.${warn}${notes}`
  );
}

/** The diff editor's tab title for "Compare with source". */
export function compareTitle(source: string, target: string): string {
  return `${untrusted(basename(source))} ↔ ${untrusted(basename(target))} (compacted)`;
}
