// Grammar-aware mutations of real transcript files, seeded: each takes a real log and breaks it the way an
// adversary or a crashed writer would (truncations, type swaps, huge numbers, duplicate and prototype keys, deep
// nesting, BOM/CRLF/NUL/lone surrogates/invalid UTF-8, very long lines, thousands of parallel tool calls).

export type Rng = () => number;

/** mulberry32: small, fast, and the same sequence for the same seed on every machine. */
export function rng(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

export interface Sizes {
  /** Characters of the string a long-line mutation writes. */
  longLine: number[];
  /** Nesting depth of a nesting mutation. */
  nesting: number[];
  /** Copies of one tool call (and its result) a parallel-calls mutation makes. */
  parallelCalls: number[];
  /** Parts of the one message a many-parts mutation makes. */
  manyParts: number[];
}

export const SAMPLE_SIZES: Sizes = {
  longLine: [200_000],
  nesting: [300, 100_000],
  parallelCalls: [300],
  manyParts: [150_000],
};
export const FULL_SIZES: Sizes = {
  longLine: [1 << 20, 50 << 20, 200 << 20],
  nesting: [255, 257, 300, 100_000],
  parallelCalls: [2_000, 5_000],
  manyParts: [150_000, 400_000],
};

export const MUTATIONS = [
  'truncate',
  'typeSwap',
  'hugeNumber',
  'duplicateKey',
  'prototypeKey',
  'nesting',
  'bom',
  'crlf',
  'nul',
  'loneSurrogate',
  'invalidUtf8',
  'longLine',
  'parallelCalls',
  'links',
  'timestamps',
  'escapes',
  'manyParts',
] as const;
export type Mutation = (typeof MUTATIONS)[number];

/** A slot in a parsed JSON value: `holder[key]`. */
interface Slot {
  holder: Record<string, unknown> | unknown[];
  key: string | number;
}

function slots(root: unknown): Slot[] {
  const out: Slot[] = [];
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    if (Array.isArray(v))
      v.forEach((c, i) => {
        out.push({ holder: v, key: i });
        stack.push(c);
      });
    else if (v && typeof v === 'object')
      for (const [k, c] of Object.entries(v)) {
        out.push({ holder: v as Record<string, unknown>, key: k });
        stack.push(c);
      }
  }
  return out;
}

const get = (s: Slot) => (s.holder as Record<string | number, unknown>)[s.key];
const set = (s: Slot, value: unknown) => {
  Object.defineProperty(s.holder, s.key, { value, enumerable: true, writable: true, configurable: true });
};

/** Raw JSON text that replaces a placeholder string after serialisation. */
class Raw {
  private readonly texts: string[] = [];
  mark(text: string): string {
    this.texts.push(text);
    return `\u0000raw${this.texts.length - 1}\u0000`;
  }
  apply(json: string): string {
    return json.replace(/"\\u0000raw(\d+)\\u0000"/g, (_m, i: string) => this.texts[Number(i)]);
  }
}

const TYPE_SWAPS: unknown[] = [0, -1, 'text', '', null, true, false, [], {}, [1, 'a'], { a: 1 }];
const HUGE = ['1e308', '-1e308', '1e999', '-1e999', '1e21', '9007199254740993', '-5', '2.5', '-0', '1e-320'];
const PROTO = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype', 'valueOf'];
const NAME_KEYS = [
  'name',
  'type',
  'role',
  'id',
  'tool_use_id',
  'call_id',
  'model',
  'uuid',
  'parentUuid',
  'subtype',
];
const LONG_KEYS = ['content', 'text', 'output', 'arguments', 'input', 'thinking'];
const ODD_TIMES = [
  '1900-01-01T00:00:00.000Z',
  '-271821-04-20T00:00:00.000Z',
  '9999-12-31T23:59:59.000Z',
  '+275760-09-13T00:00:00.000Z',
];
const ESCAPE_KEYS = ['model', 'name', 'type', 'id', 'tool_use_id', 'call_id', 'agentId', 'subtype'];
const ESCAPES = [
  '\u001b]52;c;ZWNobyBwd25lZA==\u0007',
  '\u001b[2J',
  '\u001b]8;;https://evil.example/\u0007x\u001b]8;;\u0007',
  '\u001b]0;title\u0007',
  '\u009b2J',
  '\r\b\u202e',
];

