// GitHub Copilot CLI sessions (`${COPILOT_HOME:-~/.copilot}/session-state/<session id>/events.jsonl`): a log of
// events `{type: "session.start"|"user.message"|"assistant.message"|"tool.execution_complete"…, data, id,
// timestamp, parentId}`. This file is the adapter (detection, the session head, the agent's tools and logs);
// `copilot/events.ts` reads the events.
import type { Block, Transcript } from '../model';
import { parseCopilotEvents } from './copilot/events';
import { isObject, keyList, str } from './json';
import { flatPrompt, isRealPrompt } from './sessionHead';
import type { FormatAdapter, OriginalValue, SessionHeadFacts, Sniff, Verdict } from './types';

/** An event of the agent's schema: a dotted type and a `data` object. */
const EVENT_TYPE =
  /^(session|user|assistant|tool|system|hook|permission|subagent|skill|abort|pending_messages)(\.|$)/;

function detect(s: Sniff): Verdict {
  let events = 0;
  let producer = false;
  for (const r of s.records) {
    if (typeof r.type !== 'string' || !isObject(r.data) || !EVENT_TYPE.test(r.type)) continue;
    events++;
    if (r.type === 'session.start' && r.data.producer === 'copilot-agent') producer = true;
  }
  const n = s.records.length;
  if (events > 0 && (producer || events * 2 > n))
    return {
      ok: true,
      score: 10 + events + (producer ? 10 : 0),
      reason: `JSONL events {type: "session.start"|"user.message"|"assistant.message"|"tool.execution_complete"…, data, id, timestamp}${producer ? ' from producer "copilot-agent"' : ''}: a GitHub Copilot CLI session (${events} of the first ${n} records)`,
    };
  const first = s.records[0];
  return {
    ok: false,
    reason: first
      ? `no record looks like {type: "session.start"|"user.message"|…, data} (the first record has keys ${keyList(first)})`
      : 'no line of the file is a JSON object',
  };
}

function parse(s: Sniff, reason: string): Transcript {
  const r = parseCopilotEvents(s);
  const t: Transcript = {
    format: 'copilot-cli',
    formatReason: reason,
    messages: r.messages,
    markers: r.markers,
    sidechains: r.sidechains,
    diagnostics: r.diagnostics,
    raw: s.bytes,
  };
  if (r.system !== undefined) t.system = r.system;
  if (r.model) t.model = r.model;
  if (r.recordedTotals.length > 0) t.recordedTotals = r.recordedTotals;
  // The compactions' summarizing calls, priced from what the agent recorded of them.
  if (r.summarizations.length) t.summarizations = r.summarizations;
  return t;
}

/** The session, its working directory and the first prompt typed, from the first events. */
export function copilotHead(records: Record<string, unknown>[]): SessionHeadFacts {
  const facts: SessionHeadFacts = { prompt: '' };
  for (const r of records) {
    const data = isObject(r.data) ? r.data : {};
    if (r.type === 'session.start') {
      facts.sessionId ??= str(data.sessionId);
      const context = isObject(data.context) ? data.context : {};
      const cwd = str(context.cwd);
      if (cwd) facts.cwd ??= cwd;
    }
    if (r.type === 'user.message' && !str(r.agentId) && !facts.prompt) {
      const text = str(data.content) ?? '';
      if (isRealPrompt(text) && !text.trim().startsWith('/')) facts.prompt = flatPrompt(text);
    }
    if (facts.prompt && facts.cwd) break;
  }
  if (facts.sessionId === undefined) delete facts.sessionId;
  return facts;
}

/** A nested block of a rewritten result: the agent keeps a result as one string, so only text fits. */
function nested(block: Block, original: OriginalValue): unknown {
  if (block.type === 'text') return block.text;
  if (block.location) return original(block.location);
  throw new Error(`cannot write a new ${block.type} block into a Copilot CLI result: its results are text`);
}

/** Copilot CLI's own tools: reading tools keep their content. */
const READING_TOOLS = ['view', 'glob', 'grep', 'rg', 'read_bash'];

export const copilotCli: FormatAdapter<'copilot-cli'> = {
  id: 'copilot-cli',
  shape: 'jsonl',
  expected:
    'GitHub Copilot CLI session: JSONL events {type: "session.start"|"user.message"|"assistant.message"|"tool.execution_complete"|…, data, id, timestamp, parentId}',
  detect,
  parse,
  nestedBlock: nested,
  wire: 'openai',
  tools: {
    floorTools: [...READING_TOOLS, 'web_fetch'],
    noSummaryTools: [...READING_TOOLS, 'update_todo', 'report_intent'],
    observationTools: [],
  },
  session: {
    agent: 'GitHub Copilot CLI',
    // session-state/<id>/events.jsonl, and the flat session-state/<id>.jsonl of the builds before 2026.
    location: { env: 'COPILOT_HOME', home: '.copilot', logs: 'session-state', depth: 1 },
    head: copilotHead,
    unknownProject: '(unknown project)',
    groupBy: 'project',
    icon: 'copilot',
    minHiddenPrefixTokens: 1000,
  },
};
