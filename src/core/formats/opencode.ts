// OpenCode sessions as the agent exports them (`opencode export <session>`): one JSON document `{info: Session,
// messages: [{info: Message, parts: Part[]}], todos}`, the same messages and parts its database and its older
// `storage/` files hold. This file is the adapter; `opencode/` reads the messages.
import type { Block, Transcript } from '../model';
import { isObject, str } from './json';
import { brokenNote, documentParts } from './jsonDoc';
import { mostFrequent } from './mostFrequent';
import { type OpenCodeEntry, openCodeConversation } from './opencode/messages';
import { flatPrompt } from './sessionHead';
import type { FormatAdapter, OriginalValue, SessionHeadFacts, Sniff, Verdict } from './types';

function detect(s: Sniff): Verdict {
  const v = s.document().value;
  if (!isObject(v) || !isObject(v.info) || !Array.isArray(v.messages))
    return { ok: false, reason: 'not a JSON object with "info" and a "messages" list of {info, parts}' };
  const list = v.messages.filter(isObject);
  const shaped = list.filter(
    (m) => isObject(m.info) && typeof m.info.role === 'string' && Array.isArray(m.parts),
  );
  if (list.length > 0 && shaped.length === 0)
    return { ok: false, reason: 'its messages are not {info: {role}, parts}' };
  const id = str(v.info.id) ?? '';
  return {
    ok: true,
    score: 20 + shaped.length + (id.startsWith('ses_') ? 5 : 0),
    reason: `a JSON document {info${id.startsWith('ses_') ? ' (a ses_… session)' : ''}, messages: [{info: {role…}, parts}]}: an OpenCode session as \`opencode export\` writes it (${shaped.length} messages)`,
  };
}

function parse(s: Sniff, reason: string): Transcript {
  const { doc, pos, diags } = documentParts(s);
  const top = isObject(doc.value) ? doc.value : {};
  const entries: OpenCodeEntry[] = [];
  const unreadable = (v: unknown, path: (string | number)[]) => {
    if (!isObject(v) || typeof v.unreadable !== 'string') return;
    const at = pos.rangeAt(path);
    diags.add('warning', 'unreadable-record', `${v.unreadable}: left out`, at.line, at.column);
  };
  (Array.isArray(top.messages) ? top.messages : []).forEach((m, i) => {
    // A message or part the agent's store held as something else than JSON (the mirror of its database or
    // storage/ keeps it in its place as {unreadable}: where it was and why).
    unreadable(m, ['messages', i]);
    if (isObject(m) && Array.isArray(m.parts))
      m.parts.forEach((p, j) => {
        unreadable(p, ['messages', i, 'parts', j]);
      });
    if (!isObject(m) || !isObject(m.info)) return;
    entries.push({
      info: m.info,
      parts: Array.isArray(m.parts) ? m.parts : [],
      path: ['messages', i],
      source: pos.rangeAt(['messages', i]),
      raw: s.bytes,
    });
  });
  const conv = openCodeConversation(entries, diags);
  const t: Transcript = {
    format: 'opencode',
    formatReason: reason + brokenNote(doc),
    messages: conv.messages,
    markers: conv.markers,
    sidechains: [],
    diagnostics: diags.list,
    replies: conv.replies,
    raw: s.bytes,
  };
  const model = mostFrequent(conv.models);
  if (model) t.model = model;
  return t;
}

/** A nested block of a rewritten result: OpenCode's results are strings, a text block its text. */
function nestedBlock(block: Block, original: OriginalValue): unknown {
  if (block.type === 'text') return block.text;
  if (block.location) return original(block.location);
  throw new Error(`cannot write a new ${block.type} block into an OpenCode result: only text can be written`);
}

/** The first prompt and the working directory of an exported session (its document, read as far as it goes). */
function openCodeHead(recs: Record<string, unknown>[]): SessionHeadFacts {
  const doc = recs[0];
  const info = doc && isObject(doc.info) ? doc.info : {};
  const cwd = str(info.directory);
  // A sub-agent's session (`task`) names the session that started it.
  const parent = str(info.parentID);
  const who = parent
    ? { sessionId: parent, subAgent: true }
    : str(info.id)
      ? { sessionId: str(info.id) }
      : {};
  for (const m of doc && Array.isArray(doc.messages) ? doc.messages.filter(isObject) : []) {
    if (!isObject(m.info) || m.info.role !== 'user' || !Array.isArray(m.parts)) continue;
    const text = m.parts
      .filter((p) => isObject(p) && p.type === 'text' && p.synthetic !== true)
      .map((p) => str((p as Record<string, unknown>).text) ?? '')
      .join(' ');
    if (text.trim()) return { prompt: flatPrompt(text), ...(cwd ? { cwd } : {}), ...who };
  }
  return { prompt: str(info.title) ?? '', ...(cwd ? { cwd } : {}), ...who };
}

/** OpenCode's tools (`packages/opencode/src/tool/*`). */
const READING_TOOLS = ['read', 'list', 'glob', 'grep', 'webfetch'];

export const opencode: FormatAdapter<'opencode'> = {
  id: 'opencode',
  shape: 'json',
  expected:
    'OpenCode session export (`opencode export`): a JSON document {info: {id: "ses_…", …}, messages: [{info: {role, tokens?, cost?}, parts: […]}]}',
  detect,
  parse,
  nestedBlock,
  wire: 'openai',
  tools: {
    floorTools: READING_TOOLS,
    noSummaryTools: [...READING_TOOLS, 'todowrite', 'todoread', 'task'],
    observationTools: [],
  },
  session: {
    agent: 'OpenCode',
    // The agent's database (`opencode.db`, or the file OPENCODE_DB names; a preview build's `opencode-<channel>.db`)
    // and older `storage/` under $XDG_DATA_HOME/opencode (else ~/.local/share/opencode), each session copied as its
    // export into a mirror that is listed (anomalyco/opencode `packages/opencode/src/storage/db.ts`). Kilo's CLI (an
    // OpenCode fork, also behind the Kilo Code extension since 7.0) keeps the same tables in `kilo.db` under
    // $XDG_DATA_HOME/kilo, or the file `KILO_DB` names, a preview build's in `kilo-<channel>.db` (or the
    // `opencode-<channel>.db` it found there) (Kilo-Org/kilocode `packages/opencode/src/storage/db.ts`).
    location: {
      env: 'XDG_DATA_HOME',
      home: '.local/share',
      logs: 'opencode',
      depth: 0,
      documents: 'ses_',
      mirror: 'opencode',
      database: 'opencode.db',
      databaseEnv: 'OPENCODE_DB',
      forks: [{ agent: 'Kilo', logs: 'kilo', database: 'kilo.db', databaseEnv: 'KILO_DB' }],
    },
    head: openCodeHead,
    groupBy: 'project',
    icon: 'code',
    minHiddenPrefixTokens: 1000,
  },
};
