// Anthropic Messages API request bodies: `{system, tools, messages}` or a bare array of messages.
import type { Marker, Message, Role, Transcript } from '../model';
import { anthropicContent, anthropicNested } from './anthropicBlocks';
import { isObject, str } from './json';
import { brokenNote, documentParts } from './jsonDoc';
import {
  everyMessageHasRole,
  MESSAGE_WITHOUT_ROLE,
  messagesOf,
  NO_MESSAGES,
  requestTranscript,
  warnNotAnObject,
} from './requestBody';
import type { FormatAdapter, Sniff, Verdict } from './types';

const ANTHROPIC_BLOCKS = new Set([
  'tool_use',
  'tool_result',
  'thinking',
  'redacted_thinking',
  'document',
  'server_tool_use',
]);

function detect(s: Sniff): Verdict {
  const doc = s.document();
  const found = messagesOf(doc.value);
  if (!found) return NO_MESSAGES;
  const top = isObject(doc.value) ? doc.value : {};
  const evidence: string[] = [];
  let score = 1;
  let against = 0;
  if ('system' in top) {
    score += 2;
    evidence.push('a top-level "system"');
  }
  if (
    Array.isArray(top.tools) &&
    top.tools.some((t) => isObject(t) && ('input_schema' in t || str(t.type)?.includes('_2')))
  ) {
    score += 3;
    evidence.push('Anthropic tool definitions (input_schema or a versioned built-in type)');
  }
  for (const m of found.list) {
    if (!isObject(m)) continue;
    const role = str(m.role);
    if (role === 'tool' || role === 'function' || role === 'developer' || 'tool_calls' in m) against++;
    if (Array.isArray(m.content))
      for (const b of m.content) {
        const t = isObject(b) ? str(b.type) : undefined;
        if (t && ANTHROPIC_BLOCKS.has(t)) {
          if (!evidence.includes(`${t} blocks`)) evidence.push(`${t} blocks`);
          score += 3;
        }
        if (t === 'image_url' || t === 'input_text') against++;
      }
  }
  if (against > 0 && evidence.length === 0)
    return { ok: false, reason: 'the messages use OpenAI shapes (role "tool", tool_calls, image_url parts)' };
  if (!everyMessageHasRole(found.list)) return MESSAGE_WITHOUT_ROLE;
  const why = evidence.length
    ? evidence.join(', ')
    : 'plain role/content messages (no format-specific field)';
  return {
    ok: true,
    score: score - against,
    reason: `a JSON request body with "messages" and ${why}: Anthropic Messages${brokenNote(doc)}`,
  };
}

const isCompaction = (b: unknown) => isObject(b) && b.type === 'compaction';

/** What a reply holding a compaction block sends in the requests after it (the API drops every block before the
 * compaction, and the reply itself starts with it): its summary and the rest of the reply. Its own message is
 * left out of those requests (the compaction marker after it starts their segment), so it is counted here. */
function replyText(content: unknown[]): string {
  const texts: string[] = [];
  let last = content.length - 1;
  while (last > 0 && !isCompaction(content[last])) last--;
  for (const b of content.slice(last)) {
    if (!isObject(b)) continue;
    if (b.type === 'compaction' || b.type === 'text') texts.push(str(b.content) ?? str(b.text) ?? '');
    else if (b.type === 'thinking') texts.push(str(b.thinking) ?? '');
    else if (b.type === 'tool_use') texts.push(str(b.name) ?? '', JSON.stringify(b.input ?? {}));
  }
  return texts.filter(Boolean).join('\n\n');
}

function parse(s: Sniff, reason: string): Transcript {
  const { doc, pos, diags } = documentParts(s);
  const found = messagesOf(doc.value) ?? { list: [], path: ['messages'] };
  const messages: Message[] = [];
  const markers: Marker[] = [];
  found.list.forEach((m, k) => {
    const path = [...found.path, k];
    const source = pos.rangeAt(path);
    if (!isObject(m)) {
      warnNotAnObject(diags, source);
      return;
    }
    let role: Role = 'user';
    const r = str(m.role);
    if (r === 'user' || r === 'assistant' || r === 'system') role = r;
    else
      diags.add(
        'warning',
        'unknown-role',
        `role "${r}" is not user/assistant: shown as user`,
        source.line,
        source.column,
      );
    const contentPath = [...path, 'content'];
    const blocks = anthropicContent(
      m.content,
      { recordStart: 0, recordEnd: s.bytes.length, recordLine: 1, path: contentPath },
      (i) => pos.rangeAt(i === null ? contentPath : [...contentPath, i]),
      diags,
    );
    messages.push({ index: messages.length, role, blocks, source });
    if (role === 'assistant' && Array.isArray(m.content) && m.content.some(isCompaction))
      markers.push({
        kind: 'compaction',
        label: 'compaction block',
        beforeMessage: messages.length,
        source,
        text: 'the reply before holds a compaction block: the API drops what came before it from the later requests',
        summary: replyText(m.content),
      });
  });
  const top = isObject(doc.value) ? doc.value : {};
  let system: string | undefined;
  if (typeof top.system === 'string') system = top.system;
  else if (Array.isArray(top.system))
    system = top.system.map((b) => (isObject(b) && typeof b.text === 'string' ? b.text : '')).join('\n');
  return requestTranscript('anthropic-messages', reason, s, {
    messages,
    markers,
    diags,
    positions: pos,
    system,
  });
}

export const anthropicMessages: FormatAdapter<'anthropic-messages'> = {
  id: 'anthropic-messages',
  shape: 'json',
  expected:
    'Anthropic Messages request: a JSON object {system, tools, messages: [{role, content}]} or an array of messages',
  detect,
  parse,
  nestedBlock: anthropicNested,
  wire: 'anthropic',
  tools: {
    floorTools: ['str_replace_based_edit_tool', 'str_replace_editor', 'web_fetch'],
    noSummaryTools: ['str_replace_based_edit_tool', 'str_replace_editor'],
    observationTools: [],
  },
};