/** A long string made like a tool output: log lines, a progress bar, blank lines, a long word. */
function longText(r: Rng, size: number): string {
  const parts: string[] = [];
  let n = 0;
  while (n < size) {
    const kind = Math.floor(r() * 5);
    const len = Math.min(size - n, 1 + Math.floor(r() * Math.max(1, size / 8)));
    let s: string;
    if (kind === 0) s = '\n'.repeat(len);
    else if (kind === 1) s = ' '.repeat(len);
    else if (kind === 2) s = '='.repeat(len);
    else if (kind === 3) s = 'ab'.repeat(Math.ceil(len / 2)).slice(0, Math.min(len, 4096));
    else {
      const line = `${new Date(1767225600000 + n).toISOString()} INFO step ${n} done ✓\n`;
      s = line.repeat(Math.max(1, Math.floor(Math.min(len, 1 << 20) / line.length)));
    }
    parts.push(s);
    n += s.length;
  }
  return parts.join('').slice(0, size);
}

/** Mutates one parsed JSON value; returns its new text, or undefined when the mutation does not apply. */
function mutateValue(r: Rng, kind: Mutation, root: unknown, sizes: Sizes): string | undefined {
  const raw = new Raw();
  const all = slots(root);
  if (all.length === 0) return undefined;
  switch (kind) {
    case 'typeSwap': {
      const s = pick(r, all);
      const old = get(s);
      const options = TYPE_SWAPS.filter(
        (v) => typeof v !== typeof old || Array.isArray(v) !== Array.isArray(old),
      );
      set(s, structuredClone(pick(r, options)));
      break;
    }
    case 'hugeNumber': {
      const tokens = all.filter((s) => typeof s.key === 'string' && /token/i.test(s.key));
      const numbers = all.filter((s) => typeof get(s) === 'number');
      const pool = tokens.length && r() < 0.6 ? tokens : numbers.length && r() < 0.8 ? numbers : all;
      for (let k = 0; k < 1 + Math.floor(r() * 3); k++) set(pick(r, pool), raw.mark(pick(r, HUGE)));
      break;
    }
    case 'duplicateKey': {
      const objects = [root, ...all.map(get)].filter(
        (v): v is Record<string, unknown> =>
          !!v && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length > 0,
      );
      if (!objects.length) return undefined;
      const o = pick(r, objects);
      const key = pick(r, Object.keys(o));
      const text = JSON.stringify(o);
      const dup = `${text.slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(pick(r, TYPE_SWAPS))}}`;
      if (o === root) return r() < 0.5 ? dup : `{${JSON.stringify(key)}:null,${text.slice(1)}`;
      const s = all.find((x) => get(x) === o);
      if (s) set(s, raw.mark(dup));
      break;
    }
    case 'prototypeKey': {
      const names = all.filter(
        (s) => typeof get(s) === 'string' && typeof s.key === 'string' && NAME_KEYS.includes(s.key),
      );
      for (const s of names.length ? names.filter(() => r() < 0.3) : []) set(s, pick(r, PROTO));
      const objects = all.filter((s) => {
        const v = get(s);
        return !!v && typeof v === 'object' && !Array.isArray(v);
      });
      if (objects.length) {
        const s = pick(r, objects);
        const text = JSON.stringify(get(s));
        const member = `${JSON.stringify(pick(r, PROTO))}:${JSON.stringify(pick(r, TYPE_SWAPS))}`;
        set(s, raw.mark(text === '{}' ? `{${member}}` : `{${member},${text.slice(1)}`));
      }
      break;
    }
    case 'nesting': {
      const depth = pick(r, sizes.nesting);
      const nested =
        r() < 0.5
          ? `${'['.repeat(depth)}${']'.repeat(depth)}`
          : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      set(pick(r, all), raw.mark(nested));
      break;
    }
    case 'nul':
    case 'loneSurrogate': {
      const strings = all.filter((s) => typeof get(s) === 'string');
      if (!strings.length) return undefined;
      const s = pick(r, strings);
      const v = get(s) as string;
      const at = Math.floor(r() * (v.length + 1));
      const insert = kind === 'nul' ? '\u0000' : pick(r, ['\ud800', '\udfff', '\udc00x\ud83d']);
      set(s, v.slice(0, at) + insert + v.slice(at));
      break;
    }
    case 'longLine': {
      const strings = all.filter((s) => typeof get(s) === 'string');
      const preferred = strings.filter((s) => typeof s.key === 'string' && LONG_KEYS.includes(s.key));
      const pool = preferred.length ? preferred : strings.length ? strings : all;
      set(pick(r, pool), longText(r, pick(r, sizes.longLine)));
      break;
    }
    default:
      return undefined;
  }
  return raw.apply(JSON.stringify(root));
}

const ID_KEYS = ['id', 'tool_use_id', 'call_id', 'tool_call_id'];

/** Ids of tool calls in a value (`toolu_…`, `call_…`, or any id beside a call type). */
function callIds(root: unknown): string[] {
  const ids = new Set<string>();
  for (const s of slots(root)) {
    const v = get(s);
    if (
      typeof v === 'string' &&
      typeof s.key === 'string' &&
      ID_KEYS.includes(s.key) &&
      /^(toolu_|call_|fc_)/.test(v)
    )
      ids.add(v);
  }
  return [...ids];
}

