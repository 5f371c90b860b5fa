// An analysis or a run ahead as bytes: made by the session's thread, forwarded by the extension host as they are,
// parsed by the view, which checks what it unpacks as it checks any message. (The transcript's list has a compact
// form of its own: listWire.ts.)
import type { HostMessage } from './hostMessages';

/** The host messages that cross packed. */
export const PACKED_TYPES: readonly HostMessage['type'][] = ['analysis', 'ahead'];

/** `message` as a `packed` message. */
export function packMessage(message: HostMessage): Extract<HostMessage, { type: 'packed' }> {
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
  const type = typeof data === 'object' && data !== null ? (data as { type?: unknown }).type : undefined;
  if (!PACKED_TYPES.includes(type as HostMessage['type']))
    return {
      ok: false,
      error: `packed: holds ${PACKED_TYPES.map((t) => JSON.stringify(t)).join(' or ')}, not ${JSON.stringify(type)}`,
    };
  return { ok: true, value: data };
}
