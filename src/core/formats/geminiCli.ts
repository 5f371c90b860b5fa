// Gemini CLI sessions (`~/.gemini/tmp/<project>/chats/session-*.jsonl`): a log of message records, each re-appended
// whole when the agent updates it, with `$set` metadata updates and `$rewindTo` rewinds. The older sessions, one
// JSON document rewritten whole (`session-*.json`), are `geminiCliJson.ts`. This file is the adapter (detection, the
// session head, the agent's tools and logs); `gemini/` reads the records.

import type { Block } from '../model';

import { isMessageRecord, parseLog } from './gemini/parse';
import { isObject, keyList, str } from './json';
import { contentText, flatPrompt, isRealPrompt } from './sessionHead';
import type {
  FormatAdapter,
  OriginalValue,
  SessionDescriptor,
  SessionHeadFacts,
  Sniff,
  ToolPreset,
  Verdict,
} from './types';

const MESSAGE_TYPES = new Set(['user', 'gemini', 'info', 'error', 'warning']);

function detect(s: Sniff): Verdict {
  let messages = 0;
  let log = 0;
  for (const r of s.records) {
    if (isMessageRecord(r) && MESSAGE_TYPES.has(r.type as string) && !('message' in r)) messages++;
    else if (isObject(r.$set) || typeof r.$rewindTo === 'string') log++;
    else if (typeof r.sessionId === 'string' && typeof r.projectHash === 'string' && !('type' in r)) log++;
  }
  if (messages + log > 0 && (messages > 0 || log === s.records.length))
    return {
      ok: true,
      score: 10 + messages + log,
      reason: `JSONL records {id, timestamp, type: "user"|"gemini"|"info"…, content} with {sessionId, projectHash} and $set/$rewindTo updates: a Gemini CLI session (${messages + log} of the first ${s.records.length} records)`,
    };
  const first = s.records[0];
  return {
    ok: false,
    reason: first
      ? `no record looks like {id, type: "user"|"gemini", content} or {$set} (the first record has keys ${keyList(first)})`
      : 'no line of the file is a JSON object',
  };
}

/** What the agent adds before the user's words and never shows as a prompt. */
function typedPrompt(text: string): boolean {
  const t = text.trim();
  return isRealPrompt(t) && !/^[/?]/.test(t) && !/^<(session_context|hook_context)>/.test(t);
}

/** The session and the first prompt from the first records (the log, or `$set.messages` of a resumed one). */
export function geminiHead(recs: Record<string, unknown>[]): SessionHeadFacts {
  let sessionId: string | undefined;
  let subAgent = false;
  let cwd: string | undefined;
  const look = (m: Record<string, unknown>): string | undefined => {
    if (m.type !== 'user') return undefined;
    const text = contentText(m.content);
    return typedPrompt(text) ? flatPrompt(text) : undefined;
  };
  for (const r of recs) {
    if (typeof r.sessionId === 'string' && !('type' in r)) {
      sessionId ??= r.sessionId;
      if (Array.isArray(r.directories)) cwd ??= str(r.directories[0]);
      if (r.kind === 'subagent') subAgent = true;
    }
    const set = isObject(r.$set) ? r.$set : undefined;
    if (set && Array.isArray(set.directories)) cwd ??= str(set.directories[0]);
    // `$set.messages` of a log, or the messages of an older session's whole document.
    const from = set ?? r;
    const list = Array.isArray(from.messages) ? from.messages.filter(isObject) : [r];
    for (const m of list) {
      const prompt = look(m);
      if (prompt) return { prompt, sessionId, subAgent, ...(cwd ? { cwd } : {}) };
    }
  }
  return { prompt: '', sessionId, subAgent, ...(cwd ? { cwd } : {}) };
}

/** A nested block of a rewritten result, as a Gemini part. */
export function geminiNested(block: Block, original: OriginalValue): unknown {
  if (block.type === 'text') return { text: block.text };
  if (block.location) return original(block.location);
  throw new Error(
    `cannot write a new ${block.type} part into a Gemini result: only text parts can be created`,
  );
}

/** Gemini CLI's tools (`packages/core/src/tools/*`): reading tools keep their content. */
const READING_TOOLS = [
  'read_file',
  'read_many_files',
  'list_directory',
  'glob',
  'search_file_content',
  'grep_search',
];
export const GEMINI_TOOLS: ToolPreset = {
  floorTools: [...READING_TOOLS, 'web_fetch', 'google_web_search'],
  noSummaryTools: [...READING_TOOLS, 'write_todos', 'save_memory'],
  observationTools: [],
};

/** The project a session belongs to, from where it lies: `tmp/<project>/chats/…` (a project's short name, or the
 * hash of its path in older versions). */
export function geminiProject(path: string): string | undefined {
  const parts = path.split(/[\\/]/);
  const chats = parts.lastIndexOf('chats');
  return chats > 0 ? parts[chats - 1] : undefined;
}

/** What the log and the older document share as sessions of one agent. */
export const GEMINI_SESSION: SessionDescriptor = {
  agent: 'Gemini CLI',
  head: geminiHead,
  projectOf: geminiProject,
  groupBy: 'project',
  icon: 'star-empty',
  minHiddenPrefixTokens: 1000,
};

export const geminiCli: FormatAdapter<'gemini-cli'> = {
  id: 'gemini-cli',
  shape: 'jsonl',
  expected:
    'Gemini CLI session: JSONL records {sessionId, projectHash, …}, {id, timestamp, type: "user"|"gemini"|…, content, tokens?}, {$set: …}, {$rewindTo: id}',
  detect,
  parse: parseLog,
  nestedBlock: geminiNested,
  wire: 'openai',
  tools: GEMINI_TOOLS,
  session: {
    ...GEMINI_SESSION,
    // tmp/<project>/chats/session-*.jsonl, and sub-agents' chats/<parent session>/<session>.jsonl. GEMINI_CLI_HOME
    // stands for the home directory: the agent's folder is its .gemini.
    location: {
      env: 'GEMINI_CLI_HOME',
      envIsHome: true,
      home: '.gemini',
      logs: 'tmp',
      depth: 3,
      documents: 'session-',
    },
  },
};