/** Copies, `copies` times, every array element that carries `id` (with `id_k`); true if any was found. */
function replicateIn(root: unknown, id: string, copies: number): boolean {
  let found = false;
  const arrays = [root, ...slots(root).map(get)].filter((v): v is unknown[] => Array.isArray(v));
  for (const arr of arrays) {
    for (let i = arr.length - 1; i >= 0; i--) {
      const el = arr[i];
      if (!el || typeof el !== 'object' || !JSON.stringify(el).includes(JSON.stringify(id))) continue;
      if (!slots(el).some((s) => typeof s.key === 'string' && ID_KEYS.includes(s.key) && get(s) === id))
        continue;
      const text = JSON.stringify(el);
      const clones = Array.from({ length: copies }, (_, k) =>
        JSON.parse(text.split(JSON.stringify(id)).join(JSON.stringify(`${id}_${k}`))),
      );
      arr.splice(i + 1, 0, ...clones);
      found = true;
    }
  }
  return found;
}

export interface FuzzCase {
  name: string;
  kind?: Mutation;
  bytes: Uint8Array;
  /** The file extension the case is written with (detection looks at it). */
  ext: string;
}

const enc = new TextEncoder();

/** One mutated copy of `source` (a real log's bytes). */
export function mutate(
  source: Uint8Array,
  ext: string,
  kind: Mutation,
  seed: number,
  sizes: Sizes,
): Uint8Array | undefined {
  const r = rng(seed);
  const text = new TextDecoder().decode(source);
  const jsonl = ext === '.jsonl';
  switch (kind) {
    case 'truncate':
      return source.subarray(0, Math.floor(r() * source.length));
    case 'bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), source]);
    case 'crlf':
      return enc.encode(text.replace(/\r?\n/g, '\r\n'));
    case 'invalidUtf8': {
      const at = Math.floor(r() * source.length);
      const bad = pick(r, [[0xff], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]]);
      return Buffer.concat([source.subarray(0, at), Buffer.from(bad), source.subarray(at)]);
    }
    case 'links': {
      // What ties records together, rewired: parent cycles, self-parents, shared uuids and ids, shuffled order,
      // timestamps that are not dates.
      const lines = jsonl ? text.split('\n') : [];
      const records: unknown[] = [];
      if (jsonl) {
        for (const l of lines)
          try {
            records.push(JSON.parse(l));
          } catch {
            records.push(undefined);
          }
      } else
        try {
          records.push(JSON.parse(text));
        } catch {
          return undefined;
        }
      const all = records.flatMap((rec) => (rec && typeof rec === 'object' ? slots(rec) : []));
      const linkKeys = [
        'uuid',
        'parentUuid',
        'logicalParentUuid',
        'id',
        'tool_use_id',
        'call_id',
        'tool_call_id',
        'timestamp',
        'message.id',
      ];
      const links = all.filter((x) => typeof x.key === 'string' && linkKeys.includes(x.key));
      const values = links.map(get);
      const how = Math.floor(r() * 4);
      if (how === 0 && jsonl) {
        for (let i = lines.length - 1; i > 0; i--) {
          const j = Math.floor(r() * (i + 1));
          [records[i], records[j]] = [records[j], records[i]];
          [lines[i], lines[j]] = [lines[j], lines[i]];
        }
        return enc.encode(lines.join('\n'));
      }
      if (!links.length) return undefined;
      for (const x of links)
        if (r() < 0.3)
          set(
            x,
            how === 1
              ? pick(r, values)
              : how === 2
                ? pick(r, ['', 'garbage', '9999-99-99T99:99:99Z', 1e308, null])
                : 'same',
          );
      return enc.encode(
        jsonl
          ? records.map((rec, i) => (rec === undefined ? lines[i] : JSON.stringify(rec))).join('\n')
          : JSON.stringify(records[0]),
      );
    }
    case 'timestamps': {
      // Times from another century, the ends of the Date range, or every record's time in reverse order.
      if (!jsonl) return undefined;
      const lines = text.split('\n');
      const stamped = lines.flatMap((l, i) => (/"timestamp"\s*:\s*"/.test(l) ? [i] : []));
      if (stamped.length === 0) return undefined;
      const records = stamped.map((i) => JSON.parse(lines[i]) as Record<string, unknown>);
      if (r() < 0.3) {
        const times = records.map((x) => x.timestamp).reverse();
        records.forEach((x, k) => {
          x.timestamp = times[k];
        });
      } else
        for (let k = 0; k < 1 + Math.floor(r() * 3); k++) pick(r, records).timestamp = pick(r, ODD_TIMES);
      stamped.forEach((i, k) => {
        lines[i] = JSON.stringify(records[k]);
      });
      return enc.encode(lines.join('\n'));
    }
    case 'escapes': {
      // Terminal escape sequences in the names a terminal shows: model, tool names and ids, record types, agent ids.
      const change = (value: unknown): boolean => {
        let changed = false;
        for (const s of slots(value))
          if (
            typeof s.key === 'string' &&
            ESCAPE_KEYS.includes(s.key) &&
            typeof get(s) === 'string' &&
            r() < 0.5
          ) {
            const v = get(s) as string;
            set(s, `${v}${pick(r, ESCAPES)}`);
            changed = true;
          }
        return changed;
      };
      if (!jsonl) {
        const root = JSON.parse(text);
        return change(root) ? enc.encode(JSON.stringify(root)) : undefined;
      }
      const lines = text.split('\n');
      let any = false;
      for (let i = 0; i < lines.length; i++) {
        if (!lines[i].trim().startsWith('{')) continue;
        let value: unknown;
        try {
          value = JSON.parse(lines[i]);
        } catch {
          continue;
        }
        if (change(value)) {
          lines[i] = JSON.stringify(value);
          any = true;
        }
      }
      return any ? enc.encode(lines.join('\n')) : undefined;
    }
    case 'manyParts': {
      // One message of a huge number of parts: a content array's first part, copied.
      const parts = pick(r, sizes.manyParts);
      const raw = new Raw();
      const grow = (value: unknown): boolean => {
        const arrays = slots(value).filter((s) => {
          const v = get(s);
          return s.key === 'content' && Array.isArray(v) && v.length > 0 && v[0] && typeof v[0] === 'object';
        });
        if (!arrays.length) return false;
        const s = pick(r, arrays);
        // The first part with its strings cut short: its shape, not its size (400,000 copies of a long part made a
        // string past what the engine holds).
        const part = structuredClone((get(s) as unknown[])[0]);
        for (const x of slots(part)) if (typeof get(x) === 'string') set(x, (get(x) as string).slice(0, 16));
        const first = JSON.stringify(part);
        set(s, raw.mark(`[${Array.from({ length: parts }, () => first).join(',')}]`));
        return true;
      };
      if (!jsonl) {
        const root = JSON.parse(text);
        return grow(root) ? enc.encode(raw.apply(JSON.stringify(root))) : undefined;
      }
      const lines = text.split('\n');
      const candidates = lines.flatMap((l, i) => (/"content"\s*:\s*\[\s*\{/.test(l) ? [i] : []));
      if (!candidates.length) return undefined;
      const i = pick(r, candidates);
      const value = JSON.parse(lines[i]);
      if (!grow(value)) return undefined;
      lines[i] = raw.apply(JSON.stringify(value));
      return enc.encode(lines.join('\n'));
    }
    case 'parallelCalls': {
      const copies = pick(r, sizes.parallelCalls);
      if (!jsonl) {
        const root = JSON.parse(text);
        const ids = callIds(root);
        if (!ids.length || !replicateIn(root, pick(r, ids), copies)) return undefined;
        return enc.encode(JSON.stringify(root));
      }
      const lines = text.split('\n');
      const ids = [
        ...new Set(
          lines.flatMap((l) => {
            try {
              return callIds(JSON.parse(l));
            } catch {
              return [];
            }
          }),
        ),
      ];
      if (!ids.length) return undefined;
      const id = pick(r, ids);
      const out: string[] = [];
      for (const line of lines) {
        if (!line.includes(JSON.stringify(id))) {
          out.push(line);
          continue;
        }
        const value = JSON.parse(line);
        if (replicateIn(value, id, copies)) out.push(JSON.stringify(value));
        else
          for (let k = -1; k < copies; k++)
            out.push(k < 0 ? line : line.split(JSON.stringify(id)).join(JSON.stringify(`${id}_${k}`)));
      }
      return enc.encode(out.join('\n'));
    }
    default: {
      if (!jsonl) {
        let root: unknown;
        try {
          root = JSON.parse(text);
        } catch {
          return undefined;
        }
        const out = mutateValue(r, kind, root, sizes);
        return out === undefined ? undefined : enc.encode(out);
      }
      const lines = text.split('\n');
      const candidates = lines.map((_l, i) => i).filter((i) => lines[i].trim().startsWith('{'));
      if (!candidates.length) return undefined;
      // Several records at once for the cheap mutations; one for the expensive ones.
      const count = kind === 'longLine' || kind === 'nesting' ? 1 : 1 + Math.floor(r() * 3);
      let changed = false;
      for (let k = 0; k < count; k++) {
        const i = pick(r, candidates);
        let value: unknown;
        try {
          value = JSON.parse(lines[i]);
        } catch {
          continue;
        }
        const out = mutateValue(r, kind, value, sizes);
        if (out !== undefined) {
          lines[i] = out;
          changed = true;
        }
      }
      return changed ? enc.encode(lines.join('\n')) : undefined;
    }
  }
}
