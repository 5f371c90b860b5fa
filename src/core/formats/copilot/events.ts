// GitHub Copilot CLI sessions (`~/.copilot/session-state/<id>/events.jsonl`) into the canonical transcript. Each line
// is an event `{type, data, id, timestamp, parentId, agentId?}` (the event schema of `@github/copilot-sdk`'s
// generated `session-events`). What a request sends is what the agent rebuilds its history from on resume: the
// system message, each user message as transformed for the model, each assistant message with its tool requests,
// and each tool's `result.content` ("the concise text sent to the LLM"). The log keeps no input tokens per request
// (`assistant.usage` is transient, never written): only the totals of each run, per model, in `session.shutdown`.
import type { Block, Conversation, LoggedSummarization, Marker, Message, ValueLocation } from '../../model';
import { compactJson, isObject, str } from '../json';
import { brokenLineMarker, type JsonlRecord, readJsonl } from '../jsonl';
import { mostFrequent } from '../mostFrequent';
import { Diagnostics, type Sniff } from '../types';
import { compactionReply, num, recordedRequests, type ShutdownMetric, shutdownRun } from './usage';

/** Events the agent writes that carry nothing a request sends, shown nowhere (lifecycle, telemetry, UI state). */
const SILENT =
  /^(assistant\.(turn_start|turn_end|intent|idle)|hook\.|permission\.|pending_messages\.|tool\.execution_(start|partial_result|progress)|session\.(resume|start|model_change|idle|usage_checkpoint|context_changed|title_changed|mode_changed|plan_changed|todos_changed|workspace_file_changed|skills_loaded|custom_agents_updated|tools_updated|permissions_changed|remote_steerable_changed)|skill\.|user_input\.|elicitation\.|command\.|subagent\.(selected|deselected))/;

interface Thread {
  messages: Message[];
  markers: Marker[];
  /** The assistant message a call id belongs to, to name its model from the tool's completion. */
  callOwner: Map<string, Message>;
  /** The message holding the results since the last reply. */
  results?: Message;
  /** The last reply, and the API call it answered (chunks of one call are one reply). */
  reply?: { message: Message; apiCallId?: string };
}

class Reader {
  readonly threads = new Map<string, Thread>();
  readonly models: string[] = [];
  readonly shutdowns: Record<string, ShutdownMetric>[] = [];
  /** The summarizing calls of the log's compactions, with the usage the agent recorded for each. */
  readonly summarizations: LoggedSummarization[] = [];
  system?: string;
  private model?: string;
  private calls = 0;
  readonly counts = { events: 0, other: 0 };

  constructor(private readonly diags: Diagnostics) {
    this.threads.set('main', { messages: [], markers: [], callOwner: new Map() });
  }

  private thread(r: Record<string, unknown>, data: Record<string, unknown>): Thread {
    const id = str(r.agentId) ?? str(data.parentToolCallId) ?? 'main';
    let t = this.threads.get(id);
    if (!t) {
      t = { messages: [], markers: [], callOwner: new Map() };
      this.threads.set(id, t);
    }
    return t;
  }

  private loc(rec: JsonlRecord, path: (string | number)[], valuePath?: (string | number)[]): ValueLocation {
    const l: ValueLocation = {
      recordStart: rec.span.start,
      recordEnd: rec.span.end,
      recordLine: rec.span.index + 1,
      path,
    };
    if (valuePath) l.valuePath = valuePath;
    return l;
  }

  private push(t: Thread, role: Message['role'], blocks: Block[], rec: JsonlRecord): Message {
    const m: Message = { index: t.messages.length, role, blocks, source: rec.source };
    const ts = str(rec.value.timestamp);
    if (ts) m.timestamp = ts;
    t.messages.push(m);
    return m;
  }

  private marker(t: Thread, m: Omit<Marker, 'beforeMessage'>): void {
    t.markers.push({ ...m, beforeMessage: t.messages.length });
  }

