// Qwen Code's chat records (`ChatRecord`, `packages/core/src/services/chatRecordingService.ts`) into the canonical
// transcript. Each line is a record of a tree (`uuid`, `parentUuid`): `user` (the prompt's Gemini API `Content`),
// `assistant` (the model's reply with its `usageMetadata`: one API response), `tool_result` (the `functionResponse`
// parts sent back), `system` (chat compressions, slash commands, telemetry and the like). What the agent sends is
// the branch that ends at the last record; a `chat_compression` record replaces the history with its
// `compressedHistory`, which the requests after it send instead of what came before.
import type {
  Block,
  Marker,
  Message,
  RecordedReply,
  RecordedUsage,
  Transcript,
  ValueLocation,
} from '../../model';
import { geminiPartBlock } from '../geminiParts';
import { isObject, str } from '../json';
import { brokenLineMarker, type JsonlRecord, readJsonl } from '../jsonl';
import { mostFrequent } from '../mostFrequent';
import { Diagnostics, type Sniff } from '../types';

const CONVERSATION = new Set(['user', 'assistant', 'tool_result']);

/** `usageMetadata` as one request's usage. `promptTokenCount` includes the cached part. Through an OpenAI-compatible
 * provider `candidatesTokenCount` is the completion, reasoning included (the total is prompt + candidates); through
 * Gemini's API the thoughts come on top (the total adds them): the record's own total tells which. */
export function qwenUsage(meta: unknown): RecordedUsage | undefined {
  if (!isObject(meta)) return undefined;
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
  const prompt = n(meta.promptTokenCount);
  const cached = Math.min(n(meta.cachedContentTokenCount), prompt);
  const candidates = n(meta.candidatesTokenCount);
  const thoughts = n(meta.thoughtsTokenCount);
  const thoughtsOnTop = thoughts > 0 && n(meta.totalTokenCount) === prompt + candidates + thoughts;
  const usage: RecordedUsage = {
    inputTokens: prompt - cached,
    outputTokens: candidates + (thoughtsOnTop ? thoughts : 0),
    cacheReadInputTokens: cached,
    cacheCreationInputTokens: 0,
  };
  if (thoughts > 0) usage.reasoningOutputTokens = thoughts;
  return prompt + candidates + thoughts > 0 ? usage : undefined;
}

/** The records the agent would send: the chain of parents from the last conversation record back to the root. A
 * chain that loses its parent in the file keeps every record (nothing is known to be abandoned). */
function branchOf(records: JsonlRecord[], diags: Diagnostics): Set<JsonlRecord> {
  const byUuid = new Map<string, JsonlRecord>();
  for (const r of records) {
    const id = str(r.value.uuid);
    if (id) byUuid.set(id, r);
  }
  const all = new Set(records);
  let leaf: JsonlRecord | undefined;
  for (const r of records) if (CONVERSATION.has(str(r.value.type) ?? '')) leaf = r;
  if (!leaf) return all;
  const chain = new Set<JsonlRecord>();
  for (let r: JsonlRecord | undefined = leaf; r && !chain.has(r); ) {
    chain.add(r);
    const parent = r.value.parentUuid;
    if (parent === null || parent === undefined) return chain;
    r = byUuid.get(String(parent));
    if (!r) {
      diags.add(
        'info',
        'qwen-branch',
        `the record's parent "${String(parent)}" is not in the file: every record is read as sent`,
        leaf.source.line,
        leaf.source.column,
      );
      return all;
    }
  }
  return chain;
}

class QwenReader {
  readonly messages: Message[] = [];
  readonly markers: Marker[] = [];
  readonly models: string[] = [];
  private calls = 0;

  constructor(private readonly diags: Diagnostics) {}

  private loc(r: JsonlRecord, path: (string | number)[], valuePath?: (string | number)[]): ValueLocation {
    const l: ValueLocation = {
      recordStart: r.span.start,
      recordEnd: r.span.end,
      recordLine: r.span.index + 1,
      path,
    };
    if (valuePath) l.valuePath = valuePath;
    return l;
  }

  marker(m: Omit<Marker, 'beforeMessage'>): void {
    this.markers.push({ ...m, beforeMessage: this.messages.length });
  }

  private push(role: Message['role'], blocks: Block[], r: JsonlRecord): Message {
    const m: Message = { index: this.messages.length, role, blocks, source: r.source };
    const ts = str(r.value.timestamp);
    if (ts) m.timestamp = ts;
    this.messages.push(m);
    return m;
  }

  /** A Gemini API part at `path` as a block. */
  private block(r: JsonlRecord, part: unknown, path: (string | number)[]): Block | undefined {
    return geminiPartBlock(
      {
        source: r.source,
        at: (at, valuePath) => this.loc(r, at, valuePath),
        nextCall: () => ++this.calls,
        strings: false,
        diags: this.diags,
        unknownKey: 'qwen-part',
      },
      part,
      path,
    );
  }

  /** The blocks of a `Content` at `path` ({role, parts}). */
  private blocks(r: JsonlRecord, content: unknown, path: (string | number)[]): Block[] {
    const parts = isObject(content) && Array.isArray(content.parts) ? content.parts : [];
    const out: Block[] = [];
    parts.forEach((p, i) => {
      const b = this.block(r, p, [...path, 'parts', i]);
      if (b) out.push(b);
    });
    return out;
  }

