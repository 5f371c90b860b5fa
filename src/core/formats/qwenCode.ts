// Qwen Code sessions (`~/.qwen/projects/<project>/chats/<session>.jsonl`): the Gemini CLI fork keeps Claude Code's
// record envelope (uuid, parentUuid, sessionId, type, cwd) around Gemini API `Content` messages with their
// `usageMetadata`. This file is the adapter (detection, the session head, the agent's tools and logs); `qwen/` reads
// the records.

import { GEMINI_TOOLS, geminiNested } from './geminiCli';
import { isObject, keyList, str } from './json';
import { parseQwen } from './qwen/records';
import { flatPrompt, isRealPrompt } from './sessionHead';
import type { FormatAdapter, SessionHeadFacts, Sniff, Verdict } from './types';

const TYPES = new Set(['user', 'assistant', 'tool_result', 'system']);

/** A chat record: Claude Code's envelope, and a message (if any) that is Gemini API `Content` {role, parts}. */
function isChatRecord(r: Record<string, unknown>): boolean {
  if (typeof r.uuid !== 'string' || !('parentUuid' in r) || !TYPES.has(str(r.type) ?? '')) return false;
  // A system record carries its payload (`systemPayload`), which Claude Code's system records never do.
  if (r.message === undefined) return r.type === 'system' && isObject(r.systemPayload);
  return isObject(r.message) && Array.isArray(r.message.parts) && !('content' in r.message);
}

function detect(s: Sniff): Verdict {
  const chat = s.records.filter(isChatRecord);
  const messages = chat.filter((r) => r.type !== 'system').length;
  if (messages > 0 || (chat.length > 0 && chat.length === s.records.length))
    return {
      ok: true,
      score: 10 + chat.length,
      reason: `JSONL records {uuid, parentUuid, sessionId, type: "user"|"assistant"|"tool_result"|"system"} whose messages are Gemini API Content {role, parts}: a Qwen Code session (${chat.length} of the first ${s.records.length} records)`,
    };
  const first = s.records[0];
  return {
    ok: false,
    reason: first
      ? `no record looks like {uuid, parentUuid, type, message: {role, parts}} (the first record has keys ${keyList(first)})`
      : 'no line of the file is a JSON object',
  };
}

/** The working directory, the session and the first prompt typed. */
function qwenHead(recs: Record<string, unknown>[]): SessionHeadFacts {
  let cwd: string | undefined;
  let sessionId: string | undefined;
  for (const r of recs) {
    cwd ??= str(r.cwd);
    sessionId ??= str(r.sessionId);
    if (r.type !== 'user' || r.subtype !== undefined || !isObject(r.message)) continue;
    const parts = Array.isArray(r.message.parts) ? r.message.parts : [];
    const text = parts.map((p) => (isObject(p) && typeof p.text === 'string' ? p.text : '')).join('');
    const t = text.trim();
    if (t && isRealPrompt(t) && !/^[/?]/.test(t))
      return { prompt: flatPrompt(t), ...(cwd ? { cwd } : {}), ...(sessionId ? { sessionId } : {}) };
  }
  return { prompt: '', ...(cwd ? { cwd } : {}), ...(sessionId ? { sessionId } : {}) };
}

export const qwenCode: FormatAdapter<'qwen-code'> = {
  id: 'qwen-code',
  shape: 'jsonl',
  expected:
    'Qwen Code session: JSONL records {uuid, parentUuid, sessionId, timestamp, type: "user"|"assistant"|"tool_result"|"system", cwd, message: {role, parts}, usageMetadata?}',
  detect,
  parse: parseQwen,
  nestedBlock: geminiNested,
  wire: 'openai',
  tools: {
    ...GEMINI_TOOLS,
    noSummaryTools: [...GEMINI_TOOLS.noSummaryTools, 'todo_write'],
  },
  session: {
    agent: 'Qwen Code',
    // projects/<the working directory, its separators as "-">/chats/<session>.jsonl; QWEN_RUNTIME_DIR, else
    // QWEN_HOME, stands for ~/.qwen (`Storage.getRuntimeBaseDir`).
    location: {
      env: 'QWEN_RUNTIME_DIR',
      envFallback: 'QWEN_HOME',
      home: '.qwen',
      logs: 'projects',
      depth: 2,
    },
    head: qwenHead,
    groupBy: 'project',
    icon: 'hubot',
    minHiddenPrefixTokens: 1000,
  },
};
