// GitHub Copilot Chat sessions into the canonical transcript, from either file the editor writes to
// `workspaceStorage/<workspace>/chatSessions/`: the older JSON document (`ISerializableChatData`, rewritten whole), and
// the newer JSONL mutation log (the editor's `ObjectMutationLog`: `{kind: 0, v}` the whole session, then `{kind: 1,
// k, v}` a value set at path `k`, `{kind: 2, k, v?, i?}` items pushed onto the array at `k` after cutting it to `i`,
// `{kind: 3, k}` a value deleted). The log is replayed as the editor replays it; each object read remembers the line
// that last wrote it, so that a block's location is inside that line and an export splices there.
import type { Transcript } from '../../model';
import { isObject, str } from '../json';
import { brokenNote, documentParts } from '../jsonDoc';
import { brokenLineMarker, type JsonlRecord, readJsonl } from '../jsonl';
import { mostFrequent } from '../mostFrequent';
import { Diagnostics, type Sniff } from '../types';
import { ChatReader, type Origin } from './chatRequests';

type Path = (string | number)[];
interface Written {
  rec?: JsonlRecord;
  path: Path;
}

/** Remembers, for every object and array inside `value`, where it was written. */
function register(
  seen: WeakMap<object, Written>,
  value: unknown,
  rec: JsonlRecord | undefined,
  path: Path,
): void {
  if (value === null || typeof value !== 'object') return;
  seen.set(value, { rec, path });
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) register(seen, value[i], rec, [...path, i]);
  } else for (const [k, v] of Object.entries(value)) register(seen, v, rec, [...path, k]);
}

function read(
  session: unknown,
  diags: Diagnostics,
  origin: (value: object) => Origin,
): { reader: ChatReader; requests: number } {
  const reader = new ChatReader(diags, origin);
  const requests =
    isObject(session) && Array.isArray(session.requests) ? session.requests.filter(isObject) : [];
  for (const r of requests) reader.request(r);
  return { reader, requests: requests.length };
}

function transcript(
  format: 'copilot-chat' | 'copilot-chat-json',
  s: Sniff,
  reason: string,
  reader: ChatReader,
  diags: Diagnostics,
): Transcript {
  const t: Transcript = {
    format,
    formatReason: reason,
    messages: reader.messages,
    markers: reader.markers,
    sidechains: [],
    diagnostics: diags.list,
    raw: s.bytes,
  };
  const model = mostFrequent(reader.models);
  if (model) t.model = model;
  return t;
}

const NO_USAGE =
  'the editor keeps no token counts: costs are estimated; the system instructions and tool definitions the agent sent are not in the file';

export function parseChatDocument(s: Sniff, reason: string): Transcript {
  const { doc, pos, diags } = documentParts(s);
  const seen = new WeakMap<object, Written>();
  register(seen, doc.value, undefined, []);
  const origin = (value: object): Origin => {
    const path = seen.get(value)?.path ?? [];
    return { recordStart: 0, recordEnd: s.bytes.length, recordLine: 1, path, source: pos.rangeAt(path) };
  };
  const { reader, requests } = read(doc.value, diags, origin);
  diags.add(
    'info',
    'copilot-chat',
    `${requests} requests, ${reader.messages.filter((m) => m.role === 'assistant').length} calls of the model; ${NO_USAGE}`,
    1,
    1,
  );
  return transcript('copilot-chat-json', s, reason + brokenNote(doc), reader, diags);
}

/**
 * The session as the log's changes build it. The records' own values are never changed (a growing log's parsed
 * records are kept and read again by the next parse): a container a change writes into is copied first, with every
 * container on its way, and the copy remembers where its original was written.
 */
class ChatState {
  /** The session, under `v`. */
  readonly root: Record<string, unknown> = {};
  private readonly own = new WeakSet<object>([this.root]);

  constructor(private readonly seen: WeakMap<object, Written>) {}

  get value(): unknown {
    return this.root.v;
  }

  set(value: unknown): void {
    this.root.v = value;
  }

  /** The container of `path`'s last key (copied where it is still a record's), or where the path breaks. */
  containerOf(path: Path): Record<string | number, unknown> | string {
    let at: Record<string | number, unknown> = this.root;
    const full: Path = ['v', ...path];
    for (let i = 0; i < full.length - 1; i++) {
      const next = this.owned(at, full[i]);
      if (next === undefined)
        return i === 0 ? 'no session' : `no value at ${JSON.stringify(path.slice(0, i))}`;
      at = next;
    }
    return at;
  }

