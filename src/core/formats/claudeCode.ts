// Claude Code session logs (`~/.claude/projects/<project>/<session>.jsonl`): one record per line, forming a
// tree through `uuid`/`parentUuid`. The conversation shown is the active branch; one assistant reply is spread
// over several lines sharing `message.id`; compactions, sub-agents and bookkeeping records stay visible. This file
// is the adapter (detection, the session head, what the agent's tools and logs are); `claudeCode/` reads the
// records, follows the branch, the sub-agents and the reloads.

import { anthropicNested } from './anthropicBlocks';
import { CLAUDE_CODE_TYPES } from './claudeCode/entry';
import { parse } from './claudeCode/parse';
import { isObject, keyList, str } from './json';
import { contentText, flatPrompt, isRealPrompt } from './sessionHead';
import type { FormatAdapter, SessionHeadFacts, Sniff, Verdict } from './types';

/** A Gemini API `Content` ({role, parts}) in place of an Anthropic message: Qwen Code's records, which share Claude
 * Code's envelope (uuid, parentUuid, sessionId, type) but not its messages. */
function isGeminiContent(message: Record<string, unknown>): boolean {
  return Array.isArray(message.parts) && !('content' in message);
}

function detect(sniff: Sniff): Verdict {
  let turns = 0;
  let meta = 0;
  let gemini = 0;
  for (const r of sniff.records) {
    const type = str(r.type);
    if (isObject(r.message) && isGeminiContent(r.message)) gemini++;
    if (
      (type === 'user' || type === 'assistant') &&
      isObject(r.message) &&
      ('uuid' in r || 'sessionId' in r) &&
      !isGeminiContent(r.message)
    )
      turns++;
    else if (
      type &&
      CLAUDE_CODE_TYPES.has(type) &&
      !(isObject(r.message) && isGeminiContent(r.message)) &&
      ('sessionId' in r || 'leafUuid' in r || 'uuid' in r || 'operation' in r || 'snapshot' in r)
    )
      meta++;
  }
  if (turns > 0)
    return {
      ok: true,
      score: 10 + turns,
      reason: `JSONL records of type user/assistant with uuid/parentUuid and a message object: a Claude Code session (${turns} of the first ${sniff.records.length} records)`,
    };
  if (meta > 0 && meta === sniff.records.length)
    return {
      ok: true,
      score: 5,
      reason: `JSONL records of Claude Code's bookkeeping types (summary, system, queue-operation…) and no conversation yet`,
    };
  const first = sniff.records[0];
  if (gemini > 0)
    return {
      ok: false,
      reason: `Claude Code's record envelope, but ${gemini} message(s) are Gemini API Content {role, parts}: a Qwen Code session`,
    };
  return {
    ok: false,
    reason: first
      ? `no record looks like {type: "user"|"assistant", uuid, parentUuid, message} (the first record has keys ${keyList(first)})`
      : 'no line of the file is a JSON object',
  };
}

/** Project, session and first prompt from a log's first records. A sub-agent's file holds only sidechain records;
 * its "prompt" is the task its parent gave it. */
function sessionHead(recs: Record<string, unknown>[]): SessionHeadFacts {
  let cwd: string | undefined;
  let sessionId: string | undefined;
  const subAgent = recs.some((r) => r.type === 'user' || r.type === 'assistant')
    ? recs.filter((r) => r.type === 'user' || r.type === 'assistant').every((r) => r.isSidechain === true)
    : false;
  for (const r of recs) {
    if (typeof r.cwd === 'string') cwd ??= r.cwd;
    if (typeof r.sessionId === 'string') sessionId ??= r.sessionId;
    if (r.type !== 'user' || r.isMeta || (r.isSidechain && !subAgent) || r.isCompactSummary) continue;
    const text = contentText((r.message as { content?: unknown } | undefined)?.content);
    if (isRealPrompt(text)) return { prompt: flatPrompt(text), cwd, sessionId, subAgent };
  }
  return { prompt: '', cwd, sessionId, subAgent };
}

export const claudeCode: FormatAdapter<'claude-code'> = {
  id: 'claude-code',
  shape: 'jsonl',
  expected:
    'Claude Code session: JSONL records {type: "user"|"assistant"|"system"|…, uuid, parentUuid, sessionId, message}',
  detect,
  parse,
  nestedBlock: anthropicNested,
  wire: 'anthropic',
  toolOutputCopy: 'toolUseResult',
  tools: {
    floorTools: [
      'Read',
      'Grep',
      'Glob',
      'LS',
      'WebFetch',
      'NotebookRead',
      'mcp__playwright__*',
      'mcp__browser*',
    ],
    noSummaryTools: [
      'Read',
      'Grep',
      'Glob',
      'LS',
      'TodoWrite',
      'Task',
      'mcp__playwright__*',
      'mcp__browser*',
    ],
    observationTools: [
      'mcp__playwright__browser_snapshot',
      'mcp__playwright__browser_take_screenshot',
      'mcp__puppeteer__puppeteer_screenshot',
      'mcp__computer-use__*',
    ],
  },
  session: {
    agent: 'Claude Code',
    // <project>/<session>.jsonl, and the sub-agents' files: <project>/agent-*.jsonl (older) or
    // <project>/<session>/subagents/agent-*.jsonl. The project folder name is the working directory with "/" as
    // "-"; the records' cwd is exact, the folder's name the fallback.
    location: { env: 'CLAUDE_CONFIG_DIR', home: '.claude', logs: 'projects', depth: 3 },
    head: sessionHead,
    subAgentFiles: { folder: 'subagents', prefix: 'agent-', compactions: 'agent-acompact-' },
    groupBy: 'project',
    icon: 'sparkle',
    minHiddenPrefixTokens: 1000,
  },
};
