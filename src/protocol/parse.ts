// A message checked on arrival: its `type` picks its check, and a refusal says what is wrong and where.
import { type Check, check } from './check';
import { type HostMessage, hostMessageChecks } from './hostMessages';
import { unpackList } from './listWire';
import { unpackMessage } from './packedMessage';
import type { ViewDescriptors } from './viewDescriptors';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

export function parseByType<T extends { type: string }>(
  data: unknown,
  checks: Record<string, Check<unknown>>,
  side: string,
): Parsed<T> {
  if (typeof data !== 'object' || data === null || typeof (data as { type?: unknown }).type !== 'string') {
    return { ok: false, error: `${side} message without a string "type"` };
  }
  const type = (data as { type: string }).type;
  const c = Object.hasOwn(checks, type) ? checks[type] : undefined;
  if (!c) return { ok: false, error: `unknown ${side} message type "${type}"` };
  const error = check(c, data, type);
  return error ? { ok: false, error: `invalid ${side} message: ${error}` } : { ok: true, value: data as T };
}

/** The check of messages that arrive in the webview from the host, as the host's descriptors name the ids. A
 * `list` is delivered as the transcript message its bytes hold, and a `packed` message as the message its bytes
 * hold, each checked as one. */
export function hostMessageParser(d: ViewDescriptors): (data: unknown) => Parsed<HostMessage> {
  const checks = hostMessageChecks(d);
  return (data) => {
    const parsed = parseByType<HostMessage>(data, checks, 'host');
    if (parsed.ok && parsed.value.type === 'packed') {
      const inner = unpackMessage(parsed.value.json);
      if (!inner.ok) return { ok: false, error: `invalid host message: ${inner.error}` };
      return parseByType<HostMessage>(inner.value, checks, 'host');
    }
    if (!parsed.ok || parsed.value.type !== 'list') return parsed;
    const list = unpackList(parsed.value.json);
    if (!list.ok) return { ok: false, error: `invalid host message: ${list.error}` };
    const type = (list.value as { type?: unknown }).type;
    if (type !== 'transcript')
      return {
        ok: false,
        error: `invalid host message: a list holds a transcript, not ${JSON.stringify(type)}`,
      };
    return parseByType<HostMessage>(list.value, checks, 'host');
  };
}