  event(rec: JsonlRecord): void {
    const r = rec.value;
    const type = str(r.type) ?? '';
    const data = isObject(r.data) ? r.data : {};
    this.counts.events++;
    if (type === 'session.start') this.model = str(data.selectedModel) ?? this.model;
    else if (type === 'session.model_change') this.model = str(data.newModel) ?? this.model;
    else if (type === 'assistant.turn_start') this.model = str(data.model) ?? this.model;
    if (type === 'system.message') {
      // The agent's full instructions, sent first with every request.
      const content = str(data.content);
      if (content !== undefined && data.role !== 'developer') this.system = content;
      return;
    }
    if (type === 'user.message') {
      this.user(rec, data);
      return;
    }
    if (type === 'assistant.message') {
      this.assistant(rec, data);
      return;
    }
    if (type === 'tool.execution_complete') {
      this.result(rec, data);
      return;
    }
    if (type === 'session.compaction_complete') {
      this.compaction(rec, data);
      return;
    }
    if (type === 'session.shutdown') {
      this.shutdown(data);
      return;
    }
    const t = this.thread(r, data);
    if (type === 'session.truncation') {
      this.marker(t, {
        kind: 'meta-record',
        label: 'truncation',
        source: rec.source,
        text: `${num(data.messagesRemovedDuringTruncation)} messages (${num(data.tokensRemovedDuringTruncation)} tokens) left out of the requests by ${str(data.performedBy) ?? 'the agent'} at a limit of ${num(data.tokenLimit)} tokens; the log does not say which`,
      });
      return;
    }
    if (
      /^(session\.(info|warning|error|task_complete|compaction_start)|abort|subagent\.(started|completed|failed)|model\.call_failure)$/.test(
        type,
      )
    ) {
      this.marker(t, {
        kind: 'meta-record',
        label: type,
        source: rec.source,
        text: str(data.message) ?? str(data.summary) ?? str(data.reason) ?? str(data.agentName) ?? '',
      });
      return;
    }
    if (SILENT.test(type)) return;
    this.counts.other++;
    this.diags.once(
      `copilot-event:${type}`,
      'info',
      'unknown-record',
      `events of type "${type}" carry nothing a request sends: not shown`,
      rec.source,
    );
  }

  private user(rec: JsonlRecord, data: Record<string, unknown>): void {
    const t = this.thread(rec.value, data);
    // What the model was sent: the transformed text (tagged files, reminders) when the agent wrote it.
    const key = typeof data.transformedContent === 'string' ? 'transformedContent' : 'content';
    const text = str(data[key]) ?? '';
    t.results = undefined;
    t.reply = undefined;
    this.push(
      t,
      'user',
      [{ type: 'text', text, source: rec.source, location: this.loc(rec, ['data', key]) }],
      rec,
    );
  }

  private assistant(rec: JsonlRecord, data: Record<string, unknown>): void {
    const t = this.thread(rec.value, data);
    const apiCallId = str(data.apiCallId);
    const chunk = typeof data.chunkIndex === 'number' && data.chunkIndex > 0;
    // The chunks of one API call's response are one reply.
    const same =
      t.reply && !t.results && (chunk || (apiCallId !== undefined && apiCallId === t.reply.apiCallId));
    const blocks: Block[] = same && t.reply ? t.reply.message.blocks : [];
    const reasoning = str(data.reasoningText);
    if (reasoning)
      blocks.push({
        type: 'thinking',
        text: reasoning,
        redacted: false,
        source: rec.source,
        location: this.loc(rec, ['data', 'reasoningText']),
      });
    else if (str(data.reasoningOpaque) || str(data.encryptedContent))
      blocks.push({
        type: 'thinking',
        text: '',
        redacted: true,
        source: rec.source,
        location: this.loc(rec, ['data', str(data.reasoningOpaque) ? 'reasoningOpaque' : 'encryptedContent']),
      });
    const content = str(data.content);
    if (content)
      blocks.push({
        type: 'text',
        text: content,
        source: rec.source,
        location: this.loc(rec, ['data', 'content']),
      });
    const requests = Array.isArray(data.toolRequests) ? data.toolRequests : [];
    let m: Message;
    if (same && t.reply) m = t.reply.message;
    else {
      m = this.push(t, 'assistant', blocks, rec);
      t.reply = { message: m, ...(apiCallId ? { apiCallId } : {}) };
    }
    requests.forEach((q, i) => {
      if (!isObject(q)) return;
      const id = str(q.toolCallId) ?? `${str(q.name) ?? 'call'}#${++this.calls}`;
      blocks.push({
        type: 'tool_use',
        id,
        name: str(q.name) ?? '',
        input: q.arguments ?? {},
        source: rec.source,
        location: this.loc(rec, ['data', 'toolRequests', i]),
      });
      t.callOwner.set(id, m);
    });
    const model = str(data.model) ?? this.model;
    if (model && !m.model) m.model = model;
    m.flags = ['no usage recorded'];
    t.results = undefined;
  }

