// The messages of the session's thread that may be large (an analysis, a run ahead, a message's details, the
// comparisons, the Cache tab's figures) as bytes: made by that thread, forwarded by the extension host as they are,
// parsed by the view, which checks what it unpacks as it checks any message. (The transcript's list has a compact
// form of its own: listWire.ts.)
import type { HostMessage } from './hostMessages';

/** The replies to a view's question that cross packed; the analyses and runs ahead the session's thread sends every
 * view cross packed too (the host keeps the analysis it answers a view that starts with: that one crosses as it is). */
export const PACKED_REPLIES = ['details', 'comparisons', 'cacheView'] as const;
/** The host messages that may cross packed. */
export const PACKED_TYPES = ['analysis', 'ahead', ...PACKED_REPLIES] as const;
export type PackedReply = Extract<HostMessage, { type: (typeof PACKED_REPLIES)[number] }>;
export type PackedMessage = Extract<HostMessage, { type: 'packed' }>;

const typeOf = (value: unknown) =>
  typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;

/** Whether `value` is a host message that may cross packed. */
export function crossesPacked(
  value: unknown,
): value is Extract<HostMessage, { type: (typeof PACKED_TYPES)[number] }> {
  return (PACKED_TYPES as readonly unknown[]).includes(typeOf(value));
}

/** Whether `value` is a reply that crosses packed. */
export function isPackedReply(value: unknown): value is PackedReply {
  return (PACKED_REPLIES as readonly unknown[]).includes(typeOf(value));
}

/** `message` as a `packed` message. */
export function packMessage(message: HostMessage): PackedMessage {
  return { type: 'packed', json: new TextEncoder().encode(JSON.stringify(message)) };
}

/** The message packed in `bytes`, to be checked as any host message; or why it is not one that crosses packed. */
export function unpackMessage(
  bytes: Uint8Array,
): { ok: true; value: unknown } | { ok: false; error: string } {
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (e) {
    return { ok: false, error: `packed: not UTF-8 JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  if (!crossesPacked(data))
    return {
      ok: false,
      error: `packed: holds one of ${PACKED_TYPES.map((t) => JSON.stringify(t)).join(', ')}, not ${JSON.stringify(typeOf(data))}`,
    };
  return { ok: true, value: data };
}
