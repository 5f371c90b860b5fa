// Gemini CLI sessions before its JSONL log (`~/.gemini/tmp/<project>/chats/session-*.json`): one JSON document
// `{sessionId, projectHash, startTime, lastUpdated, messages[]}` rewritten whole at every update. A format of its own
// beside `geminiCli.ts` because it is a document, not a log that grows by lines (detection asks documents after
// logs, and a growing file is followed by its new lines); the messages are read by the same code.

import { isMessageRecord, parseDocument } from './gemini/parse';
import { GEMINI_SESSION, GEMINI_TOOLS, geminiNested } from './geminiCli';
import { isObject } from './json';
import type { FormatAdapter, Sniff, Verdict } from './types';

function detect(s: Sniff): Verdict {
  const v = s.document().value;
  if (!isObject(v) || !Array.isArray(v.messages) || typeof v.sessionId !== 'string')
    return { ok: false, reason: 'not a JSON object with "sessionId" and a "messages" list' };
  const records = v.messages.filter(isObject);
  const geminiLike = records.filter((m) => isMessageRecord(m) && !('role' in m)).length;
  if (records.length > 0 && geminiLike === 0)
    return { ok: false, reason: 'its messages are not {id, type, content} records' };
  return {
    ok: true,
    score: 20 + geminiLike,
    reason: `a JSON document {sessionId${'projectHash' in v ? ', projectHash' : ''}, messages: [{id, type: "user"|"gemini"…, content}]}: a Gemini CLI session of before its JSONL log (${geminiLike} messages)`,
  };
}

export const geminiCliJson: FormatAdapter<'gemini-cli-json'> = {
  id: 'gemini-cli-json',
  shape: 'json',
  expected:
    'Gemini CLI session (before 2026): a JSON document {sessionId, projectHash, startTime, lastUpdated, messages: [{id, timestamp, type, content, tokens?}]}',
  detect,
  parse: parseDocument,
  nestedBlock: geminiNested,
  wire: 'openai',
  tools: GEMINI_TOOLS,
  session: GEMINI_SESSION,
};