  private result(rec: JsonlRecord, data: Record<string, unknown>): void {
    const t = this.thread(rec.value, data);
    const id = str(data.toolCallId) ?? '';
    const owner = t.callOwner.get(id);
    const model = str(data.model);
    if (owner && model) {
      owner.model = model;
      this.model ??= model;
    }
    const result = isObject(data.result) ? data.result : undefined;
    const error = isObject(data.error) ? data.error : undefined;
    const failed = data.success === false;
    let block: Block;
    if (result && typeof result.content === 'string')
      block = {
        type: 'tool_result',
        toolUseId: id,
        content: result.content,
        isError: failed,
        source: rec.source,
        location: this.loc(rec, ['data', 'result'], ['data', 'result', 'content']),
      };
    else if (error && typeof error.message === 'string')
      block = {
        type: 'tool_result',
        toolUseId: id,
        content: error.message,
        isError: true,
        source: rec.source,
        location: this.loc(rec, ['data', 'error'], ['data', 'error', 'message']),
      };
    else
      block = {
        type: 'tool_result',
        toolUseId: id,
        content: compactJson(data.result ?? data.error ?? null),
        isError: failed,
        fixed: true,
        source: rec.source,
        location: this.loc(rec, ['data']),
      };
    if (!t.results) t.results = this.push(t, 'user', [], rec);
    t.results.blocks.push(block);
    t.reply = undefined;
  }

  private compaction(rec: JsonlRecord, data: Record<string, unknown>): void {
    const t = this.thread(rec.value, data);
    if (data.success === false) {
      this.marker(t, {
        kind: 'meta-record',
        label: 'compaction failed',
        source: rec.source,
        text: str(data.error) ?? '',
      });
      return;
    }
    const m: Marker = {
      kind: 'compaction',
      label: 'session.compaction_complete',
      beforeMessage: t.messages.length,
      source: rec.source,
    };
    const summary = str(data.summaryContent);
    if (summary !== undefined) m.summary = summary;
    const pre = num(data.preCompactionTokens);
    if (pre > 0) m.preTokens = pre;
    t.markers.push(m);
    const reply = compactionReply(data, rec, this.model);
    if (reply)
      this.summarizations.push({ file: `the compaction's record, line ${reply.line}`, replies: [reply] });
    t.results = undefined;
    t.reply = undefined;
  }

  private shutdown(data: Record<string, unknown>): void {
    this.shutdowns.push(shutdownRun(data));
  }

  noteModels(): void {
    for (const m of this.threads.get('main')?.messages ?? [])
      if (m.role === 'assistant' && m.model) this.models.push(m.model);
  }
}

export function parseCopilotEvents(s: Sniff) {
  const diags = new Diagnostics();
  const reader = new Reader(diags);
  const broken: Parameters<typeof brokenLineMarker>[0][] = [];
  readJsonl(
    s.bytes,
    diags,
    (rec) => reader.event(rec),
    (line) => broken.push(line),
  );
  reader.noteModels();
  const main = reader.threads.get('main') as Thread;
  const markers = [...main.markers];
  for (const b of broken) {
    // A broken line sits before the first message that follows it in the file.
    const at = main.messages.findIndex((m) => (m.source?.start ?? 0) > b.span.start);
    markers.push(brokenLineMarker(b, at === -1 ? main.messages.length : at));
  }
  markers.sort((a, b) => a.beforeMessage - b.beforeMessage);
  const sidechains: Conversation[] = [];
  for (const [id, t] of reader.threads) if (id !== 'main') sidechains.push({ id, messages: t.messages });
  const totals = recordedRequests(reader.shutdowns);
  const replies = main.messages.filter((m) => m.role === 'assistant').length;
  const recorded = Object.entries(totals);
  diags.add(
    'info',
    'copilot-log',
    `${reader.counts.events} events, ${replies} replies in the main conversation, ${sidechains.length} sub-agents; ` +
      (recorded.length
        ? `the agent's shutdowns (${reader.shutdowns.length}) recorded ${recorded
            .map(
              ([model, m]) =>
                `${m.requests} requests to ${model} (input ${m.inputTokens} with the cache, output ${m.outputTokens}, cache read ${m.cacheReadTokens}, cache write ${m.cacheWriteTokens})`,
            )
            .join(', ')}; no usage per request, so costs are estimated`
        : 'no shutdown recorded the usage (a session still running, or killed): costs are estimated'),
    1,
    1,
  );
  return {
    messages: main.messages,
    markers,
    sidechains,
    diagnostics: diags.list,
    system: reader.system,
    model: mostFrequent(reader.models),
    recordedTotals: recorded.map(([model, m]) => ({
      model,
      requests: m.requests,
      promptTokens: m.inputTokens,
    })),
    summarizations: reader.summarizations,
  };
}