  /** `holder[key]` as a container of the replay's own, or undefined when it is not an object. */
  owned(
    holder: Record<string | number, unknown>,
    key: string | number,
  ): Record<string | number, unknown> | undefined {
    const value = holder[key];
    if (value === null || typeof value !== 'object') return undefined;
    if (this.own.has(value)) return value as Record<string | number, unknown>;
    const copy = (Array.isArray(value) ? value.slice() : { ...value }) as Record<string | number, unknown>;
    const written = this.seen.get(value);
    if (written) this.seen.set(copy, written);
    this.own.add(copy);
    holder[key] = copy;
    return copy;
  }
}

export function parseChatLog(s: Sniff, reason: string): Transcript {
  const diags = new Diagnostics();
  const seen = new WeakMap<object, Written>();
  const state = new ChatState(seen);
  const counts = { initial: 0, set: 0, push: 0, delete: 0 };
  const broken: Parameters<typeof brokenLineMarker>[0][] = [];
  const problem = (rec: JsonlRecord, why: string) =>
    diags.once(
      `chat-log:${why}`,
      'warning',
      'unknown-record',
      `${why}: the line is skipped, as the editor would fail on it`,
      rec.source,
    );
  readJsonl(
    s.bytes,
    diags,
    (rec) => {
      const e = rec.value;
      const k = Array.isArray(e.k)
        ? (e.k.filter((x) => typeof x === 'string' || typeof x === 'number') as Path)
        : [];
      if (e.kind === 0) {
        counts.initial++;
        state.set(e.v);
        register(seen, e.v, rec, ['v']);
        return;
      }
      if (state.value === undefined)
        return problem(rec, "a change before the log's first whole session ({kind: 0})");
      if ((e.kind === 1 || e.kind === 3) && k.length === 0) {
        counts.set++;
        state.set(e.v);
        register(seen, e.v, rec, ['v']);
        return;
      }
      const into = state.containerOf(k);
      if (typeof into === 'string') return problem(rec, into);
      const key = k[k.length - 1];
      if (e.kind === 1) {
        counts.set++;
        into[key] = e.v;
        register(seen, e.v, rec, ['v']);
      } else if (e.kind === 3) {
        counts.delete++;
        delete into[key];
      } else if (e.kind === 2) {
        counts.push++;
        if (!Array.isArray(into[key])) into[key] = [];
        const arr = state.owned(into, key) as unknown as unknown[];
        if (typeof e.i === 'number') arr.length = Math.min(arr.length, Math.max(0, e.i));
        if (Array.isArray(e.v))
          e.v.forEach((v, j) => {
            arr.push(v);
            register(seen, v, rec, ['v', j]);
          });
      } else problem(rec, `a line of kind ${JSON.stringify(e.kind)}`);
    },
    (line) => broken.push(line),
  );
  const origin = (value: object): Origin => {
    const w = seen.get(value);
    const rec = w?.rec;
    if (!rec)
      return {
        recordStart: 0,
        recordEnd: 0,
        recordLine: 1,
        path: [],
        source: { line: 1, column: 1, endLine: 1, endColumn: 1, start: 0, end: 0 },
      };
    return {
      recordStart: rec.span.start,
      recordEnd: rec.span.end,
      recordLine: rec.span.index + 1,
      path: w.path,
      source: rec.source,
    };
  };
  const { reader, requests } = read(state.value, diags, origin);
  for (const b of broken) reader.markers.push(brokenLineMarker(b, reader.messages.length));
  diags.add(
    'info',
    'copilot-chat',
    `${counts.initial} whole session, ${counts.set} values set, ${counts.push} pushes, ${counts.delete} deletions; ${requests} requests, ${reader.messages.filter((m) => m.role === 'assistant').length} calls of the model; ${NO_USAGE}`,
    1,
    1,
  );
  return transcript('copilot-chat', s, reason, reader, diags);
}

/** The session's first prompt, from the log's first records or the document's value. */
export function firstPrompt(session: unknown): string {
  if (!isObject(session) || !Array.isArray(session.requests)) return '';
  for (const r of session.requests) {
    if (!isObject(r) || !isObject(r.message)) continue;
    const text = str(r.message.text);
    if (text?.trim()) return text;
  }
  return '';
}
