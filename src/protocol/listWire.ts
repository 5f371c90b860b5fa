// The transcript message as it crosses to the view: the list of a long session is megabytes (thousands of
// messages, each with its preview), so its messages go in columns (no key repeated per message, roles and block
// kinds as small numbers), and the whole as UTF-8 JSON made by the session's thread. The extension host forwards
// those bytes untouched (the editor hands a byte array to the view as it is, where an object is serialised on the
// host's thread); the view decodes them and checks the message it makes of them as any other (`unpackList`).
import { type Check, check, v } from './check';
import type { HostMessage } from './hostMessages';
import type { MessageSummary } from './shared';

type TranscriptMessage = Extract<HostMessage, { type: 'transcript' }>;

const ROLES = ['system', 'user', 'assistant'] as const;

/** A transcript message's messages, one entry per message in each column. */
export interface MessageColumns {
  index: number[];
  /** The role's position in ROLES. */
  role: number[];
  preview: string[];
  /** Each block kind once; a message's kinds as positions in it. */
  kinds: string[];
  blockKinds: number[][];
  /** Each tool name once; a message's names as positions in it (none: empty). */
  tools: string[];
  toolNames: number[][];
  /** 1-based source line, 0 when unknown. */
  line: number[];
  flags: string[][];
}

/** The compact form: the transcript message with its messages in columns. */
export type ListWire = Omit<TranscriptMessage, 'messages'> & { columns: MessageColumns };

const columnsCheck: Check<MessageColumns> = v.object({
  index: v.array(v.int),
  role: v.array(v.int),
  preview: v.array(v.string),
  kinds: v.array(v.string),
  blockKinds: v.array(v.array(v.int)),
  tools: v.array(v.string),
  toolNames: v.array(v.array(v.int)),
  line: v.array(v.int),
  flags: v.array(v.array(v.string)),
});

/** Positions in a table of distinct strings, made as they come. */
function table() {
  const at = new Map<string, number>();
  const names: string[] = [];
  const of = (name: string) => {
    let i = at.get(name);
    if (i === undefined) {
      i = names.length;
      at.set(name, i);
      names.push(name);
    }
    return i;
  };
  return { names, of };
}

export function encodeList(message: TranscriptMessage): ListWire {
  const { messages, ...rest } = message;
  const kinds = table();
  const tools = table();
  const c: MessageColumns = {
    index: [],
    role: [],
    preview: [],
    kinds: kinds.names,
    blockKinds: [],
    tools: tools.names,
    toolNames: [],
    line: [],
    flags: [],
  };
  for (const m of messages) {
    c.index.push(m.index);
    c.role.push(ROLES.indexOf(m.role));
    c.preview.push(m.preview);
    c.blockKinds.push(m.blockKinds.map(kinds.of));
    c.toolNames.push(m.toolNames?.map(tools.of) ?? []);
    c.line.push(m.line ?? 0);
    c.flags.push(m.flags ?? []);
  }
  return { ...rest, columns: c };
}

/** The messages of `c`, or why they cannot be made (a column of another length, a position out of its table). */
function decodeColumns(c: MessageColumns, p: string): MessageSummary[] | string {
  const n = c.index.length;
  for (const k of ['role', 'preview', 'blockKinds', 'toolNames', 'line', 'flags'] as const)
    if (c[k].length !== n) return `${p}.${k}: ${c[k].length} entries for ${n} messages`;
  const inTable = (xs: number[], names: string[]) => xs.every((x) => x >= 0 && x < names.length);
  const out: MessageSummary[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const role = ROLES[c.role[i]];
    if (role === undefined) return `${p}.role[${i}]: no role ${c.role[i]}`;
    if (!inTable(c.blockKinds[i], c.kinds)) return `${p}.blockKinds[${i}]: a kind out of the table`;
    if (!inTable(c.toolNames[i], c.tools)) return `${p}.toolNames[${i}]: a tool out of the table`;
    const s: MessageSummary = {
      index: c.index[i],
      role,
      preview: c.preview[i],
      blockKinds: c.blockKinds[i].map((k) => c.kinds[k]),
    };
    if (c.toolNames[i].length) s.toolNames = c.toolNames[i].map((t) => c.tools[t]);
    if (c.line[i] > 0) s.line = c.line[i];
    if (c.flags[i].length) s.flags = c.flags[i];
    out[i] = s;
  }
  return out;
}

/** The compact form as the bytes that cross (made in the session's thread). */
export function packList(message: TranscriptMessage): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(encodeList(message)));
}

type Unpacked = { ok: true; value: unknown } | { ok: false; error: string };

/** The transcript message the bytes of a `list` message hold, to be checked as any transcript message; or why it
 * cannot be made of them. */
export function unpackList(bytes: Uint8Array): Unpacked {
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (e) {
    return { ok: false, error: `list: not UTF-8 JSON (${e instanceof Error ? e.message : String(e)})` };
  }
  return decodeList(data);
}

/** The transcript message of the compact form `data` (parsed already: a view snapshot keeps it so), to be checked
 * as any transcript message; or why it cannot be made of it. */
export function decodeList(data: unknown): Unpacked {
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    return { ok: false, error: 'list: expected an object' };
  const { columns, ...rest } = data as { columns?: unknown };
  const bad = check(columnsCheck, columns, 'list.columns');
  if (bad) return { ok: false, error: bad };
  const messages = decodeColumns(columns as MessageColumns, 'list.columns');
  if (typeof messages === 'string') return { ok: false, error: messages };
  return { ok: true, value: { ...rest, messages } };
}

/** A transcript message's identity for the host (which views hold it already): the session numbers each
 * transcript it adopts (a file's beginning, the whole file, another thread), and keeps the number of one that
 * confirms a kept snapshot. */
export function listKey(message: TranscriptMessage): string {
  return JSON.stringify([
    message.fileName,
    message.revision,
    message.thread ?? null,
    message.beginning?.bytes ?? null,
    message.messages.length,
  ]);
}
