// The causes as a person names them in a total ("TTL expiries: 9 breaks, $4.12"): the same words in the CLI, the
// view's Cache tab and its header, and the Sessions view's tooltip. No imports: the webview reads it too.
import type { BreakCause } from './types';

export const CAUSE_LABELS: Record<BreakCause, { one: string; many: string }> = {
  first: { one: 'new conversation', many: 'new conversations' },
  'ttl-expired': { one: 'TTL expiry', many: 'TTL expiries' },
  'model-switch': { one: 'model switch', many: 'model switches' },
  compaction: { one: 'compaction', many: 'compactions' },
  rewind: { one: 'rewind', many: 'rewinds' },
  'prefix-changed': { one: 'prefix change', many: 'prefix changes' },
  rewrite: { one: 'rewrite', many: 'rewrites' },
  'server-edit': { one: 'server edit', many: 'server edits' },
  'provider-miss': { one: 'provider miss', many: 'provider misses' },
};

/** "TTL expiries" with a capital: the start of a line. */
export const causeTitle = (cause: BreakCause) => {
  const w = CAUSE_LABELS[cause].many;
  return w.charAt(0).toUpperCase() + w.slice(1);
};
