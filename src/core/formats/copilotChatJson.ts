// GitHub Copilot Chat sessions before the editor's mutation log (`chatSessions/<session>.json`): one JSON document
// `{version: 3, sessionId, creationDate, requests: [{requestId, message, response, result, modelId…}]}` rewritten
// whole. A format of its own beside `copilotChat.ts` because it is a document, not a log that grows by lines; the
// requests are read by the same code.

import { parseChatDocument } from './copilot/chatParse';
import { CHAT_SESSION, CHAT_TOOLS, chatNested, chatTextInPlaceOfParts, isChatSession } from './copilotChat';
import { brokenNote } from './jsonDoc';
import type { FormatAdapter, Sniff, Verdict } from './types';

function detect(s: Sniff): Verdict {
  const doc = s.document();
  if (!isChatSession(doc.value))
    return {
      ok: false,
      reason: 'not a JSON object {sessionId or responderUsername, requests: [{requestId, message…}]}',
    };
  const n = (doc.value.requests as unknown[]).length;
  return {
    ok: true,
    score: 20 + n,
    reason: `a JSON document {version, sessionId, requests: [{requestId, message, response, result…}]}: a GitHub Copilot Chat session of the editor (${n} requests)${brokenNote(doc)}`,
  };
}

export const copilotChatJson: FormatAdapter<'copilot-chat-json'> = {
  id: 'copilot-chat-json',
  shape: 'json',
  expected:
    'GitHub Copilot Chat session (older): a JSON document {version: 3, sessionId, requests: [{requestId, message, response, result, modelId}]}',
  detect,
  parse: parseChatDocument,
  nestedBlock: chatNested,
  textInPlaceOfParts: chatTextInPlaceOfParts,
  wire: 'openai',
  tools: CHAT_TOOLS,
  session: CHAT_SESSION,
};
