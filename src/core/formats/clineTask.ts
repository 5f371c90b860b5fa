// Cline, Roo Code and Kilo Code tasks (`<editor user dir>/globalStorage/<extension id>/tasks/<task id>/`): the three
// share one task folder layout, Roo Code and Kilo Code being forks of Cline. A task is a session; the file opened
// is its `api_conversation_history.json` (the messages as sent), and `ui_messages.json` beside it is read for each
// request's usage, cost, model and truncations (`clineTask/`). Detected by content: a JSON array of Anthropic
// messages carrying the agent's own keys or its way of wrapping the task and tool results.

import { anthropicNested } from './anthropicBlocks';
import { parseClineTask } from './clineTask/parse';
import { UI_MESSAGES } from './clineTask/uiMessages';
import { isObject, str } from './json';
import { brokenNote } from './jsonDoc';
import { headPrompt, jsonStringBody } from './sessionHead';
import type { FormatAdapter, SessionHeadFacts, Sniff, Verdict } from './types';

const AGENT_KEYS = ['modelInfo', 'metrics', 'isSummary', 'condenseId', 'condenseParent', 'truncationParent'];
const TASK_TAG = /^\s*<task>/;
const TEXT_RESULT = /^\[[\w-]+(?: for [^\n]*?)?\] Result:/;

function firstText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const b = content.find((x) => isObject(x) && x.type === 'text');
  return isObject(b) ? (str(b.text) ?? '') : '';
}

function detect(s: Sniff): Verdict {
  const doc = s.document();
  const list = doc.value;
  const no = (reason: string): Verdict => ({ ok: false, reason });
  if (!Array.isArray(list)) return no('not a JSON array of messages (a task history is one)');
  if (
    list.length > 0 &&
    list.every((m) => isObject(m) && typeof m.ts === 'number' && (m.type === 'say' || m.type === 'ask'))
  )
    return no(
      `the chat's rows of a Cline, Roo Code or Kilo Code task (its ${UI_MESSAGES}): open api_conversation_history.json beside it, the messages as sent`,
    );
  if (list.length === 0 || !list.every((m) => isObject(m) && typeof m.role === 'string'))
    return no('not every entry is a message with a role');
  const evidence: string[] = [];
  const first = list[0] as Record<string, unknown>;
  if (first.role === 'user' && TASK_TAG.test(firstText(first.content)))
    evidence.push('the first message opens with <task>');
  const timed = list.filter((m) => typeof (m as Record<string, unknown>).ts === 'number').length;
  const keys = AGENT_KEYS.filter((k) => list.some((m) => k in (m as Record<string, unknown>)));
  if (keys.length) evidence.push(`messages carry ${keys.join(', ')}`);
  const textResults = list.some(
    (m) =>
      Array.isArray((m as Record<string, unknown>).content) &&
      ((m as Record<string, unknown>).content as unknown[]).some(
        (b) => isObject(b) && b.type === 'text' && TEXT_RESULT.test(str(b.text) ?? ''),
      ),
  );
  if (textResults) evidence.push('tool results as "[tool] Result:" text');
  if (s.beside?.(UI_MESSAGES)) evidence.push(`${UI_MESSAGES} beside it`);
  if (evidence.length === 0 || timed === 0)
    return no(
      'no message carries the agent\'s "ts" with <task>, modelInfo, metrics or "[tool] Result:" text (a Cline, Roo Code or Kilo Code task history)',
    );
  const blocks = list.reduce(
    (n: number, m) =>
      n +
      (Array.isArray((m as Record<string, unknown>).content)
        ? ((m as Record<string, unknown>).content as unknown[]).length
        : 1),
    0,
  );
  return {
    ok: true,
    // Above what a bare array of Anthropic messages scores on the same file (3 per block at most).
    score: 10 + 3 * blocks + evidence.length,
    reason: `a JSON array of Anthropic messages with the agent's "ts" on ${timed} of ${list.length}, ${evidence.join(', ')}: a Cline, Roo Code or Kilo Code task history${brokenNote(doc)}`,
  };
}

/** The task's first prompt (inside <task>…</task>) and the working directory its environment details name, from
 * the file's first bytes (a task history is one line of JSON: its head is read as text, not as records). */
export function taskHead(text: string): SessionHeadFacts {
  const task = /<task>([\s\S]*?)<\/task>/.exec(text);
  // The text between the tags is the body of a JSON string (escapes and all) in the file.
  const prompt = task ? jsonStringBody(task[1]) : '';
  const facts: SessionHeadFacts = { prompt: headPrompt(prompt) };
  const cwd = /# Current (?:Working|Workspace) Directory \(([^)\n]{1,500})\) Files/.exec(text);
  if (cwd) facts.cwd = cwd[1].replace(/\\\\/g, '\\');
  return facts;
}

export const clineTask: FormatAdapter<'cline-task'> = {
  id: 'cline-task',
  shape: 'json',
  expected:
    'Cline, Roo Code or Kilo Code task: api_conversation_history.json, a JSON array [{role, content, ts}] beside ui_messages.json',
  detect,
  parse: parseClineTask,
  nestedBlock: anthropicNested,
  wire: 'anthropic',
  tools: {
    floorTools: [
      'read_file',
      'search_files',
      'list_files',
      'list_code_definition_names',
      'web_fetch',
      'browser_action',
    ],
    noSummaryTools: [
      'read_file',
      'search_files',
      'list_files',
      'list_code_definition_names',
      'update_todo_list',
    ],
    observationTools: ['browser_action'],
  },
  defaultModel: 'claude-sonnet-4',
  session: {
    agent: 'Cline, Roo Code, Kilo Code',
    location: {
      // Cline's own data folder (its CLI's, and since 4.x its extension's for tasks made before its SDK), beside
      // the editors' storage (cline/cline `apps/vscode/src/sdk/legacy-state-reader.ts`).
      env: 'CLINE_DATA_DIR',
      home: '.cline/data',
      homeAgent: 'Cline',
      logs: 'tasks',
      depth: 1,
      fileName: 'api_conversation_history.json',
      editorExtensions: [
        { id: 'saoudrizwan.claude-dev', agent: 'Cline' },
        { id: 'rooveterinaryinc.roo-cline', agent: 'Roo Code' },
        { id: 'kilocode.kilo-code', agent: 'Kilo Code' },
      ],
    },
    head: () => ({ prompt: '' }),
    headText: taskHead,
    unknownProject: '(unknown project)',
    groupBy: 'project',
    icon: 'robot',
    minHiddenPrefixTokens: 1000,
  },
};
