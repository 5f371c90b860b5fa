// GitHub Copilot Chat sessions of the editor (`<user dir>/workspaceStorage/<workspace>/chatSessions/<session>.jsonl`):
// the editor's mutation log of a chat session, `{kind: 0, v: {version, sessionId, requests…}}` then changes
// `{kind: 1|2|3, k: [path], v}`. The older sessions, one JSON document rewritten whole (`<session>.json`), are
// `copilotChatJson.ts`. This file is the adapter; `copilot/` reads the requests.
import type { Block } from '../model';
import { firstPrompt, parseChatLog } from './copilot/chatParse';
import { isObject, keyList } from './json';
import { headPrompt, jsonStringBody } from './sessionHead';
import type {
  FormatAdapter,
  OriginalValue,
  SessionDescriptor,
  SessionHeadFacts,
  Sniff,
  ToolPreset,
  Verdict,
} from './types';

/** A chat session's value: the editor's serialized chat data. */
export function isChatSession(v: unknown): v is Record<string, unknown> {
  return (
    isObject(v) &&
    Array.isArray(v.requests) &&
    (typeof v.sessionId === 'string' ||
      typeof v.responderUsername === 'string' ||
      typeof v.version === 'number') &&
    v.requests.every((r) => isObject(r) && (isObject(r.message) || typeof r.requestId === 'string'))
  );
}

function detect(s: Sniff): Verdict {
  const [first, ...rest] = s.records;
  if (first?.kind !== 0 || !isChatSession(first.v))
    return {
      ok: false,
      reason: first
        ? `the first record is not {kind: 0, v: {sessionId, requests…}} (it has keys ${keyList(first)})`
        : 'no line of the file is a JSON object',
    };
  const changes = rest.filter(
    (r) => (r.kind === 1 || r.kind === 2 || r.kind === 3) && Array.isArray(r.k),
  ).length;
  return {
    ok: true,
    score: 20 + changes,
    reason: `JSONL: a chat session {kind: 0, v: {version, sessionId, requests: [{requestId, message…}]}} then ${changes} changes {kind: 1|2|3, k: [path]}: a GitHub Copilot Chat session of the editor`,
  };
}

export function chatHead(session: unknown): SessionHeadFacts {
  const text = firstPrompt(session);
  const facts: SessionHeadFacts = { prompt: headPrompt(text) };
  if (isObject(session) && typeof session.sessionId === 'string') facts.sessionId = session.sessionId;
  return facts;
}

/** A text part of a tool's result as the editor keeps it (`LanguageModelTextPart`, marshalled as `$mid` 21): a part
 * rewritten from a prompt-tsx tree is written as the text it rendered to. */
const textPart = (value: string) => ({ $mid: 21, value });

export const chatTextInPlaceOfParts = (text: string): unknown => [textPart(text)];

/** A rewritten part of a result: a text part (only text fits). */
export function chatNested(block: Block, original: OriginalValue): unknown {
  if (block.type === 'text') return textPart(block.text);
  if (block.location) return original(block.location);
  throw new Error(`cannot write a new ${block.type} block into a Copilot Chat result: its parts are text`);
}

/** The built-in tools of Copilot Chat's agent: reading tools keep their content. */
const READING_TOOLS = [
  'read_file',
  'file_search',
  'grep_search',
  'semantic_search',
  'list_dir',
  'get_errors',
];
export const CHAT_TOOLS: ToolPreset = {
  floorTools: [...READING_TOOLS, 'fetch_webpage'],
  noSummaryTools: [...READING_TOOLS, 'manage_todo_list'],
  observationTools: [],
};

/** The first prompt from the file's first bytes (its first request's `message.text`): the log's first line is the
 * whole session, often longer than what is read of a file's start. */
function chatHeadText(text: string): SessionHeadFacts {
  const m = /"message"\s*:\s*\{\s*"text"\s*:\s*"((?:[^"\\]|\\.)*)"/.exec(text);
  const prompt = m ? jsonStringBody(m[1]) : '';
  const id = /"sessionId"\s*:\s*"([^"\\]{1,200})"/.exec(text);
  return chatHead({ requests: [{ message: { text: prompt } }], ...(id ? { sessionId: id[1] } : {}) });
}

export const CHAT_SESSION: SessionDescriptor = {
  agent: 'GitHub Copilot Chat',
  head: (records) => chatHead(records[0]?.v),
  headText: chatHeadText,
  unknownProject: '(no folder)',
  groupBy: 'project',
  icon: 'copilot',
  minHiddenPrefixTokens: 1000,
};

export const copilotChat: FormatAdapter<'copilot-chat'> = {
  id: 'copilot-chat',
  shape: 'jsonl',
  expected:
    'GitHub Copilot Chat session: JSONL {kind: 0, v: {version, sessionId, requests}} then {kind: 1|2|3, k: [path], v}',
  detect,
  parse: parseChatLog,
  nestedBlock: chatNested,
  textInPlaceOfParts: chatTextInPlaceOfParts,
  wire: 'openai',
  tools: CHAT_TOOLS,
  session: {
    ...CHAT_SESSION,
    // Each workspace's chatSessions/ in the editors' workspace storage: the log, and the older documents; a window
    // opened without a folder keeps its sessions in the global storage's emptyWindowChatSessions/ (the editor's
    // chatSessionStore.ts).
    location: {
      env: '',
      home: '',
      logs: 'chatSessions',
      depth: 0,
      documents: '',
      editorWorkspaces: 'GitHub Copilot Chat',
      emptyWindow: 'emptyWindowChatSessions',
    },
  },
};