  user(r: JsonlRecord): void {
    const blocks = this.blocks(r, r.value.message, ['message']);
    const text = blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
    // A slash command is the agent's own business, never sent to the model.
    if (
      r.value.subtype === 'slash_command' ||
      (blocks.every((b) => b.type === 'text') && /^\s*[/?]/.test(text))
    ) {
      this.marker({ kind: 'meta-record', label: 'command', source: r.source, text: text.trim() });
      return;
    }
    if (blocks.length > 0) this.push('user', blocks, r);
  }

  assistant(r: JsonlRecord): Message {
    const m = this.push('assistant', this.blocks(r, r.value.message, ['message']), r);
    const model = str(r.value.model);
    if (model) m.model = model;
    const usage = qwenUsage(r.value.usageMetadata);
    if (usage) {
      m.usage = usage;
      if (model) this.models.push(model);
    } else m.flags = ['no usage recorded'];
    return m;
  }

  toolResult(r: JsonlRecord): void {
    const blocks = this.blocks(r, r.value.message, ['message']);
    if (blocks.length > 0) this.push('user', blocks, r);
  }

  /** A chat compression: the history the later requests send is its `compressedHistory`, written by the agent. */
  compression(r: JsonlRecord): void {
    const payload = isObject(r.value.systemPayload) ? r.value.systemPayload : {};
    const info = isObject(payload.info) ? payload.info : {};
    const before = info.originalTokenCount;
    const after = info.newTokenCount;
    const m: Marker = {
      kind: 'compaction',
      label: 'chat compression',
      beforeMessage: this.messages.length,
      source: r.source,
    };
    if (typeof before === 'number' && typeof after === 'number') m.text = `${before} → ${after} tokens`;
    this.markers.push(m);
    const history = Array.isArray(payload.compressedHistory) ? payload.compressedHistory : [];
    history.forEach((c, i) => {
      if (!isObject(c)) return;
      const blocks = this.blocks(r, c, ['systemPayload', 'compressedHistory', i]);
      if (blocks.length === 0) return;
      const msg = this.push(c.role === 'model' ? 'assistant' : 'user', blocks, r);
      msg.flags = ['synthetic'];
    });
  }
}

export function parseQwen(s: Sniff, reason: string): Transcript {
  const diags = new Diagnostics();
  const records: JsonlRecord[] = [];
  const broken: { line: Parameters<typeof brokenLineMarker>[0]; after: number }[] = [];
  readJsonl(
    s.bytes,
    diags,
    (rec) => records.push(rec),
    (line) => broken.push({ line, after: records.length }),
  );
  const branch = branchOf(records, diags);
  const reader = new QwenReader(diags);
  const replies: RecordedReply[] = [];
  const counts = { offBranch: 0, telemetry: 0, system: 0, other: 0 };
  let nextBroken = 0;
  records.forEach((r, i) => {
    while (nextBroken < broken.length && broken[nextBroken].after <= i)
      reader.marker(brokenLineMarker(broken[nextBroken++].line, 0));
    const type = str(r.value.type) ?? '';
    const line = r.span.index + 1;
    if (!branch.has(r)) {
      counts.offBranch++;
      const usage = type === 'assistant' ? qwenUsage(r.value.usageMetadata) : undefined;
      if (usage) {
        const reply: RecordedReply = { thread: 'main', onBranch: false, usage, line };
        const model = str(r.value.model);
        if (model) reply.model = model;
        const ts = str(r.value.timestamp);
        if (ts) reply.timestamp = ts;
        replies.push(reply);
      }
      return;
    }
    if (type === 'user') reader.user(r);
    else if (type === 'tool_result') reader.toolResult(r);
    else if (type === 'assistant') {
      const m = reader.assistant(r);
      if (m.usage) {
        const reply: RecordedReply = { thread: 'main', onBranch: true, usage: m.usage, line };
        if (m.model) reply.model = m.model;
        if (m.timestamp) reply.timestamp = m.timestamp;
        replies.push(reply);
      }
    } else if (type === 'system') {
      // Telemetry repeats each response's usage (`qwen-code.api_response`): the assistant record's is counted.
      if (r.value.subtype === 'ui_telemetry') counts.telemetry++;
      else if (r.value.subtype === 'chat_compression') reader.compression(r);
      else {
        counts.system++;
        if (r.value.subtype === 'slash_command' || r.value.subtype === 'rewind')
          reader.marker({ kind: 'meta-record', label: String(r.value.subtype), source: r.source });
      }
    } else {
      counts.other++;
      diags.once(
        `qwen-record:${type}`,
        'info',
        'unknown-record',
        `a record of type "${type}" is not a chat record: skipped`,
        r.source,
      );
    }
  });
  for (; nextBroken < broken.length; nextBroken++)
    reader.marker(brokenLineMarker(broken[nextBroken].line, 0));
  diags.add(
    'info',
    'qwen-log',
    `${records.length} records: ${counts.offBranch} off the branch sent last, ${counts.telemetry} telemetry, ` +
      `${counts.system} other system records${counts.other ? `, ${counts.other} of no known type` : ''}`,
    1,
    1,
  );
  const t: Transcript = {
    format: 'qwen-code',
    formatReason: reason,
    messages: reader.messages,
    markers: reader.markers,
    sidechains: [],
    diagnostics: diags.list,
    replies,
    raw: s.bytes,
  };
  const model = mostFrequent(reader.models);
  if (model) t.model = model;
  return t;
}
