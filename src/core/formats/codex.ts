// Codex CLI rollouts (`~/.codex/sessions/…/rollout-*.jsonl`): `{timestamp, type, payload}` per line.
// `response_item` payloads are Responses API items; `event_msg` token_count events carry the recorded usage. This
// file is the adapter (detection, the session head, the agent's tools and logs); `codex/` reads the records.

import { parse } from './codex/parse';
import { isLegacyItem } from './codex/records';
import { isObject, keyList, str } from './json';
import { openaiNested } from './openaiParts';
import { contentText, flatPrompt, isRealPrompt } from './sessionHead';
import type { FormatAdapter, SessionHeadFacts, Sniff, Verdict } from './types';

const CODEX_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

function detect(s: Sniff): Verdict {
  let n = 0;
  for (const r of s.records) if (CODEX_TYPES.has(str(r.type) ?? '') && isObject(r.payload)) n++;
  if (n > 0)
    return {
      ok: true,
      score: 10 + n,
      reason: `JSONL records {timestamp, type: session_meta|response_item|event_msg|turn_context, payload}: a Codex CLI rollout (${n} of the first ${s.records.length} records)`,
    };
  // Early rollouts (spring 2025): a {id, timestamp, instructions} header, then bare Responses items.
  let bare = 0;
  for (const r of s.records) if (isLegacyItem(r)) bare++;
  const header = s.records[0];
  if (
    bare > 0 &&
    header &&
    typeof header.id === 'string' &&
    typeof header.timestamp === 'string' &&
    !('type' in header)
  )
    return {
      ok: true,
      score: 8 + bare,
      reason: `a {id, timestamp} header and bare Responses items (message, function_call…): an early Codex CLI rollout (${bare} of the first ${s.records.length} records)`,
    };
  const first = s.records[0];
  return {
    ok: false,
    reason: first
      ? `no record looks like {timestamp, type: "session_meta"|"response_item"|"event_msg"…, payload} (the first record has keys ${keyList(first)})`
      : 'no line of the file is a JSON object',
  };
}

/** The working directory and first prompt from a rollout's first records. */
function sessionHead(recs: Record<string, unknown>[]): SessionHeadFacts {
  let cwd: string | undefined;
  for (const r of recs) {
    const p = r.payload as Record<string, unknown> | undefined;
    if (!p) continue;
    if (r.type === 'session_meta' && typeof p.cwd === 'string') cwd ??= p.cwd;
    if (r.type === 'response_item' && p.type === 'message' && p.role === 'user') {
      const text = contentText(p.content);
      if (isRealPrompt(text)) return { prompt: flatPrompt(text), cwd };
    }
  }
  return { prompt: '', cwd };
}

/** The tools whose results hold what Codex read: every name it has given its shell tool (`shell`, `shell_command`
 * in 0.77–0.80, `exec_command`, `local_shell`) and its file tools. */
const READING_TOOLS = [
  'shell',
  'shell_command',
  'exec_command',
  'local_shell',
  'read_file',
  'list_dir',
  'grep_files',
];

export const codex: FormatAdapter<'codex'> = {
  id: 'codex',
  shape: 'jsonl',
  expected:
    'Codex CLI rollout: JSONL records {timestamp, type: "session_meta"|"response_item"|"event_msg"|"turn_context"|"compacted", payload}',
  detect,
  parse,
  nestedBlock: openaiNested('input_text'),
  wire: 'openai',
  tools: {
    floorTools: [...READING_TOOLS, 'view_image'],
    noSummaryTools: [...READING_TOOLS, 'apply_patch', 'update_plan'],
    observationTools: ['view_image'],
  },
  defaultModel: 'gpt-5',
  session: {
    agent: 'Codex',
    // sessions/YYYY/MM/DD/rollout-*.jsonl: the folders are the day, not the project.
    location: { env: 'CODEX_HOME', home: '.codex', logs: 'sessions', depth: 4 },
    head: sessionHead,
    unknownProject: '(unknown project)',
    groupBy: 'day',
    icon: 'terminal',
  },
};
