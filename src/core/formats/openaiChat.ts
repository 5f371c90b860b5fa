// OpenAI Chat Completions request bodies: `{messages}` or a bare array; `role:"tool"` messages answer calls.
import type { JSONPath } from 'jsonc-parser';
import { pushAll } from '../arrays';
import type { Block, Message, Role, Transcript } from '../model';
import { isObject, str } from './json';
import { brokenNote, docLocation, documentParts } from './jsonDoc';
import { openaiNested, openaiParts, type PartPlace, toolCall } from './openaiParts';
import {
  everyMessageHasRole,
  MESSAGE_WITHOUT_ROLE,
  messagesOf,
  NO_MESSAGES,
  requestTranscript,
  warnNotAnObject,
} from './requestBody';
import { joinRanges } from './text';
import type { FormatAdapter, Sniff, Verdict } from './types';

function detect(s: Sniff): Verdict {
  const doc = s.document();
  const found = messagesOf(doc.value);
  if (!found) return NO_MESSAGES;
  if (!everyMessageHasRole(found.list)) return MESSAGE_WITHOUT_ROLE;
  const evidence = new Set<string>();
  let score = 1;
  const top = isObject(doc.value) ? doc.value : {};
  if (Array.isArray(top.tools) && top.tools.some((t) => isObject(t) && isObject(t.function))) {
    evidence.add('tools of type "function"');
    score += 3;
  }
  for (const m of found.list as Record<string, unknown>[]) {
    const role = str(m.role);
    if (role === 'tool' || role === 'system' || role === 'developer' || role === 'function')
      evidence.add(`role "${role}"`);
    if (Array.isArray(m.tool_calls)) evidence.add('tool_calls');
    if (Array.isArray(m.content) && m.content.some((p) => isObject(p) && p.type === 'image_url'))
      evidence.add('image_url parts');
    if (
      Array.isArray(m.content) &&
      m.content.some((p) => isObject(p) && (p.type === 'tool_use' || p.type === 'tool_result'))
    )
      return { ok: false, reason: 'the messages hold Anthropic tool_use/tool_result blocks' };
  }
  score += 3 * evidence.size;
  if (evidence.size === 0 && score === 1)
    return {
      ok: true,
      score: 0,
      reason: `plain role/content messages: OpenAI Chat also fits${brokenNote(doc)}`,
    };
  return {
    ok: true,
    score,
    reason: `a JSON request body with "messages" and ${[...evidence].join(', ')}: OpenAI Chat Completions${brokenNote(doc)}`,
  };
}

function parse(s: Sniff, reason: string): Transcript {
  const { doc, pos, diags } = documentParts(s);
  const found = messagesOf(doc.value) ?? { list: [], path: ['messages'] };
  const place: PartPlace = { at: (p, v) => docLocation(s.bytes, p, v), source: (p) => pos.rangeAt(p) };
  const messages: Message[] = [];
  let toolMessage: Message | undefined;
  found.list.forEach((m, k) => {
    const path: JSONPath = [...found.path, k];
    const source = pos.rangeAt(path);
    if (!isObject(m)) {
      warnNotAnObject(diags, source);
      return;
    }
    const role = str(m.role) ?? '';
    if (role === 'tool' || role === 'function') {
      const contentPath = [...path, 'content'];
      const content =
        typeof m.content === 'string'
          ? m.content
          : Array.isArray(m.content)
            ? openaiParts(m.content, contentPath, place, diags)
            : '';
      const block: Block = {
        type: 'tool_result',
        toolUseId: str(m.tool_call_id) ?? str(m.name) ?? '',
        content,
        isError: false,
        source,
        location: docLocation(s.bytes, path, contentPath),
      };
      // Consecutive tool replies to one assistant turn are one tool-result message (SPEC §1).
      if (toolMessage && messages[messages.length - 1] === toolMessage) {
        toolMessage.blocks.push(block);
        toolMessage.source = joinRanges(toolMessage.source ?? source, source);
      } else {
        toolMessage = { index: messages.length, role: 'user', blocks: [block], source };
        messages.push(toolMessage);
      }
      return;
    }
    let mapped: Role = 'user';
    if (role === 'system' || role === 'developer') mapped = 'system';
    else if (role === 'assistant') mapped = 'assistant';
    else if (role !== 'user')
      diags.add(
        'warning',
        'unknown-role',
        `role "${role}" is not one of system/developer/user/assistant/tool: shown as user`,
        source.line,
        source.column,
      );
    const blocks: Block[] = [];
    if (typeof m.reasoning_content === 'string') {
      const p = [...path, 'reasoning_content'];
      blocks.push({
        type: 'thinking',
        text: m.reasoning_content,
        redacted: false,
        source: pos.rangeAt(p),
        location: place.at(p),
      });
    }
    pushAll(blocks, openaiParts(m.content, [...path, 'content'], place, diags));
    if (typeof m.refusal === 'string') {
      const p = [...path, 'refusal'];
      blocks.push({ type: 'text', text: m.refusal, source: pos.rangeAt(p), location: place.at(p) });
    }
    if (Array.isArray(m.tool_calls)) {
      m.tool_calls.forEach((c, i) => {
        const callPath = [...path, 'tool_calls', i];
        const fn = isObject(c) && isObject(c.function) ? c.function : {};
        const id = isObject(c) ? (str(c.id) ?? '') : '';
        blocks.push(
          toolCall(
            id,
            str(fn.name) ?? '',
            fn.arguments,
            [...callPath, 'function', 'arguments'],
            callPath,
            place,
            diags,
          ),
        );
      });
    }
    const msg: Message = { index: messages.length, role: mapped, blocks, source };
    if (role === 'developer') msg.flags = ['developer'];
    messages.push(msg);
  });
  return requestTranscript('openai-chat', reason, s, { messages, diags, positions: pos });
}

export const openaiChat: FormatAdapter<'openai-chat'> = {
  id: 'openai-chat',
  shape: 'json',
  expected:
    'OpenAI Chat Completions request: a JSON object {messages: [{role, content, tool_calls}], tools} or an array of messages',
  detect,
  parse,
  nestedBlock: openaiNested('text'),
  wire: 'openai',
  tools: { floorTools: [], noSummaryTools: [], observationTools: [] },
  defaultModel: 'gpt-4o',
};
